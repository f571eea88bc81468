package perfgate

import (
	"errors"

	"github.com/perfpages/perfpages/analysis/budget"
)

// ErrNoSamples is returned by [ComputeStats] when every sample is a
// warm-up.
var ErrNoSamples = errors.New("no measured samples to summarize")

// ComputeStats summarizes the measured samples as perfgate does
// (reference/stats.md C.2): warm-ups are excluded, a metric is summarized
// when at least one sample has it, integer medians floor the average of
// the two middle values, mean and standard deviation (n−1) come from
// Welford's algorithm and are omitted when not finite, and throughput is
// summarized per sample when work units are given.
func ComputeStats(samples []Sample, workUnits *uint64) (Stats, error) {
	var measured []*Sample
	for i := range samples {
		if !samples[i].Warmup {
			measured = append(measured, &samples[i])
		}
	}
	if len(measured) == 0 {
		return Stats{}, ErrNoSamples
	}
	var st Stats
	for _, m := range Metrics {
		if m.Name == "throughput_per_s" {
			continue
		}
		var xs []uint64
		for _, s := range measured {
			if v := s.u64(m.Name); v != nil {
				xs = append(xs, *v)
			}
		}
		sum, ok := budget.SummarizeU64(xs)
		if !ok {
			continue
		}
		out := sum
		if m.Name == "wall_ms" {
			st.WallMs = out
		} else {
			*st.u64Field(m.Name) = &out
		}
	}
	if workUnits != nil {
		xs := make([]float64, len(measured))
		for i, s := range measured {
			xs[i] = Throughput(*workUnits, s.WallMs)
		}
		sum, _ := budget.SummarizeF64(xs)
		st.ThroughputPerS = &sum
	}
	return st, nil
}
