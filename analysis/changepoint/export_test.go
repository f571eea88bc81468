package changepoint

// DetectGlobal is detectGlobal (MongoDB's E-divisive over the whole
// history) for the reference comparison of reference_test.go, which runs
// in package changepoint_test so that it may import generator/planted.
var DetectGlobal = detectGlobal
