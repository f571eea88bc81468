package mannwhitney_test

import (
	"fmt"

	"github.com/perfpages/perfpages/analysis/mannwhitney"
)

// The samples of benchstat's own documentation (Encode/format=json, in ns),
// printed as benchstat prints the row:
//
//	Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
func ExampleCompare() {
	before := []float64{1726, 1723, 1707, 1707, 1713, 1729, 1736, 1707, 1705, 1774}
	after := []float64{1423, 1416, 1411, 1413, 1412, 1426, 1422, 1424, 1447, 1425}
	r := mannwhitney.Compare(before, after, mannwhitney.DefaultOptions)
	fmt.Printf("%.0fns ± %s  %.1fns ± %s  %s (%s)\n",
		r.Base.Center, r.Base.RangeString(), r.Head.Center, r.Head.RangeString(),
		r.DeltaString(), r.TestString())
	fmt.Printf("significant: %v, change %.4f\n", r.Significant, r.Change)
	// Output:
	// 1718ns ± 1%  1422.5ns ± 1%  -17.20% (p=0.000 n=10)
	// significant: true, change -0.1720
}

// Too few samples: benchstat prints "~" and a footnote; Reason carries it.
func ExampleCompare_tooFewSamples() {
	r := mannwhitney.Compare([]float64{100, 101, 102}, []float64{110, 111, 112}, mannwhitney.DefaultOptions)
	fmt.Println(r.DeltaString(), r.TestString())
	fmt.Println(r.Reason)
	// Output:
	// ~ p=0.100 n=3
	// need >= 4 samples to detect a difference at alpha level 0.05
}
