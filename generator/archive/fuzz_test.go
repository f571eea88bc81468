package archive

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// addSeeds seeds a fuzzer with every archive of its format in testdata
// (valid examples, bad ones and the golden encodings), plain and gzipped.
func addSeeds(f *testing.F, format string) {
	var files []string
	for _, dir := range []string{"testdata", "testdata/golden"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			if fm, _, ok := FormatOf(e.Name()); ok && fm == format {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	if len(files) < 3 {
		f.Fatalf("only %d seed files for %s", len(files), format)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		if strings.Contains(file, "valid") {
			f.Add(gz(f, data))
		}
	}
}

// checkDecode is the property every fuzzer checks: Decode does not panic,
// every problem names the file, a fatal problem leaves the run zero, and a
// run that was kept encodes in every format and decodes to the same value.
func checkDecode(t *testing.T, name string, data []byte) []Problem {
	run, problems := Decode(name, data, Options{})
	fatal := false
	for _, p := range problems {
		if p.File != name || p.Line < 0 || p.Msg == "" {
			t.Errorf("bad problem %+v", p)
		}
		fatal = fatal || p.Fatal
	}
	if fatal {
		if diff := cmp.Diff(model.Run{}, run); diff != "" {
			t.Errorf("fatal problems %v but a run:\n%s", problems, diff)
		}
		return problems
	}
	for _, format := range []string{"json", "yaml", "toml"} {
		var b bytes.Buffer
		if err := Encode(&b, run, format, false); err != nil {
			t.Fatalf("Encode(%s) of a decoded run: %v", format, err)
		}
		// A zero date is left out; the run came back with none.
		again, problems := Decode("again."+format, b.Bytes(), Options{DateOptional: true})
		for _, p := range problems {
			if p.Msg != "no results" {
				t.Errorf("re-decoding the %s encoding: %v\n%s", format, p, b.Bytes())
			}
		}
		if diff := cmp.Diff(run, again); diff != "" {
			t.Errorf("%s round trip (-decoded +re-decoded):\n%s\n%s", format, diff, b.Bytes())
		}
	}
	return problems
}

func FuzzDecodeJSON(f *testing.F) {
	addSeeds(f, "json")
	f.Fuzz(func(t *testing.T, data []byte) {
		problems := checkDecode(t, "fuzz.json", data)
		if capped.IsGzip(data) || bytes.HasPrefix(data, []byte("\uFEFF")) {
			return
		}
		// The parser accepts exactly what encoding/json accepts.
		rejected := false
		for _, p := range problems {
			rejected = rejected || strings.HasPrefix(p.Msg, "syntax error") || p.Msg == "empty document"
		}
		if valid := json.Valid(data); valid == rejected {
			t.Errorf("json.Valid = %v, but the parser's problems are %v", valid, problems)
		}
	})
}

func FuzzDecodeYAML(f *testing.F) {
	addSeeds(f, "yaml")
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, "fuzz.yaml", data) })
}

func FuzzDecodeTOML(f *testing.F) {
	addSeeds(f, "toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, "fuzz.toml", data)
		if capped.IsGzip(data) {
			return
		}
		// The line scanner is never confused: a bare key is on the line it
		// is said to be on.
		root := (&decoder{file: "fuzz.toml"}).parseTOML(data)
		if root == nil {
			return
		}
		lines := strings.Split(string(data), "\n")
		var walk func(n *readkit.Node)
		walk = func(n *readkit.Node) {
			for _, f := range n.Fields {
				bare := f.Key != "" && strings.IndexFunc(f.Key, func(r rune) bool { return r >= 0x80 || !isBareKeyChar(byte(r)) }) < 0
				if bare && f.Line > 0 && (f.Line > len(lines) || !strings.Contains(lines[f.Line-1], f.Key)) {
					t.Errorf("key %q said to be on line %d", f.Key, f.Line)
				}
				walk(f.Val)
			}
			for _, it := range n.Items {
				walk(it)
			}
		}
		walk(root)
	})
}
