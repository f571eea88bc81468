package foreign

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

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

// TestASVRAM: asv records a Linux machine's MemTotal from /proc/meminfo,
// in kilobytes, and a Mac's hw.memsize, in bytes (asv/util.py
// get_memsize); sizes typed by hand carry their unit.
func TestASVRAM(t *testing.T) {
	tests := []struct {
		in, os string
		want   int64
		ok     bool
	}{
		{"16318900", "Linux 6.1.0-28-amd64", 16318900 << 10, true},                   // a 16 GiB machine's MemTotal (asv before 0.6.6: kB)
		{"405086031872", "Linux 4.18.0-553.123.1.el8_10.x86_64", 405086031872, true}, // asv 0.6.6 on: bytes (MetPy-benchmark's)
		{"7520000000", "Linux", 7520000000, true},                                    // a 7 GB runner, bytes
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
