package perfgate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/receipt"
)

// TestExportCompare reproduces perfgate's compare_csv and compare_jsonl
// snapshots (crates/perfgate-export/src/snapshots) from the same receipt
// (testdata/compare.json): rows sorted by metric, regression_pct and
// threshold ×100, CSV reals with 6 decimals, JSONL reals as serde_json
// writes them.
func TestExportCompare(t *testing.T) {
	c, err := receipt.ReadCompare("compare.json", receiptTestdata(t, "compare.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format, want string
	}{
		{"csv", `bench_name,metric,baseline_value,current_value,regression_pct,status,threshold
alpha-bench,max_rss_kb,1024.000000,1280.000000,25.000000,fail,15.000000
alpha-bench,wall_ms,100.000000,110.000000,10.000000,pass,20.000000
`},
		{"jsonl", `{"bench_name":"alpha-bench","metric":"max_rss_kb","baseline_value":1024.0,"current_value":1280.0,"regression_pct":25.0,"status":"fail","threshold":15.0}
{"bench_name":"alpha-bench","metric":"wall_ms","baseline_value":100.0,"current_value":110.0,"regression_pct":10.0,"status":"pass","threshold":20.0}
`},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := ExportCompares(&b, tt.format, []*receipt.Compare{c}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestExportRuns: the eight run columns of perfgate's docs/DESIGN.md, empty
// (CSV) or null (JSONL) for absent optional metrics, sample_count of
// measured samples, timestamp = run.started_at, RFC 4180 quoting.
func TestExportRuns(t *testing.T) {
	r, err := receipt.ReadRun("run.json", receiptTestdata(t, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	plain := fixtureBaseline()
	plain.Bench.Name = `odd "name", really`
	plain.Stats.MaxRSSKB = nil
	plain.Run.StartedAt = "2024-01-01T00:00:00Z"
	tests := []struct {
		format, want string
	}{
		{"csv", `bench_name,wall_ms_median,wall_ms_min,wall_ms_max,max_rss_kb_median,throughput_median,sample_count,timestamp
parse-large,102,100,104,2050,9807.692308,2,2026-01-15T10:00:00Z
"odd ""name"", really",100,98,102,,,5,2024-01-01T00:00:00Z
`},
		{"jsonl", `{"bench_name":"parse-large","wall_ms_median":102,"wall_ms_min":100,"wall_ms_max":104,"max_rss_kb_median":2050,"throughput_median":9807.692307692309,"sample_count":2,"timestamp":"2026-01-15T10:00:00Z"}
{"bench_name":"odd \"name\", really","wall_ms_median":100,"wall_ms_min":98,"wall_ms_max":102,"max_rss_kb_median":null,"throughput_median":null,"sample_count":5,"timestamp":"2024-01-01T00:00:00Z"}
`},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := ExportRuns(&b, tt.format, []*receipt.Run{r, plain}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if err := ExportRuns(&bytes.Buffer{}, "xml", nil); err == nil || !strings.Contains(err.Error(), `export format "xml"`) {
		t.Errorf("bad format: %v", err)
	}
}

func TestCSVCell(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"plain", "plain"},
		{"a,b", `"a,b"`},
		{`say "hi"`, `"say ""hi"""`},
		{"two\nlines", "\"two\nlines\""},
		{"cr\rhere", "\"cr\rhere\""},
		{" leading space", " leading space"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := csvCell(textCell(tt.in)); got != tt.want {
			t.Errorf("csvCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestJSONFloat: serde_json's (ryu's) spelling of f64.
func TestJSONFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1024, "1024.0"},
		{0.1, "0.1"},
		{-2.5, "-2.5"},
		{25.000000000000004, "25.000000000000004"},
		{9807.692307692309, "9807.692307692309"},
		{1e15, "1000000000000000.0"},
		{1e16, "1e16"},
		{1.5e300, "1.5e300"},
		{0.00001, "0.00001"},
		{1.5e-7, "1.5e-7"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
	}
	for _, tt := range tests {
		if got := jsonFloat(tt.f); got != tt.want {
			t.Errorf("jsonFloat(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
