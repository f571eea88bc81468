package foreign

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// bmfDefaults is what a caller of the BMF and gab tests knows.
var bmfDefaults = Defaults{
	Artifact: model.Artifact{ID: "0123456789abcdef0123456789abcdef01234567", Kind: model.KindCommit, Branch: "main"},
	Machine:  model.Machine{Name: "ci-linux"},
	Context:  model.Params{{Key: "toolchain", Value: "go1.26"}},
}

// bmfProblems renders problems as "file:line: msg", with " (fatal)" for
// fatal ones, for comparison.
func bmfProblems(ps []archive.Problem) []string {
	var out []string
	for _, p := range ps {
		s := p.Error()
		if p.Fatal {
			s += " (fatal)"
		}
		out = append(out, s)
	}
	return out
}

func bmfRead(t *testing.T, format, name string, data []byte, def Defaults) ([]model.Run, []archive.Problem) {
	t.Helper()
	f, ok := Lookup(format)
	if !ok {
		t.Fatalf("format %s is not registered", format)
	}
	return f.Read(Input{Name: name, Data: data}, def)
}

func bmfRes(bench string, cat model.Category, metric, unit string, samples ...float64) model.Result {
	return model.Result{Case: model.TestCase{Benchmark: bench, Category: cat}, Metric: metric, Unit: unit, Samples: samples}
}

