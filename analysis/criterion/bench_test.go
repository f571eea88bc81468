package criterion

import (
	"math/rand/v2"
	"testing"
)

// benchSamples are two runs of 100 linear-sampling samples, the second 2 %
// slower, with Gaussian noise: Criterion's default sample size.
func benchSamples() (cur, base Sample) {
	rng := rand.New(rand.NewPCG(7, 11))
	mk := func(perIter float64) Sample {
		var s Sample
		for i := range 100 {
			it := float64(1000 * (i + 1))
			s.Iters = append(s.Iters, it)
			s.Times = append(s.Times, it*perIter*(1+0.02*rng.NormFloat64()))
		}
		return s
	}
	base = mk(100)
	cur = mk(102)
	return cur, base
}

func BenchmarkCompare(b *testing.B) {
	cur, base := benchSamples()
	for _, bm := range []struct {
		name        string
		verdictOnly bool
	}{{"with-median", false}, {"verdict-only", true}} {
		b.Run(bm.name, func(b *testing.B) {
			o := DefaultOptions
			o.VerdictOnly = bm.verdictOnly
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compare(cur, base, 1, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyze(b *testing.B) {
	cur, _ := benchSamples()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(cur, 1, DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareOneWorker is Compare as a site that runs comparisons in
// parallel would call it.
func BenchmarkCompareOneWorker(b *testing.B) {
	cur, base := benchSamples()
	for _, bm := range []struct {
		name        string
		verdictOnly bool
	}{{"with-median", false}, {"verdict-only", true}} {
		b.Run(bm.name, func(b *testing.B) {
			o := DefaultOptions
			o.VerdictOnly = bm.verdictOnly
			o.Workers = 1
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compare(cur, base, 1, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyzeOneWorker(b *testing.B) {
	cur, _ := benchSamples()
	o := DefaultOptions
	o.Workers = 1
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(cur, 1, o); err != nil {
			b.Fatal(err)
		}
	}
}
