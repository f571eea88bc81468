package foreign

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

const pytestDir = "testdata/pytest-benchmark"

// pytestSHA is the commit of the fixtures' repository (testdata README).
const pytestSHA = "e9871adc5504644a677c86ef654c13abb5ff1a29"

func pytestFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(pytestDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pytestParams builds params from key, value pairs.
func pytestParams(kv ...string) model.Params {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return model.NewParams(m)
}

func pytestRead(t testing.TB, name string, data []byte, def Defaults) ([]model.Run, []archive.Problem) {
	t.Helper()
	f, ok := Lookup("pytest-benchmark")
	if !ok {
		t.Fatal("pytest-benchmark is not registered")
	}
	if f.Dir {
		t.Fatal("pytest-benchmark must be a file format")
	}
	return f.Read(Input{Name: name, Data: data}, def)
}

// pytestResults builds the five results of the fixtures' test file, in
// file order, from their samples.
func pytestResults(fib5, fib10, list8, tuple8, plain []float64) []model.Result {
	wall := func(bench string, params model.Params, samples []float64) model.Result {
		return model.Result{
			Case:    model.TestCase{Benchmark: bench, Params: params, Category: model.Primary},
			Metric:  "wall-time",
			Unit:    "s",
			Samples: samples,
		}
	}
	return []model.Result{
		wall("test_fib", pytestParams("group", "fib", "n", "5"), fib5),
		wall("test_fib", pytestParams("group", "fib", "n", "10"), fib10),
		wall("test_build", pytestParams("kind", "list", "size", "8"), list8),
		wall("test_build", pytestParams("kind", "tuple", "size", "8"), tuple8),
		wall("test_plain", nil, plain),
	}
}

var (
	pytestCommitDate = time.Date(2026, 11, 21, 14, 29, 3, 0, time.UTC)
	pytestMachine    = model.Machine{Name: "vm", OS: "linux", Arch: "amd64", CPU: "AMD EPYC"}
	pytestContext    = pytestParams("python", "CPython 3.11")
)

func TestPytestBenchmarkFixtures(t *testing.T) {
	commit := model.Artifact{ID: pytestSHA, Kind: model.KindCommit, Date: pytestCommitDate, Branch: "master"}
	tests := []struct {
		name     string
		file     string
		def      Defaults
		want     []model.Run
		problems []archive.Problem
	}{
		{
			name: "benchmark-json: per-round samples, groups and params",
			file: "benchmark-json.json",
			want: []model.Run{{
				Artifact: commit,
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{1.8640002963365987e-06, 1.413000063621439e-06, 3.0459996196441352e-06, 1.6929989214986563e-06, 1.402999259880744e-06},
					[]float64{1.1973001164733432e-05, 1.1902000551344827e-05, 1.1852000170620158e-05, 1.1963000360992737e-05, 1.1672000255202875e-05},
					[]float64{6.409997392135361e-07, 3.1700013399434585e-07, 3.106664128911992e-07, 3.4066639879407984e-07},
					[]float64{5.543333827517927e-07, 3.2733381279588986e-07, 2.836665468445669e-07, 2.506670474152391e-07},
					[]float64{1.3874996511731297e-06, 4.45499608758837e-07, 4.5599972509080544e-07},
				),
			}},
		},
		{
			name: "saved with --benchmark-save-data",
			file: "0001_withdata.json",
			want: []model.Run{{
				Artifact: commit,
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{2.2440017346525565e-06, 1.6329995560226962e-06, 3.006000042660162e-06, 1.712998709990643e-06, 1.172000338556245e-06},
					[]float64{1.2603999493876472e-05, 1.2082999091944657e-05, 1.1830999937956221e-05, 1.2172000424470752e-05, 1.2112999684177339e-05},
					[]float64{5.309999930129076e-07, 3.140000141380976e-07, 3.0066682181010645e-07, 3.573331923689693e-07},
					[]float64{4.076670544842879e-07, 1.7066668078768998e-07, 1.7066668078768998e-07, 2.2033297379190722e-07},
					[]float64{3.0805003916611895e-06, 4.3549971451284364e-07, 3.6549954529618844e-07},
				),
			}},
		},
		{
			name: "saved without data: stats.min is the one sample; dirty tree reported",
			file: "0002_nodata.json",
			want: []model.Run{{
				Artifact: commit,
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{1.3720000424655154e-06},
					[]float64{7.5240004662191495e-06},
					[]float64{2.769999506805713e-07},
					[]float64{1.570000070690488e-07},
					[]float64{2.2550011635757983e-07},
				),
			}},
			problems: []archive.Problem{
				{File: "0002_nodata.json", Line: 26, Msg: "measured on a working tree with uncommitted changes (commit_info.dirty); results attributed to commit " + pytestSHA},
				{File: "0002_nodata.json", Msg: "5 of 5 benchmarks have no per-round samples (stats.data, saved only with --benchmark-save-data); their stats.min is used as the only sample"},
			},
		},
		{
			name: "unversioned without an artifact: date from datetime, problem",
			file: "unversioned.json",
			want: []model.Run{{
				Artifact: model.Artifact{Date: time.Date(2026, 11, 21, 14, 29, 18, 390034000, time.UTC)},
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{1.8839982658391818e-06, 1.3030003174208105e-06, 2.986000254168175e-06, 1.75300010596402e-06, 1.4219986042007804e-06},
					[]float64{1.1812000593636185e-05, 1.1530999472597614e-05, 1.1461001122370362e-05, 1.1541000276338309e-05, 1.1411000741645694e-05},
					[]float64{4.7066653981649626e-07, 2.769999506805713e-07, 3.5066659620497376e-07, 2.769999506805713e-07},
					[]float64{5.106661168004697e-07, 2.7733343207122135e-07, 2.5033356602458906e-07, 2.570001621885846e-07},
					[]float64{1.17250056064222e-06, 4.260000423528254e-07, 3.2549996831221506e-07},
				),
			}},
			problems: []archive.Problem{
				{File: "unversioned.json", Line: 22, Msg: `the file names no commit (commit_info.id "unversioned") and no artifact was given`},
			},
		},
		{
			name: "unversioned with the caller's artifact, machine and context",
			file: "unversioned.json",
			def: Defaults{
				Artifact: model.Artifact{ID: "v1.2.0", Kind: model.KindTag, Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
				Machine:  model.Machine{Name: "ci-linux", MemoryBytes: 8 << 30, Labels: pytestParams("pool", "bench")},
				Context:  pytestParams("python", "pypy", "flags", "-O"),
			},
			want: []model.Run{{
				Artifact: model.Artifact{ID: "v1.2.0", Kind: model.KindTag, Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
				Machine:  model.Machine{Name: "ci-linux", OS: "linux", Arch: "amd64", CPU: "AMD EPYC", MemoryBytes: 8 << 30, Labels: pytestParams("pool", "bench")},
				Context:  pytestParams("flags", "-O", "python", "pypy"),
				Results: pytestResults(
					[]float64{1.8839982658391818e-06, 1.3030003174208105e-06, 2.986000254168175e-06, 1.75300010596402e-06, 1.4219986042007804e-06},
					[]float64{1.1812000593636185e-05, 1.1530999472597614e-05, 1.1461001122370362e-05, 1.1541000276338309e-05, 1.1411000741645694e-05},
					[]float64{4.7066653981649626e-07, 2.769999506805713e-07, 3.5066659620497376e-07, 2.769999506805713e-07},
					[]float64{5.106661168004697e-07, 2.7733343207122135e-07, 2.5033356602458906e-07, 2.570001621885846e-07},
					[]float64{1.17250056064222e-06, 4.260000423528254e-07, 3.2549996831221506e-07},
				),
			}},
		},
		{
			name: "the file's commit wins over a different given artifact",
			file: "benchmark-json.json",
			def:  Defaults{Artifact: model.Artifact{ID: "1a773ed52f7c4bbfd27d67b34dd752dbb9667ac9", Kind: model.KindTry, PR: 7, Title: "other"}},
			want: []model.Run{{
				Artifact: commit,
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{1.8640002963365987e-06, 1.413000063621439e-06, 3.0459996196441352e-06, 1.6929989214986563e-06, 1.402999259880744e-06},
					[]float64{1.1973001164733432e-05, 1.1902000551344827e-05, 1.1852000170620158e-05, 1.1963000360992737e-05, 1.1672000255202875e-05},
					[]float64{6.409997392135361e-07, 3.1700013399434585e-07, 3.106664128911992e-07, 3.4066639879407984e-07},
					[]float64{5.543333827517927e-07, 3.2733381279588986e-07, 2.836665468445669e-07, 2.506670474152391e-07},
					[]float64{1.3874996511731297e-06, 4.45499608758837e-07, 4.5599972509080544e-07},
				),
			}},
			problems: []archive.Problem{
				{File: "benchmark-json.json", Line: 23, Msg: "commit_info.id " + pytestSHA + " is not the given artifact 1a773ed52f7c4bbfd27d67b34dd752dbb9667ac9; using the file's"},
			},
		},
		{
			name: "the same commit given: the caller's PR and title are kept",
			file: "benchmark-json.json",
			def:  Defaults{Artifact: model.Artifact{ID: pytestSHA, Kind: model.KindTry, PR: 7, Title: "Faster fib", Parents: []string{"1a773ed52f7c4bbfd27d67b34dd752dbb9667ac9"}}},
			want: []model.Run{{
				Artifact: model.Artifact{ID: pytestSHA, Kind: model.KindTry, Date: pytestCommitDate, Branch: "master", PR: 7, Title: "Faster fib", Parents: []string{"1a773ed52f7c4bbfd27d67b34dd752dbb9667ac9"}},
				Machine:  pytestMachine,
				Context:  pytestContext,
				Results: pytestResults(
					[]float64{1.8640002963365987e-06, 1.413000063621439e-06, 3.0459996196441352e-06, 1.6929989214986563e-06, 1.402999259880744e-06},
					[]float64{1.1973001164733432e-05, 1.1902000551344827e-05, 1.1852000170620158e-05, 1.1963000360992737e-05, 1.1672000255202875e-05},
					[]float64{6.409997392135361e-07, 3.1700013399434585e-07, 3.106664128911992e-07, 3.4066639879407984e-07},
					[]float64{5.543333827517927e-07, 3.2733381279588986e-07, 2.836665468445669e-07, 2.506670474152391e-07},
					[]float64{1.3874996511731297e-06, 4.45499608758837e-07, 4.5599972509080544e-07},
				),
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := pytestRead(t, tt.file, pytestFixture(t, tt.file), tt.def)
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// pytestDoc is a small document in the shape of pytest-benchmark 4/5
// output (full py-cpuinfo answer, datetime with an offset); benches is
// the inside of the benchmarks list. Line 14 is the first benchmark's.
func pytestDoc(benches string) string {
	return `{
  "machine_info": {
    "node": "runner-7",
    "processor": "arm",
    "machine": "aarch64",
    "python_implementation": "PyPy",
    "python_version": "3.10.14",
    "system": "Darwin",
    "cpu": {"arch": "ARM_8", "brand_raw": "Apple M2", "count": 8, "flags": ["neon"]}
  },
  "commit_info": {"id": "0123456789abcdef0123456789abcdef01234567", "time": "2026-03-01T10:00:00+01:00",
    "author_time": "2026-03-01T09:00:00+01:00", "dirty": false, "project": "p", "branch": "(detached head)"},
  "benchmarks": [
` + benches + `
  ],
  "datetime": "2026-03-02T05:06:07.123456+00:00",
  "version": "5.1.0"
}`
}

func pytestBench(name, group, params, stats string) string {
	return `{"group": ` + group + `, "name": "` + name + `", "fullname": "tests/test_x.py::` + name + `", "params": ` + params +
		`, "param": null, "extra_info": {"note": NaN}, "options": {}, "stats": ` + stats + `}`
}

func TestPytestBenchmarkInput(t *testing.T) {
	art := model.Artifact{ID: "0123456789abcdef0123456789abcdef01234567", Kind: model.KindCommit, Date: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	mach := model.Machine{Name: "runner-7", OS: "darwin", Arch: "arm64", CPU: "Apple M2", Cores: 8}
	ctx := pytestParams("python", "PyPy 3.10")
	run := func(results ...model.Result) []model.Run {
		return []model.Run{{Artifact: art, Machine: mach, Context: ctx, Results: results}}
	}
	res := func(bench string, params model.Params, samples ...float64) model.Result {
		return model.Result{Case: model.TestCase{Benchmark: bench, Params: params, Category: model.Primary}, Metric: "wall-time", Unit: "s", Samples: samples}
	}
	good := pytestBench("test_a", "null", "null", `{"min": 1, "data": [1, 2]}`)
	tests := []struct {
		name     string
		data     string
		want     []model.Run
		problems []archive.Problem
	}{
		{
			name: "newer release: full cpu info, offsets, detached head",
			data: pytestDoc(good),
			want: run(res("test_a", nil, 1, 2)),
		},
		{
			name: "parameter values of every JSON type",
			data: pytestDoc(pytestBench("test_p[x]", `"io"`, `{"f": 1.50, "e": 1e-06, "b": true, "z": null, "l": [1, "a"], "o": {"y": 2, "x": "<&>"}, "s": "two words"}`, `{"data": [3]}`)),
			want: run(res("test_p", pytestParams("b", "true", "e", "1e-06", "f", "1.50", "group", "io", "l", `[1,"a"]`, "o", `{"x":"<&>","y":2}`, "s", "two words", "z", "null"), 3)),
		},
		{
			name: "parametrization id without params becomes param",
			data: pytestDoc(pytestBench("test_q[fast-[1]]", "null", "{}", `{"data": [3]}`)),
			want: run(res("test_q", pytestParams("param", "fast-[1]"), 3)),
		},
		{
			name: "a test parameter called group keeps its value",
			data: pytestDoc(pytestBench("test_g[1]", `"grp"`, `{"group": 1}`, `{"data": [3]}`)),
			want: run(res("test_g", pytestParams("group", "1"), 3)),
			problems: []archive.Problem{
				{File: "in.json", Line: 14, Msg: `test_g[1]: the test has a parameter called group; benchmark group "grp" not recorded`},
			},
		},
		{
			name: "truncated file keeps the benchmarks before the cut",
			data: pytestDoc(good + ",\n" + pytestBench("test_b", "null", "null", `{"data": [5]}`))[:strings.Index(pytestDoc(good+",\n"+pytestBench("test_b", "null", "null", `{"data": [5]}`)), `"test_b"`)],
			want: run(res("test_a", nil, 1, 2)),
			problems: []archive.Problem{
				{File: "in.json", Line: 15, Msg: "file ends in the middle of the JSON document (truncated?); kept the 1 benchmarks before it"},
			},
		},
		{
			name: "syntax error after the first benchmark",
			data: pytestDoc(good + ",\n" + `{"name": "test_b" "stats": {}}`),
			want: run(res("test_a", nil, 1, 2)),
			problems: []archive.Problem{
				{File: "in.json", Line: 15, Msg: `malformed JSON: invalid character '"' after object key:value pair; kept the 1 benchmarks before it`},
			},
		},
		{
			name: "wrong types are reported, the good entries kept",
			data: pytestDoc(strings.Join([]string{
				good,
				pytestBench("test_s", "null", "null", `{"data": "fast"}`),
				`{"name": 12, "fullname": "t.py::test_n", "stats": {"data": [4]}}`,
				pytestBench("test_l", "null", `[1, 2]`, `{"data": [5]}`),
				pytestBench("test_st", "null", "null", `[1]`),
				`"test_string"`,
				pytestBench("test_g", "7", "null", `{"data": [6]}`),
			}, ",\n")),
			want: run(
				res("test_a", nil, 1, 2),
				res("test_n", nil, 4),
				res("test_l", nil, 5),
				res("test_g", nil, 6),
			),
			problems: []archive.Problem{
				{File: "in.json", Line: 15, Msg: "test_s: stats.data: want a list of numbers, got a string"},
				{File: "in.json", Line: 15, Msg: "test_s: stats.data holds no valid sample; skipped"},
				{File: "in.json", Line: 16, Msg: "benchmark: name: want a string, got a number; ignored"},
				{File: "in.json", Line: 17, Msg: "test_l: params: want an object, got a list; ignored"},
				{File: "in.json", Line: 18, Msg: "test_st: stats: want an object, got a list; skipped"},
				{File: "in.json", Line: 19, Msg: "benchmark: want an object, got a string; skipped"},
				{File: "in.json", Line: 20, Msg: "test_g: group: want a string, got a number; ignored"},
			},
		},
		{
			name: "invalid samples are dropped and named",
			data: pytestDoc(strings.Join([]string{
				pytestBench("test_v", "null", "null", `{"data": [1, -2, NaN, null, "x", Infinity, 1e999, 3]}`),
				pytestBench("test_w", "null", "null", `{"data": [-1], "min": 1}`),
				pytestBench("test_m", "null", "null", `{"data": [], "min": -1}`),
				pytestBench("test_e", "null", "null", `{"mean": 1}`),
			}, ",\n")),
			want: run(res("test_v", nil, 1, 3)),
			problems: []archive.Problem{
				{File: "in.json", Line: 14, Msg: "test_v: dropped 6 invalid samples of stats.data: [1] is -2, a negative duration, [2] is NaN, [3] is null and 3 more"},
				{File: "in.json", Line: 15, Msg: "test_w: dropped 1 invalid samples of stats.data: [0] is -1, a negative duration"},
				{File: "in.json", Line: 15, Msg: "test_w: stats.data holds no valid sample; skipped"},
				{File: "in.json", Line: 16, Msg: "test_m: stats.min is -1, a negative duration; skipped"},
				{File: "in.json", Line: 17, Msg: "test_e: neither stats.data nor stats.min; skipped"},
			},
		},
		{
			name: "duplicated names: same test twice kept once, same name in two modules named by fullname",
			data: pytestDoc(strings.Join([]string{
				good,
				pytestBench("test_a", "null", "null", `{"data": [9]}`),
				`{"name": "test_c[1]", "fullname": "a.py::test_c[1]", "params": {"n": 1}, "stats": {"data": [1]}}`,
				`{"name": "test_c[1]", "fullname": "b.py::K::test_c[1]", "params": {"n": 1}, "stats": {"data": [2]}}`,
				`{"name": "test_c[2]", "fullname": "b.py::K::test_c[2]", "params": {"n": 2}, "stats": {"data": [3]}}`,
			}, ",\n")),
			want: run(
				res("test_a", nil, 1, 2),
				res("a.py::test_c", pytestParams("n", "1"), 1),
				res("b.py::K::test_c", pytestParams("n", "1"), 2),
				res("test_c", pytestParams("n", "2"), 3),
			),
			problems: []archive.Problem{
				{File: "in.json", Line: 15, Msg: "duplicate benchmark test_a (first at line 14); kept the first"},
			},
		},
		{
			name: "name missing: taken from fullname",
			data: pytestDoc(`{"fullname": "t.py::C::test_f[3]", "params": {"n": 3}, "stats": {"data": [1]}}`),
			want: run(res("test_f", pytestParams("n", "3"), 1)),
		},
		{
			name: "byte order mark and trailing data",
			data: "\uFEFF" + pytestDoc(good) + "\n{}",
			want: run(res("test_a", nil, 1, 2)),
			problems: []archive.Problem{
				{File: "in.json", Line: 19, Msg: "data after the end of the document ignored"},
			},
		},
		{
			name: "empty benchmark list",
			data: pytestDoc(""),
			problems: []archive.Problem{
				{File: "in.json", Line: 13, Msg: "the benchmarks list is empty (pytest-benchmark leaves out the benchmarks of failed tests)", Fatal: true},
			},
		},
		{
			name: "every benchmark bad",
			data: pytestDoc(pytestBench("test_x", "null", "null", "null")),
			problems: []archive.Problem{
				{File: "in.json", Line: 14, Msg: "test_x: no stats; skipped"},
				{File: "in.json", Msg: "no usable benchmarks", Fatal: true},
			},
		},
		{
			name: "benchmarks is not a list",
			data: `{"machine_info": {}, "benchmarks": {"a": 1}}`,
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: "benchmarks: want a list, got an object", Fatal: true},
			},
		},
		{
			name: "no benchmarks key",
			data: "{\"machine_info\": {},\n \"commit_info\": {}}",
			problems: []archive.Problem{
				{File: "in.json", Msg: "not a pytest-benchmark file: no benchmarks list", Fatal: true},
			},
		},
		{
			name: "not an object",
			data: "\n[1, 2]",
			problems: []archive.Problem{
				{File: "in.json", Line: 2, Msg: "not a pytest-benchmark file: the document is not an object", Fatal: true},
			},
		},
		{
			name: "not JSON",
			data: "BenchmarkX 1 2 ns/op",
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: "not JSON: malformed JSON: invalid character 'B' looking for beginning of value", Fatal: true},
			},
		},
		{
			name: "empty file",
			data: "",
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: "not JSON: file ends in the middle of the JSON document (truncated?)", Fatal: true},
			},
		},
		{
			name: "cut inside machine_info",
			data: pytestDoc(good)[:60],
			problems: []archive.Problem{
				{File: "in.json", Line: 4, Msg: "file ends in the middle of the JSON document (truncated?)", Fatal: true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := pytestRead(t, "in.json", []byte(tt.data), Defaults{})
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPytestBenchmarkMachineAndArtifact(t *testing.T) {
	tests := []struct {
		name     string
		info     string // machine_info and commit_info members
		wantArt  model.Artifact
		wantMach model.Machine
		wantCtx  model.Params
		problems []archive.Problem
	}{
		{
			name:     "Windows on AMD64 with an upper-case sha",
			info:     `"machine_info": {"node": "WIN-1", "machine": "AMD64", "system": "Windows", "python_implementation": "CPython", "python_version": "3.12.1", "cpu": {"brand_raw": " Intel Xeon ", "count": 4}}, "commit_info": {"id": "0123456789ABCDEF0123456789ABCDEF01234567", "time": null, "dirty": false, "branch": "main"},`,
			wantArt:  model.Artifact{ID: "0123456789abcdef0123456789abcdef01234567", Kind: model.KindCommit, Branch: "main", Date: time.Date(2026, 3, 2, 5, 6, 7, 0, time.UTC)},
			wantMach: model.Machine{Name: "WIN-1", OS: "windows", Arch: "amd64", CPU: "Intel Xeon", Cores: 4},
			wantCtx:  pytestParams("python", "CPython 3.12"),
		},
		{
			name:     "abbreviated id, bad count, no python",
			info:     `"machine_info": {"node": "h", "machine": "riscv64", "cpu": {"brand": "unknown", "count": "many"}}, "commit_info": {"id": "0123456"},`,
			wantArt:  model.Artifact{Date: time.Date(2026, 3, 2, 5, 6, 7, 0, time.UTC)},
			wantMach: model.Machine{Name: "h", Arch: "riscv64"},
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: `commit_info.id "0123456" is not a full commit sha and no artifact was given`},
				{File: "in.json", Line: 1, Msg: `machine_info.cpu.count "many" is not a number of cores; ignored`},
			},
		},
		{
			name:    "no machine_info and a bad commit time",
			info:    `"commit_info": {"id": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "time": "yesterday"},`,
			wantArt: model.Artifact{ID: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Kind: model.KindCommit, Date: time.Date(2026, 3, 2, 5, 6, 7, 0, time.UTC)},
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: `commit_info.time "yesterday" is not a date; ignored`},
				{File: "in.json", Line: 1, Msg: "the file names no machine (machine_info.node) and no machine was given"},
			},
		},
		{
			name: "wrong types of the header objects",
			info: `"machine_info": [1], "commit_info": "abc",`,
			problems: []archive.Problem{
				{File: "in.json", Line: 1, Msg: "commit_info: want an object, got a string; ignored"},
				{File: "in.json", Line: 1, Msg: `the file names no commit (commit_info.id "") and no artifact was given`},
				{File: "in.json", Line: 1, Msg: "machine_info: want an object, got a list; ignored"},
				{File: "in.json", Line: 1, Msg: "the file names no machine (machine_info.node) and no machine was given"},
			},
			wantArt: model.Artifact{Date: time.Date(2026, 3, 2, 5, 6, 7, 0, time.UTC)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `{` + tt.info + ` "benchmarks": [{"name": "test_a", "stats": {"data": [1]}}], "datetime": "2026-03-02T05:06:07"}`
			runs, problems := pytestRead(t, "in.json", []byte(data), Defaults{})
			want := []model.Run{{
				Artifact: tt.wantArt,
				Machine:  tt.wantMach,
				Context:  tt.wantCtx,
				Results:  []model.Result{{Case: model.TestCase{Benchmark: "test_a", Category: model.Primary}, Metric: "wall-time", Unit: "s", Samples: []float64{1}}},
			}}
			if diff := cmp.Diff(want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPytestBenchmarkSniff(t *testing.T) {
	f, ok := Lookup("pytest-benchmark")
	if !ok {
		t.Fatal("pytest-benchmark is not registered")
	}
	accept, err := filepath.Glob(filepath.Join(pytestDir, "*.json"))
	if err != nil || len(accept) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, name := range accept {
		if !f.Sniff(Input{Name: name, Data: pytestFixture(t, filepath.Base(name))}) {
			t.Errorf("Sniff rejects %s", name)
		}
	}
	if !f.Sniff(Input{Name: "doc.json", Data: []byte("\uFEFF\n" + pytestDoc(""))}) {
		t.Error("Sniff rejects a newer release's document")
	}
	reject := map[string]string{
		"google benchmark":   `{"context": {"date": "2026-01-01", "host_name": "h", "num_cpus": 2}, "benchmarks": [{"name": "BM_x", "run_name": "BM_x"}]}`,
		"hyperfine":          `{"results": [{"command": "sleep 0", "mean": 0.1, "times": [0.1]}]}`,
		"bmf":                `{"bench": {"latency": {"value": 1.0}}}`,
		"gab custom":         `[{"name": "x", "unit": "ns", "value": 1}]`,
		"gab data.js":        `window.BENCHMARK_DATA = {"entries": {}}`,
		"go bench":           "goos: linux\nBenchmarkX-2 1 2 ns/op\n",
		"asv machine.json":   `{"arch": "x86_64", "cpu": "x", "machine": "m", "os": "Linux", "version": 1}`,
		"perfgate receipt":   `{"schema": "perfgate.run.v1", "bench": {"name": "b"}, "samples": []}`,
		"benchmarks only":    `{"benchmarks": [{"name": "x"}]}`,
		"empty":              ``,
		"mentions too late":  `{"benchmarks": [` + strings.Repeat(" ", pytestSniffWindow) + `"machine_info", "commit_info"]}`,
		"array with the key": `["machine_info", "commit_info"]`,
	}
	for name, data := range reject {
		if f.Sniff(Input{Name: name, Data: []byte(data)}) {
			t.Errorf("Sniff accepts %s", name)
		}
	}
	// The other formats' real fixtures, as far as they are there.
	others, _ := filepath.Glob("testdata/*/*")
	for _, name := range others {
		if strings.HasPrefix(name, pytestDir+string(filepath.Separator)) {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			continue // a folder
		}
		if f.Sniff(Input{Name: name, Data: data}) {
			t.Errorf("Sniff accepts %s", name)
		}
	}
}

func FuzzPytestBenchmark(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(pytestDir, "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte(pytestDoc(pytestBench("test_p[x]", `"io"`, `{"f": 1.50, "l": [1, "a"]}`, `{"data": [3, NaN, -1], "min": 1}`))))
	f.Add([]byte(`{"benchmarks": [{"name": "a[", "stats": {"min": 1}}, {"fullname": "::"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, problems := pytestRead(t, "fuzz.json", data, Defaults{})
		fatal := false
		for _, p := range problems {
			if p.File != "fuzz.json" || p.Msg == "" || p.Line < 0 {
				t.Errorf("bad problem %+v", p)
			}
			fatal = fatal || p.Fatal
		}
		if fatal != (len(runs) == 0) {
			t.Fatalf("fatal problem %v but %d runs", fatal, len(runs))
		}
		for _, r := range runs {
			if len(r.Results) == 0 {
				t.Error("a run without results")
			}
			for _, res := range r.Results {
				if len(res.Samples) == 0 || res.Metric != "wall-time" || res.Unit != "s" {
					t.Errorf("bad result %+v", res)
				}
				for _, x := range res.Samples {
					if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
						t.Errorf("invalid sample %v in %+v", x, res)
					}
				}
			}
			if !r.Artifact.Date.IsZero() && r.Artifact.Date.Location() != time.UTC {
				t.Errorf("date %v not in UTC", r.Artifact.Date)
			}
		}
	})
}

func TestPytestBenchmarkDetect(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(pytestDir, "*.json"))
	for _, name := range files {
		f, err := Detect(Input{Name: name, Data: pytestFixture(t, filepath.Base(name))})
		if err != nil || f.Name != "pytest-benchmark" {
			t.Errorf("Detect(%s) = %q, %v; want pytest-benchmark", name, f.Name, err)
		}
	}
}
