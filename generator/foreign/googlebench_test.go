package foreign

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

func gbFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "googlebench", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const gbSHA = "3f2a9e1c3f2a9e1c3f2a9e1c3f2a9e1c3f2a9e1c"

// gbEntry is one benchmark entry as Google Benchmark 1.7.1 writes it, on
// one line; extra is spliced in before the closing brace.
func gbEntry(name string, family, rep int, real float64, extra string) string {
	return fmt.Sprintf(`    {"name": %q, "family_index": %d, "per_family_instance_index": 0, "run_name": %q, "run_type": "iteration", `+
		`"repetitions": 2, "repetition_index": %d, "threads": 1, "iterations": 100, "real_time": %v, "cpu_time": %v, "time_unit": "ns"%s}`,
		name, family, name, rep, real, real, extra)
}

// gbFile wraps entries in a file: the context is on line 2, the list
// opens on line 3 and entry i is on line 4+i.
func gbFile(entries ...string) string {
	return "{\n  \"context\": {\"date\": \"2026-11-21T14:30:13+00:00\", \"host_name\": \"vm\", \"num_cpus\": 2},\n  \"benchmarks\": [\n" +
		strings.Join(entries, ",\n") + "\n  ]\n}\n"
}

// TestGooglebenchArchive checks that every fixture's run survives the
// native archive format unchanged (what `perfpages import` writes).
func TestGooglebenchArchive(t *testing.T) {
	for _, name := range []string{"repetitions.json", "aggregates.json", "single.json"} {
		t.Run(name, func(t *testing.T) {
			def := Defaults{Artifact: model.Artifact{ID: gbSHA, Kind: model.KindCommit}}
			runs, _ := readGooglebench(Input{Name: name, Data: gbFixture(t, name)}, def)
			if len(runs) != 1 {
				t.Fatalf("%d runs", len(runs))
			}
			var buf bytes.Buffer
			if err := archive.Encode(&buf, runs[0], "json", false); err != nil {
				t.Fatal(err)
			}
			back, problems := archive.Decode("run.json", buf.Bytes(), archive.Options{})
			if len(problems) > 0 {
				t.Errorf("decoding the archive: %v", problems)
			}
			if diff := cmp.Diff(runs[0], back); diff != "" {
				t.Errorf("round trip (-read +decoded):\n%s", diff)
			}
		})
	}
}

func TestGooglebenchSplitName(t *testing.T) {
	for _, tt := range []struct {
		name, bench string
		params      model.Params
	}{
		{"BM_foo", "BM_foo", nil},
		{"BM_foo/8/64", "BM_foo", model.Params{{Key: "arg1", Value: "8"}, {Key: "arg2", Value: "64"}}},
		{"BM_foo/-1", "BM_foo", model.Params{{Key: "arg1", Value: "-1"}}},
		{"BM_foo/n:8/m:2", "BM_foo", model.Params{{Key: "m", Value: "2"}, {Key: "n", Value: "8"}}},
		{"BM_foo/threads:4", "BM_foo", model.Params{{Key: "threads", Value: "4"}}},
		{"BM_foo/8/real_time/threads:2", "BM_foo", model.Params{{Key: "arg1", Value: "8"}, {Key: "threads", Value: "2"}, {Key: "time_type", Value: "real_time"}}},
		{"BM_foo/8/min_time:0.010/min_warmup_time:0.5/iterations:10/repeats:3/process_time/manual_time/threads:1", "BM_foo", model.Params{
			{Key: "arg1", Value: "8"}, {Key: "iterations", Value: "10"}, {Key: "min_time", Value: "0.010"}, {Key: "min_warmup_time", Value: "0.5"},
			{Key: "repeats", Value: "3"}, {Key: "threads", Value: "1"}, {Key: "time_type", Value: "process_time/manual_time"}}},
		{"BM_Template<int, 8>/16", "BM_Template<int, 8>", model.Params{{Key: "arg1", Value: "16"}}},
		{"group/case/8", "group/case", model.Params{{Key: "arg1", Value: "8"}}},
		{"group/8/case", "group/8/case", nil},
		{"BM_foo/threads:2/4", "BM_foo", model.Params{{Key: "arg2", Value: "4"}, {Key: "threads", Value: "2"}}},
		{"BM_foo/threads:1/threads:2", "BM_foo", model.Params{{Key: "arg1", Value: "1"}, {Key: "threads", Value: "2"}}},
		{"BM_foo/arg2:1/5", "BM_foo/arg2:1/5", nil},
		{"42", "42", nil},
		{"", "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bench, params := gbSplitName(tt.name)
			if bench != tt.bench {
				t.Errorf("benchmark %q, want %q", bench, tt.bench)
			}
			if diff := cmp.Diff(tt.params, params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGooglebenchRegistered(t *testing.T) {
	f, ok := Lookup("googlebench")
	if !ok || f.Dir || f.Read == nil || f.Sniff == nil {
		t.Fatalf("googlebench format: %+v, %v", f, ok)
	}
	in := Input{Name: "repetitions.json", Data: gbFixture(t, "repetitions.json")}
	if got, err := Detect(in); err != nil || got.Name != "googlebench" {
		t.Errorf("Detect chose %q (%v), want googlebench", got.Name, err)
	}
}

func FuzzGooglebench(f *testing.F) {
	for _, name := range []string{"repetitions.json", "aggregates.json", "single.json"} {
		f.Add(gbFixture(f, name))
	}
	f.Add([]byte(gbFile(gbEntry("BM_a/8/threads:2", 0, 0, 10, `, "rate": NaN`), gbEntry("BM_a/8/threads:2", 0, 1, 0, `, "error_occurred": true`))))
	f.Add([]byte(`{"benchmarks": [{"name": "BM_a_mean", "aggregate_name": "mean", "real_time": 1, "cpu_time": 1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, problems := readGooglebench(Input{Name: "fuzz.json", Data: data}, Defaults{})
		fatal := false
		for _, p := range problems {
			if p.File != "fuzz.json" || p.Msg == "" || p.Line < 0 {
				t.Errorf("bad problem %+v", p)
			}
			fatal = fatal || p.Fatal
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem and %d runs", len(runs))
		}
		if !fatal && len(runs) != 1 {
			t.Errorf("no fatal problem and %d runs", len(runs))
		}
		for _, run := range runs {
			if len(run.Results) == 0 {
				t.Errorf("run without results")
			}
			for _, r := range run.Results {
				if len(r.Samples) == 0 && r.Error == "" {
					t.Errorf("%s %s: no samples and no error", r.Case, r.Metric)
				}
				for _, v := range r.Samples {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s %s: sample %v", r.Case, r.Metric, v)
					}
				}
			}
		}
	})
}
