package receipt

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func u64p(v uint64) *uint64   { return &v }
func f64p(v float64) *float64 { return &v }
func strp(v string) *string   { return &v }
func u32p(v uint32) *uint32   { return &v }

var approx = cmpopts.EquateApprox(0, 1e-9)

// TestComputeStats pins perfgate's compute_stats rules: warm-ups excluded,
// the u64 median floors, Welford mean/stddev (n−1), a metric summarized
// only over the samples that have it, throughput per sample (0 for a 0 ms
// sample).
func TestComputeStats(t *testing.T) {
	samples := []Sample{
		{WallMs: 5000, Warmup: true, MaxRSSKB: u64p(99999), CPUMs: u64p(999)},
		{WallMs: 100, MaxRSSKB: u64p(1024), CPUMs: u64p(5)},
		{WallMs: 102, MaxRSSKB: u64p(1028)},
		{WallMs: 98, MaxRSSKB: u64p(1020), CPUMs: u64p(8)},
		{WallMs: 101, MaxRSSKB: u64p(1026)},
		{WallMs: 99, MaxRSSKB: u64p(1022)},
	}
	got, err := ComputeStats(samples, u64p(1000))
	if err != nil {
		t.Fatal(err)
	}
	thr := []float64{10000, 1000 / 0.102, 1000 / 0.098, 1000 / 0.101, 1000 / 0.099}
	var thrMean float64
	for _, x := range thr {
		thrMean += x / 5
	}
	var ss float64
	for _, x := range thr {
		ss += (x - thrMean) * (x - thrMean)
	}
	want := Stats{
		WallMs:         U64Summary{Median: 100, Min: 98, Max: 102, Mean: f64p(100), Stddev: f64p(math.Sqrt(2.5))},
		MaxRSSKB:       &U64Summary{Median: 1024, Min: 1020, Max: 1028, Mean: f64p(1024), Stddev: f64p(math.Sqrt(10))},
		CPUMs:          &U64Summary{Median: 6, Min: 5, Max: 8, Mean: f64p(6.5), Stddev: f64p(math.Sqrt(4.5))},
		ThroughputPerS: &F64Summary{Median: 10000, Min: 1000 / 0.102, Max: 1000 / 0.098, Mean: f64p(thrMean), Stddev: f64p(math.Sqrt(ss / 4))},
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("ComputeStats (-want +got):\n%s", diff)
	}

	// Adding or changing warm-ups does not change the statistics.
	more := append([]Sample{{WallMs: 1, Warmup: true}, {WallMs: 7777, Warmup: true}}, samples...)
	again, _ := ComputeStats(more, u64p(1000))
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("warm-ups changed the stats:\n%s", diff)
	}
}

func TestComputeStatsEdges(t *testing.T) {
	if _, err := ComputeStats([]Sample{{WallMs: 3, Warmup: true}}, nil); !errors.Is(err, errNoSamples) {
		t.Errorf("only warm-ups: err = %v", err)
	}
	st, err := ComputeStats([]Sample{{WallMs: 0}, {WallMs: 10}}, u64p(5))
	if err != nil {
		t.Fatal(err)
	}
	// A 0 ms sample has throughput 0, not infinity; [0, 10] has median 5.
	if st.WallMs.Median != 5 || st.ThroughputPerS.Min != 0 || st.ThroughputPerS.Max != 500 {
		t.Errorf("stats = %+v, throughput %+v", st.WallMs, *st.ThroughputPerS)
	}
	if st.MaxRSSKB != nil || st.CPUMs != nil {
		t.Error("absent metrics summarized")
	}
	// One sample: stddev 0, present.
	one, _ := ComputeStats([]Sample{{WallMs: 42}}, nil)
	if one.WallMs.Stddev == nil || *one.WallMs.Stddev != 0 || one.ThroughputPerS != nil {
		t.Errorf("one sample: %+v", one)
	}
}

