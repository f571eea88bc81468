package archive

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name   string
		format string
		gz, ok bool
	}{
		{"results/run.json", "json", false, true},
		{"run.json.gz", "json", true, true},
		{"RUN.JSON.GZ", "json", true, true},
		{"run.yaml", "yaml", false, true},
		{"run.yml", "yaml", false, true},
		{"run.Yml.gz", "yaml", true, true},
		{"run.yaml.gz", "yaml", true, true},
		{"run.toml", "toml", false, true},
		{"run.toml.gz", "toml", true, true},
		{`C:\results\run.TOML`, "toml", false, true},
		{"perf-results:results/linux/3f2a.json", "json", false, true},
		{"run.txt", "", false, false},
		{"run.gz", "", false, false},
		{"run.json.bak", "", false, false},
		{"run.json.gz.gz", "", false, false},
		{"json", "", false, false},
		{"", "", false, false},
	}
	for _, tt := range tests {
		format, gz, ok := FormatOf(tt.name)
		if format != tt.format || gz != tt.gz || ok != tt.ok {
			t.Errorf("FormatOf(%q) = %q, %v, %v; want %q, %v, %v", tt.name, format, gz, ok, tt.format, tt.gz, tt.ok)
		}
	}
}

func TestProblemError(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{File: "results/a.json", Line: 12, Msg: "no results"}, "results/a.json:12: no results"},
		{Problem{File: "results/a.json", Msg: "missing schema (want perfpages.run.v1)", Fatal: true}, "results/a.json: missing schema (want perfpages.run.v1)"},
		{Problem{File: "perf-results:r/a.yaml", Line: 1, Msg: "x"}, "perf-results:r/a.yaml:1: x"},
	}
	for _, tt := range tests {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// validRun is the content of testdata/valid.{json,yaml,toml}.
func validRun() model.Run {
	params := model.Params{{Key: "n", Value: "1000"}, {Key: "ratio", Value: "0.5"}, {Key: "size", Value: "large"}}
	return model.Run{
		Artifact: model.Artifact{
			ID:      "3f2a9c0d5e6b7a8c9d0e1f2a3b4c5d6e7f8a9b0c",
			Kind:    model.KindCommit,
			Date:    time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC),
			Parents: []string{"9e1c7d2a4b6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f"},
			Branch:  "main",
			PR:      1234,
			Title:   "Speed up the parser (#1234)",
			Author:  "Ada Lovelace <ada@example.org>",
		},
		Machine: model.Machine{
			Name: "linux-x64-1", OS: "linux", Arch: "amd64", CPU: "AMD EPYC 7763", Cores: 16, MemoryBytes: 68719476736,
			Labels: model.Params{{Key: "rack", Value: "b7"}, {Key: "turbo", Value: "false"}},
		},
		Context: model.Params{{Key: "gc", Value: "100"}, {Key: "toolchain", Value: "go1.26"}},
		Results: []model.Result{
			{
				Case:   model.TestCase{Benchmark: "json-decode", Params: params, Category: model.Primary},
				Metric: "wall-time", Unit: "ns", Samples: []float64{1203.5, 1199, 1210.2}, Iters: []float64{10, 20, 30},
			},
			{
				Case:   model.TestCase{Benchmark: "json-decode", Params: params, Category: model.Primary},
				Metric: "instructions:u", Unit: "count", Samples: []float64{51234567},
			},
			{
				Case:   model.TestCase{Benchmark: "regex-compile", Category: model.Secondary},
				Metric: "throughput", Unit: "B/s", Samples: []float64{1.5e9, 1.48e9},
			},
			{
				Case:   model.TestCase{Benchmark: "tls-handshake", Category: model.Primary},
				Metric: "wall-time", Error: "exit status 2",
			},
			{
				// pytest-benchmark in data.js: ops/s, and the summary of
				// the time per round it kept instead of the rounds.
				Case:   model.TestCase{Benchmark: "test_pack_read", Category: model.Primary},
				Metric: "throughput", Unit: "iter/s", Samples: []float64{147.83},
				Summary: &model.SampleSummary{Mean: 0.006764403985612581, StdDev: 0.0020886163795779695, N: 139},
			},
			{
				// cargo bench in data.js: the tool's "± range" beside its value.
				Case:   model.TestCase{Benchmark: "http1_consecutive_x1_empty", Category: model.Primary},
				Metric: "wall-time", Unit: "ns", Samples: []float64{34012}, Range: "± 1,234",
			},
		},
	}
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecodeValid decodes the same run from every format, plain and
// gzipped, under names that give the format away or not.
func TestDecodeValid(t *testing.T) {
	want := validRun()
	for _, file := range []string{"valid.json", "valid.yaml", "valid.toml"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		ext := filepath.Ext(file)
		inputs := []struct {
			name string
			data []byte
		}{
			{file, data},
			{strings.ToUpper(file), data},
			{file + ".gz", gz(t, data)},
			{file, gz(t, data)}, // gzip recognised by its magic bytes
			{"refs/notes/perf:3f2a9c0d", data},
			{"refs/notes/perf:3f2a9c0d", gz(t, data)},
			{file, append([]byte("\uFEFF"), data...)},
		}
		if ext == ".yaml" {
			inputs = append(inputs, struct {
				name string
				data []byte
			}{"valid.yml", data})
		}
		for _, in := range inputs {
			run, problems := Decode(in.name, in.data, Options{})
			if len(problems) > 0 {
				t.Errorf("%s as %s: problems %v", file, in.name, problems)
			}
			if diff := cmp.Diff(want, run); diff != "" {
				t.Errorf("%s as %s (-want +got):\n%s", file, in.name, diff)
			}
		}
	}
}

func TestDecodeGzipProblems(t *testing.T) {
	valid, err := os.ReadFile("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	zipped := gz(t, valid)
	tests := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"not gzip at all", "r.json.gz", valid, "r.json.gz: bad gzip data: invalid header"},
		{"truncated", "r.json.gz", zipped[:len(zipped)/2], "r.json.gz: bad gzip data: unexpected EOF"},
		{"bad checksum", "r.json.gz", append(zipped[:len(zipped)-8:len(zipped)-8], 0, 0, 0, 0, 0, 0, 0, 0), "r.json.gz: bad gzip data: invalid checksum"},
		{"empty", "r.yaml.gz", nil, "r.yaml.gz: bad gzip data: EOF"},
		{"magic bytes only", "r.json", []byte{0x1f, 0x8b}, "r.json: bad gzip data: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, problems := Decode(tt.file, tt.data, Options{})
			if len(problems) != 1 || !problems[0].Fatal || problems[0].Error() != tt.want {
				t.Fatalf("problems = %+v, want one fatal %q", problems, tt.want)
			}
			if diff := cmp.Diff(model.Run{}, run); diff != "" {
				t.Errorf("run not zero:\n%s", diff)
			}
		})
	}
}

