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

// gbCase is a test case of the gobench tests: benchmark plus "k=v" pairs.
func gbCase(bench string, kv ...string) model.TestCase {
	m := map[string]string{}
	for _, p := range kv {
		k, v, _ := strings.Cut(p, "=")
		m[k] = v
	}
	return model.TestCase{Benchmark: bench, Params: model.NewParams(m), Category: model.Primary}
}

// gbResults is the usual block of one Go result line group: wall-time and,
// when given, B/op and allocs/op with constant values.
func gbMem(tc model.TestCase, ns []float64, bytes, allocs float64) []model.Result {
	n := len(ns)
	rep := func(x float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = x
		}
		return s
	}
	return []model.Result{
		{Case: tc, Metric: "wall-time", Unit: "ns", Samples: ns},
		{Case: tc, Metric: "B/op", Unit: "B/op", Samples: rep(bytes)},
		{Case: tc, Metric: "allocs/op", Unit: "allocs/op", Samples: rep(allocs)},
	}
}

func gbRun(os, arch, cpu string, ctx map[string]string, results ...[]model.Result) model.Run {
	r := model.Run{
		Artifact: model.Artifact{Kind: model.KindCommit},
		Machine:  model.Machine{Name: "default", OS: os, Arch: arch, CPU: cpu},
		Context:  model.NewParams(ctx),
	}
	for _, rs := range results {
		r.Results = append(r.Results, rs...)
	}
	return r
}

func gbRead(t *testing.T, name string, data []byte, def Defaults) ([]model.Run, []archive.Problem) {
	t.Helper()
	f, ok := Lookup("gobench")
	if !ok {
		t.Fatal(`format "gobench" is not registered`)
	}
	return f.Read(Input{Name: name, Data: data}, def)
}

func gbProblems(ps []archive.Problem) []string {
	var out []string
	for _, p := range ps {
		s := p.Error()
		if p.Fatal {
			s = "FATAL " + s
		}
		out = append(out, s)
	}
	return out
}

