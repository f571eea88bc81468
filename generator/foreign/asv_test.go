package foreign

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// asvResult builds an expected result; params alternate key, value.
func asvResult(bench, metric, unit string, params []string, samples ...float64) model.Result {
	m := map[string]string{}
	for i := 0; i+1 < len(params); i += 2 {
		m[params[i]] = params[i+1]
	}
	return model.Result{
		Case:    model.TestCase{Benchmark: bench, Params: model.NewParams(m), Category: model.Primary},
		Metric:  metric,
		Unit:    unit,
		Samples: samples,
	}
}

func asvFailedResult(bench string, params ...string) model.Result {
	r := asvResult(bench, "wall-time", "s", params)
	r.Error = "asv recorded no result"
	return r
}

// problemStrings renders problems as "file:line: msg", fatal ones prefixed.
func problemStrings(ps []archive.Problem) []string {
	var out []string
	for _, p := range ps {
		s := p.Error()
		if p.Fatal {
			s = "fatal: " + s
		}
		out = append(out, s)
	}
	return out
}

var asvCheetah = model.Machine{Name: "cheetah", OS: "Linux 6.1.0-28-amd64", Arch: "x86_64", CPU: "AMD EPYC 7B13", Cores: 2, MemoryBytes: 16318900 << 10} // ram is in kB

