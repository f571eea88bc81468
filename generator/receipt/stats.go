package receipt

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/perfpages/perfpages/analysis/budget"
)

// errNoSamples is returned by [ComputeStats] when every sample is a
// warm-up.
var errNoSamples = errors.New("no measured samples to summarize")

// ComputeStats summarizes the measured samples as perfgate does
// (its compute_stats): warm-ups are excluded, a metric is summarized
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
		return Stats{}, errNoSamples
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

// verifyStats makes sure the receipt's statistics are those of its
// measured samples. It computes them (ComputeStats) and compares them
// with the stats block: medians, minima and maxima must be equal (within
// a relative 1e-9 for throughput, a real number), means and standard
// deviations too where the block gives them (perfgate's early receipts
// leave them out: that is no disagreement), and every metric the samples
// have must be summarized, and no other. A block that agrees is kept as
// written, so that a check of honest receipts gives exactly perfgate's
// numbers; one that disagrees is replaced by the samples' statistics, and
// verifyStats returns how it differed, one entry per metric ("wall_ms
// median 5 vs 120 from the samples"). A receipt without measured samples
// keeps its stats block: it is all there is.
func (r *Run) verifyStats() []string {
	st, err := ComputeStats(r.Samples, r.Bench.WorkUnits)
	if err != nil {
		return nil
	}
	var differ []string
	for _, m := range Metrics {
		if d := diffSummary(m.Name, summaryOf(&r.Stats, m.Name), summaryOf(&st, m.Name)); d != "" {
			differ = append(differ, d)
		}
	}
	if len(differ) > 0 {
		r.Stats = st
	}
	return differ
}

// summary is one metric's summary as floats, nil when the run lacks it.
type summary struct {
	median, min, max float64
	mean, stddev     *float64
	integer          bool // median, min and max are integers: compared exactly
}

func summaryOf(st *Stats, metric string) *summary {
	var u *U64Summary
	switch metric {
	case "wall_ms":
		u = &st.WallMs
	case "throughput_per_s":
		if t := st.ThroughputPerS; t != nil {
			return &summary{t.Median, t.Min, t.Max, t.Mean, t.Stddev, false}
		}
		return nil
	default:
		u = *st.u64Field(metric)
	}
	if u == nil {
		return nil
	}
	return &summary{float64(u.Median), float64(u.Min), float64(u.Max), u.Mean, u.Stddev, true}
}

// diffSummary describes how the receipt's summary of a metric differs
// from the samples', or "".
func diffSummary(metric string, got, want *summary) string {
	switch {
	case got == nil && want == nil:
		return ""
	case want == nil:
		return metric + " summarized, but no sample has it"
	case got == nil:
		return metric + " measured, but not summarized"
	}
	for _, f := range []struct {
		name      string
		got, want *float64
		exact     bool
	}{
		{"median", &got.median, &want.median, got.integer}, {"min", &got.min, &want.min, got.integer}, {"max", &got.max, &want.max, got.integer},
		{"mean", got.mean, want.mean, false}, {"stddev", got.stddev, want.stddev, false},
	} {
		switch {
		case f.got == nil && (f.name == "mean" || f.name == "stddev"):
			// Left out: no claim to check.
		case f.got == nil || f.want == nil:
			return fmt.Sprintf("%s %s %s vs %s from the samples", metric, f.name, formatStat(f.got), formatStat(f.want))
		case f.exact && *f.got != *f.want, !closeEnough(*f.got, *f.want):
			return fmt.Sprintf("%s %s %s vs %s from the samples", metric, f.name, formatStat(f.got), formatStat(f.want))
		}
	}
	return ""
}

// closeEnough compares two real-valued statistics within a relative 1e-9.
func closeEnough(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b))
}

func formatStat(v *float64) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
