package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// synthetic returns n series of length points shaped like the M dataset's
// (generator/demo's noise model): half of them precise like instruction
// counts (σ = 0.01 %), half noisy like wall times (σ = 1 %, with a 2 %
// chance of a sample 5–15 % slow), each with a 3 % step at a random place
// in one series of four.
func synthetic(n, points int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		r := rand.New(rand.NewPCG(uint64(i), 7))
		sigma := 0.0001
		if i%2 == 1 {
			sigma = 0.01
		}
		step := -1
		if i%4 < 2 {
			step = points/4 + r.IntN(points/2)
		}
		y := make([]float64, points)
		for j := range y {
			level := 1000.0
			if step >= 0 && j >= step {
				level *= 1.03
			}
			v := level * (1 + sigma*r.NormFloat64())
			if sigma > 0.001 && r.Float64() < 0.02 {
				v *= 1.05 + 0.1*r.ExpFloat64()
			}
			y[j] = math.Round(v*100) / 100
		}
		out[i] = y
	}
	return out
}

// BenchmarkDetect measures the cost of step detection at size M (2,000
// series of 1,000 main-line commits) on one core: "cold" finds every
// series' steps from scratch, "append" adds the 1,000th commit to states
// saved after 999, the nightly case. cpu-ns/series is the CPU time per
// series (steadier than the wall time on a shared machine); divide the
// cold figure by the cores for the wall time of a build.
func BenchmarkDetect(b *testing.B) {
	const series, points = 2000, 1000
	data := synthetic(series, points)
	for _, m := range []Method{EDivisive, Potts} {
		o := DefaultOptions
		o.Method = m
		b.Run(string(m)+"/cold", func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				for i, y := range data {
					Detect(Series{Values: y, Seed: uint64(i)}, o, nil)
				}
			}
			perSeries(b, cpu, series)
		})
	}
	// E-divisive over the whole history, as MongoDB runs it (global_test.go),
	// on a tenth of the series: it costs too much for all of them.
	b.Run("e-divisive-whole-history/cold", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			for i, y := range data[:series/10] {
				detectGlobal(Series{Values: y, Seed: uint64(i)}, DefaultOptions, 0.05, 100)
			}
		}
		perSeries(b, cpu, series/10)
	})
	o := DefaultOptions
	states := make([]*State, series)
	for i, y := range data {
		_, states[i] = Detect(Series{Values: y[:points-1], Seed: uint64(i)}, o, nil)
	}
	b.Run("e-divisive/append", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			for i, y := range data {
				Detect(Series{Values: y, Seed: uint64(i)}, o, states[i])
			}
		}
		perSeries(b, cpu, series)
	})
}

// perSeries adds the wall and CPU time per series.
func perSeries(b *testing.B, cpu int64, series int) {
	n := float64(b.N * series)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/series")
	b.ReportMetric(float64(cpuTime()-cpu)/n, "cpu-ns/series")
}
