package changepoint

import "testing"

func BenchmarkArranged(b *testing.B) {
	w := synthetic(2, 60)[1]
	var p profile
	p.prepare(w)
	for b.Loop() {
		p.arranged(3)
	}
}
func BenchmarkPrepare(b *testing.B) {
	w := synthetic(2, 60)[1]
	var p profile
	for b.Loop() {
		p.prepare(w)
	}
}
func BenchmarkGate(b *testing.B) {
	w := synthetic(2, 60)[1]
	d := newDetector(Series{Values: w}, DefaultOptions)
	for b.Loop() {
		d.mayStep(w)
		d.largeEnough(w, 57)
	}
}
