package foreign

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfpages/perfpages/generator/archive"
)

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
