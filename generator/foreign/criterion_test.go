package foreign

import (
	"io/fs"
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

// criterionLoad reads a fixture folder into an Input named like it.
func criterionLoad(t testing.TB, dir string) Input {
	t.Helper()
	in := Input{Name: dir, Files: map[string][]byte{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		in.Files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// criterionShape is what a result is, without its numbers.
type criterionShape struct {
	Case, Metric, Unit string
	Direction          model.Direction
	N                  int
	Iters              bool
}

func criterionShapes(runs []model.Run) []criterionShape {
	var out []criterionShape
	for _, r := range runs {
		for _, res := range r.Results {
			out = append(out, criterionShape{res.Case.String(), res.Metric, res.Unit, res.Direction, len(res.Samples), res.Iters != nil})
		}
	}
	return out
}

func criterionResult(t *testing.T, runs []model.Run, tc, metric string) model.Result {
	t.Helper()
	for _, r := range runs {
		for _, res := range r.Results {
			if res.Case.String() == tc && res.Metric == metric {
				return res
			}
		}
	}
	t.Fatalf("no result %s %s", tc, metric)
	return model.Result{}
}

func TestCriterionFixtures(t *testing.T) {
	def := Defaults{
		Artifact: model.Artifact{ID: "0123456789abcdef0123456789abcdef01234567", Kind: model.KindCommit, Date: time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)},
		Machine:  model.Machine{Name: "ci-1"},
		Context:  model.Params{{Key: "toolchain", Value: "rust-1.63"}},
	}
	tests := []struct {
		name   string
		dir    string
		shapes []criterionShape
		// first wall-time sample and iteration count of one benchmark,
		// worked out by hand from its sample.json: times[0] / iters[0].
		firstCase   string
		first, iter float64
		// mean of the wall-time samples per benchmark: Criterion's own
		// mean point estimate in estimates.json, which it computes from
		// the same per-iteration values.
		means map[string]float64
	}{
		{
			name: "current layout from cargo bench with Criterion 0.3.6",
			dir:  "testdata/criterion/current",
			shapes: []criterionShape{
				{"checksum function=fold value=1024", "wall-time", "ns", "", 10, true},
				{"checksum function=fold value=1024", "throughput", "B/s", "", 10, false},
				{"checksum function=fold value=64", "wall-time", "ns", "", 10, true},
				{"checksum function=fold value=64", "throughput", "B/s", "", 10, false},
				{"fib 10", "wall-time", "ns", "", 10, true},
				{"fib-elements value=15", "wall-time", "ns", "", 10, true},
				{"fib-elements value=15", "throughput", "elements/s", "", 10, false},
				{`flat function="fib 12"`, "wall-time", "ns", "", 10, true},
			},
			firstCase: "checksum function=fold value=64",
			first:     2734076.0 / 96432.0,
			iter:      96432,
			means: map[string]float64{
				"fib 10":                            256.4179813656293,
				"fib-elements value=15":             2051.6341279133326,
				`flat function="fib 12"`:            446.9961656530553,
				"checksum function=fold value=1024": 628.7761375292664,
				"checksum function=fold value=64":   28.246930601315245,
			},
		},
		{
			name: "legacy layout from the Criterion book",
			dir:  "testdata/criterion/legacy",
			shapes: []criterionShape{
				{"Fibonacci function=Recursive", "wall-time", "ns", "", 100, true},
			},
			firstCase: "Fibonacci function=Recursive",
			first:     19500, // 1014000 ns / 52 iterations
			iter:      52,
			means:     map[string]float64{"Fibonacci function=Recursive": 19284.21673781045},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := criterionLoad(t, tt.dir)
			runs, problems := readCriterion(in, def)
			if len(problems) != 0 {
				t.Fatalf("problems: %v", problems)
			}
			if len(runs) != 1 {
				t.Fatalf("got %d runs, want 1", len(runs))
			}
			if diff := cmp.Diff(def.Artifact, runs[0].Artifact); diff != "" {
				t.Errorf("artifact (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(def.Machine, runs[0].Machine); diff != "" {
				t.Errorf("machine (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(def.Context, runs[0].Context); diff != "" {
				t.Errorf("context (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.shapes, criterionShapes(runs)); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			first := criterionResult(t, runs, tt.firstCase, "wall-time")
			if first.Samples[0] != tt.first || first.Iters[0] != tt.iter {
				t.Errorf("%s: first sample %v × %v iterations, want %v × %v", tt.firstCase, first.Samples[0], first.Iters[0], tt.first, tt.iter)
			}
			for tc, want := range tt.means {
				got := model.MeanOf(criterionResult(t, runs, tc, "wall-time").Samples)
				if math.Abs(got-want) > 1e-12*want {
					t.Errorf("%s: mean %v, want Criterion's %v", tc, got, want)
				}
			}
		})
	}
}

// The throughput of a sample is the declared count per second of its
// time per iteration.
func TestCriterionThroughputKnownAnswer(t *testing.T) {
	runs, problems := readCriterion(criterionLoad(t, "testdata/criterion/current"), Defaults{})
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	for _, tt := range []struct {
		tc    string
		count float64
	}{
		{"checksum function=fold value=64", 64},
		{"checksum function=fold value=1024", 1024},
		{"fib-elements value=15", 1},
	} {
		wall := criterionResult(t, runs, tt.tc, "wall-time")
		thr := criterionResult(t, runs, tt.tc, "throughput")
		for i := range wall.Samples {
			if got := thr.Samples[i] * wall.Samples[i] * 1e-9; math.Abs(got-tt.count) > 1e-9*tt.count {
				t.Errorf("%s sample %d: throughput × seconds = %v, want %v", tt.tc, i, got, tt.count)
			}
		}
	}
	// checksum/fold/64, sample 0: 64 B / (2734076 ns / 96432) = 2.2573…e9 B/s.
	got := criterionResult(t, runs, "checksum function=fold value=64", "throughput").Samples[0]
	if want := 64 / (2734076.0 / 96432.0 * 1e-9); math.Abs(got-want) > 1 {
		t.Errorf("throughput sample 0 = %v, want %v", got, want)
	}
}

// criterionID and criterionSample build the files of hand-made cases.
func criterionIDJSON(group, function, value, throughput string) string {
	q := func(s string) string {
		if s == "" {
			return "null"
		}
		return `"` + s + `"`
	}
	if throughput == "" {
		throughput = "null"
	}
	return `{"group_id":` + q(group) + `,"function_id":` + q(function) + `,"value_str":` + q(value) + `,"throughput":` + throughput + `}`
}

const (
	criterionGoodSample = `{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[10.0,30.0]}`
	criterionGoodEst    = `{"mean":{"point_estimate":12.5},"slope":{"point_estimate":14.0}}`
)

func TestCriterionProblems(t *testing.T) {
	good := map[string]string{
		"ok/new/benchmark.json": criterionIDJSON("ok", "", "", ""),
		"ok/new/sample.json":    criterionGoodSample,
	}
	okWall := model.Result{Case: model.TestCase{Benchmark: "ok"}, Metric: "wall-time", Unit: "ns", Samples: []float64{10, 15}, Iters: []float64{1, 2}}
	tests := []struct {
		name     string
		files    map[string]string
		want     []model.Result // besides okWall, which every case keeps
		problems []archive.Problem
	}{
		{
			name: "truncated benchmark.json",
			files: map[string]string{
				"bad/new/benchmark.json": "{\n\"group_id\":\"bad\",\n",
				"bad/new/sample.json":    criterionGoodSample,
			},
			problems: []archive.Problem{{File: "t/bad/new/benchmark.json", Line: 2, Msg: "invalid JSON: truncated JSON"}},
		},
		{
			name: "group_id of the wrong type",
			files: map[string]string{
				"bad/new/benchmark.json": "{\n\"group_id\": 7}",
				"bad/new/sample.json":    criterionGoodSample,
			},
			problems: []archive.Problem{{File: "t/bad/new/benchmark.json", Line: 2, Msg: `field "group_id": a JSON number where a string belongs`}},
		},
		{
			name: "no group_id",
			files: map[string]string{
				"bad/new/benchmark.json": `{"function_id":"f"}`,
				"bad/new/sample.json":    criterionGoodSample,
			},
			problems: []archive.Problem{{File: "t/bad/new/benchmark.json", Msg: "no group_id: the benchmark has no name, so it is skipped"}},
		},
		{
			name: "times of the wrong type and no estimates",
			files: map[string]string{
				"bad/new/benchmark.json": criterionIDJSON("bad", "", "", ""),
				"bad/new/sample.json":    `{"sampling_mode":"Linear","iters":[1.0],"times":["10"]}`,
			},
			problems: []archive.Problem{
				{File: "t/bad/new/sample.json", Line: 1, Msg: `field "times": a JSON string where a number belongs`},
				{File: "t/bad/new/estimates.json", Msg: "missing"},
				{File: "t/bad/new/benchmark.json", Msg: `benchmark "bad" has no usable sample.json or estimates.json, so it is skipped`},
			},
		},
		{
			name: "empty samples fall back to the slope estimate",
			files: map[string]string{
				"fb/new/benchmark.json": criterionIDJSON("fb", "", "", `{"Bytes":7}`),
				"fb/new/sample.json":    `{"sampling_mode":"Linear","iters":[],"times":[]}`,
				"fb/new/estimates.json": criterionGoodEst,
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "fb"}, Metric: "wall-time", Unit: "ns", Samples: []float64{14}},
				{Case: model.TestCase{Benchmark: "fb"}, Metric: "throughput", Unit: "B/s", Samples: []float64{5e8}},
			},
			problems: []archive.Problem{
				{File: "t/fb/new/sample.json", Msg: "no samples"},
				{File: "t/fb/new/sample.json", Msg: "missing or unusable: the typical estimate of estimates.json is the benchmark's one sample"},
			},
		},
		{
			name: "missing sample.json with flat estimates falls back to the mean",
			files: map[string]string{
				"fb/new/benchmark.json": criterionIDJSON("fb", "", "", ""),
				"fb/new/estimates.json": `{"Mean":{"point_estimate":12.5},"Slope":null}`,
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "fb"}, Metric: "wall-time", Unit: "ns", Samples: []float64{12.5}},
			},
			problems: []archive.Problem{
				{File: "t/fb/new/sample.json", Msg: "missing or unusable: the typical estimate of estimates.json is the benchmark's one sample"},
			},
		},
		{
			name: "iteration counts and times of different lengths",
			files: map[string]string{
				"bad/new/benchmark.json": criterionIDJSON("bad", "", "", ""),
				"bad/new/sample.json":    `[[1.0,2.0],[10.0]]`,
				"bad/new/estimates.json": `{"mean":null}`,
			},
			problems: []archive.Problem{
				{File: "t/bad/new/sample.json", Msg: "2 iteration counts for 1 times"},
				{File: "t/bad/new/estimates.json", Msg: "neither a slope nor a mean point_estimate"},
				{File: "t/bad/new/benchmark.json", Msg: `benchmark "bad" has no usable sample.json or estimates.json, so it is skipped`},
			},
		},
		{
			name: "legacy sample of three arrays and a zero time",
			files: map[string]string{
				"a/new/benchmark.json": criterionIDJSON("a", "", "", ""),
				"a/new/sample.json":    `[[1.0],[2.0],[3.0]]`,
				"b/new/benchmark.json": criterionIDJSON("b", "", "", ""),
				"b/new/sample.json":    `{"sampling_mode":"Flat","iters":[4.0,4.0],"times":[8.0,0.0]}`,
			},
			problems: []archive.Problem{
				{File: "t/a/new/sample.json", Line: 1, Msg: "want [[iters…], [times…]], got an array of 3 arrays"},
				{File: "t/a/new/estimates.json", Msg: "missing"},
				{File: "t/a/new/benchmark.json", Msg: `benchmark "a" has no usable sample.json or estimates.json, so it is skipped`},
				{File: "t/b/new/sample.json", Msg: "sample 1: time 0 is not a positive number"},
				{File: "t/b/new/estimates.json", Msg: "missing"},
				{File: "t/b/new/benchmark.json", Msg: `benchmark "b" has no usable sample.json or estimates.json, so it is skipped`},
			},
		},
		{
			name: "duplicated benchmark: the first folder wins",
			files: map[string]string{
				"dup/new/benchmark.json":      criterionIDJSON("ok", "", "", ""),
				"dup/new/sample.json":         criterionGoodSample,
				"zz/copy/new/benchmark.json":  criterionIDJSON("ok", "", "", ""),
				"zz/copy/new/sample.json":     `{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[99.0,99.0]}`,
				"zz/copy/base/benchmark.json": criterionIDJSON("ignored", "", "", ""),
			},
			// "dup" sorts before "ok": its samples are the ones kept.
			problems: []archive.Problem{
				{File: "t/ok/new/benchmark.json", Msg: `benchmark "ok" is also in t/dup/new/benchmark.json; this copy is skipped`},
				{File: "t/zz/copy/new/benchmark.json", Msg: `benchmark "ok" is also in t/dup/new/benchmark.json; this copy is skipped`},
			},
		},
		{
			name: "unknown throughput kind and sampling mode are kept",
			files: map[string]string{
				"w/new/benchmark.json": "{\"group_id\":\"w\",\n\"throughput\":{\"Widgets\":3}}",
				"w/new/sample.json":    `{"sampling_mode":"Auto","iters":[1.0,1.0],"times":[3.0,6.0]}`,
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "w"}, Metric: "wall-time", Unit: "ns", Samples: []float64{3, 6}, Iters: []float64{1, 1}},
				{Case: model.TestCase{Benchmark: "w"}, Metric: "throughput", Unit: "widgets/s", Samples: []float64{1e9, 5e8}},
			},
			problems: []archive.Problem{
				{File: "t/w/new/sample.json", Line: 1, Msg: `unknown sampling_mode "Auto" (want Linear or Flat); samples read all the same`},
				{File: "t/w/new/benchmark.json", Line: 2, Msg: `unknown throughput kind "Widgets": kept as unit "widgets/s"`},
			},
		},
		{
			name: "malformed throughput keeps the wall time",
			files: map[string]string{
				"w/new/benchmark.json": criterionIDJSON("w", "", "", `{"Bytes":-1}`),
				"w/new/sample.json":    `{"sampling_mode":"Flat","iters":[1.0,1.0],"times":[3.0,6.0]}`,
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "w"}, Metric: "wall-time", Unit: "ns", Samples: []float64{3, 6}, Iters: []float64{1, 1}},
			},
			problems: []archive.Problem{
				{File: "t/w/new/benchmark.json", Line: 1, Msg: "throughput Bytes -1 is not a count; only wall-time is kept"},
			},
		},
		{
			name: "elements and bytes give two throughputs",
			files: map[string]string{
				"eb/new/benchmark.json": criterionIDJSON("eb", "parse", "1 KiB", `{"ElementsAndBytes":{"elements":2,"bytes":1024}}`),
				"eb/new/sample.json":    `{"sampling_mode":"Flat","iters":[2.0,2.0],"times":[2.0,4.0]}`,
			},
			want: func() []model.Result {
				tc := model.TestCase{Benchmark: "eb", Params: model.Params{{Key: "function", Value: "parse"}, {Key: "value", Value: "1 KiB"}}}
				return []model.Result{
					{Case: tc, Metric: "wall-time", Unit: "ns", Samples: []float64{1, 2}, Iters: []float64{2, 2}},
					{Case: tc, Metric: "throughput", Unit: "B/s", Samples: []float64{1024e9, 512e9}},
					{Case: tc, Metric: "throughput-elements", Unit: "elements/s", Samples: []float64{2e9, 1e9}},
				}
			}(),
		},
		{
			name: "custom measurement from raw.csv",
			files: map[string]string{
				"cy/new/benchmark.json": criterionIDJSON("cy", "", "", `{"Bytes":8}`),
				"cy/new/sample.json":    `{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[40.0,60.0]}`,
				"cy/new/raw.csv":        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count\ncy,,,8,bytes,40.0,cycles,1\ncy,,,8,bytes,60.0,cycles,2\n",
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "cy"}, Metric: "cycles", Unit: "cycles", Samples: []float64{40, 30}, Iters: []float64{1, 2}, Direction: model.LowerIsBetter},
			},
			problems: []archive.Problem{
				{File: "t/cy/new/raw.csv", Line: 2, Msg: `custom measurement in unit "cycles" (not wall time): kept as metric "cycles", lower is better`},
			},
		},
		{
			name: "broken raw.csv leaves sample.json in charge",
			files: map[string]string{
				"rc/new/benchmark.json": criterionIDJSON("rc", "", "", ""),
				"rc/new/sample.json":    `{"sampling_mode":"Linear","iters":[1.0,2.0],"times":[40.0,60.0]}`,
				"rc/new/raw.csv":        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count\nrc,,,,,40.0,cycles,1\nrc,,,,,x,cycles,2\n",
			},
			want: []model.Result{
				{Case: model.TestCase{Benchmark: "rc"}, Metric: "wall-time", Unit: "ns", Samples: []float64{40, 30}, Iters: []float64{1, 2}},
			},
			problems: []archive.Problem{
				{File: "t/rc/new/raw.csv", Line: 3, Msg: `bad sample "x" × "2"; the samples come from sample.json`},
			},
		},
		{
			name: "samples without benchmark.json",
			files: map[string]string{
				"orphan/new/sample.json":    criterionGoodSample,
				"orphan/new/estimates.json": criterionGoodEst,
				"report/index.html":         "<html></html>",
			},
			problems: []archive.Problem{
				{File: "t/orphan/new/benchmark.json", Msg: "missing: the benchmark's samples cannot be named, so it is skipped"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Name: "t", Files: map[string][]byte{}}
			for k, v := range good {
				in.Files[k] = []byte(v)
			}
			for k, v := range tt.files {
				in.Files[k] = []byte(v)
			}
			runs, problems := readCriterion(in, Defaults{})
			if diff := cmp.Diff(tt.problems, problems, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if len(runs) != 1 {
				t.Fatalf("got %d runs, want 1 (problems %v)", len(runs), problems)
			}
			want := append(tt.want, okWall)
			if diff := cmp.Diff(want, runs[0].Results, cmpopts.SortSlices(func(a, b model.Result) bool {
				return a.Case.String()+" "+a.Metric < b.Case.String()+" "+b.Metric
			})); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCriterionFatal(t *testing.T) {
	tests := []struct {
		name     string
		in       Input
		problems []archive.Problem
	}{
		{
			name:     "a file, not a folder",
			in:       Input{Name: "x.json", Data: []byte(`{"group_id":"g"}`)},
			problems: []archive.Problem{{File: "x.json", Msg: "a Criterion result is a folder (target/criterion), not a file", Fatal: true}},
		},
		{
			name:     "no benchmarks: only the summary report",
			in:       Input{Name: "target/criterion", Files: map[string][]byte{"report/index.html": []byte("<html></html>")}},
			problems: []archive.Problem{{File: "target/criterion", Msg: "no Criterion benchmark in the folder (no <benchmark>/new/benchmark.json)", Fatal: true}},
		},
		{
			name: "only a baseline, no new/",
			in: Input{Name: "c", Files: map[string][]byte{
				"g/base/benchmark.json": []byte(criterionIDJSON("g", "", "", "")),
				"g/base/sample.json":    []byte(criterionGoodSample),
			}},
			problems: []archive.Problem{{File: "c", Msg: "no Criterion benchmark in the folder (no <benchmark>/new/benchmark.json)", Fatal: true}},
		},
		{
			name: "every benchmark broken",
			in: Input{Name: "c", Files: map[string][]byte{
				"new/benchmark.json": []byte(`[]`),
			}},
			problems: []archive.Problem{
				{File: "c/new/benchmark.json", Line: 1, Msg: "a JSON array where an object belongs"},
				{File: "c", Msg: "none of the 1 Criterion benchmarks could be read", Fatal: true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := readCriterion(tt.in, Defaults{})
			if len(runs) != 0 {
				t.Errorf("got %d runs, want none", len(runs))
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// A benchmark folder given directly (its new/ at the root) is read too.
func TestCriterionSingleBenchmarkFolder(t *testing.T) {
	in := criterionLoad(t, "testdata/criterion/legacy/Fibonacci/Recursive")
	runs, problems := readCriterion(in, Defaults{})
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := []criterionShape{{"Fibonacci function=Recursive", "wall-time", "ns", "", 100, true}}
	if diff := cmp.Diff(want, criterionShapes(runs)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestCriterionSniff(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want bool
	}{
		{"current fixture", criterionLoad(t, "testdata/criterion/current"), true},
		{"legacy fixture", criterionLoad(t, "testdata/criterion/legacy"), true},
		{"empty folder", Input{Name: "e", Files: map[string][]byte{}}, false},
		{"asv results folder", Input{Name: "a", Files: map[string][]byte{
			"benchmarks.json":        []byte(`{"bench.time_x": {"type": "time"}, "version": 2}`),
			"machine1/machine.json":  []byte(`{"machine": "machine1", "version": 1}`),
			"machine1/abc123-x.json": []byte(`{"commit_hash": "abc123", "results": {}}`),
		}}, false},
		{"google benchmark json named like Criterion's", Input{Name: "g", Files: map[string][]byte{
			"x/new/benchmark.json": []byte(`{"context": {}, "benchmarks": []}`),
		}}, false},
		{"benchmark.json outside new/", Input{Name: "b", Files: map[string][]byte{
			"x/base/benchmark.json": []byte(criterionIDJSON("x", "", "", "")),
			"benchmark.json":        []byte(criterionIDJSON("x", "", "", "")),
		}}, false},
		{"a file", Input{Name: "f.json", Data: []byte(`{"group_id": "x"}`)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffCriterion(tt.in); got != tt.want {
				t.Errorf("sniffCriterion = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCriterionDetect(t *testing.T) {
	for _, dir := range []string{"testdata/criterion/current", "testdata/criterion/legacy"} {
		f, err := Detect(criterionLoad(t, dir))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if f.Name != "criterion" {
			t.Errorf("%s: detected %s, want criterion", dir, f.Name)
		}
	}
}

func FuzzCriterion(f *testing.F) {
	for _, dir := range []string{"testdata/criterion/current/checksum/fold/64", "testdata/criterion/current/flat/fib 12", "testdata/criterion/legacy/Fibonacci/Recursive"} {
		in := criterionLoad(f, dir)
		f.Add(in.Files["new/benchmark.json"], in.Files["new/sample.json"], in.Files["new/estimates.json"], in.Files["new/raw.csv"])
	}
	f.Add([]byte(criterionIDJSON("g", "f", "v", `{"ElementsAndBytes":{"elements":1,"bytes":2}}`)), []byte(`[[1],[2]]`), []byte(`{}`), []byte("unit\nx\n"))
	f.Fuzz(func(t *testing.T, id, sample, est, raw []byte) {
		in := Input{Name: "fuzz", Files: map[string][]byte{}}
		for k, v := range map[string][]byte{"g/new/benchmark.json": id, "g/new/sample.json": sample, "g/new/estimates.json": est, "g/new/raw.csv": raw} {
			if len(v) > 0 {
				in.Files[k] = v
			}
		}
		sniffCriterion(in)
		runs, problems := readCriterion(in, Defaults{})
		fatal := false
		for _, p := range problems {
			if p.Fatal {
				fatal = true
			}
			if !strings.HasPrefix(p.File, "fuzz") {
				t.Errorf("problem names %q, not a file of the input", p.File)
			}
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problems and %d runs", len(runs))
		}
		if !fatal && len(runs) != 1 {
			t.Errorf("no fatal problem and %d runs", len(runs))
		}
		for _, r := range runs {
			for _, res := range r.Results {
				if len(res.Samples) == 0 {
					t.Errorf("%s %s: no samples", res.Case, res.Metric)
				}
				if res.Iters != nil && len(res.Iters) != len(res.Samples) {
					t.Errorf("%s %s: %d iters for %d samples", res.Case, res.Metric, len(res.Iters), len(res.Samples))
				}
				for _, s := range res.Samples {
					if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s == 0 && res.Metric == "wall-time" {
						t.Errorf("%s %s: sample %v", res.Case, res.Metric, s)
					}
				}
			}
		}
	})
}
