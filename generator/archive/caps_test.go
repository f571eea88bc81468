package archive

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// nested is a value nested depth lists deep around x.
func nested(depth int, x string) string {
	return strings.Repeat("[", depth) + x + strings.Repeat("]", depth)
}

// The caps of Limits: each is a fatal problem with the file's line where
// the codec gives one; just under a cap, the file is read.
func TestLimitsJSON(t *testing.T) {
	small := Options{MaxBytes: 64 << 10} // 2,048 values, 1,024 tokens
	runDecodeCases(t, "r.json", []decodeCase{
		{name: "over the size limit", in: jsonDoc(jsonOK) + strings.Repeat(" ", 2000), opts: Options{MaxBytes: 1024},
			want: []string{"FATAL r.json: 2.2 KiB, over the limit of 1 KiB per input file (max_input_bytes)"}},
		{name: "gzip over the size limit", in: gzipped(jsonDoc(jsonOK) + strings.Repeat(" ", 2000)), opts: Options{MaxBytes: 1024},
			want: []string{"FATAL r.json: gzip data inflates beyond 1 KiB, the limit per input file (max_input_bytes)"}},
		{name: "gzip under the size limit", in: gzipped(jsonDoc(jsonOK)), opts: Options{MaxBytes: 1024}, results: 1},
		{name: "too many values", in: jsonDoc(`{"benchmark": "b", "metric": "m",` + "\n" + `"samples": [` + strings.Repeat("1, ", 2100) + "1]}"), opts: small,
			want: []string{"FATAL r.json:7: more than 2048 values (objects, lists, strings, numbers…), the most allowed under max_input_bytes = 64 KiB"}},
		{name: "values under the cap", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [` + strings.Repeat("1, ", 2000) + "1]}"), opts: small, results: 1},
		{name: "too many values and bad syntax", in: jsonDoc(`{"samples": [` + strings.Repeat("1, ", 2100) + "1}"), opts: small,
			want: []string{"FATAL r.json:6: syntax error: invalid character '}' after array element"}},
		{name: "nested too deep", in: jsonDoc(jsonOK) + "\n", opts: Options{}, results: 1},
		{name: "depth 10", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z", "x": `+nested(8, "1")+`}`, `"machine": {"name": "m1"}`),
			want: []string{`r.json:3: unknown field "artifact.x"`}, results: 1},
		{name: "depth 11", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z", "x": `+nested(9, "1")+`}`, `"machine": {"name": "m1"}`),
			want: []string{"FATAL r.json:3: nested more than 10 levels deep"}},
		{name: "deeper than encoding/json allows", in: nested(20000, ""),
			want: []string{"FATAL r.json:1: syntax error: invalid character '[' exceeded max depth"}},
		{name: "string too long", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z", "title": "`+strings.Repeat("x", 1<<20+1)+`"}`, `"machine": {"name": "m1"}`),
			want: []string{"FATAL r.json:3: a string of 1.0 MiB, longer than the 1 MiB a value may be"}},
		{name: "string of 1 MiB", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z", "title": "`+strings.Repeat("x", 1<<20)+`"}`, `"machine": {"name": "m1"}`),
			results: 1},
	})
}

func TestLimitsYAML(t *testing.T) {
	small := Options{MaxBytes: 256 << 10} // 2,048 tokens
	runDecodeCases(t, "r.yaml", []decodeCase{
		{name: "too many separators", in: yamlDoc(`{benchmark: b, metric: m, samples: [` + strings.Repeat("1, ", 2100) + "1]}"), opts: small,
			want: []string{"FATAL r.yaml: 2127 separators (`,[{:-?` and newlines), more than the 2048 allowed under max_input_bytes = 256 KiB for a YAML archive"}},
		{name: "separators under the cap", in: yamlDoc(`{benchmark: b, metric: m, samples: [` + strings.Repeat("1, ", 2000) + "1]}"), opts: small, results: 1},
		{name: "depth 11", in: yamlHead(`artifact: {id: a1, date: 2026-11-20T03:00:00Z, x: `+nested(9, "1")+`}`, "machine: {name: m1}"),
			want: []string{"FATAL r.yaml:2: nested more than 10 levels deep"}},
		{name: "depth 10", in: yamlHead(`artifact: {id: a1, date: 2026-11-20T03:00:00Z, x: `+nested(8, "1")+`}`, "machine: {name: m1}"),
			want: []string{`r.yaml:2: unknown field "artifact.x"`}, results: 1},
		{name: "depth through aliases", in: "schema: perfpages.run.v1\na: &a " + nested(6, "1") + "\nb: &b [[[[*a]]]]\n",
			want: []string{"FATAL r.yaml:3: nested more than 10 levels deep"}},
		{name: "string too long", in: yamlHead("artifact: {id: a1, date: 2026-11-20T03:00:00Z, title: "+strings.Repeat("x", 1<<20+1)+"}", "machine: {name: m1}"),
			want: []string{"FATAL r.yaml:2: a string of 1.0 MiB, longer than the 1 MiB a value may be"}},
		// Billion laughs: 10 levels of ten aliases would be 10^10 nodes;
		// a node per byte is allowed (the file is ~400 bytes, 10,000 more
		// for small files).
		{name: "billion laughs", in: func() string {
			s := "schema: perfpages.run.v1\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
			for i := 1; i < 10; i++ {
				s += fmt.Sprintf("l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
			}
			return s
		}(), want: []string{"FATAL r.yaml:5: too many values after expanding aliases"}},
		{name: "merge keys are fine", in: "schema: perfpages.run.v1\nartifact: {id: a1, date: 2026-11-20T03:00:00Z}\nmachine: {name: m1}\n" +
			"defaults: &d {metric: wall-time, unit: ns}\nresults:\n" + strings.Repeat("  - {<<: *d, benchmark: b, samples: [1]}\n", 1),
			want: []string{`r.yaml:4: unknown field "defaults"`}, results: 1},
	})
}

func TestLimitsTOML(t *testing.T) {
	small := Options{MaxBytes: 256 << 10}
	runDecodeCases(t, "r.toml", []decodeCase{
		{name: "too many separators", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [` + strings.Repeat("1, ", 2100) + "1]}"), opts: small,
			want: []string{"FATAL r.toml: 2130 separators (`,[{=.` and newlines), more than the 2048 allowed under max_input_bytes = 256 KiB for a TOML archive"}},
		{name: "separators in strings do not count", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00Z, title = "`+strings.Repeat(",[{=.", 1000)+`"}`, `machine = {name = "m1"}`),
			opts: small, results: 1},
		{name: "inline tables 11 deep", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00Z, x = `+strings.Repeat("{a = ", 9)+"1"+strings.Repeat("}", 9)+"}", `machine = {name = "m1"}`),
			want: []string{"FATAL r.toml:2: nested more than 10 levels deep"}},
		{name: "inline tables 10 deep", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00Z, x = `+strings.Repeat("{a = ", 8)+"1"+strings.Repeat("}", 8)+"}", `machine = {name = "m1"}`),
			want: []string{`r.toml:2: unknown field "artifact.x"`}, results: 1},
		{name: "arrays 11 deep", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00Z, x = `+nested(9, "1")+"}", `machine = {name = "m1"}`),
			want: []string{"FATAL r.toml:2: nested more than 10 levels deep"}},
		{name: "dotted key 11 deep", in: tomlDoc(tomlOK) + strings.Repeat("a.", 10) + "b = 1\n",
			want: []string{"FATAL r.toml:7: nested more than 10 levels deep"}},
		{name: "dotted key 10 deep", in: tomlDoc(tomlOK) + strings.Repeat("a.", 9) + "b = 1\n",
			want: []string{`r.toml:7: unknown field "a"`}, results: 1},
		{name: "header 11 deep", in: tomlDoc(tomlOK) + "[" + strings.Repeat("a.", 9) + "b]\n",
			want: []string{"FATAL r.toml:7: nested more than 10 levels deep"}},
		{name: "header and key 11 deep", in: tomlDoc(tomlOK) + "[" + strings.Repeat("a.", 4) + "b]\n" + `"x.y".` + strings.Repeat("c.", 4) + "d = {e = 1}\n",
			want: []string{"FATAL r.toml:8: nested more than 10 levels deep"}},
		{name: "quoted dots are one key", in: tomlDoc(tomlOK) + `"` + strings.Repeat("a.", 20) + `b" = 1` + "\n",
			want: []string{`r.toml:7: unknown field "` + strings.Repeat("a.", 20) + `b"`}, results: 1},
		{name: "brackets in strings and comments", in: tomlDoc(tomlOK) + "x = '''\n" + strings.Repeat("[{", 20) + "\n'''\ny = \"" + strings.Repeat("[", 20) + "\" # " + strings.Repeat("{", 20) + "\n",
			want: []string{`r.toml:7: unknown field "x"`, `r.toml:10: unknown field "y"`}, results: 1},
		{name: "string too long", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00Z, title = "`+strings.Repeat("x", 1<<20+1)+`"}`, `machine = {name = "m1"}`),
			want: []string{"FATAL r.toml:2: a string of 1.0 MiB, longer than the 1 MiB a value may be"}},
	})
}

// Invalid UTF-8 is a warning at its line in every codec, and the file is
// kept with U+FFFD in place of each bad byte.
func TestInvalidUTF8(t *testing.T) {
	for _, tt := range []struct {
		file, doc string
		line      int
	}{
		{"r.json", jsonDoc(`{"benchmark": "café", "metric": "m", "samples": [1]}`), 6},
		{"r.yaml", yamlDoc(`{benchmark: "café", metric: m, samples: [1]}`), 5},
		{"r.toml", tomlDoc(`{benchmark = "café", metric = "m", samples = [1]}`), 5},
	} {
		t.Run(tt.file, func(t *testing.T) {
			latin1 := strings.Replace(tt.doc, "café", "caf\xe9", 1)
			run, problems := Decode(tt.file, []byte(latin1), Options{})
			want := fmt.Sprintf("%s:%d: invalid UTF-8 (1 byte), replaced with U+FFFD", tt.file, tt.line)
			if len(problems) != 1 || problems[0].Error() != want || problems[0].Fatal {
				t.Fatalf("problems = %v, want [%s]", problems, want)
			}
			if len(run.Results) != 1 || run.Results[0].Case.Benchmark != "caf\uFFFD" {
				t.Errorf("results = %+v, want benchmark caf\uFFFD", run.Results)
			}
		})
	}
	doc := jsonDoc(`{"benchmark": "\xff\xfe", "metric": "m", "samples": [1]}`, `{"benchmark": "b\x80", "metric": "m", "samples": [1]}`)
	doc = strings.NewReplacer(`\xff`, "\xff", `\xfe`, "\xfe", `\x80`, "\x80").Replace(doc)
	_, problems := Decode("r.json", []byte(doc), Options{})
	if want := "r.json:6: invalid UTF-8 (3 bytes on 2 lines, the first here), replaced with U+FFFD"; len(problems) != 1 || problems[0].Error() != want {
		t.Errorf("problems = %v, want [%s]", problems, want)
	}
}

// A file with a problem per element lists 100 and counts the rest; a
// fatal one is kept past the cap.
func TestProblemsCapped(t *testing.T) {
	doc := jsonDoc(strings.TrimSuffix(strings.Repeat(`{"benchmark": "b", "metric": "m"}, `, 300), ", "), jsonOK)
	_, problems := Decode("r.json", []byte(doc), Options{})
	if len(problems) != 101 || problems[100].Msg != "200 more problems not shown" || problems[100].Fatal {
		t.Fatalf("%d problems, the last %v; want 100 and \"200 more problems not shown\"", len(problems), problems[len(problems)-1])
	}
	doc = strings.Replace(doc, `"machine": {"name": "m1"}`, `"machine": {}`, 1)
	_, problems = Decode("r.json", []byte(doc), Options{})
	fatal := 0
	for _, p := range problems {
		if p.Fatal {
			fatal++
		}
	}
	if fatal != 1 || problems[len(problems)-1].Msg != "201 more problems not shown" {
		t.Errorf("%d fatal problems, the last %v; want the missing machine kept", fatal, problems[len(problems)-1])
	}
	// A list of a million numbers as results: one node per number would
	// cost 100 MB; the problems are counted straight from the list.
	doc = jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z"}`, `"machine": {"name": "m1"}`)
	doc = strings.Replace(doc, `"results": [`+jsonOK+`]`, `"results": [`+strings.Repeat("1,", 300)+`1]`, 1)
	_, problems = Decode("r.json", []byte(doc), Options{})
	if len(problems) != 101 || problems[0].Msg != "results[0]: want an object, got an integer; result dropped" || problems[100].Msg != "201 more problems not shown" {
		t.Errorf("%d problems, the first %v", len(problems), problems[0])
	}
}

// allocPerByte returns the bytes f allocates per byte of an input of size
// n (runtime.MemStats.TotalAlloc: deterministic, unlike time).
func allocPerByte(n int, f func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// TestDecodeAllocsPerByte bounds what decoding costs per byte of input,
// for inputs made to cost the most while staying under the caps (about
// 1 MB each, at the default limit): tiny values, deep nesting, long
// strings, aliases, dotted keys. With the caps that bound how many bytes
// a file may have and how many values, this is what keeps the memory of
// one hostile file a small multiple of max_input_bytes.
//
// The bounds are per codec: yaml.v3 and BurntSushi/toml build trees of
// their own, at a few hundred bytes per value, before ours. A real
// archive costs 6 (JSON) to 43 (YAML) bytes per byte.
func TestDecodeAllocsPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: decodes a few MB")
	}
	const n = 1 << 18
	jsonRun := func(samples string) string {
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z"}, "machine": {"name": "m1"}, "results": [{"benchmark": "b", "metric": "m", "samples": ` + samples + `}]}`
	}
	yamlRun := func(samples string) string {
		return "schema: perfpages.run.v1\nartifact: {id: a1, date: 2026-11-20T03:00:00Z}\nmachine: {name: m1}\nresults:\n- {benchmark: b, metric: m, samples: " + samples + "}\n"
	}
	tomlRun := func(extra string) string {
		return "schema = \"perfpages.run.v1\"\nartifact = {id = \"a1\", date = 2026-11-20T03:00:00Z}\nmachine = {name = \"m1\"}\n" + extra + "[[results]]\nbenchmark = \"b\"\nmetric = \"m\"\nsamples = [1]\n"
	}
	lines := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	tests := []struct {
		name, file, doc string
		max             float64
	}{
		{"json numbers", "r.json", jsonRun("[" + strings.Repeat("1,", n) + "1]"), 80},
		{"json empty lists", "r.json", jsonRun("[" + strings.Repeat("[],", n) + "[]]"), 80},
		{"json empty objects", "r.json", jsonRun("[" + strings.Repeat("{},", n) + "{}]"), 80},
		{"json short strings", "r.json", jsonRun("[" + strings.Repeat(`"a",`, n) + `"a"]`), 80},
		{"json long strings", "r.json", jsonRun(`["` + strings.Repeat("a", 1<<20) + `"]`), 4},
		{"json tiny results", "r.json", strings.Replace(jsonRun("[1]"), `{"benchmark": "b", "metric": "m", "samples": [1]}`, strings.Repeat(`{},`, n)+`{}`, 1), 80},
		{"json nested", "r.json", jsonRun("[" + strings.Repeat(nested(6, "")+",", n/8) + "1]"), 80},
		{"json realistic", "big.json", encoded(t, "json"), 10},
		{"yaml numbers", "r.yaml", yamlRun("[" + strings.Repeat("1,", n) + "1]"), 384},
		{"yaml block lists", "r.yaml", yamlRun("[1]") + lines(n/4, "x%d:\n- - 1\n"), 384},
		{"yaml pairs", "r.yaml", yamlRun("[" + strings.Repeat("{a: b},", n/2) + "1]"), 384},
		{"yaml aliases", "r.yaml", "a: &a [x]\n" + yamlRun("["+strings.Repeat("*a,", n/2)+"1]"), 384},
		{"yaml long strings", "r.yaml", yamlRun(`["` + strings.Repeat("a", 1<<20) + `"]`), 8},
		{"yaml realistic", "big.yaml", encoded(t, "yaml"), 64},
		{"toml numbers", "r.toml", tomlRun("x = [" + strings.Repeat("1,", n) + "1]\n"), 512},
		{"toml inline tables", "r.toml", tomlRun(lines(n/32, "k%d = {a = {a = {a = {a = {a = {a = {a = {a = 1}}}}}}}}\n")), 512},
		{"toml dotted keys", "r.toml", tomlRun(lines(n/16, "k%d.a.a.a.a.a.a.b = 1\n")), 512},
		{"toml tables", "r.toml", tomlRun(lines(n/16, "[t%d.a.a.a.a.a.a]\n")), 512},
		{"toml long strings", "r.toml", tomlRun(`x = "` + strings.Repeat("a", 1<<20) + "\"\n"), 8},
		{"toml realistic", "big.toml", encoded(t, "toml"), 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var problems []Problem
			got := allocPerByte(len(tt.doc), func() { _, problems = Decode(tt.file, []byte(tt.doc), Options{}) })
			for _, p := range problems {
				if strings.Contains(p.Msg, "allowed under") || strings.Contains(p.Msg, "deep") || strings.Contains(p.Msg, "after expanding") {
					t.Fatalf("the input hit a cap, so it measures nothing: %v", p)
				}
			}
			if got > tt.max {
				t.Errorf("%.1f bytes allocated per byte of input, want at most %.0f", got, tt.max)
			}
			t.Logf("%8d bytes: %6.1f allocated per byte", len(tt.doc), got)
		})
	}
}

// encoded is a real-looking run of 5,000 results in format.
func encoded(t *testing.T, format string) string {
	var b bytes.Buffer
	if err := Encode(&b, bigRun(5000), format, false); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