func TestBmfFixtures(t *testing.T) {
	run := func(results ...model.Result) []model.Run {
		return []model.Run{{Artifact: bmfDefaults.Artifact, Machine: bmfDefaults.Machine, Context: bmfDefaults.Context, Results: results}}
	}
	tests := []struct {
		file string
		want []model.Run
	}{
		{"harness.json", run(
			bmfRes("parse/small", "", "wall-time", "ns", 1843.2),
			bmfRes("parse/small", "", "throughput", "ops/s", 542535),
			bmfRes("parse/large", "", "wall-time", "ns", 98211.5),
			bmfRes("parse/large", "", "throughput", "ops/s", 10182.1),
			bmfRes("/bin/sh -c ./build.sh", "", "build-time", "s", 87),
			bmfRes("target/release/kvd", "", "file-size", "B", 4281344),
			bmfRes("warmup", model.Secondary, "wall-time", "ns", 5120),
		)},
		{"iai.json", run(
			bmfRes("bench_fib::short::fib_10", "", "instructions", "instructions", 1734),
			bmfRes("bench_fib::short::fib_10", "", "l1-hits", "hits", 2359),
			bmfRes("bench_fib::short::fib_10", "", "l2-hits", "hits", 0),
			bmfRes("bench_fib::short::fib_10", "", "ram-hits", "hits", 3),
			bmfRes("bench_fib::short::fib_10", "", "total-read-write", "reads/writes", 2362),
			bmfRes("bench_fib::short::fib_10", "", "estimated-cycles", "cycles", 2464),
			bmfRes("bench_fib::long::fib_30", "", "instructions", "instructions", 26214735),
			bmfRes("bench_fib::long::fib_30", "", "l1-hits", "hits", 35638623),
			bmfRes("bench_fib::long::fib_30", "", "l2-hits", "hits", 2),
			bmfRes("bench_fib::long::fib_30", "", "ram-hits", "hits", 4),
			bmfRes("bench_fib::long::fib_30", "", "total-read-write", "reads/writes", 35638629),
			bmfRes("bench_fib::long::fib_30", "", "estimated-cycles", "cycles", 35638773),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			name := filepath.Join("testdata", "bmf", tt.file)
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			runs, probs := bmfRead(t, "bmf", name, data, bmfDefaults)
			if len(probs) > 0 {
				t.Errorf("problems: %q", bmfProblems(probs))
			}
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBmfBadInput(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		want  []model.Result // nil: no run
		probs []string
	}{
		{
			name:  "truncated file",
			data:  "{\n  \"a\": {\n    \"latency\": {\"value\": 1",
			probs: []string{"x.json:3: syntax error: unexpected end of JSON input (truncated file?) (fatal)"},
		},
		{
			name:  "syntax error names its line",
			data:  "{\n\"a\": {\"latency\": {\"value\": 1}},\n\"b\": {\"latency\": {\"value\": 2,}}\n}",
			probs: []string{"x.json:3: syntax error: invalid character '}' looking for beginning of object key string (fatal)"},
		},
		{
			name:  "empty file",
			data:  " \n",
			probs: []string{"x.json: empty document (fatal)"},
		},
		{
			name:  "not an object",
			data:  `[{"name": "a", "value": 1}]`,
			probs: []string{"x.json:1: want a JSON object of benchmarks (Bencher Metric Format), found a list (fatal)"},
		},
		{
			name:  "empty benchmark list",
			data:  "{}",
			probs: []string{"x.json:1: no benchmarks (fatal)"},
		},
		{
			name: "wrong types keep the good entries",
			data: "{\n" +
				`"a": {"latency": {"value": "fast"}},` + "\n" +
				`"b": [1, 2],` + "\n" +
				`"c": {"latency": 12},` + "\n" +
				`"d": {"latency": {"value": 7, "lower_value": "x"}}` + "\n}",
			want: []model.Result{bmfRes("d", "", "wall-time", "ns", 7)},
			probs: []string{
				`x.json:2: benchmark "a", measure "latency": value must be a number, found a string; skipped`,
				`x.json:3: benchmark "b": want an object of measures, found a list; skipped`,
				`x.json:4: benchmark "c", measure "latency": want an object with a value, found an integer; skipped`,
				`x.json:5: benchmark "d", measure "latency": lower_value must be a number, found a string; ignored`,
			},
		},
		{
			name: "duplicated names are merged as samples",
			data: "{\n" +
				`"a": {"latency": {"value": 10}},` + "\n" +
				`"a": {"latency": {"value": 11}, "Latency": {"value": 12}}` + "\n}",
			want: []model.Result{bmfRes("a", "", "wall-time", "ns", 10, 11, 12)},
			probs: []string{
				`x.json:3: benchmark "a" appears again (first at line 2); its measures are merged`,
				`x.json:3: benchmark "a": measure "Latency" repeats metric wall-time (first at line 3); both values kept as samples`,
			},
		},
		{
			name: "unknown measure is kept with a warning",
			data: `{"a": {"peak-rss": {"value": 1024}}, "b": {"peak-rss": {"value": 2048}}}`,
			want: []model.Result{bmfRes("a", "", "peak-rss", "", 1024), bmfRes("b", "", "peak-rss", "", 2048)},
			probs: []string{
				`x.json:1: measure "peak-rss" is not a Bencher built-in measure: kept as metric "peak-rss" with no unit (lower is better unless [metrics."peak-rss"] says otherwise)`,
			},
		},
		{
			name: "measures named like units name their quantity",
			data: `{"a": {"%": {"value": 12.5}, "µs": {"value": 3}, "MB": {"value": 20}}, "b": {"%": {"value": 7}}}`,
			want: []model.Result{bmfRes("a", "", "percent", "%", 12.5), bmfRes("a", "", "wall-time", "us", 3), bmfRes("a", "", "size", "MB", 20), bmfRes("b", "", "percent", "%", 7)},
			probs: []string{
				`x.json:1: measure "%" is a unit, not a Bencher built-in measure: kept as metric "percent" in %`,
				`x.json:1: measure "µs" is a unit, not a Bencher built-in measure: kept as metric "wall-time" in us`,
				`x.json:1: measure "MB" is a unit, not a Bencher built-in measure: kept as metric "size" in MB`,
			},
		},
		{
			name: "invalid values and bounds",
			data: "{\"a\": {\n" +
				`"latency": {"value": -5},` + "\n" +
				`"throughput": {"value": 1e999},` + "\n" +
				`"file-size": {"value": 10, "lower_value": 11, "upper_value": 9, "unit": "B"},` + "\n" +
				`"build-time": {"lower_value": 1}` + "\n}}",
			want: []model.Result{bmfRes("a", "", "file-size", "B", 10)},
			probs: []string{
				`x.json:2: benchmark "a", measure "latency": value is negative (-5) for unit "ns"; skipped`,
				`x.json:3: benchmark "a", measure "throughput": value 1e999 is out of range; skipped`,
				`x.json:4: benchmark "a", measure "file-size": unknown field "unit" ignored`,
				`x.json:4: benchmark "a", measure "file-size": lower_value 11 is above the value 10`,
				`x.json:4: benchmark "a", measure "file-size": upper_value 9 is below the value 10`,
				`x.json:5: benchmark "a", measure "build-time": no value; skipped`,
			},
		},
		{
			name: "nothing usable is fatal",
			data: `{"a": {}, "": {"latency": {"value": 1}}}`,
			probs: []string{
				`x.json:1: benchmark "a" has no measures; skipped`,
				`x.json:1: benchmark with an empty name; skipped`,
				`x.json: no usable benchmark results (fatal)`,
			},
		},
		{
			name:  "trailing text is a warning",
			data:  "{\"a\": {\"latency\": {\"value\": 3}}}\nnot json",
			want:  []model.Result{bmfRes("a", "", "wall-time", "ns", 3)},
			probs: []string{"x.json:2: unexpected text after the JSON object; ignored"},
		},
		{
			name: "ignore suffixes",
			data: `{"a_bencher_ignore": {"latency": {"value": 1}}, "bBencherIgnore": {"latency": {"value": 2}}}`,
			want: []model.Result{bmfRes("a", model.Secondary, "wall-time", "ns", 1), bmfRes("b", model.Secondary, "wall-time", "ns", 2)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, probs := bmfRead(t, "bmf", "x.json", []byte(tt.data), bmfDefaults)
			var want []model.Run
			if tt.want != nil {
				want = []model.Run{{Artifact: bmfDefaults.Artifact, Machine: bmfDefaults.Machine, Context: bmfDefaults.Context, Results: tt.want}}
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

// bmfOthers are the openings of the other formats' files, which neither
// bmf nor gab may claim.
var bmfOthers = map[string]string{
	"googlebench":      `{"context": {"date": "2025-11-20T10:00:00+00:00", "host_name": "ci", "num_cpus": 2}, "benchmarks": [{"name": "BM_X", "real_time": 1}]}`,
	"benchmarks only":  `{"benchmarks": [{"name": "a", "value": 1}]}`,
	"pytest-benchmark": `{"machine_info": {"node": "ci", "cpu": {"brand_raw": "x"}}, "benchmarks": []}`,
	"hyperfine":        `{"results": [{"command": "sleep 0.1", "mean": 0.1, "times": [0.1]}]}`,
	"perfgate":         `{"schema": "perfgate.run.v1", "run": {"id": "x"}}`,
	"criterion":        `{"mean": {"confidence_interval": {"confidence_level": 0.95, "lower_bound": 1, "upper_bound": 2}, "point_estimate": 1.5, "standard_error": 0.1}}`,
	"asv benchmarks":   `{"bench.time_x": {"code": "def time_x(): pass", "name": "bench.time_x", "type": "time"}, "version": 2}`,
	"asv result":       `{"commit_hash": "abc", "env_name": "x", "results": {}}`,
	"gobench":          "goos: linux\ngoarch: amd64\nBenchmarkX-8  100  12.5 ns/op\n",
	"jmh":              `[{"jmhVersion": "1.37", "benchmark": "x", "primaryMetric": {"score": 1}}]`,
	"empty":            "",
	"bmf empty":        "{}",
}

func TestBmfSniff(t *testing.T) {
	f, _ := Lookup("bmf")
	for _, file := range []string{"harness.json", "iai.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bmf", file))
		if err != nil {
			t.Fatal(err)
		}
		if !f.Sniff(Input{Name: file, Data: data}) {
			t.Errorf("Sniff rejects %s", file)
		}
		if got, err := Detect(Input{Name: file, Data: data}); err != nil || got.Name != "bmf" {
			t.Errorf("Detect(%s) = %q, %v; want bmf", file, got.Name, err)
		}
	}
	others := map[string]string{}
	for k, v := range bmfOthers {
		others[k] = v
	}
	for _, file := range []string{"data.js", "external.json", "custom-bigger.json", "custom-smaller.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "gab", file))
		if err != nil {
			t.Fatal(err)
		}
		others["gab "+file] = string(data)
	}
	for name, data := range others {
		if f.Sniff(Input{Name: name, Data: []byte(data)}) {
			t.Errorf("Sniff accepts %s", name)
		}
	}
}

func FuzzBmf(f *testing.F) {
	for _, file := range []string{"harness.json", "iai.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bmf", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{`{"a": {"latency": {"value": 1e999}}}`, `{"a": {"x": {"value": -1, "lower_value": null}}}`, "{\"a\":", `[[[[[]]]]]`, `{"a": {"": {"value": 1}}}`} {
		f.Add([]byte(s))
	}
	format, _ := Lookup("bmf")
	f.Fuzz(func(t *testing.T, data []byte) {
		format.Sniff(Input{Name: "f.json", Data: data})
		runs, probs := format.Read(Input{Name: "f.json", Data: data}, bmfDefaults)
		for _, p := range probs {
			if p.Fatal && len(runs) > 0 {
				t.Fatalf("fatal problem %q with %d runs", p.Error(), len(runs))
			}
		}
		if len(runs) == 0 && len(probs) == 0 {
			t.Fatal("no runs and no problem")
		}
		for _, r := range runs {
			for _, res := range r.Results {
				if len(res.Samples) == 0 {
					t.Fatalf("result %s %s without samples", res.Case, res.Metric)
				}
			}
		}
	})
}
