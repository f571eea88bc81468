package foreign

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// perfgateHostMachine is the machine of the fixtures (testdata/perfgate,
// recorded by `perfpages run` on the build machine).
var perfgateHostMachine = model.Machine{Name: "host-5bce98f73f3e", OS: "linux", Arch: "x86_64", Cores: 2, MemoryBytes: 25276514304}

func perfgateResult(bench, metric, unit string, dir model.Direction, samples ...float64) model.Result {
	return model.Result{
		Case:      model.TestCase{Benchmark: bench, Category: model.Primary},
		Metric:    metric,
		Unit:      unit,
		Samples:   samples,
		Direction: dir,
	}
}

func perfgateStarted(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestPerfgateFixtures(t *testing.T) {
	const lower, higher = model.LowerIsBetter, model.HigherIsBetter
	failed := func(rs []model.Result, msg string) []model.Result {
		for i := range rs {
			rs[i].Error = msg
		}
		return rs
	}
	tests := []struct {
		file     string
		def      Defaults
		want     model.Run
		problems []string
	}{
		{
			file: "sleep.json",
			want: model.Run{
				Artifact: model.Artifact{Date: perfgateStarted("2026-11-21T14:29:45.015951885Z")},
				Machine:  perfgateHostMachine,
				Results: []model.Result{
					perfgateResult("sleep", "cpu_ms", "ms", lower, 1, 1, 1),
					perfgateResult("sleep", "max_rss_kb", "KB", lower, 12656, 12656, 12656),
					perfgateResult("sleep", "wall_ms", "ms", lower, 11, 11, 12),
				},
			},
		},
		{
			file: "work.json",
			want: model.Run{
				Artifact: model.Artifact{Date: perfgateStarted("2026-11-21T14:29:45.059460186Z")},
				Machine:  perfgateHostMachine,
				Results: []model.Result{
					// The warm-up sample (wall_ms 21, cpu_ms 1) is left out.
					perfgateResult("sleep-work", "cpu_ms", "ms", lower, 2, 1, 1, 1),
					perfgateResult("sleep-work", "max_rss_kb", "KB", lower, 12428, 12428, 12428, 12428),
					// 1000 work units in 22, 24, 23, 23 ms.
					perfgateResult("sleep-work", "throughput_per_s", "/s", higher, 1000/0.022, 1000/0.024, 1000/0.023, 1000/0.023),
					perfgateResult("sleep-work", "wall_ms", "ms", lower, 22, 24, 23, 23),
				},
			},
		},
		{
			file: "flaky.json",
			want: model.Run{
				Artifact: model.Artifact{Date: perfgateStarted("2026-11-21T14:29:45.191108046Z")},
				Machine:  perfgateHostMachine,
				Results: []model.Result{
					perfgateResult("flaky", "cpu_ms", "ms", lower, 2, 0, 0),
					perfgateResult("flaky", "max_rss_kb", "KB", lower, 12544, 12672, 12800),
					perfgateResult("flaky", "wall_ms", "ms", lower, 5, 0, 1),
				},
			},
			problems: []string{"testdata/perfgate/flaky.json:30: bench flaky: sample 1 exited with code 3; kept, as perfgate's statistics keep it"},
		},
		{
			file: "fails.json",
			want: model.Run{
				Artifact: model.Artifact{Date: perfgateStarted("2026-11-21T14:29:45.207754046Z")},
				Machine:  perfgateHostMachine,
				Results: failed([]model.Result{
					perfgateResult("fails", "cpu_ms", "ms", lower, 1, 1),
					perfgateResult("fails", "max_rss_kb", "KB", lower, 12504, 12632),
					perfgateResult("fails", "wall_ms", "ms", lower, 2, 1),
				}, "every measured sample failed (first: exited with code 1)"),
			},
			problems: []string{
				"testdata/perfgate/fails.json:28: bench fails: sample 1 exited with code 1; kept, as perfgate's statistics keep it",
				"testdata/perfgate/fails.json:36: bench fails: sample 2 exited with code 1; kept, as perfgate's statistics keep it",
			},
		},
		{
			file: "timeout.json",
			def: Defaults{
				Artifact: model.Artifact{ID: "4b8a1f0e9c3d2b1a0f9e8d7c6b5a49382716f5e4", Kind: model.KindCommit, Date: time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC), Parents: []string{"9e1c"}},
				Machine:  model.Machine{Name: "ci-runner", CPU: "AMD EPYC"},
				Context:  model.Params{{Key: "toolchain", Value: "go1.26"}},
			},
			want: model.Run{
				Artifact: model.Artifact{ID: "4b8a1f0e9c3d2b1a0f9e8d7c6b5a49382716f5e4", Kind: model.KindCommit, Date: time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC), Parents: []string{"9e1c"}},
				Machine:  model.Machine{Name: "ci-runner", OS: "linux", Arch: "x86_64", CPU: "AMD EPYC", Cores: 2, MemoryBytes: 25276514304},
				Context:  model.Params{{Key: "toolchain", Value: "go1.26"}},
				Results: failed([]model.Result{
					perfgateResult("timeout", "cpu_ms", "ms", lower, 1, 1),
					perfgateResult("timeout", "max_rss_kb", "KB", lower, 12344, 12472),
					perfgateResult("timeout", "wall_ms", "ms", lower, 51, 51),
				}, "every measured sample failed (first: timed out)"),
			},
			problems: []string{
				"testdata/perfgate/timeout.json:30: bench timeout: sample 1 timed out; kept, as perfgate's statistics keep it",
				"testdata/perfgate/timeout.json:38: bench timeout: sample 2 timed out; kept, as perfgate's statistics keep it",
			},
		},
	}
	f, ok := Lookup("perfgate")
	if !ok || f.Dir {
		t.Fatal("perfgate is not registered as a file format")
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			in, err := ReadPath("testdata/perfgate/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			runs, problems := f.Read(in, tt.def)
			if diff := cmp.Diff([]model.Run{tt.want}, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problemStrings(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// perfgateReceipt is a small hand-made receipt: perfgate itself omits
// warmup and timed_out when false, so hand-made files do too.
const perfgateReceipt = `{
  "schema": "perfgate.run.v1",
  "tool": {"name": "perfgate", "version": "0.4.0"},
  "run": {"id": "r1", "started_at": "2026-01-02T03:04:05Z", "ended_at": "2026-01-02T03:04:06Z",
          "host": {"os": "macos", "arch": "aarch64"}},
  "bench": {"name": "build", "command": ["make"], "repeat": 2, "warmup": 0},
  "samples": [
    {"wall_ms": 100, "exit_code": 0, "page_faults": 7},
    {"wall_ms": 110, "exit_code": 0, "page_faults": 9}
  ],
  "stats": {"wall_ms": {"median": 105, "min": 100, "max": 110}}
}`

func TestPerfgateBadInput(t *testing.T) {
	date := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	macos := model.Machine{OS: "macos", Arch: "aarch64"}
	tests := []struct {
		name     string
		data     string
		want     []model.Run
		problems []string
	}{
		{
			name: "hand-made receipt without warmup or timed_out",
			data: perfgateReceipt,
			want: []model.Run{{Artifact: model.Artifact{Date: date}, Machine: macos, Results: []model.Result{
				perfgateResult("build", "page_faults", "count", model.LowerIsBetter, 7, 9),
				perfgateResult("build", "wall_ms", "ms", model.LowerIsBetter, 100, 110),
			}}},
		},
		{
			name:     "truncated file",
			data:     perfgateReceipt[:len(perfgateReceipt)/2],
			problems: []string{"fatal: r.json:6: invalid JSON: unexpected end of file"},
		},
		{
			name:     "not JSON",
			data:     "schema: perfgate.run.v1\n",
			problems: []string{"fatal: r.json:1: invalid JSON: invalid character 's' looking for beginning of value"},
		},
		{
			name:     "another schema",
			data:     strings.Replace(perfgateReceipt, "perfgate.run.v1", "perfgate.compare.v1", 1),
			problems: []string{`fatal: r.json:2: schema is "perfgate.compare.v1": not a perfgate.run.v1 receipt`},
		},
		{
			name:     "no schema",
			data:     `{"bench": {"name": "x"}, "samples": []}`,
			problems: []string{`fatal: r.json: no schema field: not a perfgate.run.v1 receipt`},
		},
		{
			name:     "empty sample list",
			data:     `{"schema": "perfgate.run.v1", "bench": {"name": "x"}, "samples": []}`,
			problems: []string{`r.json: missing field "run": no host or start time`, "fatal: r.json:1: bench x: no measured samples (no samples)"},
		},
		{
			name: "only warm-ups",
			data: `{"schema": "perfgate.run.v1", "run": {"started_at": "2026-01-02T03:04:05Z"}, "bench": {"name": "x"},
"samples": [{"wall_ms": 1, "exit_code": 0, "warmup": true}]}`,
			problems: []string{"fatal: r.json:2: bench x: no measured samples (all 1 usable samples are warm-ups)"},
		},
		{
			name:     "bench without a name",
			data:     `{"schema": "perfgate.run.v1", "bench": {"command": ["x"]}, "samples": []}`,
			problems: []string{"fatal: r.json:1: bench.name is missing or empty"},
		},
		{
			name:     "bench of the wrong type",
			data:     `{"schema": "perfgate.run.v1", "bench": ["x"], "samples": []}`,
			problems: []string{"fatal: r.json:1: bench: a JSON array, want an object"},
		},
		{
			name:     "duplicated field",
			data:     `{"schema": "perfgate.run.v1", "schema": "perfgate.run.v1"}`,
			problems: []string{`fatal: r.json:1: field "schema" appears twice`},
		},
		{
			name: "bad samples are dropped, good ones kept",
			data: `{"schema": "perfgate.run.v1",
"run": {"started_at": "yesterday", "host": {"os": "linux", "arch": "x86_64", "cpu_count": 4}},
"bench": {"name": "x", "work_units": 10},
"samples": [
  {"wall_ms": -5, "exit_code": 0},
  {"wall_ms": "fast", "exit_code": 0},
  {"exit_code": 0},
  {"wall_ms": 5},
  {"wall_ms": 5, "exit_code": "zero"},
  7,
  {"wall_ms": 0, "exit_code": 0, "max_rss_kb": -1, "cpu_ms": 3},
  {"wall_ms": 20, "exit_code": 0, "max_rss_kb": 100}
]}`,
			want: []model.Run{{
				Machine: model.Machine{OS: "linux", Arch: "x86_64", Cores: 4},
				Results: []model.Result{
					perfgateResult("x", "cpu_ms", "ms", model.LowerIsBetter, 3),
					perfgateResult("x", "max_rss_kb", "KB", model.LowerIsBetter, 100),
					// 0 ms gives throughput 0, as perfgate computes it.
					perfgateResult("x", "throughput_per_s", "/s", model.HigherIsBetter, 0, 500),
					perfgateResult("x", "wall_ms", "ms", model.LowerIsBetter, 0, 20),
				},
			}},
			problems: []string{
				"r.json:5: samples[0].wall_ms: -5 is not a non-negative integer; sample dropped",
				`r.json:6: samples[1].wall_ms: "fast" is not a non-negative integer; sample dropped`,
				"r.json:7: samples[2] has no wall_ms; dropped",
				"r.json:8: samples[3] has no exit_code; dropped",
				"r.json:9: samples[4]: exit_code is a JSON string, want an integer; dropped",
				"r.json:10: samples[5] is not an object; dropped",
				"r.json:11: samples[6].max_rss_kb: -1 is not a non-negative integer; value dropped",
				`r.json: run.started_at "yesterday" is not an RFC 3339 time; the run has no date`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := readPerfgate(Input{Name: "r.json", Data: []byte(tt.data)}, Defaults{})
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problemStrings(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPerfgateSniff(t *testing.T) {
	fixture := func(name string) string {
		data, err := os.ReadFile("testdata/perfgate/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"sleep receipt", fixture("sleep.json"), true},
		{"receipt with warm-up", fixture("work.json"), true},
		{"hand-made receipt", perfgateReceipt, true},
		{"compare receipt", `{"schema": "perfgate.compare.v1", "tool": {}, "bench": {}}`, false},
		{"perfpages archive", `{"schema": "perfpages.run.v1", "results": []}`, false},
		{"google benchmark", `{"context": {"date": "2026-01-01"}, "benchmarks": []}`, false},
		{"hyperfine", `{"results": [{"command": "sleep 0.1", "mean": 0.1, "times": [0.1]}]}`, false},
		{"schema id in a string elsewhere", `{"benchmarks": [{"name": "perfgate.run.v1"}]}`, false},
		{"go bench text", "goos: linux\nBenchmarkX-2 10 100 ns/op\n", false},
		{"empty", "", false},
	}
	f, _ := Lookup("perfgate")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Name: "x.json", Data: []byte(tt.data)}
			if got := f.Sniff(in); got != tt.want {
				t.Errorf("Sniff = %v, want %v", got, tt.want)
			}
			// No other file format may claim a receipt first.
			if tt.want {
				if got, err := Detect(in); err != nil || got.Name != "perfgate" {
					t.Errorf("Detect = %q, %v; want perfgate", got.Name, err)
				}
			}
		})
	}
}

func FuzzPerfgate(f *testing.F) {
	for _, name := range []string{"sleep.json", "work.json", "flaky.json", "timeout.json"} {
		data, err := os.ReadFile("testdata/perfgate/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(perfgateReceipt))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, problems := readPerfgate(Input{Name: "r.json", Data: data}, Defaults{})
		fatal := false
		for _, p := range problems {
			fatal = fatal || p.Fatal
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem with %d runs", len(runs))
		}
		if !fatal && len(runs) != 1 {
			t.Errorf("no fatal problem but %d runs", len(runs))
		}
		for _, r := range runs {
			for _, res := range r.Results {
				if len(res.Samples) == 0 || res.Case.Benchmark == "" {
					t.Errorf("empty result %+v", res)
				}
			}
		}
	})
}
