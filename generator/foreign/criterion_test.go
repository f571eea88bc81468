package foreign

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis/model"
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
