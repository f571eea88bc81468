package foreign

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

func gabRes(bench string, params model.Params, metric, unit string, dir model.Direction, samples ...float64) model.Result {
	return model.Result{Case: model.TestCase{Benchmark: bench, Params: params}, Metric: metric, Unit: unit, Direction: dir, Samples: samples}
}

// withRange gives r the range the tool printed beside its value.
func withRange(r model.Result, rng string) model.Result {
	r.Range = rng
	return r
}

// gabDefaults are bmfDefaults with a direction for custom arrays.
func gabDefaults(better string) Defaults {
	d := bmfDefaults
	if better != "" {
		d.Context = model.Params{{Key: GabBetter, Value: better}, {Key: "toolchain", Value: "go1.26"}}
	}
	return d
}

func FuzzGab(f *testing.F) {
	for _, file := range []string{"data.js", "history.js", "external.json", "custom-bigger.json", "custom-smaller.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "gab", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "")
	}
	f.Add([]byte(`[{"name": "a", "unit": "ns/op\t 1 B/op", "value": "1e5"}]`), "higher")
	f.Add([]byte(`{"entries": {"s": [{"commit": {"id": "x", "url": "/pull/99999999999/commits/x"}, "date": 1e300, "tool": "go", "benches": [{"name": "BenchmarkA/x=1 (p) - ns/op", "value": 1, "unit": "ns/op"}]}]}}`), "lower")
	format, _ := Lookup("gab")
	f.Fuzz(func(t *testing.T, data []byte, better string) {
		in := Input{Name: "f.js", Data: data}
		format.Sniff(in)
		def := bmfDefaults
		def.Context = model.Params{{Key: GabBetter, Value: better}}
		runs, probs := format.Read(in, def)
		for _, p := range probs {
			if p.Fatal && len(runs) > 0 {
				t.Fatalf("fatal problem %q with %d runs", p.Error(), len(runs))
			}
		}
		if len(runs) == 0 && len(probs) == 0 {
			t.Fatal("no runs and no problem")
		}
		for _, r := range runs {
			if len(r.Results) == 0 {
				t.Fatal("run without results")
			}
			if _, ok := r.Context.Get(GabBetter); ok {
				t.Fatal("context keeps the direction key")
			}
			for _, res := range r.Results {
				if len(res.Samples) == 0 {
					t.Fatalf("result %s %s without samples", res.Case, res.Metric)
				}
			}
		}
	})
}

// TestGabPytestSummary pins what the reader keeps of pytest's records:
// the summary statistics of the time per round, in seconds; pooled when a
// commit ran twice; dropped, with a warning, when unusable.
func TestGabPytestSummary(t *testing.T) {
	name := filepath.Join("testdata", "gab", "pytest.js")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	runs, probs := bmfRead(t, "gab", name, data, gabDefaults(""))
	type got struct {
		Commit, Bench string
		Samples       []float64
		Summary       *model.SampleSummary
	}
	var have []got
	for _, r := range runs {
		for _, res := range r.Results {
			have = append(have, got{r.Artifact.ID[len(r.Artifact.ID)-1:], res.Case.Benchmark, res.Samples, res.Summary})
		}
	}
	// The re-run of commit 2: 10 rounds of mean 0.5 ms, sd 0.1 ms, and 30
	// of mean 1 ms, sd 0.2 ms pool into 40 rounds of mean 0.875 ms; in
	// ms², Σ(x − 0.875)² = 9·0.1² + 10·0.375² + 29·0.2² + 30·0.125² =
	// 0.09 + 1.40625 + 1.16 + 0.46875 = 3.125, so sd = √(3.125 / 39) ms.
	want := []got{
		{"1", "tests/test_write.py::test_write[basic]", []float64{147.83268446516956}, &model.SampleSummary{Mean: 6.764403985612581e-3, StdDev: 0.0020886163795779695, N: 139}},
		{"1", "tests/test_write.py::test_write[disk]", []float64{98.26454549470019}, nil},
		{"1", "tests/test_write.py::test_read[basic]", []float64{435.2041153743879}, nil},
		{"2", "tests/test_write.py::test_write[basic]", []float64{2000, 1000}, &model.SampleSummary{Mean: 0.875e-3, StdDev: math.Sqrt(3.125/39) * 1e-3, N: 40}},
	}
	approx := cmp.Comparer(func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-15*math.Max(math.Abs(x), math.Abs(y)) })
	if diff := cmp.Diff(want, have, approx); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	wantProbs := []string{`testdata/gab/pytest.js:28: benchmark "tests/test_write.py::test_write[disk]": stddev "-0.5" is not usable; its summary statistics are ignored`}
	if diff := cmp.Diff(wantProbs, bmfProblems(probs)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestGabFiles: without an artifact pattern a gab source reads data.js
// and JSON files (the action's external data file), not what a site keeps
// beside data.js: the action's index.html, or a site's own chart scripts.
func TestGabFiles(t *testing.T) {
	f, _ := Lookup("gab")
	for name, want := range map[string]bool{
		"dev/bench/data.js": true, "data.js": true, "cache/benchmark-data.json": true,
		"dev/bench/index.html": false, "dev/bench/Chart.min.js": false, "dev/bench/main.js": false, "README.md": false,
	} {
		if got := f.Wants(name); got != want {
			t.Errorf("Wants(%q) = %v, want %v", name, got, want)
		}
	}
}
