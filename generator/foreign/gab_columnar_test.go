package foreign

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// TestGabColumnar reads the compact "version 2" layout (a real excerpt)
// and checks it against the same runs written in the classic layout:
// every run, result, sample, direction and artifact is the same, the
// missing value is no result, and the go names are taken apart.
func TestGabColumnar(t *testing.T) {
	name := filepath.Join("testdata", "gab", "columnar.js")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// Detected as gab, as data.js and as plain JSON (external-data-json-path).
	plain := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(string(data), "window.BENCHMARK_DATA = ")), ";")
	for _, in := range []Input{{Name: "data.js", Data: data}, {Name: "data.json", Data: []byte(plain)}} {
		if f, err := Detect(in); err != nil || f.Name != "gab" {
			t.Errorf("Detect(%s) = %q, %v; want gab", in.Name, f.Name, err)
		}
	}
	runs, problems := readGab(Input{Name: name, Data: data}, bmfDefaults)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs, want 6", len(runs))
	}
	var results int
	for _, r := range runs {
		results += len(r.Results)
	}
	if results != 5*6-1 {
		t.Errorf("%d results, want 29 (the last run did not measure one series)", results)
	}
	first := runs[0]
	if first.Artifact.PR != 4366 || first.Artifact.Date.IsZero() {
		t.Errorf("first artifact %+v: want PR 4366 from the merge message and a date", first.Artifact)
	}
	if got, _ := first.Context.Get("pkg"); got != "github.com/gofiber/fiber/v3" {
		t.Errorf("context pkg %q", got)
	}
	byMetric := map[string]model.Result{}
	for _, r := range first.Results {
		byMetric[r.Case.Benchmark+" "+r.Metric] = r
	}
	for key, want := range map[string]struct {
		unit string
		dir  model.Direction
		v    float64
	}{
		"_NewError wall-time": {"ns", model.LowerIsBetter, 63.42},
		"_NewError B/op":      {"B/op", model.LowerIsBetter, 24},
		// A rate under tool go is left to its unit (the action's
		// "smaller is better" for MB/s is a known bug): no direction here.
		"AppendMsgredirectionMsg throughput": {"B/s", "", 1905.53e6},
	} {
		r, ok := byMetric[key]
		if !ok {
			t.Errorf("no result %q in %v", key, cmp.Diff(nil, byMetric))
			continue
		}
		if r.Unit != want.unit || r.Direction != want.dir || len(r.Samples) != 1 || r.Samples[0] != want.v {
			t.Errorf("%s: unit %q dir %v samples %v, want %q %v [%v]", key, r.Unit, r.Direction, r.Samples, want.unit, want.dir, want.v)
		}
	}

	// The same runs in the classic layout, one suite, tool go.
	classic, cproblems := readGab(Input{Name: "classic.js", Data: classicOf(t, data)}, bmfDefaults)
	if len(cproblems) > 0 {
		t.Fatalf("classic problems: %v", cproblems)
	}
	for i := range classic {
		var ps model.Params
		for _, kv := range classic[i].Context {
			if kv.Key != "suite" {
				ps = append(ps, kv)
			}
		}
		classic[i].Context = ps
	}
	if d := cmp.Diff(classic, runs); d != "" {
		t.Errorf("version 2 and classic layouts differ (-classic +columnar):\n%s", d)
	}
}

// classicOf writes a version 2 data file in the classic layout: one suite
// of tool go, an entry per run with a record per measured series.
func classicOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var v2 struct {
		Runs   []map[string]any `json:"runs"`
		Names  []string         `json:"names"`
		Units  []string         `json:"units"`
		Values [][]*float64     `json:"values"`
	}
	body := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(string(data), "window.BENCHMARK_DATA = ")), ";")
	if err := json.Unmarshal([]byte(body), &v2); err != nil {
		t.Fatal(err)
	}
	var entries []map[string]any
	for i, run := range v2.Runs {
		var benches []map[string]any
		for j, name := range v2.Names {
			if x := v2.Values[j][i]; x != nil {
				benches = append(benches, map[string]any{"name": name, "unit": v2.Units[j], "value": *x})
			}
		}
		entries = append(entries, map[string]any{"commit": run, "tool": "go", "benches": benches})
	}
	out, err := json.Marshal(map[string]any{"entries": map[string]any{"fiber": entries}})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("window.BENCHMARK_DATA = "), out...)
}
