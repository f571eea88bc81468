package perfgate

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/receipt"
)

// fixture builds a run receipt from wall and RSS samples the way
// perfgate's CLI fixtures are written: stats without mean and stddev, so
// that no CV is known.
func fixture(id string, wall, rss []uint64) *receipt.Run {
	r := &receipt.Run{
		Schema: receipt.RunSchema,
		Tool:   receipt.Tool{Name: "perfgate", Version: "0.1.0"},
		Run:    receipt.RunMeta{ID: id, StartedAt: "2024-01-01T00:00:00Z", EndedAt: "2024-01-01T00:00:01Z", Host: receipt.Host{OS: "linux", Arch: "x86_64"}},
		Bench:  receipt.Bench{Name: "fixture-bench", Command: []string{"echo", "hello"}, Repeat: uint32(len(wall))},
	}
	for i := range wall {
		s := receipt.Sample{WallMs: wall[i]}
		if rss != nil {
			s.MaxRSSKB = u64p(rss[i])
		}
		r.Samples = append(r.Samples, s)
	}
	r.Stats, _ = receipt.ComputeStats(r.Samples, nil)
	r.Stats.WallMs.Mean, r.Stats.WallMs.Stddev = nil, nil
	if r.Stats.MaxRSSKB != nil {
		r.Stats.MaxRSSKB.Mean, r.Stats.MaxRSSKB.Stddev = nil, nil
	}
	return r
}

// perfgate's CLI fixtures (crates/perfgate-cli/tests/fixtures/*.json).
var (
	fixtureBaseline = func() *receipt.Run {
		return fixture("baseline", []uint64{100, 102, 98, 101, 99}, []uint64{1024, 1028, 1020, 1026, 1022})
	}
	fixturePass = func() *receipt.Run {
		return fixture("pass", []uint64{95, 97, 93, 96, 94}, []uint64{1000, 1004, 996, 1002, 998})
	}
	fixtureWarn = func() *receipt.Run {
		return fixture("warn", []uint64{119, 121, 117, 120, 118}, []uint64{1200, 1204, 1196, 1202, 1198})
	}
	fixtureFail = func() *receipt.Run {
		return fixture("fail", []uint64{150, 152, 148, 151, 149}, []uint64{1500, 1504, 1496, 1502, 1498})
	}
)

