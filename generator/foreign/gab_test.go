package foreign

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// withSummary gives r pytest's summary statistics (seconds).
func withSummary(r model.Result, mean, stddev float64, n int) model.Result {
	r.Summary = &model.SampleSummary{Mean: mean, StdDev: stddev, N: n}
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

func withParent(a model.Artifact, parent string) model.Artifact {
	a.Parents = []string{parent}
	return a
}

func gabCtx(kv ...string) model.Params {
	m := map[string]string{"toolchain": "go1.26"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return model.NewParams(m)
}

func TestGabFixtures(t *testing.T) {
	const (
		c1 = "3e9b1f4c2a7d8e6f5b4c3a2918f7e6d5c4b3a291"
		c2 = "9d2c7e1a4b6f8d0c3e5a7b9d1f2e4c6a8b0d2f47"
		c3 = "b7e4d1a8c5f2e9b6d3a0c7f4e1b8d5a2c9f6e3b0"
	)
	lo, hi := model.LowerIsBetter, model.HigherIsBetter
	custom := func(results ...model.Result) []model.Run {
		return []model.Run{{Artifact: bmfDefaults.Artifact, Machine: bmfDefaults.Machine, Context: gabCtx(), Results: results}}
	}
	a1 := model.Artifact{ID: c1, Kind: model.KindCommit, Date: time.Date(2025, 11, 20, 9, 15, 0, 0, time.UTC), Branch: "main", PR: 41, Title: "Speed up memtable inserts (#41)", Author: "Ada Lovelace"}
	a2 := model.Artifact{ID: c2, Kind: model.KindCommit, Date: time.Date(2025, 11, 21, 16, 40, 12, 0, time.UTC), Parents: []string{c1}, Branch: "main", PR: 42, Title: "Faster sstable scans", Author: "GitHub"}
	// A pull_request run is dated when it ran (the entry's date).
	a3 := model.Artifact{ID: c3, Kind: model.KindTry, Date: time.UnixMilli(1763798402011).UTC(), PR: 43, Title: "Add an LRU cache", Author: "octo"}
	put := model.Params{{Key: "procs", Value: "4"}, {Key: "size", Value: "64"}}
	procs := model.Params{{Key: "procs", Value: "4"}}
	goCtx, srvCtx := gabCtx("suite", "Go Benchmark"), gabCtx("suite", "Server throughput")
	tests := []struct {
		name, file, better string
		want               []model.Run
		probs              []string
	}{
		{
			name: "custom bigger is better", file: "custom-bigger.json", better: "higher",
			want: custom(
				withRange(gabRes("GET requests", nil, "throughput", "req/s", hi, 48210.5), "± 1.8%"),
				gabRes("Cache hit ratio", nil, "percent", "Percent", hi, 93.1),
			),
		},
		{
			name: "custom without a direction", file: "custom-bigger.json",
			want: []model.Run{{Artifact: bmfDefaults.Artifact, Machine: bmfDefaults.Machine, Context: bmfDefaults.Context, Results: []model.Result{
				withRange(gabRes("GET requests", nil, "throughput", "req/s", "", 48210.5), "± 1.8%"),
				gabRes("Cache hit ratio", nil, "percent", "Percent", "", 93.1),
			}}},
			probs: []string{`testdata/gab/custom-bigger.json:8: unit "Percent" does not say which way is better: lower is assumed (pass context better=higher for customBiggerIsBetter)`},
		},
		{
			name: "custom smaller is better, tool name as direction", file: "custom-smaller.json", better: "customSmallerIsBetter",
			want: custom(
				withRange(gabRes("Cold start", nil, "wall-time", "ms", lo, 412.7, 405.2), "9.3, 7.9"),
				gabRes("Peak memory", nil, "size", "MB", lo, 187.5),
			),
		},
		{
			name: "data.js", file: "data.js", better: "higher", // a data file's tools decide; better is dropped
			want: []model.Run{
				{Artifact: a1, Machine: bmfDefaults.Machine, Context: goCtx, Results: []model.Result{
					gabRes("Put", put, "wall-time", "ns", lo, 812.4, 820.1),
					gabRes("Put", put, "B/op", "B/op", lo, 96, 96),
					gabRes("Put", put, "allocs/op", "allocs/op", lo, 2, 2),
					gabRes("Get", procs, "wall-time", "ns", lo, 41.7, 42.3),
					gabRes("Get", procs, "B/op", "B/op", lo, 0, 0),
					gabRes("Get", procs, "allocs/op", "allocs/op", lo, 0, 0),
				}},
				{Artifact: a2, Machine: bmfDefaults.Machine, Context: goCtx, Results: []model.Result{
					gabRes("Put", put, "wall-time", "ns", lo, 655),
					gabRes("Put", put, "B/op", "B/op", lo, 48),
					gabRes("Put", put, "allocs/op", "allocs/op", lo, 1),
					gabRes("Get", procs, "wall-time", "ns", lo, 40.9),
					gabRes("Get", procs, "B/op", "B/op", lo, 0),
					gabRes("Get", procs, "allocs/op", "allocs/op", lo, 0),
					gabRes("Scan", procs, "wall-time", "ns", lo, 6497),
					gabRes("Scan", procs, "throughput", "B/s", "", 157610000),
				}},
				{Artifact: a1, Machine: bmfDefaults.Machine, Context: srvCtx, Results: []model.Result{
					withRange(gabRes("GET requests", nil, "throughput", "req/s", hi, 48210.5), "± 1.8%"),
					withRange(gabRes("PUT requests", nil, "throughput", "req/s", hi, 20517), "± 2.4%"),
					gabRes("Cache hit ratio", nil, "percent", "Percent", hi, 93.1),
				}},
			},
		},
		{
			name: "external JSON with a pull_request run", file: "external.json",
			want: []model.Run{{Artifact: a3, Machine: bmfDefaults.Machine, Context: model.NewParams(map[string]string{"suite": "Python Benchmark", "toolchain": "go1.26"}), Results: []model.Result{
				withSummary(gabRes("tests/bench_lru.py::test_get[1000]", nil, "throughput", "iter/s", "", 59573.92304802095), 16.785867856879705e-6, 4.841850108131118e-7, 40161),
				withSummary(gabRes("tests/bench_lru.py::test_put[1000]", nil, "throughput", "iter/s", "", 491.2448849803738), 2.0356446053172688e-3, 0.000010189729343406933, 489),
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join("testdata", "gab", tt.file)
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			runs, probs := bmfRead(t, "gab", name, data, gabDefaults(tt.better))
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.probs, bmfProblems(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGabInput(t *testing.T) {
	lo := model.LowerIsBetter
	commit := func(id string) model.Artifact {
		return model.Artifact{ID: id, Kind: model.KindCommit, Branch: "main"}
	}
	type run struct {
		art     model.Artifact
		ctx     model.Params
		results []model.Result
	}
	tests := []struct {
		name, better, data string
		want               []run
		probs              []string
	}{
		{
			name:  "truncated data.js",
			data:  "window.BENCHMARK_DATA = {\n  \"entries\": {\n    \"s\": [",
			probs: []string{"x.js:3: syntax error: unexpected end of JSON input (truncated file?) (fatal)"},
		},
		{
			name:  "data.js without its assignment",
			data:  "\nwindow.BENCHMARK_DATA {}",
			probs: []string{"x.js:2: want '=' after window.BENCHMARK_DATA (fatal)"},
		},
		{
			name:  "data.js holding an array",
			data:  "window.BENCHMARK_DATA = []",
			probs: []string{"x.js:1: want an object with entries after window.BENCHMARK_DATA =, found a list (fatal)"},
		},
		{
			name:  "not an array or object",
			data:  "42",
			probs: []string{"x.js:1: want a JSON array of {name, unit, value} or a data.js object with entries, found an integer (fatal)"},
		},
		{
			name:  "empty benchmark list",
			data:  "[]",
			probs: []string{"x.js:1: empty benchmark list", "x.js: no usable benchmark results (fatal)"},
		},
		{
			name:  "object without entries",
			data:  `{"lastUpdate": 1, "repoUrl": "https://github.com/x/y"}`,
			probs: []string{`x.js:1: no "entries": not a github-action-benchmark data file (fatal)`},
		},
		{
			name: "wrong types keep the good entries",
			data: "[\n" +
				`{"name": "a", "unit": "ms", "value": "fast"},` + "\n" +
				`3,` + "\n" +
				`{"unit": "ms", "value": 1},` + "\n" +
				`{"name": "c", "unit": "ms"},` + "\n" +
				`{"name": "d", "unit": "ms", "value": null},` + "\n" +
				`{"name": "e", "unit": "ms", "value": -4},` + "\n" +
				`{"name": "b", "unit": "ms", "value": 2, "note": "x"}` + "\n]",
			better: "lower",
			want:   []run{{bmfDefaults.Artifact, gabCtx(), []model.Result{gabRes("b", nil, "wall-time", "ms", lo, 2)}}},
			probs: []string{
				`x.js:2: benchmark "a": value "fast" is not a number; skipped`,
				`x.js:3: a benchmark result must be an object, found an integer; skipped`,
				`x.js:4: benchmark result without a name; skipped`,
				`x.js:5: benchmark "c": no value; skipped`,
				`x.js:6: benchmark "d": value must be a number, found null; skipped`,
				`x.js:8: unknown benchmark result field "note" ignored`,
				`x.js:7: benchmark "e": value -4 is negative for unit "ms"; skipped`, // found when the value is added, after all records are read
			},
		},
		{
			name:   "duplicated names are repetitions",
			better: "lower",
			data:   `[{"name": "a", "unit": "µs", "value": 1.5}, {"name": "a", "unit": "us", "value": 1.25}, {"name": "a", "unit": "ns", "value": 1300}]`,
			want:   []run{{bmfDefaults.Artifact, gabCtx(), []model.Result{gabRes("a", nil, "wall-time", "us", lo, 1.5, 1.25, 1.3)}}},
		},
		{
			name: "unknown and missing units are kept with a warning",
			data: `[{"name": "a", "unit": "widgets", "value": 3}, {"name": "b", "value": 4}, {"name": "c", "unit": "widgets", "value": 5}]`,
			want: []run{{bmfDefaults.Artifact, bmfDefaults.Context, []model.Result{
				gabRes("a", nil, "widgets", "widgets", "", 3),
				gabRes("b", nil, "value", "", "", 4),
				gabRes("c", nil, "widgets", "widgets", "", 5),
			}}},
			probs: []string{
				`x.js:1: unit "widgets" does not say which way is better: lower is assumed (pass context better=higher for customBiggerIsBetter)`,
				`x.js:1: benchmark "b" has no unit; kept as metric "value"`,
				`x.js:1: unit "" does not say which way is better: lower is assumed (pass context better=higher for customBiggerIsBetter)`,
			},
		},
		{
			name:   "a direction that is neither higher nor lower",
			better: "bigger",
			data:   `[{"name": "a", "unit": "ns", "value": 3}]`,
			want:   []run{{bmfDefaults.Artifact, gabCtx(), []model.Result{gabRes("a", nil, "wall-time", "ns", "", 3)}}},
			probs:  []string{`x.js: context better="bigger": want higher or lower; ignored`},
		},
		{
			name: "bad entries of a data file",
			data: "{\"entries\": {\"s\": [\n" +
				`{"commit": {"message": "no id"}, "tool": "go", "benches": [{"name": "BenchmarkA", "value": 1, "unit": "ns/op"}]},` + "\n" +
				`{"commit": {"id": "aaaa111", "timestamp": "yesterday"}, "date": 1763630712345, "tool": "zig", "benches": [` + "\n" +
				`{"name": "a", "value": -1, "unit": "ms"}, {"name": "b", "value": 2, "unit": "ms"}]},` + "\n" +
				`{"commit": {"id": "bbbb222"}, "tool": "go", "benches": []},` + "\n" +
				`{"commit": {"id": "cccc333"}, "tool": "go"},` + "\n" +
				`"entry"],` + "\n" +
				`"t": 5, "u": []}, "extra": 1}`,
			want: []run{{
				model.Artifact{ID: "aaaa111", Kind: model.KindCommit, Branch: "main", Date: time.UnixMilli(1763630712345).UTC()},
				gabCtx("suite", "s"),
				[]model.Result{gabRes("b", nil, "wall-time", "ms", "", 2)},
			}},
			probs: []string{
				`x.js:8: unknown field "extra" ignored`,
				`x.js:2: suite "s": entry without a commit id; skipped`,
				`x.js:3: commit aaaa111: timestamp "yesterday" is not an RFC 3339 date; using the entry's date`,
				`x.js:3: suite "s": unknown tool "zig"; directions follow the units`,
				`x.js:5: suite "s", commit bbbb222: empty benchmark list`,
				`x.js:6: suite "s", commit cccc333: no benches array; skipped`,
				`x.js:7: suite "s": an entry must be an object, found a string; skipped`,
				`x.js:8: suite "t": want an array of entries, found an integer; skipped`,
				`x.js:8: suite "u" has no entries`,
				// Benchmark records are read once every entry's commit is.
				`x.js:4: benchmark "a": value -1 is negative for unit "ms"; skipped`,
			},
		},
		{
			name: "go tool names, packages and units",
			data: `{"entries": {"go": [{"commit": {"id": "c1"}, "tool": "go", "benches": [
				{"name": "BenchmarkFoo (example.com/a)", "value": 100, "unit": "ns/op"},
				{"name": "BenchmarkFoo (example.com/b) - ns/op", "value": 200, "unit": "ns/op"},
				{"name": "BenchmarkBar/n=1/n=2/sub1=x", "value": 0.5, "unit": "sec/op", "extra": "10 times\n8 procs"},
				{"name": "BenchmarkOdd", "value": 5, "unit": "ns/op\t 3"},
				{"name": "BenchmarkRate-ish", "value": 7, "unit": "ns/op\t x MB/s\t 12 B/op"}
			]}]}}`,
			want: []run{
				{commit("c1"), gabCtx("suite", "go", "pkg", "example.com/a"), []model.Result{gabRes("Foo", nil, "wall-time", "ns", lo, 100)}},
				{commit("c1"), gabCtx("suite", "go", "pkg", "example.com/b"), []model.Result{gabRes("Foo", nil, "wall-time", "ns", lo, 200)}},
				{commit("c1"), gabCtx("suite", "go"), []model.Result{
					gabRes("Bar", model.NewParams(map[string]string{"n": "1", "sub2": "n=2", "sub3": "sub1=x", "procs": "8"}), "wall-time", "ns", lo, 500000000),
					gabRes("Odd", nil, "wall-time", "ns", lo, 5),
					gabRes("Rate-ish", nil, "wall-time", "ns", lo, 7),
					gabRes("Rate-ish", nil, "B/op", "B/op", lo, 12),
				}},
			},
			probs: []string{
				`x.js:4: benchmark "BenchmarkBar/n=1/n=2/sub1=x": sub-benchmark key "sub1" given twice or reserved; kept as a positional part`,
				`x.js:5: benchmark "BenchmarkOdd": unit "ns/op\t 3" ends in a value without a unit; ignored`,
				`x.js:6: benchmark "BenchmarkRate-ish": "x" in unit "ns/op\t x MB/s\t 12 B/op" is not a number; ignored`,
			},
		},
		{
			name: "a series keeps its first time unit",
			data: `{"entries": {"catch2": [
				{"commit": {"id": "c1"}, "tool": "catch2", "benches": [{"name": "Fib 20", "value": 41.731, "unit": "us"}]},
				{"commit": {"id": "c2"}, "tool": "catch2", "benches": [{"name": "Fib 20", "value": 0.0398, "unit": "ms"}]},
				{"commit": {"id": "c1"}, "tool": "catch2", "benches": [{"name": "Fib 20", "value": "40100", "unit": "ns"}]}
			]}}`,
			want: []run{
				{commit("c1"), gabCtx("suite", "catch2"), []model.Result{gabRes("Fib 20", nil, "wall-time", "us", lo, 41.731, 40.1)}},
				{withParent(commit("c2"), "c1"), gabCtx("suite", "catch2"), []model.Result{gabRes("Fib 20", nil, "wall-time", "us", lo, 39.8)}},
			},
		},
		{
			name: "titles and PR numbers from commit messages",
			data: `{"entries": {"s": [
				{"commit": {"id": "c1", "message": "Auto merge of #7 - a:b, r=x\n\nMake it fast"}, "tool": "cargo", "benches": [{"name": "a", "value": 1, "unit": "ns/iter"}]},
				{"commit": {"id": "c2", "message": "Plain subject\nbody", "branch": "dev", "author": {"username": "u"}}, "tool": "cargo", "benches": [{"name": "a", "value": 2, "unit": "ns/iter"}]}
			]}}`,
			want: []run{
				{model.Artifact{ID: "c1", Kind: model.KindCommit, Branch: "main", PR: 7, Title: "Make it fast"}, gabCtx("suite", "s"), []model.Result{gabRes("a", nil, "wall-time", "ns", lo, 1)}},
				{model.Artifact{ID: "c2", Kind: model.KindCommit, Branch: "dev", Title: "Plain subject", Author: "u"}, gabCtx("suite", "s"), []model.Result{gabRes("a", nil, "wall-time", "ns", lo, 2)}},
			},
		},
		{
			name: "named tools: rates follow their unit",
			data: `{"entries": {"s": [{"commit": {"id": "c1"}, "tool": "jmh", "benches": [
				{"name": "x.Bench.thrpt", "value": 1200.5, "unit": "ops/s"},
				{"name": "x.Bench.avgt", "value": 0.8, "unit": "us/op"}]}]}}`,
			want: []run{{commit("c1"), gabCtx("suite", "s"), []model.Result{
				gabRes("x.Bench.thrpt", nil, "throughput", "ops/s", "", 1200.5),
				gabRes("x.Bench.avgt", nil, "wall-time", "us", lo, 0.8),
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, probs := bmfRead(t, "gab", "x.js", []byte(tt.data), gabDefaults(tt.better))
			var want []model.Run
			for _, r := range tt.want {
				want = append(want, model.Run{Artifact: r.art, Machine: bmfDefaults.Machine, Context: r.ctx, Results: r.results})
			}
			if diff := cmp.Diff(want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.probs, bmfProblems(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGabSniff(t *testing.T) {
	f, _ := Lookup("gab")
	for _, file := range []string{"data.js", "history.js", "external.json", "custom-bigger.json", "custom-smaller.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "gab", file))
		if err != nil {
			t.Fatal(err)
		}
		if !f.Sniff(Input{Name: file, Data: data}) {
			t.Errorf("Sniff rejects %s", file)
		}
		if got, err := Detect(Input{Name: file, Data: data}); err != nil || got.Name != "gab" {
			t.Errorf("Detect(%s) = %q, %v; want gab", file, got.Name, err)
		}
	}
	others := map[string]string{}
	for k, v := range bmfOthers {
		others[k] = v
	}
	for _, file := range []string{"harness.json", "iai.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bmf", file))
		if err != nil {
			t.Fatal(err)
		}
		others["bmf "+file] = string(data)
	}
	others["array of arrays"] = `[[1, 2]]`
	others["nested value"] = `[{"name": "a", "unit": "ns", "value": {"x": 1}}]`
	for name, data := range others {
		if f.Sniff(Input{Name: name, Data: []byte(data)}) {
			t.Errorf("Sniff accepts %s", name)
		}
	}
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
