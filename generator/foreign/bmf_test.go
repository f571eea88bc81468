package foreign

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// bmfDefaults is what a caller of the BMF and gab tests knows.
var bmfDefaults = Defaults{
	Artifact: model.Artifact{ID: "0123456789abcdef0123456789abcdef01234567", Kind: model.KindCommit, Branch: "main"},
	Machine:  model.Machine{Name: "ci-linux"},
	Context:  model.Params{{Key: "toolchain", Value: "go1.26"}},
}

// bmfProblems renders problems as "file:line: msg", with " (fatal)" for
// fatal ones, for comparison.
func bmfProblems(ps []archive.Problem) []string {
	var out []string
	for _, p := range ps {
		s := p.Error()
		if p.Fatal {
			s += " (fatal)"
		}
		out = append(out, s)
	}
	return out
}

func bmfRead(t *testing.T, format, name string, data []byte, def Defaults) ([]model.Run, []archive.Problem) {
	t.Helper()
	f, ok := Lookup(format)
	if !ok {
		t.Fatalf("format %s is not registered", format)
	}
	return f.Read(Input{Name: name, Data: data}, def)
}

func FuzzBmf(f *testing.F) {
	for _, file := range []string{"harness.json", "iai.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bmf", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{`{"a": {"latency": {"value": 1e999}}}`, `{"a": {"x": {"value": -1, "lower_value": null}}}`, "{\"a\":", `[[[[[]]]]]`, `{"a": {"": {"value": 1}}}`} {
		f.Add([]byte(s))
	}
	format, _ := Lookup("bmf")
	f.Fuzz(func(t *testing.T, data []byte) {
		format.Sniff(Input{Name: "f.json", Data: data})
		runs, probs := format.Read(Input{Name: "f.json", Data: data}, bmfDefaults)
		for _, p := range probs {
			if p.Fatal && len(runs) > 0 {
				t.Fatalf("fatal problem %q with %d runs", p.Error(), len(runs))
			}
		}
		if len(runs) == 0 && len(probs) == 0 {
			t.Fatal("no runs and no problem")
		}
		for _, r := range runs {
			for _, res := range r.Results {
				if len(res.Samples) == 0 {
					t.Fatalf("result %s %s without samples", res.Case, res.Metric)
				}
			}
		}
	})
}
