package foreign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

func hyperfineInput(t testing.TB, name string) Input {
	t.Helper()
	path := filepath.Join("testdata", "hyperfine", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: path, Data: data}
}

// hyperfineResults builds the results hyperfine gives for one command:
// wall-time samples and the user and system means.
func hyperfineResults(tc model.TestCase, times []float64, user, system float64) []model.Result {
	return []model.Result{
		{Case: tc, Metric: "wall-time", Unit: "s", Samples: times},
		{Case: tc, Metric: "user-time", Unit: "s", Samples: []float64{user}},
		{Case: tc, Metric: "system-time", Unit: "s", Samples: []float64{system}},
	}
}

func hyperfineCase(bench string, kv ...string) model.TestCase {
	var params map[string]string
	for i := 0; i+1 < len(kv); i += 2 {
		if params == nil {
			params = map[string]string{}
		}
		params[kv[i]] = kv[i+1]
	}
	return model.TestCase{Benchmark: bench, Params: model.NewParams(params)}
}

func hyperfineConcat(rs ...[]model.Result) []model.Result {
	var all []model.Result
	for _, r := range rs {
		all = append(all, r...)
	}
	return all
}

// The known answers are the numbers in the fixtures, which the real
// hyperfine 1.15.0 wrote (testdata/hyperfine/README.md).
func TestHyperfineFixtures(t *testing.T) {
	def := Defaults{
		Artifact: model.Artifact{ID: "3f2a9c0d1e2b3c4d5e6f708192a3b4c5d6e7f809", Kind: model.KindCommit,
			Date: time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)},
		Machine: model.Machine{Name: "ci-1", OS: "linux"},
		Context: model.NewParams(map[string]string{"shell": "sh"}),
	}
	run := func(results []model.Result) []model.Run {
		return []model.Run{{Artifact: def.Artifact, Machine: def.Machine, Context: def.Context, Results: results}}
	}
	failed3 := hyperfineCase(`sh -c "exit 3"`)
	tests := []struct {
		file  string
		want  []model.Run
		probs []archive.Problem
	}{
		{
			file: "basic.json",
			want: run(hyperfineConcat(
				hyperfineResults(hyperfineCase("sleep 0.01"),
					[]float64{0.011625729100000001, 0.012078525100000001, 0.0114809181, 0.011286856100000001, 0.0112568901},
					0.00074382, 0.0010006),
				hyperfineResults(hyperfineCase("sleep 0.02"),
					[]float64{0.0218321611, 0.0277058251, 0.0231931301, 0.0224228451, 0.0216687271},
					0.0015138200000000001, 0.0002339),
			)),
		},
		{
			file: "param.json",
			want: run(hyperfineConcat(
				hyperfineResults(hyperfineCase("sleep 0.0{n}", "n", "1"),
					[]float64{0.011847014480000001, 0.012237604480000002, 0.011811537480000002},
					0.0009507866666666667, 0.0007338933333333334),
				hyperfineResults(hyperfineCase("sleep 0.0{n}", "n", "2"),
					[]float64{0.02230906748, 0.02127017348, 0.02188102548},
					0.0009011199999999999, 0.0003596133333333333),
				hyperfineResults(hyperfineCase("sleep 0.0{n}", "n", "3"),
					[]float64{0.03119380548, 0.031011187480000004, 0.03120213648},
					0.0007917866666666667, 0.00033628),
			)),
		},
		{
			file: "list.json",
			want: run(hyperfineConcat(
				hyperfineResults(hyperfineCase("{tool} {d}", "d", "0.01", "tool", "sleep"),
					[]float64{0.0115768412, 0.0120123872}, 0.0004332199999999997, 0.00126064),
				hyperfineResults(hyperfineCase("{tool} {d}", "d", "0.01", "tool", "true"),
					[]float64{0.00022914219999999996, 0.0}, 0.0002307199999999997, 0.0),
				hyperfineResults(hyperfineCase("{tool} {d}", "d", "0.02", "tool", "sleep"),
					[]float64{0.021910075200000004, 0.021837619200000002}, 0.0011997199999999996, 0.00065807),
				hyperfineResults(hyperfineCase("{tool} {d}", "d", "0.02", "tool", "true"),
					[]float64{0.0002679951999999999, 5.403319999999984e-05}, 0.0001693599999999999, 0.00050057),
			)),
		},
		{
			file: "failing.json",
			want: run(hyperfineConcat(
				[]model.Result{
					{Case: failed3, Metric: "wall-time", Unit: "s", Error: "all 4 runs failed (exit code 3)"},
					{Case: failed3, Metric: "user-time", Unit: "s", Error: "all 4 runs failed (exit code 3)"},
					{Case: failed3, Metric: "system-time", Unit: "s", Error: "all 4 runs failed (exit code 3)"},
				},
				hyperfineResults(hyperfineCase(`sh -c "test -e /tmp/hf-flag && exit 1; touch /tmp/hf-flag"`),
					[]float64{0.0029019253200000005, 0.0016856383200000002, 0.00099188232, 0.00128886732},
					0.0018758699999999998, 0.0),
				hyperfineResults(hyperfineCase("sleep 0.01"),
					[]float64{0.011520187320000002, 0.011817932320000002, 0.011579587320000001, 0.011597070320000001},
					0.0009928699999999999, 0.0006283199999999999),
			)),
			probs: []archive.Problem{{File: filepath.Join("testdata", "hyperfine", "failing.json"), Line: 40,
				Msg: `results[1] ("sh -c \"test -e /tmp/hf-flag && exit 1; touch /tmp/hf-flag\""): 3 of 4 runs failed (exit code 1); their times are kept`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			runs, probs := readHyperfine(hyperfineInput(t, tt.file), def)
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.probs, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHyperfineRegistered(t *testing.T) {
	f, ok := Lookup("hyperfine")
	if !ok || f.Dir || f.Read == nil || f.Sniff == nil {
		t.Fatalf("Lookup(hyperfine) = %+v, %v; want a registered file format", f, ok)
	}
}

// hyperfineWant is a problem expected by TestHyperfineBadInput: its line,
// whether it is fatal and a part of its message.
type hyperfineWant struct {
	Line  int
	Fatal bool
	Msg   string
}

func TestHyperfineBadInput(t *testing.T) {
	const good = `{"command": "good", "times": [1, 2], "user": 0.5, "system": 0.25, "exit_codes": [0, 0]}`
	goodResults := hyperfineResults(hyperfineCase("good"), []float64{1, 2}, 0.5, 0.25)
	basic := string(hyperfineInput(t, "basic.json").Data)
	tests := []struct {
		name  string
		data  string
		want  []model.Result // nil: no run at all
		probs []hyperfineWant
	}{
		{
			name:  "empty file",
			data:  " \n",
			probs: []hyperfineWant{{0, true, "the file is empty"}},
		},
		{
			name:  "not JSON",
			data:  "Benchmark 1: sleep 0.01\n  Time (mean ± σ): 11.5 ms\n",
			probs: []hyperfineWant{{1, true, "invalid JSON"}},
		},
		{
			name:  "top level is an array",
			data:  `[{"name": "x", "unit": "ns", "value": 1}]`,
			probs: []hyperfineWant{{1, true, "not a JSON object"}},
		},
		{
			name:  "no results array",
			data:  `{"context": {}, "benchmarks": []}`,
			probs: []hyperfineWant{{0, true, `no "results" array`}},
		},
		{
			name:  "results is not an array",
			data:  "{\n\"results\": {\"command\": \"x\"}}",
			probs: []hyperfineWant{{2, true, `"results" is not an array`}},
		},
		{
			name:  "empty results list",
			data:  `{"results": []}`,
			probs: []hyperfineWant{{0, true, "empty"}},
		},
		{
			name:  "truncated in the first result",
			data:  basic[:200],
			probs: []hyperfineWant{{9, true, "truncated JSON"}},
		},
		{
			name: "truncated in the second result keeps the first",
			data: basic[:600],
			want: hyperfineResults(hyperfineCase("sleep 0.01"),
				[]float64{0.011625729100000001, 0.012078525100000001, 0.0114809181, 0.011286856100000001, 0.0112568901},
				0.00074382, 0.0010006),
			probs: []hyperfineWant{{30, false, "truncated JSON: the file ends in the middle of a value (the 1 results before it are kept)"}},
		},
		{
			name:  "syntax error after a good result",
			data:  "{\"results\": [\n" + good + ",\n{\"command\": oops}]}",
			want:  goodResults,
			probs: []hyperfineWant{{3, false, "invalid JSON"}},
		},
		{
			name:  "trailing data",
			data:  "{\"results\": [" + good + "]}\n{}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, "unexpected data after the JSON object"}},
		},
		{
			name:  "element is not an object",
			data:  "{\"results\": [\n42,\n" + good + "]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, "results[0] is 42, not an object; skipped"}},
		},
		{
			name:  "command missing",
			data:  "{\"results\": [\n{\"times\": [1]},\n" + good + "]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, `results[0] has no "command"; skipped`}},
		},
		{
			name:  "command is a number",
			data:  "{\"results\": [\n" + good + ",\n{\"command\": 7, \"times\": [1]}]}",
			want:  goodResults,
			probs: []hyperfineWant{{3, false, `results[1]: "command" is 7, not a non-empty string; skipped`}},
		},
		{
			name:  "times is a string",
			data:  "{\"results\": [\n" + good + ",\n{\"command\": \"bad\",\n \"times\": \"fast\"}]}",
			want:  goodResults,
			probs: []hyperfineWant{{4, false, `results[1] ("bad"): "times" is "fast", not an array of numbers; skipped`}},
		},
		{
			name:  "bad and negative times are left out",
			data:  `{"results": [{"command": "c", "times": [1, "x", null, -2, 3]}]}`,
			want:  []model.Result{{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s", Samples: []float64{1, 3}}},
			probs: []hyperfineWant{{1, false, `"times" has values that are not durations in seconds, left out: [1] = "x", [2] = null, [3] = -2`}},
		},
		{
			name:  "a number out of range is left out",
			data:  `{"results": [{"command": "c", "times": [1e400, 2]}]}`,
			want:  []model.Result{{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s", Samples: []float64{2}}},
			probs: []hyperfineWant{{1, false, `left out: [0] = 1e400`}},
		},
		{
			name:  "a long wrong value is shortened on a character boundary",
			data:  "{\"results\": [{\"command\": [\"" + strings.Repeat("é", 30) + "\"]},\n" + good + "]}",
			want:  goodResults,
			probs: []hyperfineWant{{1, false, `results[0]: "command" is ["` + strings.Repeat("é", 19) + `…, not a non-empty string; skipped`}},
		},
		{
			name:  "no runs",
			data:  "{\"results\": [" + good + ",\n{\"command\": \"none\", \"times\": []}]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, `results[1] ("none"): "times" holds no run; skipped`}},
		},
		{
			name: "user and system of the wrong type",
			data: "{\"results\": [{\"command\": \"c\", \"times\": [1],\n\"user\": \"0.1\",\n\"system\": -1}]}",
			want: []model.Result{{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s", Samples: []float64{1}}},
			probs: []hyperfineWant{
				{2, false, `"user" is "0.1", not a duration in seconds; user-time left out`},
				{3, false, `"system" is -1, not a duration in seconds; system-time left out`},
			},
		},
		{
			name:  "exit codes of the wrong type are ignored",
			data:  `{"results": [{"command": "good", "times": [1, 2], "user": 0.5, "system": 0.25, "exit_codes": "ok"}]}`,
			want:  goodResults,
			probs: []hyperfineWant{{1, false, `"exit_codes" is "ok", not an array of integers; ignored`}},
		},
		{
			name:  "runs killed by a signal",
			data:  `{"results": [{"command": "c", "times": [1, 2, 3], "exit_codes": [null, 2, 0]}]}`,
			want:  []model.Result{{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s", Samples: []float64{1, 2, 3}}},
			probs: []hyperfineWant{{1, false, `2 of 3 runs failed (exit code 2; killed by a signal); their times are kept`}},
		},
		{
			name: "every run killed",
			data: `{"results": [{"command": "c", "times": [1, 2], "exit_codes": [null, 137]}]}`,
			want: []model.Result{{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s",
				Error: "all 2 runs failed (exit code 137; killed by a signal)"}},
		},
		{
			name:  "parameter of the wrong type",
			data:  "{\"results\": [" + good + ",\n{\"command\": \"c\", \"times\": [1], \"parameters\": {\"n\": true}}]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, `parameter "n" is true, not a string; skipped`}},
		},
		{
			name: "numeric parameter written by hand",
			data: `{"results": [{"command": "sleep 5", "times": [5], "parameters": {"n": 5}}]}`,
			want: []model.Result{{Case: hyperfineCase("sleep {n}", "n", "5"), Metric: "wall-time", Unit: "s", Samples: []float64{5}}},
		},
		{
			name:  "duplicated command",
			data:  "{\"results\": [\n" + good + ",\n" + strings.Replace(good, "[1, 2]", "[7]", 1) + "]}",
			want:  goodResults,
			probs: []hyperfineWant{{3, false, `results[1] ("good"): "good" is a duplicate of the command at line 2; skipped`}},
		},
		{
			name: "same command with different parameters is no duplicate",
			data: `{"results": [{"command": "x", "times": [1], "parameters": {"a": "1"}}, {"command": "x", "times": [2], "parameters": {"a": "2"}}]}`,
			want: []model.Result{
				{Case: hyperfineCase("x", "a", "1"), Metric: "wall-time", Unit: "s", Samples: []float64{1}},
				{Case: hyperfineCase("x", "a", "2"), Metric: "wall-time", Unit: "s", Samples: []float64{2}},
			},
		},
		{
			name:  "old file without times uses the mean",
			data:  "{\"results\": [{\"command\": \"old\",\n\"mean\": 0.5, \"user\": 0.1, \"system\": 0.2}]}",
			want:  hyperfineResults(hyperfineCase("old"), []float64{0.5}, 0.1, 0.2),
			probs: []hyperfineWant{{2, false, `results[0] ("old") has no "times" (hyperfine before 1.2?); its mean is the only wall-time sample`}},
		},
		{
			name:  "neither times nor mean",
			data:  "{\"results\": [" + good + ",\n{\"command\": \"empty\"}]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, `results[1] ("empty") has neither "times" nor a "mean" duration; skipped`}},
		},
		{
			name: "memory usage of newer versions becomes max-rss",
			data: `{"results": [{"command": "c", "times": [1, 2], "memory_usage_byte": [4096, 8192], "exit_codes": [0, 0]}]}`,
			want: []model.Result{
				{Case: hyperfineCase("c"), Metric: "wall-time", Unit: "s", Samples: []float64{1, 2}},
				{Case: hyperfineCase("c"), Metric: "max-rss", Unit: "B", Samples: []float64{4096, 8192}},
			},
		},
		{
			name:  "memory usage of the wrong type",
			data:  `{"results": [{"command": "good", "times": [1, 2], "user": 0.5, "system": 0.25, "memory_usage_byte": {"max": 1}}]}`,
			want:  goodResults,
			probs: []hyperfineWant{{1, false, `"memory_usage_byte" is {"max": 1}, not an array of numbers; max-rss left out`}},
		},
		{
			// hyperfine has no unit field (always seconds), so unknown
			// fields such as a unit or new statistics are ignored quietly.
			name: "unknown fields are ignored",
			data: `{"version": "9.9", "results": [{"command": "good", "times": [1, 2], "user": 0.5, "system": 0.25, "unit": "ms", "p99": 3, "stddev": null}]}`,
			want: goodResults,
		},
		{
			name:  "a second results array is ignored",
			data:  "{\"results\": [" + good + "],\n\"results\": [{\"command\": \"other\", \"times\": [1]}]}",
			want:  goodResults,
			probs: []hyperfineWant{{2, false, `a second "results" array; ignored`}},
		},
		{
			name: "nothing usable",
			data: "{\"results\": [\n1,\n{\"command\": \"\"}]}",
			probs: []hyperfineWant{
				{2, false, "results[0] is 1, not an object; skipped"},
				{3, false, `results[1]: "command" is "", not a non-empty string; skipped`},
				{0, true, "none of the 2 results is usable"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, probs := readHyperfine(Input{Name: "bench.json", Data: []byte(tt.data)}, Defaults{})
			var want []model.Run
			if tt.want != nil {
				want = []model.Run{{Results: tt.want}}
			}
			if diff := cmp.Diff(want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			var got []hyperfineWant
			for i, p := range probs {
				if p.File != "bench.json" {
					t.Errorf("problem %q names file %q, want bench.json", p.Msg, p.File)
				}
				w := hyperfineWant{p.Line, p.Fatal, p.Msg}
				if i < len(tt.probs) && strings.Contains(p.Msg, tt.probs[i].Msg) {
					w.Msg = tt.probs[i].Msg
				}
				got = append(got, w)
			}
			if diff := cmp.Diff(tt.probs, got); diff != "" {
				t.Errorf("problems (-want +got, messages compared by substring):\n%s", diff)
			}
		})
	}
}

func TestHyperfineNames(t *testing.T) {
	type cmd struct {
		command string
		params  []string
	}
	tests := []struct {
		name string
		cmds []cmd
		want []string
	}{
		{
			name: "no parameters keeps the command",
			cmds: []cmd{{"sleep 0.1", nil}, {"grep -r {x} .", nil}},
			want: []string{"sleep 0.1", "grep -r {x} ."},
		},
		{
			name: "parameter scan",
			cmds: []cmd{{"sleep 0.01", []string{"n", "1"}}, {"sleep 0.02", []string{"n", "2"}}},
			want: []string{"sleep 0.0{n}", "sleep 0.0{n}"},
		},
		{
			name: "a value that also occurs by coincidence",
			cmds: []cmd{{"sleep 0.00", []string{"n", "0"}}, {"sleep 0.01", []string{"n", "1"}}, {"sleep 0.02", []string{"n", "2"}}},
			want: []string{"sleep 0.0{n}", "sleep 0.0{n}", "sleep 0.0{n}"},
		},
		{
			name: "the template that fits the most commands wins",
			cmds: []cmd{{"sleep 0.11", []string{"n", "1"}}, {"sleep 0.21", []string{"n", "2"}}},
			want: []string{"sleep 0.{n}1", "sleep 0.{n}1"},
		},
		{
			name: "used twice",
			cmds: []cmd{{"cp a a.bak", []string{"f", "a"}}, {"cp b b.bak", []string{"f", "b"}}},
			want: []string{"cp {f} {f}.bak", "cp {f} {f}.bak"},
		},
		{
			name: "overlapping values: the longer first",
			cmds: []cmd{{"zstd -19 -T1", []string{"level", "19", "threads", "1"}}, {"zstd -3 -T2", []string{"level", "3", "threads", "2"}}},
			want: []string{"zstd -{level} -T{threads}", "zstd -{level} -T{threads}"},
		},
		{
			name: "a name without the parameter (-n)",
			cmds: []cmd{{"nap", []string{"t", "0.1"}}, {"nap", []string{"t", "0.2"}}},
			want: []string{"nap", "nap"},
		},
		{
			name: "a value that looks like a placeholder",
			cmds: []cmd{{"echo {n}", []string{"n", "{n}"}}},
			want: []string{"echo {n}"},
		},
		{
			name: "empty value",
			cmds: []cmd{{"ls ", []string{"flag", ""}}, {"ls -a", []string{"flag", "-a"}}},
			want: []string{"ls {flag}", "ls {flag}"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := make([]hyperfineEntry, len(tt.cmds))
			for i, c := range tt.cmds {
				m := map[string]string{}
				for j := 0; j+1 < len(c.params); j += 2 {
					m[c.params[j]] = c.params[j+1]
				}
				entries[i] = hyperfineEntry{command: c.command, params: model.NewParams(m)}
			}
			if diff := cmp.Diff(tt.want, hyperfineNames(entries)); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHyperfineSniff(t *testing.T) {
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"basic fixture", string(hyperfineInput(t, "basic.json").Data), true},
		{"param fixture", string(hyperfineInput(t, "param.json").Data), true},
		{"list fixture", string(hyperfineInput(t, "list.json").Data), true},
		{"failing fixture", string(hyperfineInput(t, "failing.json").Data), true},
		{"byte order mark", "\xef\xbb\xbf" + `{"results": [{"command": "x", "mean": 1}]}`, true},
		{"sorted keys (jq -S)", `{"results": [{"command": "x", "exit_codes": [0], "max": 1}]}`, true},
		{"empty results", `{"results": []}`, false},
		{"google benchmark", `{"context": {"date": "2026-01-01", "num_cpus": 2}, "benchmarks": [{"name": "BM_x", "real_time": 1}]}`, false},
		{"pytest-benchmark", `{"machine_info": {"node": "h"}, "commit_info": {}, "benchmarks": [{"name": "test_x", "stats": {"mean": 1}}]}`, false},
		{"bencher metric format", `{"results": {"latency": {"value": 1}}}`, false},
		{"github-action-benchmark", `[{"name": "x", "unit": "ns", "value": 1}]`, false},
		{"perfgate receipt", `{"schema": "perfgate.run.v1", "bench": {"name": "x", "command": ["x"]}, "samples": []}`, false},
		{"asv result", `{"commit_hash": "abc", "results": {"bench.time_x": [[1.0]]}, "version": 2}`, false},
		{"results without command", `{"results": [{"name": "x", "mean": 1}]}`, false},
		{"command not a string", `{"results": [{"command": ["sleep", "1"], "mean": 1}]}`, false},
		{"go bench text", "goos: linux\nBenchmarkX-2 100 12 ns/op\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffHyperfine(Input{Name: "f.json", Data: []byte(tt.data)}); got != tt.want {
				t.Errorf("sniffHyperfine = %v, want %v", got, tt.want)
			}
		})
	}
}

func FuzzHyperfine(f *testing.F) {
	for _, name := range []string{"basic.json", "param.json", "list.json", "failing.json"} {
		f.Add(hyperfineInput(f, name).Data)
	}
	f.Add([]byte(`{"results": [{"command": "c", "times": [1, "x"], "exit_codes": [null, 1], "parameters": {"n": 1}}]}`))
	f.Add([]byte(`{"results": [{"command": "c", "mean": 1, "memory_usage_byte": [1]}], "results": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := Input{Name: "fuzz.json", Data: data}
		sniffHyperfine(in)
		runs, probs := readHyperfine(in, Defaults{})
		fatal := false
		for _, p := range probs {
			if p.File != "fuzz.json" || p.Msg == "" {
				t.Errorf("problem without file or message: %+v", p)
			}
			fatal = fatal || p.Fatal
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem and %d runs", len(runs))
		}
		if !fatal && len(runs) == 0 {
			t.Errorf("no runs and no fatal problem: %v", probs)
		}
		for _, r := range runs {
			for _, res := range r.Results {
				if res.Case.Benchmark == "" || (res.Error == "") == (len(res.Samples) == 0) {
					t.Errorf("bad result %+v", res)
				}
			}
		}
	})
}