// TestCompareRunsFixtures is perfgate's CLI fixtures: defaults 0.20 / 0.90
// (warn at 0.18).
func TestCompareRunsFixtures(t *testing.T) {
	sixty := 0.60
	tests := []struct {
		name       string
		current    *receipt.Run
		budgets    map[string]budget.Budget
		wantStatus map[string]budget.Status
		want       receipt.Verdict
	}{
		{"pass", fixturePass(), nil,
			map[string]budget.Status{"wall_ms": budget.Pass, "max_rss_kb": budget.Pass},
			receipt.Verdict{Status: budget.Pass, Counts: receipt.Counts{Pass: 2}, Reasons: []string{}}},
		{"warn: wall +19% warns, rss +17.19% passes", fixtureWarn(), nil,
			map[string]budget.Status{"wall_ms": budget.Warn, "max_rss_kb": budget.Pass},
			receipt.Verdict{Status: budget.Warn, Counts: receipt.Counts{Pass: 1, Warn: 1}, Reasons: []string{"wall_ms_warn"}}},
		{"fail: both fail", fixtureFail(), nil,
			map[string]budget.Status{"wall_ms": budget.Fail, "max_rss_kb": budget.Fail},
			receipt.Verdict{Status: budget.Fail, Counts: receipt.Counts{Fail: 2}, Reasons: []string{"max_rss_kb_fail", "wall_ms_fail"}}},
		{"fail with threshold 0.60 everywhere passes", fixtureFail(),
			map[string]budget.Budget{"wall_ms": withThreshold(sixty), "max_rss_kb": withThreshold(sixty)},
			map[string]budget.Status{"wall_ms": budget.Pass, "max_rss_kb": budget.Pass},
			receipt.Verdict{Status: budget.Pass, Counts: receipt.Counts{Pass: 2}, Reasons: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compareRuns(fixtureBaseline(), tt.current, compareOptions{Budgets: tt.budgets})
			got := map[string]budget.Status{}
			for k, d := range c.Receipt.Deltas {
				got[k] = d.Status
			}
			if diff := cmp.Diff(tt.wantStatus, got); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, c.Receipt.Verdict); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompareRunsReceipt pins the whole compare receipt of the warn
// fixture: budgets with the check builders' noise policy warn, deltas with
// the u64 medians, refs.
func TestCompareRunsReceipt(t *testing.T) {
	c := compareRuns(fixtureBaseline(), fixtureWarn(), compareOptions{
		Tool: receipt.Tool{Name: "perfpages", Version: "test"}, BaselinePath: "base.json", CurrentPath: "cur.json",
	})
	want := receipt.Compare{
		Schema:      receipt.CompareSchema,
		Tool:        receipt.Tool{Name: "perfpages", Version: "test"},
		Bench:       receipt.Bench{Name: "fixture-bench", Command: []string{"echo", "hello"}, Repeat: 5},
		BaselineRef: receipt.Ref{Path: "base.json", RunID: "baseline"},
		CurrentRef:  receipt.Ref{Path: "cur.json", RunID: "warn"},
		Budgets: map[string]receipt.Budget{
			"max_rss_kb": {Threshold: 0.2, WarnThreshold: 0.2 * 0.9, NoisePolicy: budget.NoiseWarn, Direction: budget.Lower},
			"wall_ms":    {Threshold: 0.2, WarnThreshold: 0.2 * 0.9, NoisePolicy: budget.NoiseWarn, Direction: budget.Lower},
		},
		Deltas: map[string]receipt.Delta{
			"max_rss_kb": {Baseline: 1024, Current: 1200, Ratio: 1200.0 / 1024, Pct: 176.0 / 1024, Regression: 176.0 / 1024, Status: budget.Pass},
			"wall_ms":    {Baseline: 100, Current: 119, Ratio: 1.19, Pct: 0.19, Regression: 0.19, Status: budget.Warn},
		},
		Verdict: receipt.Verdict{Status: budget.Warn, Counts: receipt.Counts{Pass: 1, Warn: 1}, Reasons: []string{"wall_ms_warn"}},
	}
	if diff := cmp.Diff(want, c.Receipt, approx); diff != "" {
		t.Errorf("receipt (-want +got):\n%s", diff)
	}
	if c.Receipt.Deltas["max_rss_kb"].Regression != 0.171875 {
		t.Errorf("rss regression %v, want 0.171875", c.Receipt.Deltas["max_rss_kb"].Regression)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings: %v", c.Warnings)
	}
}

// TestCompareRunsWhichMetrics is perfgate's rule for which metrics get a
// budget: wall_ms always; the other budgeted
// metrics only when both receipts have them; io/network/energy never.
func TestCompareRunsWhichMetrics(t *testing.T) {
	base := fixtureBaseline()
	cur := fixtureWarn()
	for _, r := range []*receipt.Run{base, cur} {
		for i := range r.Samples {
			r.Samples[i].EnergyUJ = u64p(500)
			r.Samples[i].PageFaults = u64p(0)
		}
		r.Samples[0].CPUMs = u64p(10)
		r.Stats, _ = receipt.ComputeStats(r.Samples, nil)
	}
	cur.Samples[0].CPUMs = nil
	cur.Stats, _ = receipt.ComputeStats(cur.Samples, nil)
	c := compareRuns(base, cur, compareOptions{})
	if diff := cmp.Diff([]string{"max_rss_kb", "page_faults", "wall_ms"}, slices.Sorted(maps.Keys(c.Receipt.Budgets))); diff != "" {
		t.Errorf("budgeted metrics (-want +got):\n%s", diff)
	}
	// A zero baseline (no page faults) is skipped without a reason.
	if d := c.Receipt.Deltas["page_faults"]; d.Status != budget.Skip || d.Ratio != 1 {
		t.Errorf("page_faults delta = %+v, want skip", d)
	}
	if c.Receipt.Verdict.Counts.Skip != 1 || strings.Contains(strings.Join(c.Receipt.Verdict.Reasons, " "), "page_faults") {
		t.Errorf("verdict = %+v", c.Receipt.Verdict)
	}
}

// TestCompareRunsConfig: per-metric overrides keyed by perfgate's metric
// name — direction, statistic p95 over the measured samples, noise
// threshold with the current run's CV — and throughput's own direction.
func TestCompareRunsConfig(t *testing.T) {
	base := fixture("b", []uint64{100, 100, 100, 100, 100, 100, 100, 200}, nil)
	cur := fixture("c", []uint64{100, 100, 100, 100, 100, 100, 100, 300}, nil)
	c := compareRuns(base, cur, compareOptions{Budgets: map[string]budget.Budget{"wall_ms": bud(func(b *budget.Budget) { b.Statistic = budget.P95 })}})
	want := receipt.Delta{Baseline: 165, Current: 230, Ratio: 230.0 / 165, Pct: 65.0 / 165, Regression: 65.0 / 165, Statistic: budget.P95, Status: budget.Fail}
	if diff := cmp.Diff(want, c.Receipt.Deltas["wall_ms"], approx); diff != "" {
		t.Errorf("p95 delta (-want +got):\n%s", diff)
	}

	// Throughput: higher is better; a faster current run is no regression.
	tb, tc := fixture("b", []uint64{100, 100}, nil), fixture("c", []uint64{50, 50}, nil)
	for _, r := range []*receipt.Run{tb, tc} {
		r.Bench.WorkUnits = u64p(10)
		r.Stats, _ = receipt.ComputeStats(r.Samples, r.Bench.WorkUnits)
	}
	c = compareRuns(tb, tc, compareOptions{})
	if d := c.Receipt.Deltas["throughput_per_s"]; d.Baseline != 100 || d.Current != 200 || d.Regression != 0 || c.Receipt.Budgets["throughput_per_s"].Direction != budget.Higher {
		t.Errorf("throughput: %+v %+v", d, c.Receipt.Budgets["throughput_per_s"])
	}
	// …unless the config says lower.
	c = compareRuns(tb, tc, compareOptions{Budgets: map[string]budget.Budget{"throughput_per_s": bud(func(b *budget.Budget) { b.Direction = budget.Lower })}})
	if d := c.Receipt.Deltas["throughput_per_s"]; d.Status != budget.Fail || d.Regression != 1 {
		t.Errorf("throughput, direction lower: %+v", d)
	}

	// Noise: the current run's CV (from mean and stddev) above the
	// threshold makes the budget's policy apply.
	nb := fixture("b", []uint64{100, 100, 100}, nil)
	nc := fixture("c", []uint64{50, 100, 150}, nil)
	nc.Stats, _ = receipt.ComputeStats(nc.Samples, nil)
	tenth := 0.1
	c = compareRuns(nb, nc, compareOptions{Budgets: map[string]budget.Budget{"wall_ms": bud(func(b *budget.Budget) { b.NoiseThreshold = &tenth })}})
	d := c.Receipt.Deltas["wall_ms"]
	if d.Status != budget.Warn || d.CV == nil || *d.CV != 0.5 || *d.NoiseThreshold != 0.1 {
		t.Errorf("noisy pass under policy warn: %+v", d)
	}
	c = compareRuns(nb, nc, compareOptions{Budgets: map[string]budget.Budget{"wall_ms": bud(func(b *budget.Budget) { b.NoiseThreshold, b.NoisePolicy = &tenth, budget.NoiseSkip })}})
	if d := c.Receipt.Deltas["wall_ms"]; d.Status != budget.Skip || c.Receipt.Verdict.Reasons[0] != "wall_ms_skip" || c.Receipt.Verdict.Status != budget.Skip {
		t.Errorf("policy skip: %+v %+v", d, c.Receipt.Verdict)
	}
	if b := c.Receipt.Budgets["wall_ms"]; b.NoisePolicy != budget.NoiseSkip || *b.NoiseThreshold != 0.1 {
		t.Errorf("budget = %+v", b)
	}
	c = compareRuns(nb, nc, compareOptions{Budgets: map[string]budget.Budget{"wall_ms": bud(func(b *budget.Budget) { b.NoiseThreshold, b.NoisePolicy = &tenth, budget.NoiseIgnore })}})
	if b := c.Receipt.Budgets["wall_ms"]; b.NoisePolicy != "" {
		t.Errorf("policy ignore is recorded as %q, want omitted", b.NoisePolicy)
	}
}

func TestCompareRunsSignificance(t *testing.T) {
	var bw, cw []uint64
	for v := uint64(50); v <= 140; v += 10 {
		bw, cw = append(bw, v), append(cw, v+6)
	}
	base, cur := fixture("b", bw, nil), fixture("c", cw, nil)
	five := 0.05
	opts := compareOptions{Budgets: map[string]budget.Budget{"wall_ms": withThreshold(five)}, Significance: &budget.SignificancePolicy{Alpha: 0.05, MinSamples: 8}}
	c := compareRuns(base, cur, opts)
	d := c.Receipt.Deltas["wall_ms"]
	if d.Status != budget.Fail || d.Significance == nil || d.Significance.Significant || d.Significance.BaselineSamples != 10 || d.Significance.Test != "welch_t" {
		t.Errorf("delta = %+v, significance %+v", d, d.Significance)
	}
	opts.Significance.Require = true
	if d := compareRuns(base, cur, opts).Receipt.Deltas["wall_ms"]; d.Status != budget.Pass {
		t.Errorf("require significance: %+v", d)
	}
}

func TestCompareRunsHostMismatch(t *testing.T) {
	base, cur := fixtureBaseline(), fixturePass()
	cur.Run.Host = receipt.Host{OS: "macos", Arch: "aarch64", CPUCount: u32p(16), MemoryBytes: u64p(64 << 30)}
	base.Run.Host = receipt.Host{OS: "linux", Arch: "x86_64", CPUCount: u32p(4), MemoryBytes: u64p(16 << 30), HostnameHash: "aa"}
	c := compareRuns(base, cur, compareOptions{})
	want := []string{
		"host mismatch: OS mismatch: baseline=linux, current=macos",
		"host mismatch: architecture mismatch: baseline=x86_64, current=aarch64",
		"host mismatch: CPU count differs significantly: baseline=4, current=16 (4.0x)",
		"host mismatch: memory differs significantly: baseline=16.0GB, current=64.0GB (4.0x)",
	}
	if diff := cmp.Diff(want, c.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	cur.Run.Host = receipt.Host{OS: "linux", Arch: "x86_64", CPUCount: u32p(8), MemoryBytes: u64p(24 << 30), HostnameHash: "bb"}
	if c := compareRuns(base, cur, compareOptions{}); len(c.Warnings) != 0 {
		t.Errorf("2x CPUs, 1.5x memory, another host name: %v", c.Warnings)
	}
}

func TestResultKey(t *testing.T) {
	tests := []struct {
		tc     model.TestCase
		metric string
		want   string
	}{
		{model.TestCase{Benchmark: "json-decode"}, "wall-time", "json-decode/wall-time"},
		{model.TestCase{Benchmark: "json-decode", Params: model.NewParams(map[string]string{"size": "large", "n": "1000"})}, "instructions:u",
			"json-decode{n=1000,size=large}/instructions:u"},
		{model.TestCase{Benchmark: "b", Params: model.Params{{Key: "a", Value: "x,y"}, {Key: "k", Value: ""}}}, "m", `b{a="x,y",k=""}/m`},
	}
	for _, tt := range tests {
		if got := resultKey(tt.tc, tt.metric); got != tt.want {
			t.Errorf("ResultKey = %q, want %q", got, tt.want)
		}
	}
}

func archiveRun(id string, results ...model.Result) *model.Run {
	return &model.Run{
		Artifact: model.Artifact{ID: id, Kind: model.KindCommit},
		Machine:  model.Machine{Name: "linux-x64-1", OS: "linux", Arch: "amd64", Cores: 16},
		Context:  model.Params{{Key: "toolchain", Value: "go1.26"}},
		Results:  results,
	}
}

func result(bench, metric, unit string, samples ...float64) model.Result {
	return model.Result{Case: model.TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: samples}
}

// TestCompareArchives: every test case and metric on both sides with
// samples is one delta; without a [budgets] section every metric gets the
// default budget in the direction of its unit; medians over the samples.
func TestCompareArchives(t *testing.T) {
	base := archiveRun("aaa",
		result("parse", "wall-time", "ns", 100, 110, 90),
		result("parse", "throughput", "B/s", 1000, 1000),
		result("encode", "wall-time", "ns", 50, 52),
		result("gone", "wall-time", "ns", 1),
		model.Result{Case: model.TestCase{Benchmark: "broken"}, Metric: "wall-time", Unit: "ns", Error: "exit status 2"},
	)
	cur := archiveRun("bbb",
		result("parse", "wall-time", "ns", 130, 125, 120), // +25 %: fail
		result("parse", "throughput", "B/s", 700, 700),    // −30 %, higher is better: fail
		result("encode", "wall-time", "ns", 50, 53),       // +0.97 %: pass
		result("new", "wall-time", "ns", 1),
		model.Result{Case: model.TestCase{Benchmark: "broken"}, Metric: "wall-time", Unit: "ns", Samples: []float64{1}},
	)
	c := compareArchives(base, cur, compareOptions{BaselinePath: "a.json", CurrentPath: "b.json"})
	got := map[string]budget.Status{}
	for k, d := range c.Receipt.Deltas {
		got[k] = d.Status
	}
	want := map[string]budget.Status{"parse/wall-time": budget.Fail, "parse/throughput": budget.Fail, "encode/wall-time": budget.Pass}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if d := c.Receipt.Deltas["parse/wall-time"]; d.Baseline != 100 || d.Current != 125 || d.CV == nil {
		t.Errorf("parse/wall-time = %+v", d)
	}
	if b := c.Receipt.Budgets["parse/throughput"]; b.Direction != budget.Higher || b.Threshold != 0.2 {
		t.Errorf("throughput budget = %+v", b)
	}
	if diff := cmp.Diff(map[string]string{"parse/wall-time": "ns", "parse/throughput": "B/s", "encode/wall-time": "ns"}, c.Units); diff != "" {
		t.Errorf("units (-want +got):\n%s", diff)
	}
	wantBench := receipt.Bench{Name: "bbb", Command: []string{}, Repeat: 3}
	if diff := cmp.Diff(wantBench, c.Receipt.Bench); diff != "" {
		t.Errorf("bench (-want +got):\n%s", diff)
	}
	if c.Receipt.BaselineRef != (receipt.Ref{Path: "a.json", RunID: "aaa"}) || c.Receipt.CurrentRef != (receipt.Ref{Path: "b.json", RunID: "bbb"}) {
		t.Errorf("refs = %+v %+v", c.Receipt.BaselineRef, c.Receipt.CurrentRef)
	}
	if diff := cmp.Diff([]string{"parse/throughput_fail", "parse/wall-time_fail"}, c.Receipt.Verdict.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings = %v", c.Warnings)
	}
}

// TestCompareArchivesBudgets: with a [budgets] section only the metrics it
// names are judged; [metrics] directions apply; p95 works on samples.
func TestCompareArchivesBudgets(t *testing.T) {
	base := archiveRun("a", result("p", "wall-time", "ns", 100, 100), result("p", "score", "points", 10, 10), result("p", "rss", "KB", 5, 5))
	cur := archiveRun("b", result("p", "wall-time", "ns", 150, 150), result("p", "score", "points", 5, 5), result("p", "rss", "KB", 50, 50))
	half := 0.5
	c := compareArchives(base, cur, compareOptions{
		Budgets: map[string]budget.Budget{"wall-time": withThreshold(half), "score": budget.Default()},
		Metrics: map[string]model.Metric{"score": {Name: "score", Direction: model.HigherIsBetter}},
	})
	if _, ok := c.Receipt.Deltas["p/rss"]; ok {
		t.Error("rss has no budget but was judged")
	}
	if d := c.Receipt.Deltas["p/wall-time"]; d.Status != budget.Warn { // 0.5 ≥ 0.45, not > 0.5
		t.Errorf("wall-time = %+v", d)
	}
	if d, b := c.Receipt.Deltas["p/score"], c.Receipt.Budgets["p/score"]; d.Status != budget.Fail || b.Direction != budget.Higher {
		t.Errorf("score = %+v, budget %+v", d, b)
	}

	// A [budgets] section that names none of the metrics is reported.
	c = compareArchives(base, cur, compareOptions{Budgets: map[string]budget.Budget{"wall_ms": budget.Default()}})
	if len(c.Receipt.Deltas) != 0 || c.Receipt.Verdict.Status != budget.Skip ||
		len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "no [budgets] section matches a metric of these archives (budgets: wall_ms; metrics: rss, score, wall-time)") {
		t.Errorf("unmatched budgets: %+v %v", c.Receipt.Verdict, c.Warnings)
	}

	pb := archiveRun("a", result("p", "wall-time", "ns", 100, 100, 100, 100, 100, 100, 100, 200))
	pc := archiveRun("b", result("p", "wall-time", "ns", 100, 100, 100, 100, 100, 100, 100, 300))
	c = compareArchives(pb, pc, compareOptions{Budgets: map[string]budget.Budget{"wall-time": bud(func(b *budget.Budget) { b.Statistic = budget.P95 })}})
	if d := c.Receipt.Deltas["p/wall-time"]; math.Abs(d.Baseline-165) > 1e-9 || math.Abs(d.Current-230) > 1e-9 || d.Statistic != budget.P95 {
		t.Errorf("p95 = %+v", d)
	}
}

func TestCompareArchivesWarnings(t *testing.T) {
	base := archiveRun("a", result("p", "wall-time", "ns", 100), result("p", "wall-time", "ns", 1), result("q", "mem", "KB", 1))
	cur := archiveRun("b", result("p", "wall-time", "ns", 100), result("q", "mem", "MB", 1))
	cur.Machine = model.Machine{Name: "mac-arm-1", OS: "darwin", Arch: "arm64", Cores: 4}
	cur.Context = model.Params{{Key: "toolchain", Value: "go1.27"}}
	c := compareArchives(base, cur, compareOptions{BaselinePath: "a.json"})
	want := []string{
		"a.json: result p/wall-time appears twice; the first one is compared",
		`q/mem: unit changed from "KB" to "MB"; not compared`,
		"host mismatch: machine mismatch: baseline=linux-x64-1, current=mac-arm-1",
		"host mismatch: OS mismatch: baseline=linux, current=darwin",
		"host mismatch: architecture mismatch: baseline=amd64, current=arm64",
		"host mismatch: CPU count differs significantly: baseline=16, current=4 (4.0x)",
		"host mismatch: context mismatch: baseline={toolchain=go1.26}, current={toolchain=go1.27}",
	}
	if diff := cmp.Diff(want, c.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if len(c.HostMismatch) != 5 {
		t.Errorf("host mismatch = %v", c.HostMismatch)
	}
	none := compareArchives(archiveRun("a", result("x", "m", "ns", 1)), archiveRun("b", result("y", "m", "ns", 1)), compareOptions{})
	if diff := cmp.Diff([]string{"the archives have no test case and metric in common"}, none.Warnings); diff != "" {
		t.Errorf("disjoint archives (-want +got):\n%s", diff)
	}
}

// bud is a [budgets] section as config turns it into a budget: perfgate's
// defaults changed by set.
func bud(set func(b *budget.Budget)) budget.Budget {
	b := budget.Default()
	set(&b)
	return b
}

// withThreshold is a section that sets only the threshold (the warn
// threshold follows it).
func withThreshold(t float64) budget.Budget {
	b := budget.New(t, budget.DefaultWarnFactor, "")
	b.NoisePolicy = budget.Default().NoisePolicy
	return b
}

// FuzzCompareRuns: whatever run receipt the reader accepts, promote can
// normalize and check can compare with itself without a panic.
func FuzzCompareRuns(f *testing.F) {
	f.Add(receiptTestdata(f, "run.json"))
	f.Add(receiptTestdata(f, "compare.json"))
	f.Add([]byte(`{"schema":"perfgate.run.v1","samples":[{}]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		normalizeRun(data)
		r, err := receipt.ReadRun("f.json", data)
		if err != nil {
			return
		}
		compareRuns(r, r, compareOptions{})
	})
}
