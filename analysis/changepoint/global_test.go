package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
)

// detectGlobal is E-divisive means over the whole history, as MongoDB's
// signal-processing-algorithms runs it (e_divisive/e_divisive.py,
// EDivisive._compute_change_points, with
// QHatPermutationsSignificanceTester at its defaults, p ≤ 0.05 with 100
// permutations): bisect the series at the largest Q̂ of any stretch
// between the change points found so far, as long as a permutation test
// (shuffle every stretch, take the largest Q̂ of any) finds the largest
// significant. It is here only to be measured against the windowed,
// sequential test Detect runs (realhistory_test.go, BenchmarkDetect):
// appending a value changes every stretch's Q̂, so it has no incremental
// path, and each test costs permutations × the whole history. The steps go
// through the same filters as Potts' (mergeShort, report).
func detectGlobal(s Series, o Options, alpha float64, perms int) []Step {
	o = o.normalized()
	d := newDetector(s, o)
	x := d.x
	var p profile
	var cps []int
	rng := rand.NewPCG(s.Seed, 0x5eed)
	candidate := func(y []float64) (int, float64) {
		if len(y) < 4 {
			return -1, math.Inf(-1)
		}
		t, q, _ := p.best(y, 2)
		return t, q
	}
	for {
		bounds := append(append([]int{0}, cps...), len(x))
		bestT, bestQ := -1, math.Inf(-1)
		for k := 1; k < len(bounds); k++ {
			if t, q := candidate(x[bounds[k-1]:bounds[k]]); t >= 0 && q > bestQ {
				bestT, bestQ = bounds[k-1]+t, q
			}
		}
		if bestT < 0 {
			break
		}
		count := 0
		buf := make([]float64, 0, len(x))
		for range perms {
			maxQ := math.Inf(-1)
			for k := 1; k < len(bounds); k++ {
				buf = append(buf[:0], x[bounds[k-1]:bounds[k]]...)
				for i := len(buf) - 1; i > 0; i-- {
					j := int(rng.Uint64() % uint64(i+1))
					buf[i], buf[j] = buf[j], buf[i]
				}
				if _, q := candidate(buf); q > maxQ {
					maxQ = q
				}
			}
			if maxQ >= bestQ {
				count++
			}
		}
		if float64(count)/float64(perms+1) > alpha {
			break
		}
		cps = append(cps, bestT)
		slices.Sort(cps)
	}
	var bs []boundary
	for _, c := range mergeShort(x, append(cps, len(x)), o.MinSegment)[1:] {
		bs = append(bs, boundary{pos: c, p: math.NaN()})
	}
	return report(x, d.idx, d.brk, bs, o)
}
