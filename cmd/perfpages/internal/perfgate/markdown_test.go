package perfgate

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/generator/receipt"
)

// TestMarkdown pins the format of perfgate's comment.md on perfgate's CLI
// fixtures.
func TestMarkdown(t *testing.T) {
	tests := []struct {
		name    string
		current *receipt.Run
		want    string
	}{
		{"warn", fixtureWarn(), `⚠️ perfgate: warn

**Bench:** ` + "`fixture-bench`" + `

| metric | baseline (median) | current (median) | delta | budget | status |
|---|---:|---:|---:|---:|---|
| ` + "`max_rss_kb`" + ` | 1024 KB | 1200 KB | +17.19% | 20.0% (lower) | ✅ |
| ` + "`wall_ms`" + ` | 100 ms | 119 ms | +19.00% | 20.0% (lower) | ⚠️ |

**Notes:**
- wall_ms_warn: +19.00% (warn >= 18.00%, fail > 20.00%)
`},
		{"fail", fixtureFail(), `❌ perfgate: fail

**Bench:** ` + "`fixture-bench`" + `

| metric | baseline (median) | current (median) | delta | budget | status |
|---|---:|---:|---:|---:|---|
| ` + "`max_rss_kb`" + ` | 1024 KB | 1500 KB | +46.48% | 20.0% (lower) | ❌ |
| ` + "`wall_ms`" + ` | 100 ms | 150 ms | +50.00% | 20.0% (lower) | ❌ |

**Notes:**
- max_rss_kb_fail: +46.48% (fail > 20.00%)
- wall_ms_fail: +50.00% (fail > 20.00%)
`},
		{"pass", fixturePass(), `✅ perfgate: pass

**Bench:** ` + "`fixture-bench`" + `

| metric | baseline (median) | current (median) | delta | budget | status |
|---|---:|---:|---:|---:|---|
| ` + "`max_rss_kb`" + ` | 1024 KB | 1000 KB | -2.34% | 20.0% (lower) | ✅ |
| ` + "`wall_ms`" + ` | 100 ms | 95 ms | -5.00% | 20.0% (lower) | ✅ |
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compareRuns(fixtureBaseline(), tt.current, compareOptions{})
			if diff := cmp.Diff(tt.want, markdown(&c.Receipt, c.Units)); diff != "" {
				t.Errorf("markdown (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMarkdownNoiseAndStatistic: "(noisy)" on the status, the NOISY note,
// "(p95)" after the metric, skip lines, throughput with 3 decimals.
func TestMarkdownNoiseAndStatistic(t *testing.T) {
	c := &receipt.Compare{
		Bench: receipt.Bench{Name: "noisy|bench"},
		Budgets: map[string]receipt.Budget{
			"wall_ms":          {Threshold: 0.2, WarnThreshold: 0.18, NoiseThreshold: f64p(0.1), NoisePolicy: budget.NoiseWarn, Direction: budget.Lower},
			"cpu_ms":           {Threshold: 0.2, WarnThreshold: 0.18, NoiseThreshold: f64p(0.1), NoisePolicy: budget.NoiseSkip, Direction: budget.Lower},
			"throughput_per_s": {Threshold: 0.3, WarnThreshold: 0.27, Direction: budget.Higher},
		},
		Deltas: map[string]receipt.Delta{
			"wall_ms":          {Baseline: 165, Current: 230, Pct: 0.3939, Status: budget.Warn, CV: f64p(0.5), NoiseThreshold: f64p(0.1), Statistic: budget.P95},
			"cpu_ms":           {Baseline: 10, Current: 10, Status: budget.Skip, CV: f64p(0.25), NoiseThreshold: f64p(0.1)},
			"throughput_per_s": {Baseline: 1234.5678, Current: 1234.5678, Status: budget.Pass},
		},
		Verdict: receipt.Verdict{Status: budget.Warn, Reasons: []string{"cpu_ms_skip", "wall_ms_warn", "host_mismatch"}},
	}
	// Outside a table a pipe needs no escape (and "\|" would show its
	// backslash in a code span); inside, mdtext.CodeCell writes "\|".
	want := `⚠️ perfgate: warn

**Bench:** ` + "`noisy|bench`" + `

| metric | baseline (median) | current (median) | delta | budget | status |
|---|---:|---:|---:|---:|---|
| ` + "`cpu_ms`" + ` | 10 ms | 10 ms | 0.00% | 20.0% (lower) | ⏭️ (noisy) |
| ` + "`throughput_per_s`" + ` | 1234.568 /s | 1234.568 /s | 0.00% | 30.0% (higher) | ✅ |
| ` + "`wall_ms (p95)`" + ` | 165 ms | 230 ms | +39.39% | 20.0% (lower) | ⚠️ (noisy) |

**Notes:**
- cpu_ms_skip: skipped [NOISY: CV 25.00% > limit 10.00%]
- wall_ms_warn: +39.39% (warn >= 18.00%, fail > 20.00%) [NOISY: CV 50.00% > limit 10.00%]
- host_mismatch
`
	if diff := cmp.Diff(want, markdown(c, nil)); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

// TestMarkdownArchives: keys of archive results, their units, readable
// values, and notes for keys that are not perfgate metrics.
func TestMarkdownArchives(t *testing.T) {
	base := archiveRun("3f2a9c0",
		result("json-decode", "wall-time", "ns", 1203.5, 1199, 1210.2),
		result("parse_big", "wall-time", "ns", 100, 100),
		result("regex", "throughput", "B/s", 1.5e9))
	cur := archiveRun("4e5f6a7",
		result("json-decode", "wall-time", "ns", 1403.25, 1399, 1410.2),
		result("parse_big", "wall-time", "ns", 150, 150),
		result("regex", "throughput", "B/s", 1.52e9))
	c := compareArchives(base, cur, compareOptions{Budgets: map[string]budget.Budget{"wall-time": budget.Default(), "throughput": budget.Default()}})
	want := `❌ perfgate: fail

**Bench:** ` + "`4e5f6a7`" + `

| metric | baseline (median) | current (median) | delta | budget | status |
|---|---:|---:|---:|---:|---|
| ` + "`json-decode/wall-time`" + ` | 1.204 µs | 1.403 µs | +16.60% | 20.0% (lower) | ✅ |
| ` + "`parse_big/wall-time`" + ` | 100 ns | 150 ns | +50.00% | 20.0% (lower) | ❌ |
| ` + "`regex/throughput`" + ` | 1.5 GB/s | 1.52 GB/s | +1.33% | 20.0% (higher) | ✅ |

**Notes:**
- parse_big/wall-time_fail: +50.00% (fail > 20.00%)
`
	if diff := cmp.Diff(want, markdown(&c.Receipt, c.Units)); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

// TestValue: perfgate's metrics print as perfgate prints them, archive
// results as perfpages prints every value (analysis.ValueParts).
func TestValue(t *testing.T) {
	units := map[string]string{"p/wall-time": "ns", "p/cpu": "cpu-ns/op", "p/rate": "B/s"}
	tests := []struct {
		key       string
		v         float64
		num, unit string
	}{
		{"wall_ms", 119, "119", "ms"},
		{"wall_ms", 1023.5, "1024", "ms"},
		{"max_rss_kb", 1024.4, "1024", "KB"},
		{"throughput_per_s", 9807.692307692309, "9807.692", "/s"},
		{"p/wall-time", 1203.5, "1.204", "µs"},
		{"p/wall-time", 2e-4, "0.0002", "ns"},
		{"p/wall-time", 2e-9, "2e-09", "ns"},
		{"p/cpu", 16300, "16.3", "k cpu-ns/op"},
		{"p/rate", 8.234e8, "823.4", "MB/s"},
		{"p/none", 123456.789, "123.5", "k"},
		// Huge and non-finite values: exponent form, "n/a".
		{"wall_ms", 1e308, "1e+308", "ms"},
		{"throughput_per_s", 2.5e20, "2.5e+20", "/s"},
		{"wall_ms", 999999999999999, "999999999999999", "ms"},
		{"p/wall-time", 1e300, "1e+291", "s"},
		{"wall_ms", math.Inf(1), "n/a", "ms"},
		{"p/wall-time", math.NaN(), "n/a", ""},
	}
	for _, tt := range tests {
		if num, unit := value(tt.key, tt.v, units); num != tt.num || unit != tt.unit {
			t.Errorf("value(%s, %v) = %q %q, want %q %q", tt.key, tt.v, num, unit, tt.num, tt.unit)
		}
	}
}

func TestNoBaselineMarkdown(t *testing.T) {
	r := fixtureWarn()
	r.Bench.WorkUnits = u64p(1000)
	r.Stats, _ = receipt.ComputeStats(r.Samples, r.Bench.WorkUnits)
	got := noBaselineMarkdown("fixture-bench", runValues(r), []string{"no baseline found for bench 'fixture-bench' at baselines/fixture-bench.json, skipping comparison"})
	want := `## perfgate: no baseline

**Bench:** ` + "`fixture-bench`" + `

No baseline found for comparison. This run will establish a new baseline.

### Current Results

| metric | value |
|---|---:|
| ` + "`wall_ms`" + ` | 119 ms |
| ` + "`max_rss_kb`" + ` | 1200 KB |
| ` + "`throughput_per_s`" + ` | 8403.361 /s |

**Warnings:**
- no baseline found for bench 'fixture-bench' at baselines/fixture-bench.json, skipping comparison
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	rows := archiveValues(archiveRun("x", result("p", "wall-time", "ns", 3, 1, 2), result("p", "wall-time", "ns", 9)))
	if diff := cmp.Diff([]valueRow{{Metric: "p/wall-time", Value: "2", Unit: "ns"}}, rows); diff != "" {
		t.Errorf("archiveValues (-want +got):\n%s", diff)
	}
}