func TestGobenchFixtures(t *testing.T) {
	sortCase := func(n string) model.TestCase { return gbCase("Sort", "n="+n, "procs=2") }
	join := func(sep string, procs ...string) model.TestCase {
		kv := []string{"sub1=" + sep}
		for _, p := range procs {
			kv = append(kv, "procs="+p)
		}
		return gbCase("Join", kv...)
	}
	fmtCase := gbCase("Format", "procs=2")
	five := func(x float64) []float64 { return []float64{x, x, x, x, x} }
	sortPkg := map[string]string{"pkg": "example.com/sortbench"}

	tests := []struct {
		file     string
		want     []model.Run
		problems []string
	}{
		{
			// go test -bench . -count 5 -benchmem: key=value and positional
			// sub-benchmarks, b.SetBytes (MB/s) and b.ReportMetric.
			file: "sort.txt",
			want: []model.Run{gbRun("linux", "amd64", "AMD EPYC", sortPkg,
				[]model.Result{
					{Case: sortCase("100"), Metric: "wall-time", Unit: "ns", Samples: []float64{2719, 1933, 1915, 2535, 1957}},
					{Case: sortCase("100"), Metric: "throughput", Unit: "B/s", Samples: []float64{294.22e6, 413.88e6, 417.69e6, 315.63e6, 408.75e6}},
					{Case: sortCase("100"), Metric: "compares/op", Unit: "compares/op", Samples: five(643)},
					{Case: sortCase("100"), Metric: "B/op", Unit: "B/op", Samples: five(0)},
					{Case: sortCase("100"), Metric: "allocs/op", Unit: "allocs/op", Samples: five(0)},
					{Case: sortCase("1000"), Metric: "wall-time", Unit: "ns", Samples: []float64{38853, 33804, 36408, 31629, 31902}},
					{Case: sortCase("1000"), Metric: "throughput", Unit: "B/s", Samples: []float64{205.90e6, 236.66e6, 219.73e6, 252.93e6, 250.77e6}},
					{Case: sortCase("1000"), Metric: "compares/op", Unit: "compares/op", Samples: five(10308)},
					{Case: sortCase("1000"), Metric: "B/op", Unit: "B/op", Samples: five(0)},
					{Case: sortCase("1000"), Metric: "allocs/op", Unit: "allocs/op", Samples: five(0)},
				},
				gbMem(join("comma", "2"), []float64{68.03, 68.66, 68.41, 65.45, 56.19}, 16, 1),
				gbMem(join("space", "2"), []float64{74.70, 72.88, 65.08, 64.51, 66.70}, 16, 1),
				[]model.Result{
					{Case: fmtCase, Metric: "wall-time", Unit: "ns", Samples: []float64{87.96, 86.26, 85.36, 86.03, 82.89}},
					{Case: fmtCase, Metric: "items/s", Unit: "items/s", Samples: []float64{11369421, 11592405, 11715161, 11624059, 12064207}},
					{Case: fmtCase, Metric: "B/op", Unit: "B/op", Samples: five(4)},
					{Case: fmtCase, Metric: "allocs/op", Unit: "allocs/op", Samples: five(1)},
				},
			)},
			problems: []string{`sort.txt:5: unit compares/op has no direction (add a line "Unit compares/op better=higher" or better=lower); kept, lower is better assumed`},
		},
		{
			// go test -json -cpu 1,2: result lines split over two events;
			// GOMAXPROCS 1 has no suffix and so no procs param.
			file: "sort-json.json",
			want: []model.Run{gbRun("linux", "amd64", "AMD EPYC", sortPkg,
				gbMem(join("comma"), []float64{79.12, 53.13}, 16, 1),
				gbMem(join("comma", "2"), []float64{64.57, 70.12}, 16, 1),
				gbMem(join("space"), []float64{79.24, 67.44}, 16, 1),
				gbMem(join("space", "2"), []float64{63.02, 62.72}, 16, 1),
			)},
		},
		{
			// A sub-benchmark calling b.Fatal: an error result with its log
			// line; the parent's own FAIL line is not repeated.
			file: "fail.txt",
			want: []model.Run{gbRun("linux", "amd64", "AMD EPYC", map[string]string{"pkg": "example.com/sortbench/fail"},
				[]model.Result{
					{Case: gbCase("Parse", "procs=2"), Metric: "wall-time", Unit: "ns", Samples: []float64{7.436, 8.161}},
					{Case: gbCase("Broken", "procs=2", "size=small"), Metric: "wall-time", Unit: "ns", Error: "fail_test.go:16: cannot open fixture: no such file"},
				})},
		},
		{
			// The same with -json, where the log line comes before the FAIL line.
			file: "fail-json.json",
			want: []model.Run{gbRun("linux", "amd64", "AMD EPYC", map[string]string{"pkg": "example.com/sortbench/fail"},
				[]model.Result{
					{Case: gbCase("Parse", "procs=2"), Metric: "wall-time", Unit: "ns", Samples: []float64{17.07}},
					{Case: gbCase("Broken", "procs=2", "size=small"), Metric: "wall-time", Unit: "ns", Error: "fail_test.go:16: cannot open fixture: no such file"},
				})},
		},
		{
			// A panicking benchmark ends the test binary mid-line.
			file: "panic.txt",
			want: []model.Run{gbRun("linux", "amd64", "AMD EPYC", map[string]string{"pkg": "example.com/sortbench/panic"},
				[]model.Result{
					{Case: gbCase("OK", "procs=2"), Metric: "wall-time", Unit: "ns", Samples: []float64{0.9515}},
					{Case: gbCase("Panic", "k=v", "procs=2"), Metric: "wall-time", Unit: "ns", Error: "panic: assignment to entry in nil map"},
				})},
		},
		{
			// Hand-written: commit, branch and date lines, a Unit line, a
			// second package and a sec/op value.
			file: "config.txt",
			want: func() []model.Run {
				art := model.Artifact{ID: "3f2a9c1e5b7d4f60a8e2c1b9d7f5e3a1c9b8d7e6", Kind: model.KindCommit,
					Date: time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC), Branch: "main"}
				tc := gbCase("Decode", "procs=4", "size=small", "sub2=fast")
				a := gbRun("linux", "arm64", "Neoverse-N1", map[string]string{"pkg": "example.com/codec", "toolchain": "go1.26.8"}, []model.Result{
					{Case: tc, Metric: "wall-time", Unit: "ns", Samples: []float64{2400, 2380}},
					{Case: tc, Metric: "hits/op", Unit: "hits/op", Samples: []float64{12, 13}, Direction: model.HigherIsBetter},
					{Case: tc, Metric: "misses/op", Unit: "misses/op", Samples: []float64{0.5, 0.5}},
				})
				b := gbRun("linux", "arm64", "Neoverse-N1", map[string]string{"pkg": "example.com/codec/v2", "toolchain": "go1.26.8"}, []model.Result{
					{Case: tc, Metric: "wall-time", Unit: "ns", Samples: []float64{2100}},
					{Case: tc, Metric: "hits/op", Unit: "hits/op", Samples: []float64{14}, Direction: model.HigherIsBetter},
				})
				a.Artifact, b.Artifact = art, art
				return []model.Run{a, b}
			}(),
			problems: []string{`config.txt:10: unit misses/op has no direction (add a line "Unit misses/op better=higher" or better=lower); kept, lower is better assumed`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "gobench", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			runs, problems := gbRead(t, tt.file, data, Defaults{})
			if diff := cmp.Diff(tt.want, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, gbProblems(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGobenchDefaults(t *testing.T) {
	def := Defaults{
		Artifact: model.Artifact{ID: "1111111111111111111111111111111111111111", Kind: model.KindTry, PR: 7,
			Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		Machine: model.Machine{Name: "ci-arm", OS: "darwin"},
		Context: model.NewParams(map[string]string{"flags": "-race"}),
	}
	tests := []struct {
		name     string
		text     string
		artifact model.Artifact
		machine  model.Machine
		context  model.Params
	}{
		{
			name:     "the file records nothing: all from defaults",
			text:     "BenchmarkX 10 5 ns/op\n",
			artifact: def.Artifact,
			machine:  def.Machine,
			context:  def.Context,
		},
		{
			name: "the file's commit, date and machine win; the caller's machine name wins",
			text: "commit: 2222222222222222222222222222222222222222\ndate: 2026-05-06T07:08:09Z\ngoos: linux\ngoarch: amd64\npkg: p\nBenchmarkX 10 5 ns/op\n",
			artifact: model.Artifact{ID: "2222222222222222222222222222222222222222", Kind: model.KindCommit, PR: 7,
				Date: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)},
			machine: model.Machine{Name: "ci-arm", OS: "linux", Arch: "amd64"},
			context: model.NewParams(map[string]string{"flags": "-race", "pkg": "p"}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := gbRead(t, "x.txt", []byte(tt.text), def)
			if len(problems) != 0 || len(runs) != 1 {
				t.Fatalf("got %d runs, problems %v", len(runs), gbProblems(problems))
			}
			if diff := cmp.Diff(tt.artifact, runs[0].Artifact); diff != "" {
				t.Errorf("artifact (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.machine, runs[0].Machine); diff != "" {
				t.Errorf("machine (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.context, runs[0].Context); diff != "" {
				t.Errorf("context (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGobenchBadInput checks that each bad line is reported with its file
// and line and that the good lines around it are kept.
func TestGobenchBadInput(t *testing.T) {
	x := gbCase("X", "procs=2")
	ns := func(tc model.TestCase, samples ...float64) model.Result {
		return model.Result{Case: tc, Metric: "wall-time", Unit: "ns", Samples: samples}
	}
	tests := []struct {
		name     string
		text     string
		want     []model.Result // of the only run; nil: no run
		problems []string
	}{
		{
			name:     "empty file",
			text:     "",
			problems: []string{`FATAL in.txt: no benchmark results (want lines like "BenchmarkName-8  1000  123 ns/op" from go test -bench)`},
		},
		{
			name:     "no benchmark lines, only test output",
			text:     "goos: linux\n=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \tp\t0.1s\n",
			problems: []string{`FATAL in.txt: no benchmark results (want lines like "BenchmarkName-8  1000  123 ns/op" from go test -bench)`},
		},
		{
			name: "truncated file: the last line lacks its measurements",
			text: "BenchmarkX-2 100 5 ns/op\nBenchmarkX-2 100\n",
			want: []model.Result{ns(x, 5)},
			problems: []string{
				"in.txt:2: bad benchmark line: missing measurements",
			},
		},
		{
			name: "truncated in the middle of a value/unit pair",
			text: "BenchmarkX-2 100 5 ns/op 16\n",
			problems: []string{
				"in.txt:1: bad benchmark line: missing units",
				`FATAL in.txt: no benchmark results (want lines like "BenchmarkName-8  1000  123 ns/op" from go test -bench)`,
			},
		},
		{
			name: "wrong types: a word for the iteration count or the value",
			text: "BenchmarkX-2 many 5 ns/op\nBenchmarkX-2 100 fast ns/op\nBenchmarkX-2 100 6 ns/op\n",
			want: []model.Result{ns(x, 6)},
			problems: []string{
				"in.txt:1: bad benchmark line: parsing iteration count: invalid syntax",
				"in.txt:2: bad benchmark line: parsing measurement: invalid syntax",
			},
		},
		{
			name: "zero iterations, NaN and negative values are skipped",
			text: "BenchmarkX-2 0 5 ns/op\nBenchmarkX-2 10 NaN ns/op\nBenchmarkX-2 10 -3 ns/op -1 delta/op\nBenchmarkX-2 10 7 ns/op\n",
			want: []model.Result{{Case: x, Metric: "delta/op", Unit: "delta/op", Samples: []float64{-1}}, ns(x, 7)},
			problems: []string{
				"in.txt:1: benchmark X-2: iteration count 0; skipped",
				"in.txt:2: benchmark X-2: invalid ns/op value NaN; skipped",
				"in.txt:3: benchmark X-2: negative ns/op value -3; skipped",
				`in.txt:3: unit delta/op has no direction (add a line "Unit delta/op better=higher" or better=lower); kept, lower is better assumed`,
			},
		},
		{
			name: "duplicated names are repetitions; a unit twice on one line keeps the first",
			text: "BenchmarkX-2 10 5 ns/op\nBenchmarkX-2 10 6 ns/op 7 ns/op\n",
			want: []model.Result{ns(x, 5, 6)},
			problems: []string{
				"in.txt:2: benchmark X-2: ns/op given twice on one line; the first kept",
			},
		},
		{
			name: "a sub-benchmark key given twice becomes positional",
			text: "BenchmarkX/n=1/n=2-2 10 5 ns/op\nBenchmarkX/n=1/n=3-2 10 6 ns/op\n",
			want: []model.Result{
				ns(gbCase("X", "n=1", "sub2=n=2", "procs=2"), 5),
				ns(gbCase("X", "n=1", "sub2=n=3", "procs=2"), 6),
			},
			problems: []string{
				`in.txt:1: benchmark X/n=1/n=2-2: sub-benchmark key "n" given twice; the later one is param sub2`,
				`in.txt:2: benchmark X/n=1/n=3-2: sub-benchmark key "n" given twice; the later one is param sub2`,
			},
		},
		{
			name: "a procs key clashing with the GOMAXPROCS suffix keeps the whole name",
			text: "BenchmarkX/procs=4-2 10 5 ns/op\n",
			want: []model.Result{ns(gbCase("X/procs=4-2"), 5)},
			problems: []string{
				`in.txt:1: benchmark X/procs=4-2: the name does not split into distinct params (procs twice); the whole name is the benchmark`,
			},
		},
		{
			name: "unknown units are kept with one warning each; known ones are not warned about",
			text: "BenchmarkX-2 10 5 ns/op 3 widgets/op 2 ns/elem 9 items/s 1 MB/op\nBenchmarkX-2 10 5 ns/op 4 widgets/op 2 ns/elem 9 items/s 1 MB/op\n",
			want: []model.Result{
				ns(x, 5, 5),
				{Case: x, Metric: "widgets/op", Unit: "widgets/op", Samples: []float64{3, 4}},
				{Case: x, Metric: "ns/elem", Unit: "ns/elem", Samples: []float64{2, 2}},
				{Case: x, Metric: "items/s", Unit: "items/s", Samples: []float64{9, 9}},
				{Case: x, Metric: "MB/op", Unit: "MB/op", Samples: []float64{1, 1}},
			},
			problems: []string{
				`in.txt:1: unit widgets/op has no direction (add a line "Unit widgets/op better=higher" or better=lower); kept, lower is better assumed`,
			},
		},
		{
			name: "Unit lines set directions, also after the results; bad and conflicting ones are reported",
			text: "BenchmarkX-2 10 5 ns/op 3 widgets/op 100 MB/s\nUnit widgets/op better=higher\nUnit widgets/op better=lower\nUnit MB/s better=faster\nUnit ns/op better=lower\n",
			want: []model.Result{
				{Case: x, Metric: "wall-time", Unit: "ns", Samples: []float64{5}, Direction: model.LowerIsBetter},
				{Case: x, Metric: "widgets/op", Unit: "widgets/op", Samples: []float64{3}, Direction: model.HigherIsBetter},
				{Case: x, Metric: "throughput", Unit: "B/s", Samples: []float64{100e6}},
			},
			problems: []string{
				"in.txt:3: bad benchmark line: metadata better of unit widgets/op already set to higher",
				"in.txt:4: unit MB/s: better=faster (want higher or lower); ignored",
			},
		},
		{
			name: "an abbreviated commit and a bad date are ignored with one warning each",
			text: "commit: 3f2a9c1\ndate: yesterday\nBenchmarkX-2 10 5 ns/op\nBenchmarkX-2 10 6 ns/op\n",
			want: []model.Result{ns(x, 5, 6)},
			problems: []string{
				`in.txt:3: commit: "3f2a9c1" is not a full commit id; ignored`,
				`in.txt:3: date: "yesterday" is not a date (want RFC 3339); ignored`,
			},
		},
		{
			name: "an overlong line is skipped and the file read on",
			text: "BenchmarkX-2 10 5 ns/op\n" + "BenchmarkY-2 10 5 " + strings.Repeat("x", 70000) + "\nBenchmarkX-2 10 6 ns/op\n",
			want: []model.Result{ns(x, 5, 6)},
			problems: []string{
				"in.txt:2: line of 70018 bytes is too long; skipped",
			},
		},
		{
			name: "a benchmark that failed in one repetition keeps its other samples",
			text: "BenchmarkX-2 10 5 ns/op\n--- FAIL: BenchmarkX\n    x_test.go:9: flaky\nBenchmarkX-2 10 6 ns/op\n",
			want: []model.Result{ns(x, 5, 6)},
			problems: []string{
				"in.txt:2: benchmark X failed in one repetition (x_test.go:9: flaky); the other samples are kept",
			},
		},
		{
			name: "a benchmark that failed every time is one error result",
			text: "--- FAIL: BenchmarkY\n--- FAIL: BenchmarkY\n",
			want: []model.Result{{Case: gbCase("Y"), Metric: "wall-time", Unit: "ns", Error: "benchmark failed"}},
		},
		{
			name: "plain output: a failure's log lines follow it",
			text: "--- FAIL: BenchmarkA\n    a_test.go:1: first\n        more\n--- FAIL: BenchmarkB\n",
			want: []model.Result{
				{Case: gbCase("A"), Metric: "wall-time", Unit: "ns", Error: "a_test.go:1: first\nmore"},
				{Case: gbCase("B"), Metric: "wall-time", Unit: "ns", Error: "benchmark failed"},
			},
		},
		{
			name: "verbose output: a failure's log lines precede it",
			text: "=== RUN   BenchmarkA\nBenchmarkA\n    a_test.go:1: first\n--- FAIL: BenchmarkA\n=== RUN   BenchmarkB\nBenchmarkB\n--- FAIL: BenchmarkB\n",
			want: []model.Result{
				{Case: gbCase("A"), Metric: "wall-time", Unit: "ns", Error: "a_test.go:1: first"},
				{Case: gbCase("B"), Metric: "wall-time", Unit: "ns", Error: "benchmark failed"},
			},
		},
		{
			name: "CRLF line endings",
			text: "goos: windows\r\nBenchmarkX-2 10 5 ns/op\r\n--- FAIL: BenchmarkZ\r\n",
			want: []model.Result{ns(x, 5), {Case: gbCase("Z", "procs=2"), Metric: "wall-time", Unit: "ns", Error: "benchmark failed"}},
		},
		{
			name: "a line without a benchmark name",
			text: "Benchmark 10 5 ns/op\nBenchmarkX-2 10 5 ns/op\n",
			want: []model.Result{ns(x, 5)},
			problems: []string{
				"in.txt:1: benchmark line without a name; skipped",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := gbRead(t, "in.txt", []byte(tt.text), Defaults{})
			var got []model.Result
			switch len(runs) {
			case 0:
			case 1:
				got = runs[0].Results
			default:
				t.Fatalf("got %d runs, want at most 1", len(runs))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, gbProblems(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGobenchJSON checks the reassembly of `go test -json` output: lines
// split over events, packages interleaved, text mixed in, and problems
// reported at the event's line.
func TestGobenchJSON(t *testing.T) {
	text := strings.Join([]string{
		`{"Action":"start","Package":"a"}`,
		`{"Action":"output","Package":"a","Output":"pkg: a\n"}`,
		`{"Action":"output","Package":"a","Output":"BenchmarkX-2   \t"}`,
		`{"Action":"output","Package":"b","Output":"pkg: b\n"}`,
		`{"Action":"output","Package":"a","Output":"  100\t"}`,
		`{"Action":"output","Package":"b","Output":"BenchmarkX-2 10 7 ns/op\n"}`,
		`{"Action":"output","Package":"a","Output":"  5 ns/op\n"}`,
		`{"Action":"output","Package":"a","Output":"BenchmarkBad-2 \t"}`,
		`{"Action":"output","Package":"a","Output":"lots ns/op\n"}`,
		`{"Action":"output","Package":"a","Output":`,
		`# a build message on stderr`,
		`{"Action":"pass","Package":"a"}`,
	}, "\n")
	runs, problems := gbRead(t, "t.json", []byte(text), Defaults{})
	x := gbCase("X", "procs=2")
	want := []model.Run{
		{Artifact: model.Artifact{Kind: model.KindCommit}, Machine: model.Machine{Name: "default"},
			Context: model.NewParams(map[string]string{"pkg": "a"}),
			Results: []model.Result{{Case: x, Metric: "wall-time", Unit: "ns", Samples: []float64{5}}}},
		{Artifact: model.Artifact{Kind: model.KindCommit}, Machine: model.Machine{Name: "default"},
			Context: model.NewParams(map[string]string{"pkg": "b"}),
			Results: []model.Result{{Case: x, Metric: "wall-time", Unit: "ns", Samples: []float64{7}}}},
	}
	if diff := cmp.Diff(want, runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	wantProblems := []string{
		"t.json:8: bad benchmark line: parsing iteration count: invalid syntax",
		"t.json:10: not a go test -json event: unexpected end of JSON input",
	}
	if diff := cmp.Diff(wantProblems, gbProblems(problems)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestGobenchScale(t *testing.T) {
	tests := []struct {
		x    float64
		exp  int
		want float64
	}{
		{2.719e-06, 9, 2719},
		{2.1e-06, 9, 2100},
		{294.22, 6, 294220000},
		{0, 9, 0},
		{1e300, 9, math.Inf(1)},
	}
	for _, tt := range tests {
		if got := gobenchScale(tt.x, tt.exp); got != tt.want {
			t.Errorf("gobenchScale(%v, %d) = %v, want %v", tt.x, tt.exp, got, tt.want)
		}
	}
}

func TestGobenchSniff(t *testing.T) {
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"googlebench JSON", `{"context": {"date": "2026-01-01"}, "benchmarks": [{"name": "BM_X", "real_time": 5}]}`, false},
		{"pytest-benchmark JSON", `{"machine_info": {}, "benchmarks": [{"name": "test_x", "stats": {}}]}`, false},
		{"hyperfine JSON", `{"results": [{"command": "sleep 1", "mean": 1.0, "times": [1.0]}]}`, false},
		{"BMF", `{"BenchmarkX": {"latency": {"value": 5.0}}}`, false},
		{"github-action-benchmark custom JSON", `[{"name": "BenchmarkX", "unit": "ns/op", "value": 5}]`, false},
		{"github-action-benchmark data.js", "window.BENCHMARK_DATA = {\n  \"entries\": {\"Go\": [{\"benches\": [{\"name\": \"BenchmarkX\", \"value\": 5, \"unit\": \"ns/op\"}]}]}\n}", false},
		{"perfgate receipt", `{"schema": "perfgate.run.v1", "bench": {"name": "x"}}`, false},
		{"Google Benchmark console", "Benchmark      Time    CPU   Iterations\nBM_X          12 ns   12 ns   1000\n", false},
		{"libtest bencher", "test x ... bench:          12 ns/iter (+/- 1)\n", false},
		{"go test output without benchmarks", "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n", false},
		{"one result line", "BenchmarkX-8   1000   123 ns/op\n", true},
		{"result after test output", "goos: linux\n=== RUN   TestA\nPASS\nBenchmarkX 10 5 ns/op 16 B/op\n", true},
		{"test2json", `{"Time":"2026-11-21T14:29:04Z","Action":"start","Package":"p"}` + "\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffGobench(Input{Name: "x", Data: []byte(tt.data)}); got != tt.want {
				t.Errorf("sniff = %v, want %v", got, tt.want)
			}
		})
	}
	files, err := filepath.Glob(filepath.Join("testdata", "gobench", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Ext(f) == ".md" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !sniffGobench(Input{Name: f, Data: data}) {
			t.Errorf("sniff rejects the fixture %s", f)
		}
	}
}

func FuzzGobench(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "gobench", "*.*"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"BenchmarkX-2 10 5 ns/op\n--- FAIL: BenchmarkX/y\n    boom\n",
		"Unit x better=higher\nBenchmarkX/a=/=b/-/-2 10 NaN x -1 B/op\n",
		`{"Action":"output","Package":"p","Output":"BenchmarkX-2\t"}` + "\n" + `{"Action":"output","Output":"1 1 ns/op\n"}`,
		"Benchmark\x00 1 1 \x00failed\n--- FAIL: Benchmark\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, problems := readGobench(Input{Name: "fuzz.txt", Data: data}, Defaults{})
		fatal := false
		for _, p := range problems {
			fatal = fatal || p.Fatal
			if p.File != "fuzz.txt" {
				t.Errorf("problem names file %q", p.File)
			}
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem with %d runs", len(runs))
		}
		if !fatal && len(runs) == 0 {
			t.Errorf("no runs and no fatal problem: %v", gbProblems(problems))
		}
		for _, r := range runs {
			if len(r.Results) == 0 {
				t.Errorf("run without results")
			}
			for _, res := range r.Results {
				if (res.Error == "") == (len(res.Samples) == 0) {
					t.Errorf("result %v %s: %d samples, error %q", res.Case, res.Metric, len(res.Samples), res.Error)
				}
			}
		}
		sniffGobench(Input{Name: "fuzz.txt", Data: data})
	})
}