func TestStatsAccessors(t *testing.T) {
	r := &Run{
		Bench: Bench{WorkUnits: u64p(100)},
		Samples: []Sample{
			{WallMs: 9999, Warmup: true, MaxRSSKB: u64p(1)},
			{WallMs: 100, MaxRSSKB: u64p(10)},
			{WallMs: 200},
		},
	}
	r.Stats, _ = ComputeStats(r.Samples, r.Bench.WorkUnits)
	tests := []struct {
		metric string
		series []float64
		median float64
		ok     bool
	}{
		{"wall_ms", []float64{100, 200}, 150, true},
		{"max_rss_kb", []float64{10}, 10, true},
		{"throughput_per_s", []float64{1000, 500}, 750, true},
		{"cpu_ms", nil, 0, false},
		{"bogus", nil, 0, false},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.series, r.Series(tt.metric)); diff != "" {
			t.Errorf("Series(%s) (-want +got):\n%s", tt.metric, diff)
		}
		if m, ok := r.Stats.Median(tt.metric); ok != tt.ok || m != tt.median {
			t.Errorf("Median(%s) = %v, %v; want %v, %v", tt.metric, m, ok, tt.median, tt.ok)
		}
	}
	if cv := r.Stats.CV("wall_ms"); cv == nil || math.Abs(*cv-math.Sqrt(5000)/150) > 1e-12 {
		t.Errorf("CV(wall_ms) = %v", cv)
	}
	if cv := r.Stats.CV("cpu_ms"); cv != nil {
		t.Errorf("CV of an absent metric = %v", *cv)
	}
	r.Bench.WorkUnits = nil
	if s := r.Series("throughput_per_s"); s != nil {
		t.Errorf("throughput series without work units: %v", s)
	}
}

// baselineRun is a run receipt of five samples of wall time and RSS,
// summarized without mean and stddev, as perfgate's CLI fixtures are
// written.
func baselineRun() *Run {
	wall, rss := []uint64{100, 102, 98, 101, 99}, []uint64{1024, 1028, 1020, 1026, 1022}
	r := &Run{Schema: RunSchema, Bench: Bench{Name: "fixture-bench", Command: []string{"echo", "hello"}, Repeat: 5}}
	for i := range wall {
		r.Samples = append(r.Samples, Sample{WallMs: wall[i], MaxRSSKB: u64p(rss[i])})
	}
	r.Stats, _ = ComputeStats(r.Samples, nil)
	r.Stats.WallMs.Mean, r.Stats.WallMs.Stddev = nil, nil
	r.Stats.MaxRSSKB.Mean, r.Stats.MaxRSSKB.Stddev = nil, nil
	return r
}

// verifyStats keeps a stats block that agrees with the samples (means
// left out included) and replaces one that does not, saying how.
func TestVerifyStats(t *testing.T) {
	mean := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		name   string
		edit   func(r *Run)
		differ []string
	}{
		{"agrees, means left out", func(r *Run) {}, nil},
		{"agrees, with means", func(r *Run) { r.Stats, _ = ComputeStats(r.Samples, nil) }, nil},
		{"mean off by rounding", func(r *Run) {
			r.Stats, _ = ComputeStats(r.Samples, nil)
			r.Stats.WallMs.Mean = mean(*r.Stats.WallMs.Mean * (1 + 1e-12))
		}, nil},
		{"median forged", func(r *Run) { r.Stats.WallMs.Median = 50 }, []string{"wall_ms median 50 vs 100 from the samples"}},
		{"max forged", func(r *Run) { r.Stats.MaxRSSKB.Max = 1 }, []string{"max_rss_kb max 1 vs 1028 from the samples"}},
		{"mean forged", func(r *Run) { r.Stats.WallMs.Mean = mean(1) }, []string{"wall_ms mean 1 vs 100 from the samples"}},
		{"a measured metric left out", func(r *Run) { r.Stats.MaxRSSKB = nil }, []string{"max_rss_kb measured, but not summarized"}},
		{"a metric no sample has", func(r *Run) { r.Stats.CPUMs = &U64Summary{Median: 1, Min: 1, Max: 1} }, []string{"cpu_ms summarized, but no sample has it"}},
		{"no measured samples: the block is all there is", func(r *Run) {
			for i := range r.Samples {
				r.Samples[i].Warmup = true
			}
			r.Stats.WallMs.Median = 50
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := baselineRun()
			tt.edit(r)
			before := r.Stats
			differ := r.verifyStats()
			if diff := cmp.Diff(tt.differ, differ); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
			want := before
			if len(tt.differ) > 0 {
				want, _ = ComputeStats(r.Samples, nil)
			}
			if diff := cmp.Diff(want, r.Stats); diff != "" {
				t.Errorf("stats after (-want +got):\n%s", diff)
			}
		})
	}
}
