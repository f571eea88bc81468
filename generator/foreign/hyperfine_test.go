package foreign

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/perfpages/perfpages/analysis/model"
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

func TestHyperfineRegistered(t *testing.T) {
	f, ok := Lookup("hyperfine")
	if !ok || f.Dir || f.Read == nil || f.Sniff == nil {
		t.Fatalf("Lookup(hyperfine) = %+v, %v; want a registered file format", f, ok)
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
