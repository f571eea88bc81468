package foreign

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

const pytestDir = "testdata/pytest-benchmark"

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

// TestPytestBenchmarkSniffOthers: the other formats' real fixtures, as
// far as they are there, are not pytest-benchmark files (the cases in
// testdata/cases/pytest-benchmark.txt check its own and the near misses).
func TestPytestBenchmarkSniffOthers(t *testing.T) {
	f, ok := Lookup("pytest-benchmark")
	if !ok {
		t.Fatal("pytest-benchmark is not registered")
	}
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