func TestASVFixtures(t *testing.T) {
	const (
		v1 = "22b920c6d0d54112ccbc020eddba9ea7a2d204f3"
		v2 = "4b8a1f0e9c3d2b1a0f9e8d7c6b5a49382716f5e4"
	)
	v1Run := func(names ...string) model.Run {
		return model.Run{
			Artifact: model.Artifact{ID: v1, Kind: model.KindCommit, Date: time.Date(2023, 11, 14, 22, 13, 20, 0, time.UTC)},
			Machine:  asvCheetah,
			Context:  model.Params{{Key: "env", Value: "py3.8-numpy1.18"}, {Key: "python", Value: "3.8"}},
			Results: []model.Result{
				asvFailedResult("bench_io.time_read"),
				asvResult("bench_mem.mem_list", "memory", "B", nil, 2096),
				asvResult("bench_sort.TimeSort.time_sort", "wall-time", "s", []string{names[0], "quick", names[1], "100"}, 1.25e-05, 1.3e-05, 1.4e-05),
				asvResult("bench_sort.TimeSort.time_sort", "wall-time", "s", []string{names[0], "quick", names[1], "10000"}, 0.0021),
				asvResult("bench_sort.TimeSort.time_sort", "wall-time", "s", []string{names[0], "merge", names[1], "10000"}, 0.035),
				asvResult("bench_sort.time_builtin_sorted", "wall-time", "s", nil, 4.5e-06),
			},
		}
	}
	v2Run := func(withSuite bool) model.Run {
		names, trackUnit := []string{"kind", "n"}, "requests/s"
		if !withSuite {
			names, trackUnit = []string{"param1", "param2"}, ""
		}
		results := []model.Result{
			asvResult("bench_extra.time_not_in_suite", "wall-time", "s", nil, 0.0021),
			asvFailedResult("bench_io.time_read"),
			asvResult("bench_mem.mem_list", "memory", "B", nil, 2096),
			asvResult("bench_mem.peakmem_load", "peakmemory", "B", nil, 52428800),
		}
		if !withSuite {
			// Without benchmarks.json nothing says the benchmark changed.
			results = append(results, asvResult("bench_old.time_rewritten", "wall-time", "s", nil, 0.5))
		}
		results = append(results,
			asvResult("bench_sort.TimeSort.time_sort", "wall-time", "s", []string{names[0], "quick", names[1], "100"}, 1.1e-05, 1.2e-05, 1.3e-05),
			asvResult("bench_sort.TimeSort.time_sort", "wall-time", "s", []string{names[0], "merge", names[1], "100"}, 0.00031),
			asvFailedResult("bench_sort.TimeSort.time_sort", names[0], "merge", names[1], "10000"),
			asvResult("bench_sort.time_builtin_sorted", "wall-time", "s", nil, 4.1e-06, 4.2e-06, 4.4e-06, 4.2e-06),
			asvResult("bench_track.track_cache_hits", "track", trackUnit, nil, 1520.5),
		)
		return model.Run{
			Artifact: model.Artifact{ID: v2, Kind: model.KindCommit, Date: time.Date(2025, 11, 21, 2, 0, 0, 0, time.UTC)},
			Machine:  asvCheetah,
			Context:  model.Params{{Key: "env", Value: "virtualenv-py3.12-numpy1.26"}, {Key: "python", Value: "3.12"}},
			Results:  results,
		}
	}
	const v2File = "testdata/asv/results/cheetah/4b8a1f0e-virtualenv-py3.12-numpy1.26.json"

	tests := []struct {
		name     string
		path     string
		def      Defaults
		want     []model.Run
		problems []string
	}{
		{
			name: "results folder with benchmarks.json, v1 and v2 files",
			path: "testdata/asv/results",
			want: []model.Run{v1Run("kind", "n"), v2Run(true)},
			problems: []string{
				v2File + `: "bench_extra.time_not_in_suite" not in benchmarks.json: type and unit guessed from the name`,
				v2File + `: "bench_old.time_rewritten": benchmark version differs from benchmarks.json (the benchmark's code changed since); skipped, as asv publish does`,
			},
		},
		{
			name: "one machine folder without benchmarks.json",
			path: "testdata/asv/results/cheetah",
			want: []model.Run{v1Run("param1", "param2"), v2Run(false)},
			problems: []string{
				"testdata/asv/results/cheetah: no benchmarks.json: benchmark types come from the names' prefixes (time_, mem_, peakmem_, track_), units are asv's defaults and parameters are named param1, param2, …",
			},
		},
		{
			name: "defaults fill what the files do not say and never replace the commit",
			path: "testdata/asv/results",
			def: Defaults{
				Artifact: model.Artifact{ID: v2, Kind: model.KindTag, Title: "v2.0", PR: 7, Date: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
				Machine:  model.Machine{Name: "other", Cores: 64, Labels: model.Params{{Key: "rack", Value: "3"}}},
				Context:  model.Params{{Key: "python", Value: "pypy"}, {Key: "tool", Value: "asv"}},
			},
			want: func() []model.Run {
				a, b := v1Run("kind", "n"), v2Run(true)
				for _, r := range []*model.Run{&a, &b} {
					r.Machine.Labels = model.Params{{Key: "rack", Value: "3"}}
					for i := range r.Context {
						if r.Context[i].Key == "python" {
							r.Context[i].Value = "pypy"
						}
					}
					r.Context = append(r.Context, model.Param{Key: "tool", Value: "asv"})
				}
				b.Artifact.Kind, b.Artifact.Title, b.Artifact.PR = model.KindTag, "v2.0", 7
				return []model.Run{a, b}
			}(),
			problems: []string{
				"testdata/asv/results/cheetah/22b920c6-py3.8-numpy1.18.json: the file is for commit " + v1 + ", not the given artifact " + v2 + "; using the file's commit",
				v2File + `: "bench_extra.time_not_in_suite" not in benchmarks.json: type and unit guessed from the name`,
				v2File + `: "bench_old.time_rewritten": benchmark version differs from benchmarks.json (the benchmark's code changed since); skipped, as asv publish does`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := ReadPath(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := Lookup("asv")
			if !ok || !f.Dir {
				t.Fatalf("asv is not registered as a directory format")
			}
			runs, problems := f.Read(in, tt.def)
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problemStrings(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// asvSuiteJSON is a small benchmarks.json for in-memory folders.
const asvSuiteJSON = `{
 "a.time_x": {"name": "a.time_x", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"},
 "a.time_p": {"name": "a.time_p", "param_names": ["n"], "params": [["1", "2"]], "type": "time", "unit": "seconds", "version": "1"},
 "a.time_cycles": {"name": "a.time_cycles", "param_names": [], "params": [], "type": "time", "unit": "cycles", "version": "1"},
 "a.custom_thing": {"name": "a.custom_thing", "param_names": [], "params": [], "type": "custom", "unit": "widgets", "version": "1"},
 "version": 2
}`

const asvMachineJSON = `{"machine": "m", "os": "Linux", "arch": "arm64", "cpu": "Neoverse", "num_cpu": 8, "ram": "8GB", "version": 1}`

// asvV2 is a version 2 result file with one result per line.
func asvV2(commit string, results ...string) string {
	return `{"commit_hash": "` + commit + `", "env_name": "virtualenv-py3.12", "date": 1763690400000, "python": "3.12",
"params": {"machine": "m"}, "requirements": {}, "env_vars": {},
"result_columns": ["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"],
"results": {
` + strings.Join(results, ",\n") + `
}, "durations": {}, "version": 2}`
}

func TestASVBadInput(t *testing.T) {
	const sha = "1111111111111111111111111111111111111111"
	machine := model.Machine{Name: "m", OS: "Linux", Arch: "arm64", CPU: "Neoverse", Cores: 8, MemoryBytes: 8 << 30}
	date := time.Date(2025, 11, 21, 2, 0, 0, 0, time.UTC)
	ctx := model.Params{{Key: "env", Value: "virtualenv-py3.12"}, {Key: "python", Value: "3.12"}}
	run := func(commit string, results ...model.Result) model.Run {
		return model.Run{Artifact: model.Artifact{ID: commit, Kind: model.KindCommit, Date: date}, Machine: machine, Context: ctx, Results: results}
	}
	good := asvV2(sha, `"a.time_x": [[0.5], [], "1"]`)
	goodRun := run(sha, asvResult("a.time_x", "wall-time", "s", nil, 0.5))
	const file = "res/m/1111-virtualenv-py3.12.json"

	tests := []struct {
		name     string
		files    map[string]string
		want     []model.Run
		problems []string
	}{
		{
			name:  "truncated file is skipped and the good one kept",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": good, "m/2222-virtualenv-py3.12.json": good[:len(good)/2]},
			want:  []model.Run{goodRun},
			problems: []string{
				"res/m/2222-virtualenv-py3.12.json:3: invalid JSON: unexpected end of file; skipped",
			},
		},
		{
			name: "wrong types in rows lose only their benchmark",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_x": [[0.5], [], "1"]`,
				`"a.time_y": "fast"`,
				`"a.time_p": [[1, 2], "n"]`,
				`"a.time_z": [["slow"], [], "1"]`,
			)},
			want: []model.Run{run(sha, asvResult("a.time_x", "wall-time", "s", nil, 0.5))},
			problems: []string{
				file + `:6: benchmark "a.time_y": a JSON string, want a list (a row of result_columns); skipped`,
				file + `:7: benchmark "a.time_p": params: a JSON string, want a list of lists of values; skipped`,
				file + `:8: benchmark "a.time_z": result "slow" is not a number; skipped`,
				file + `: "a.time_z" not in benchmarks.json: type and unit guessed from the name`,
			},
		},
		{
			name: "results that are not an object skip the file",
			files: map[string]string{
				"m/1111-virtualenv-py3.12.json": `{"commit_hash": "` + sha + `", "version": 2, "result_columns": ["result"],
"results": [1, 2]}`,
			},
			problems: []string{
				file + ":2: results: not a JSON object; skipped",
				"fatal: res: no usable asv results in 1 result files",
			},
		},
		{
			name: "empty benchmark list",
			files: map[string]string{
				"m/1111-virtualenv-py3.12.json": asvV2(sha),
			},
			problems: []string{
				file + ": no benchmark results; skipped",
				"fatal: res: no usable asv results in 1 result files",
			},
		},
		{
			name: "duplicated benchmark names keep the first",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_x": [[0.5], [], "1"]`,
				`"a.time_x": [[0.7], [], "1"]`,
			)},
			want: []model.Run{run(sha, asvResult("a.time_x", "wall-time", "s", nil, 0.5))},
			problems: []string{
				file + `:6: benchmark "a.time_x" appears twice; keeping the first`,
			},
		},
		{
			name: "unknown unit and unknown type are kept with a warning",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_cycles": [[1200], [], "1"]`,
				`"a.custom_thing": [[3], [], "1"]`,
				`"a.nothing_known": [[4]]`,
			)},
			want: []model.Run{run(sha,
				asvResult("a.custom_thing", "custom", "widgets", nil, 3),
				asvResult("a.nothing_known", "track", "", nil, 4),
				asvResult("a.time_cycles", "wall-time", "cycles", nil, 1200),
			)},
			problems: []string{
				file + `:5: benchmark "a.time_cycles": unit "cycles" is unusual for a time benchmark; kept`,
				file + `:6: benchmark "a.custom_thing": unknown benchmark type "custom"; kept as metric "custom"`,
				file + `:7: benchmark "a.nothing_known": type unknown (no time_, mem_, peakmem_ or track_ prefix); kept as metric "track"`,
				file + `: "a.nothing_known" not in benchmarks.json: type and unit guessed from the name`,
			},
		},
		{
			name: "parameter combinations that do not match the results",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_p": [[1, 2, 3], [["1", "2"]], "1"]`,
				`"a.time_x": [[0.5], [], "1"]`,
			)},
			want: []model.Run{goodRun},
			problems: []string{
				file + `:5: benchmark "a.time_p": 3 results for 2 parameter combinations; skipped`,
			},
		},
		{
			name: "invalid samples are dropped, NaN skips and null fails a combination",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_p": [[-1, NaN], [["1", "2"]], "1"]`,
				`"a.time_x": [[0.5], [], "1", null, null, null, null, null, null, null, null, [[0.5, -0.1, Infinity, "x", 0.6]]]`,
			)},
			want: []model.Run{run(sha, asvResult("a.time_x", "wall-time", "s", nil, 0.5, 0.6))},
			problems: []string{
				file + `:5: benchmark "a.time_p" (n=1): negative wall-time -1; dropped`,
				file + `:6: benchmark "a.time_x": sample "x" of combination 1 is not a number; dropped`,
				file + `:6: benchmark "a.time_x": negative wall-time -0.1; dropped`,
				file + `:6: benchmark "a.time_x": value +Inf is not finite; dropped`,
			},
		},
		{
			name: "a file that is not a result file and a file without commit",
			files: map[string]string{
				"m/1111-virtualenv-py3.12.json": good,
				"m/notes.json":                  `{"hello": "world"}`,
				"m/3333-virtualenv-py3.12.json": `{"results": {}, "version": 2, "result_columns": []}`,
				"m/README.md":                   "not JSON, not read",
			},
			want: []model.Run{goodRun},
			problems: []string{
				"res/m/3333-virtualenv-py3.12.json: no commit_hash: the results cannot be placed in history; skipped",
				"res/m/notes.json: not an asv result file (no commit_hash and results); skipped",
			},
		},
		{
			name: "bad date and version",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": `{"commit_hash": "` + sha + `", "env_name": "virtualenv-py3.12", "python": "3.12",
"date": "yesterday", "version": 3,
"result_columns": ["result"], "results": {"a.time_x": [[0.5]]}}`},
			want: []model.Run{{Artifact: model.Artifact{ID: sha, Kind: model.KindCommit}, Machine: machine, Context: ctx,
				Results: []model.Result{asvResult("a.time_x", "wall-time", "s", nil, 0.5)}}},
			problems: []string{
				file + `:2: date: a JSON string, want a number`,
				file + ": unknown asv result format version; read as version 2 by its shape",
			},
		},
		{
			name: "NaN inside names and strings is left alone",
			files: map[string]string{"m/1111-virtualenv-py3.12.json": asvV2(sha,
				`"a.time_NaN\"Infinity": [[NaN], [], "1"]`,
				`"a.track_NaN": [[-Infinity], [], "1"]`,
				`"a.time_x": [[0.5], [], "1"]`,
			)},
			want: []model.Run{goodRun},
			problems: []string{
				file + `:6: benchmark "a.track_NaN": value -Inf is not finite; dropped`,
				file + `: 2 benchmarks ("a.time_NaN\"Infinity", "a.track_NaN") not in benchmarks.json: type and unit guessed from the name`,
			},
		},
		{
			name:     "no result files at all",
			files:    map[string]string{},
			problems: []string{"fatal: res: no asv results: the folder has no <machine>/<commit>-<env>.json result files"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Name: "res", Files: map[string][]byte{
				"benchmarks.json": []byte(asvSuiteJSON),
				"m/machine.json":  []byte(asvMachineJSON),
			}}
			for k, v := range tt.files {
				in.Files[k] = []byte(v)
			}
			runs, problems := readASV(in, Defaults{})
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problemStrings(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestASVMachine(t *testing.T) {
	const result = `{"commit_hash": "abc", "params": {"machine": "from-params", "os": "Plan 9", "num_cpu": "4", "ram": "4 GiB"}, "results": {"time_x": 1.0}, "version": 1}`
	tests := []struct {
		name     string
		machine  string // machine.json, "" for none
		want     model.Machine
		problems []string
	}{
		{
			name:    "machine.json wins over the file's params, which fill its gaps",
			machine: `{"machine": "m", "arch": "x86_64", "ram": "16318900", "version": 1}`,
			want:    model.Machine{Name: "m", OS: "Plan 9", Arch: "x86_64", Cores: 4, MemoryBytes: 16318900 << 10},
			problems: []string{
				`r/box/abc-py.json: params say machine "from-params" but machine.json says "m"; using machine.json`,
			},
		},
		{
			name: "without machine.json the file's params describe the machine",
			want: model.Machine{Name: "from-params", OS: "Plan 9", Cores: 4, MemoryBytes: 4 << 30},
		},
		{
			name:    "unreadable fields are reported and left out",
			machine: `{"machine": "m", "num_cpu": "many", "ram": "lots", "version": 1}`,
			want:    model.Machine{Name: "m", OS: "Plan 9", Cores: 4, MemoryBytes: 4 << 30},
			problems: []string{
				`r/box/machine.json: num_cpu "many" is not a number of CPUs; ignored`,
				`r/box/machine.json: ram "lots" is not a size (want kilobytes as asv records them, or a number with K, M, G or T); ignored`,
				`r/box/abc-py.json: params say machine "from-params" but machine.json says "m"; using machine.json`,
			},
		},
		{
			name:    "a broken machine.json falls back to the params",
			machine: `{"machine": `,
			want:    model.Machine{Name: "from-params", OS: "Plan 9", Cores: 4, MemoryBytes: 4 << 30},
			problems: []string{
				`r/box/machine.json:1: invalid JSON: unexpected end of file; the machine is described by the result files`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Name: "r", Files: map[string][]byte{"box/abc-py.json": []byte(result)}}
			if tt.machine != "" {
				in.Files["box/machine.json"] = []byte(tt.machine)
			}
			runs, problems := readASV(in, Defaults{})
			if len(runs) != 1 {
				t.Fatalf("got %d runs, want 1; problems: %v", len(runs), problems)
			}
			if diff := cmp.Diff(tt.want, runs[0].Machine); diff != "" {
				t.Errorf("machine (-want +got):\n%s", diff)
			}
			var got []string
			for _, p := range problemStrings(problems) {
				if !strings.Contains(p, "benchmarks.json") {
					got = append(got, p)
				}
			}
			if diff := cmp.Diff(tt.problems, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestASVRAM: asv records a Linux machine's MemTotal from /proc/meminfo,
// in kilobytes, and a Mac's hw.memsize, in bytes (asv/util.py
// get_memsize); sizes typed by hand carry their unit.
func TestASVRAM(t *testing.T) {
	tests := []struct {
		in, os string
		want   int64
		ok     bool
	}{
		{"16318900", "Linux 6.1.0-28-amd64", 16318900 << 10, true}, // a 16 GiB machine's MemTotal
		{"16318900", "", 16318900 << 10, true},
		{" 2097152 ", "Linux", 2 << 30, true},
		{"17179869184", "Darwin 21.6.0", 16 << 30, true},
		{"16384000 kB", "Linux", 16384000 << 10, true},
		{"8GB", "Linux", 8 << 30, true},
		{"8.5G", "", 8.5 * (1 << 30), true},
		{"16 GiB", "Darwin 23.1.0", 16 << 30, true},
		{"512mb", "", 512 << 20, true},
		{"2T", "", 2 << 40, true},
		{"", "", 0, false},
		{"lots", "", 0, false},
		{"8 PB", "", 0, false},
		{"-1", "", 0, false},
		{"1e400", "", 0, false},
		{"9999999999999999999", "Linux", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in+" "+tt.os, func(t *testing.T) {
			got, ok := asvRAM(tt.in, tt.os)
			if got != tt.want || ok != tt.ok {
				t.Errorf("asvRAM(%q, %q) = %d, %v; want %d, %v", tt.in, tt.os, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestASVProduct(t *testing.T) {
	got := asvProduct([][]string{{"a", "b"}, {"1", "2", "3"}})
	want := [][]string{{"a", "1"}, {"a", "2"}, {"a", "3"}, {"b", "1"}, {"b", "2"}, {"b", "3"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("product (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]string{nil}, asvProduct(nil)); diff != "" {
		t.Errorf("product of nothing (-want +got):\n%s", diff)
	}
}

func TestASVSniff(t *testing.T) {
	fixture := func(path string) Input {
		in, err := ReadPath(path)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	tests := []struct {
		name string
		in   Input
		want bool
	}{
		{"results folder", fixture("testdata/asv/results"), true},
		{"machine folder", fixture("testdata/asv/results/cheetah"), true},
		{"a lone result file in a folder", Input{Name: "x", Files: map[string][]byte{
			"abc-py3.json": []byte(`{"commit_hash": "abc", "env_name": "py3", "result_columns": [], "results": {}}`)}}, true},
		{"criterion folder", Input{Name: "x", Files: map[string][]byte{
			"parse/new/benchmark.json": []byte(`{"group_id":"parse","function_id":null,"value_str":null,"throughput":null,"full_id":"parse","directory_name":"parse","title":"parse"}`),
			"parse/new/estimates.json": []byte(`{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1,"upper_bound":2},"point_estimate":1.5,"standard_error":0.1}}`),
			"parse/new/sample.json":    []byte(`{"sampling_mode":"Linear","iters":[1],"times":[2]}`),
		}}, false},
		{"folder of other tools' JSON", Input{Name: "x", Files: map[string][]byte{
			"gbench.json":   []byte(`{"context": {"date": "2026-01-01"}, "benchmarks": []}`),
			"pytest.json":   []byte(`{"machine_info": {}, "commit_info": {"id": "abc"}, "benchmarks": [], "version": "3.2.2"}`),
			"perfgate.json": []byte(`{"schema": "perfgate.run.v1"}`),
		}}, false},
		{"empty folder", Input{Name: "x", Files: map[string][]byte{}}, false},
	}
	f, _ := Lookup("asv")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.Sniff(tt.in); got != tt.want {
				t.Errorf("Sniff = %v, want %v", got, tt.want)
			}
			// No other directory format may claim asv's folders first.
			if tt.want {
				if got, err := Detect(tt.in); err != nil || got.Name != "asv" {
					t.Errorf("Detect = %q, %v; want asv", got.Name, err)
				}
			}
		})
	}
}

func FuzzASV(f *testing.F) {
	for _, p := range []string{
		"testdata/asv/results/cheetah/4b8a1f0e-virtualenv-py3.12-numpy1.26.json",
		"testdata/asv/results/cheetah/22b920c6-py3.8-numpy1.18.json",
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte(asvMachineJSON))
	}
	f.Add([]byte(asvV2("abc", `"a.time_p": [[NaN, null], [["1", "2"]], "1"]`)), []byte(`{"machine": 1}`))
	suite, err := os.ReadFile(filepath.Join("testdata", "asv", "results", "benchmarks.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, result, machine []byte) {
		in := Input{Name: "r", Files: map[string][]byte{
			"benchmarks.json":      suite,
			"m/machine.json":       machine,
			"m/abc-py3.json":       result,
			"m/deep/x/abc-py.json": result,
		}}
		runs, problems := readASV(in, Defaults{})
		fatal := false
		for _, p := range problems {
			if p.Fatal {
				fatal = true
			}
			if p.File == "" || p.Msg == "" {
				t.Errorf("problem without file or message: %+v", p)
			}
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem with %d runs", len(runs))
		}
		for _, r := range runs {
			if r.Artifact.ID == "" {
				t.Errorf("run without commit")
			}
			for _, res := range r.Results {
				for _, x := range res.Samples {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Errorf("%s: non-finite sample %v", res.Case, x)
					}
				}
				if res.Error == "" && len(res.Samples) == 0 {
					t.Errorf("%s: neither samples nor error", res.Case)
				}
			}
		}
		_ = fmt.Sprint(runs)

		// File by file, as a build reads the folder: the same runs as
		// the folder read whole.
		_, whole, _ := Read("asv", in, Defaults{})
		rels := []string{"m/abc-py3.json", "m/deep/x/abc-py.json"}
		folder, _ := OpenASV("r", map[string][]byte{"benchmarks.json": suite, "m/machine.json": machine}, rels, 0, Defaults{})
		var byFile []model.Run
		for _, rel := range rels {
			rs, _ := folder.ReadFile(rel, result)
			byFile = append(byFile, rs...)
		}
		if d := cmp.Diff(whole, byFile, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); d != "" {
			t.Errorf("file by file differs from the folder read whole (-whole +by file):\n%s", d)
		}
	})
}