func TestDecodeSniff(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"json", "\n  {\"schema\": \"x\"}", "n: unsupported schema \"x\" (want perfpages.run.v1)"},
		{"yaml", "# run\nschema: x\n", "n: unsupported schema \"x\" (want perfpages.run.v1)"},
		{"yaml document", "---\nschema: x\n", "n: unsupported schema \"x\" (want perfpages.run.v1)"},
		{"toml", "# run\nschema = \"x\"\n", "n: unsupported schema \"x\" (want perfpages.run.v1)"},
		{"toml table first", "[artifact]\nid = \"a\"\n", "n: missing schema (want perfpages.run.v1)"},
		{"json list", "[1, 2]", "n: document is not an object (got a list)"},
		{"plain text", "BenchmarkX 100 5 ns/op\n", "n: unknown archive format (want a .json, .yaml, .yml or .toml file, optionally .gz)"},
		{"empty", "", "n: unknown archive format (want a .json, .yaml, .yml or .toml file, optionally .gz)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := Decode("n", []byte(tt.in), Options{})
			if len(problems) != 1 {
				t.Fatalf("problems = %v, want one", problems)
			}
			// Lines differ by format; the message is what sniffing decides.
			p := problems[0]
			p.Line = 0
			if got := p.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDecodeValues pins how scalars become the strings of the model: what
// the file says for ids and names, canonical forms for parameters.
func TestDecodeValues(t *testing.T) {
	tests := []struct {
		name, file, in string
		opts           Options
		check          func(model.Run) any
		want           any
	}{
		{name: "yaml unquoted numeric id keeps its text", file: "r.yaml",
			in: "schema: perfpages.run.v1\nartifact: {id: 0123456, date: 2026-11-20T03:00:00Z, parents: [00ff, 1e5]}\nmachine: {name: 1}\nresults: []\n",
			check: func(r model.Run) any {
				return []string{r.Artifact.ID, r.Artifact.Parents[0], r.Artifact.Parents[1], r.Machine.Name}
			},
			want: []string{"0123456", "00ff", "1e5", "1"}},
		{name: "json numeric id is formatted", file: "r.json",
			in:    `{"schema": "perfpages.run.v1", "artifact": {"id": 1234, "date": "2026-11-20T03:00:00Z"}, "machine": {"name": true}, "results": []}`,
			check: func(r model.Run) any { return []string{r.Artifact.ID, r.Machine.Name} },
			want:  []string{"1234", "true"}},
		{name: "json params", file: "r.json",
			in: `{"schema": "perfpages.run.v1", "artifact": {"id": "a", "date": "2026-11-20T03:00:00Z"}, "machine": {"name": "m"}, "results": [
			{"benchmark": "b", "metric": "m", "samples": [1], "params": {"i": 1000, "f": 1.50, "e": 1e3, "big": 1e21, "t": true, "s": "x y", "neg": -0.25}}]}`,
			check: func(r model.Run) any { return r.Results[0].Case.Params.String() },
			want:  `big=1e+21 e=1000 f=1.5 i=1000 neg=-0.25 s="x y" t=true`},
		{name: "yaml params", file: "r.yaml",
			in: "schema: perfpages.run.v1\nartifact: {id: a, date: 2026-11-20T03:00:00Z}\nmachine: {name: m}\nresults:\n" +
				"  - {benchmark: b, metric: m, samples: [1], params: {i: 1000, hex: 0x10, f: 1.50, e: 1e3, t: true, s: yes, d: 2026-11-20}}\n",
			check: func(r model.Run) any { return r.Results[0].Case.Params.String() },
			want:  `d=2026-11-20 e=1000 f=1.5 hex=16 i=1000 s=yes t=true`},
		{name: "toml params", file: "r.toml",
			in: "schema = \"perfpages.run.v1\"\nartifact = {id = \"a\", date = 2026-11-20T03:00:00Z}\nmachine = {name = \"m\"}\n[[results]]\n" +
				"benchmark = \"b\"\nmetric = \"m\"\nsamples = [1]\nparams = {i = 1000, hex = 0x10, f = 1.50, e = 1e3, t = true, d = 2026-11-20}\n",
			check: func(r model.Run) any { return r.Results[0].Case.Params.String() },
			want:  `d=2026-11-20 e=1000 f=1.5 hex=16 i=1000 t=true`},
		{name: "date converted to UTC", file: "r.yaml",
			in:    "schema: perfpages.run.v1\nartifact: {id: a, date: \"2026-11-20T03:00:00.5-05:00\"}\nmachine: {name: m}\nresults: []\n",
			check: func(r model.Run) any { return r.Artifact.Date.Format(time.RFC3339Nano) },
			want:  "2026-11-20T08:00:00.5Z"},
		{name: "integral float as integer", file: "r.json",
			in:    `{"schema": "perfpages.run.v1", "artifact": {"id": "a", "pr": 12.0, "date": "2026-11-20T03:00:00Z"}, "machine": {"name": "m", "memory_bytes": 6.8719476736e10}, "results": []}`,
			check: func(r model.Run) any { return []int64{int64(r.Artifact.PR), r.Machine.MemoryBytes} },
			want:  []int64{12, 68719476736}},
		{name: "yaml merge keys", file: "r.yaml",
			in: "schema: perfpages.run.v1\nartifact: {id: a, date: 2026-11-20T03:00:00Z}\nmachine: {name: m}\nresults:\n" +
				"  - &base {benchmark: b, metric: m, unit: ns, samples: [1]}\n  - {<<: *base, metric: n}\n  - {<<: [*base], params: {x: 1}}\n",
			check: func(r model.Run) any {
				var s []string
				for _, res := range r.Results {
					s = append(s, res.Case.String()+" "+res.Metric+" "+res.Unit)
				}
				return s
			},
			want: []string{"b m ns", "b n ns", "b x=1 m ns"}},
		{name: "default artifact loses to the archive", file: "r.json", opts: Options{DefaultArtifact: "note"},
			in:    `{"schema": "perfpages.run.v1", "artifact": {"id": "a", "date": "2026-11-20T03:00:00Z"}, "machine": {"name": "m"}, "results": []}`,
			check: func(r model.Run) any { return r.Artifact.ID },
			want:  "a"},
		{name: "default artifact fills in", file: "r.json", opts: Options{DefaultArtifact: "note", DateOptional: true},
			in:    `{"schema": "perfpages.run.v1", "machine": {"name": "m"}, "results": []}`,
			check: func(r model.Run) any { return []any{r.Artifact.ID, r.Artifact.Kind, r.Artifact.Date.IsZero()} },
			want:  []any{"note", model.KindCommit, true}},
		{name: "json escapes", file: "r.json",
			in:    `{"schema": "perfpages.run.v1", "artifact": {"id": "a", "date": "2026-11-20T03:00:00Z", "title": "\u00e9\t\"q\" \ud83d\ude00 \ud800 /\/"}, "machine": {"name": "m"}, "results": []}`,
			check: func(r model.Run) any { return r.Artifact.Title },
			want:  "é\t\"q\" 😀 \uFFFD //"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, problems := Decode(tt.file, []byte(tt.in), tt.opts)
			for _, p := range problems {
				if p.Fatal {
					t.Fatalf("fatal problem: %v", p)
				}
			}
			if diff := cmp.Diff(tt.want, tt.check(run)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestTOMLLines pins the scanner that finds the lines of TOML keys.
func TestTOMLLines(t *testing.T) {
	const doc = `# comment [[results]]
schema = "perfpages.run.v1" # trailing comment
"quoted.key" = 1
a.b . c = 'x'
text = """
[[results]]
not = "a table"
"""
lit = '''
it's
'''
[artifact]
id = "x"   # comment
"\u0041" = 2
arr = [
  1, # one
  [2, 3],
  {k = 4},
]

[[results]]
benchmark = "b"
samples = [1, 2]
params = { size = "large", "n" = 1 }

[ results . sub ]
x = 1

[[results]]
benchmark = "c"
`
	var m map[string]any
	if err := toml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("the test document is not valid TOML: %v", err)
	}
	want := map[string]int{
		"schema":                 2,
		`"quoted.key"`:           3,
		"a":                      4,
		"a.b":                    4,
		"a.b.c":                  4,
		"text":                   5,
		"lit":                    9,
		"artifact":               12,
		"artifact.id":            13,
		"artifact.A":             14,
		"artifact.arr":           15,
		"artifact.arr[0]":        16,
		"artifact.arr[1]":        17,
		"artifact.arr[1][0]":     0, // on its array's line: no entry
		"artifact.arr[2]":        18,
		"artifact.arr[2].k":      18,
		"artifact.arr[3]":        0,
		"results":                21,
		"results[0]":             21,
		"results[0].benchmark":   22,
		"results[0].samples":     23,
		"results[0].samples[0]":  0,
		"results[0].params":      24,
		"results[0].params.size": 24,
		"results[0].params.n":    24,
		"results[0].sub":         26,
		"results[0].sub.x":       27,
		"results[1]":             29,
		"results[1].benchmark":   30,
	}
	lines, _ := tomlLines([]byte(doc))
	for path, line := range want {
		// Translate the readable path into the scanner's.
		p := ""
		for _, part := range strings.Split(strings.ReplaceAll(path, "[", ".["), ".") {
			switch {
			case strings.HasPrefix(part, "["):
				var i int
				for _, c := range part[1 : len(part)-1] {
					i = 10*i + int(c-'0')
				}
				p = tomlIndex(p, i)
			case strings.HasPrefix(part, `"`):
				p = tomlKey(p, "quoted.key")
			default:
				p = tomlKey(p, part)
			}
		}
		if path == `"quoted.key"` {
			p = tomlKey("", "quoted.key")
		}
		if got := lines[p]; got != line {
			t.Errorf("line of %s = %d, want %d", path, got, line)
		}
	}
}
