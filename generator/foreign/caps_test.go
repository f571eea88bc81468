package foreign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// problemTexts formats problems as Problem.Error(), "FATAL " in front of
// the fatal ones.
func problemTexts(ps []archive.Problem) []string {
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

// Read applies the shared caps before any reader: the size and separator
// caps make a file unusable (and drop a file of a folder), bytes that are
// not UTF-8 are a warning at their line and the file is read.
func TestReadCaps(t *testing.T) {
	hf, err := os.ReadFile("testdata/hyperfine/basic.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		format string
		in     Input
		want   []string
		runs   int
	}{
		{"over the size limit", "hyperfine", Input{Name: "hf.json", Data: append(bytes.Clone(hf), bytes.Repeat([]byte(" "), 4096)...), MaxBytes: 4096},
			[]string{"FATAL hf.json: 5.0 KiB, over the limit of 4 KiB per input file (max_input_bytes)"}, 0},
		{"too many separators", "auto", Input{Name: "hf.json", Data: []byte(`{"results": [` + strings.Repeat("{},", 1100) + `{}]}`), MaxBytes: 64 << 10},
			[]string{"FATAL hf.json: 2204 separators (`,[{:` and newlines), more than the 1024 allowed under max_input_bytes = 64 KiB"}, 0},
		{"a folder loses the file over the limit", "criterion", Input{Name: "target/criterion", MaxBytes: 4096, Files: map[string][]byte{
			"fib/new/benchmark.json": []byte(`{"group_id": "fib", "full_id": "fib", "directory_name": "fib", "title": "fib"}`),
			"fib/new/sample.json":    []byte(`{"sampling_mode": "Linear", "iters": [1, 2], "times": [10, 20]}`),
			"fib/new/raw.csv":        bytes.Repeat([]byte("x"), 5000),
		}}, []string{"target/criterion/fib/new/raw.csv: 4.9 KiB, over the limit of 4 KiB per input file (max_input_bytes); file skipped"}, 1},
		{"invalid UTF-8", "hyperfine", Input{Name: "hf.json", Data: bytes.Replace(hf, []byte(`"command": "`), []byte("\"command\": \"\xe9"), 1)},
			[]string{fmt.Sprintf("hf.json:%d: invalid UTF-8 (1 byte), replaced with U+FFFD", 1+bytes.Count(hf[:bytes.Index(hf, []byte(`"command"`))], []byte("\n")))}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, runs, problems := Read(tt.format, tt.in, Defaults{})
			if diff := cmp.Diff(tt.want, problemTexts(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if len(runs) != tt.runs {
				t.Errorf("%d runs, want %d", len(runs), tt.runs)
			}
		})
	}
}

// Every JSON reader keeps a name with a stray Latin-1 byte, as U+FFFD,
// and says so at its line.
func TestReadInvalidUTF8(t *testing.T) {
	for _, tt := range []struct{ format, file, name string }{
		{"googlebench", "testdata/googlebench/single.json", `"run_name": "BM_`},
		{"pytest-benchmark", "testdata/pytest-benchmark/benchmark-json.json", `"name": "test_`},
		{"hyperfine", "testdata/hyperfine/basic.json", `"command": "`},
		{"bmf", "testdata/bmf/harness.json", `"`},
		{"gab", "testdata/gab/custom-bigger.json", `"name": "`},
		{"perfgate", "testdata/perfgate/work.json", "\"bench\": {\n    \"name\": \""},
		{"gobench", "testdata/gobench/sort.txt", "BenchmarkSort"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			at := bytes.Index(data, []byte(tt.name))
			if at < 0 {
				t.Fatalf("no %s in %s", tt.name, tt.file)
			}
			at += len(tt.name)
			bad := slices.Concat(data[:at], []byte("\xe9"), data[at:])
			_, runs, problems := Read(tt.format, Input{Name: tt.file, Data: bad}, Defaults{})
			want := fmt.Sprintf("%s:%d: invalid UTF-8 (1 byte), replaced with U+FFFD", tt.file, 1+bytes.Count(data[:at], []byte("\n")))
			if len(problems) == 0 || problems[0].Error() != want {
				t.Errorf("problems = %v, want first %s", problems, want)
			}
			if len(runs) == 0 || !strings.Contains(fmt.Sprint(runs), "\uFFFD") {
				t.Errorf("runs = %v, want the value with U+FFFD kept", runs)
			}
		})
	}
}

// A file with a problem per element lists 100 problems and counts the
// rest, whether the reader caps its list or Read does.
func TestReadProblemsCapped(t *testing.T) {
	gb := `{"context": {"host_name": "m"}, "benchmarks": [` + strings.Repeat("1,", 300) + `{"name": "BM_x", "run_type": "iteration", "iterations": 10, "real_time": 5, "cpu_time": 5, "time_unit": "ns"}]}`
	hf := `{"results": [` + strings.Repeat("{},", 300) + `{"command": "x", "mean": 1.0, "times": [1.0]}]}`
	for _, tt := range []struct{ format, data string }{{"googlebench", gb}, {"hyperfine", hf}} {
		t.Run(tt.format, func(t *testing.T) {
			_, runs, problems := Read(tt.format, Input{Name: "f.json", Data: []byte(tt.data)}, Defaults{})
			if len(runs) != 1 || len(problems) != 101 || problems[100].Msg != "200 more problems not shown" {
				t.Errorf("%d runs, %d problems, the last %v; want 1 run, 100 problems and 200 more", len(runs), len(problems), problems[len(problems)-1])
			}
		})
	}
	// trimProblems adds up the counts of readers and its own.
	var ps []archive.Problem
	for i := range 150 {
		ps = append(ps, archive.Problem{File: "a", Msg: fmt.Sprint(i)})
	}
	ps = append(ps, archive.Problem{File: "a", Msg: "7 more problems not shown"}, archive.Problem{File: "b", Msg: "x", Fatal: true})
	got := trimProblems(ps)
	if len(got) != 102 || !got[100].Fatal || got[101].Msg != "57 more problems not shown" {
		t.Errorf("trimProblems: %d problems, the last two %v", len(got), got[100:])
	}
}

// FuzzWriteCompact: writeCompact writes a parsed value as encoding/json
// writes what it decodes from it (with UseNumber, without escaping HTML),
// as pytest-benchmark's reader did when it wrote parameter values with
// encoding/json.
func FuzzWriteCompact(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, ` { "b" : 1.50 , "a":[1,{"c":"]}"}] } `, `["\"", "\\", {"k\u0041": null}, -1.5e3, true]`, `{"a":{"a":{}},"a":2}`, `1`, `"x<&>\u2028\u0001\b\f"`, "{\"\xde\":0}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data, _ = readkit.ValidUTF8("f.json", data) // as Read gives it to a reader
		if !json.Valid(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return
		}
		n, _, p := readkit.ParseJSON("f.json", data, readkit.JSONOptions{Duplicates: true, NumberText: true})
		if p != nil {
			return // a cap
		}
		var got strings.Builder
		writeCompact(&got, n)
		if w := strings.TrimSuffix(want.String(), "\n"); got.String() != w {
			t.Fatalf("writeCompact = %s, encoding/json %s", got.String(), w)
		}
	})
}

// TestReadAllocsPerByte bounds what reading costs per byte of input for
// every foreign reader, on inputs made to cost the most while staying
// under the caps: each fixture with one of its first arrays (or a new
// field) filled with tens of thousands of tiny numbers, empty lists,
// empty objects or short strings, a deep nest or a long string; for the
// text and folder formats, many tiny benchmarks. With the caps on size
// and separators this keeps the memory of one hostile file a small
// multiple of max_input_bytes.
func TestReadAllocsPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads a few hundred inputs")
	}
	// 256 bytes per byte for every reader; the worst are perfgate (~230
	// on a list of empty objects: readkit's tree of the receipt, then
	// encoding/json on each element) and hyperfine (~195 on a list of
	// numbers: a message per bad element), most of it garbage at once.
	const bound = 256
	const n = 1 << 14
	payloads := []struct{ name, value string }{
		{"numbers", strings.Repeat("1,", n) + "1"},
		{"empty lists", strings.Repeat("[],", n/2) + "[]"},
		{"empty objects", strings.Repeat("{},", n/2) + "{}"},
		{"short strings", strings.Repeat(`"a",`, n/2) + `"a"`},
		{"deep", strings.Repeat("[", 5000) + strings.Repeat("]", 5000)},
		{"long string", `"` + strings.Repeat("a", 16*n) + `"`},
	}
	check := func(t *testing.T, what, format string, in Input) {
		t.Helper()
		size := len(in.Data)
		for _, d := range in.Files {
			size += len(d)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, problems := Read(format, in, Defaults{})
		runtime.ReadMemStats(&after)
		for _, p := range problems {
			if strings.Contains(p.Msg, "allowed under") {
				t.Fatalf("%s: the input hit a cap, so it measures nothing: %v", what, p)
			}
		}
		// 64 KiB for what any read costs (the reader's own tables).
		if got := float64(after.TotalAlloc-before.TotalAlloc-min(after.TotalAlloc-before.TotalAlloc, 64<<10)) / float64(size); got > bound {
			t.Errorf("%s: %.0f bytes allocated per byte of a %d-byte input, want at most %d", what, got, size, bound)
		}
	}

	// The JSON file formats: every fixture, its first arrays filled.
	var files []string
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".js")) && !strings.Contains(p, "criterion") && !strings.Contains(p, "asv") {
			files = append(files, p)
		}
		return nil
	})
	for _, file := range files {
		seed, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Detect(Input{Name: file, Data: seed})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(file, func(t *testing.T) {
			at := arrayStarts(seed, 6)
			if open := bytes.IndexByte(seed, '{'); open >= 0 && f.Name != "gobench" {
				at = append(at, -open-1) // a new first field of the first object
			}
			for _, p := range payloads {
				for _, a := range at {
					var data []byte
					if a < 0 {
						data = slices.Concat(seed[:-a], []byte(`"zz": [`+p.value+`], `), seed[-a:])
					} else {
						data = slices.Concat(seed[:a], []byte(p.value+","), seed[a:])
						if !json.Valid(data) && json.Valid(seed) {
							data = slices.Concat(seed[:a], []byte(p.value), seed[a:])
						}
					}
					check(t, fmt.Sprintf("%s at %d", p.name, a), f.Name, Input{Name: file, Data: data})
				}
			}
		})
	}

	// go test -bench text: many tiny benchmarks, many tiny units, a long line.
	t.Run("gobench", func(t *testing.T) {
		check(t, "tiny benchmarks", "gobench", Input{Name: "b.txt", Data: []byte(strings.Repeat("BenchmarkA 1 1 ns/op\n", n))})
		check(t, "tiny units", "gobench", Input{Name: "b.txt", Data: []byte("BenchmarkA 1" + strings.Repeat(" 1 x/op", n) + "\n")})
		check(t, "config lines", "gobench", Input{Name: "b.txt", Data: []byte(strings.Repeat("k: v\n", n) + "BenchmarkA 1 1 ns/op\n")})
		check(t, "long line", "gobench", Input{Name: "b.txt", Data: []byte("BenchmarkA" + strings.Repeat("x", 16*n) + " 1 1 ns/op\n")})
	})
	// Criterion and asv: folders of many tiny benchmarks, and a fixture's
	// arrays filled.
	t.Run("criterion", func(t *testing.T) {
		in := Input{Name: "target/criterion", Files: map[string][]byte{}}
		for i := range n / 64 {
			d := fmt.Sprintf("b%d/new/", i)
			in.Files[d+"benchmark.json"] = []byte(fmt.Sprintf(`{"group_id": "b%d", "full_id": "b%d", "directory_name": "b%d", "title": "b%d"}`, i, i, i, i))
			in.Files[d+"sample.json"] = []byte(`{"sampling_mode": "Flat", "iters": [1], "times": [1]}`)
		}
		check(t, "tiny benchmarks", "criterion", in)
		for _, p := range payloads {
			in := Input{Name: "target/criterion", Files: map[string][]byte{
				"b/new/benchmark.json": []byte(`{"group_id": "b", "full_id": "b", "directory_name": "b", "title": "b"}`),
				"b/new/sample.json":    []byte(`{"sampling_mode": "Flat", "iters": [` + p.value + `], "times": [1]}`),
			}}
			check(t, p.name, "criterion", in)
		}
	})
	t.Run("asv", func(t *testing.T) {
		base := map[string][]byte{}
		filepath.WalkDir("testdata/asv/results", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel("testdata/asv/results", p)
				base[filepath.ToSlash(rel)] = data
			}
			return nil
		})
		const result = "cheetah/22b920c6-py3.8-numpy1.18.json"
		for _, p := range payloads {
			for _, a := range arrayStarts(base[result], 6) {
				files := map[string][]byte{}
				for k, v := range base {
					files[k] = v
				}
				data := slices.Concat(base[result][:a], []byte(p.value+","), base[result][a:])
				if !json.Valid(data) {
					data = slices.Concat(base[result][:a], []byte(p.value), base[result][a:])
				}
				files[result] = data
				check(t, fmt.Sprintf("%s at %d", p.name, a), "asv", Input{Name: "results", Files: files})
			}
		}
	})
}

// arrayStarts returns the offsets just after the first max '[' of a JSON
// document (JSON Lines too) that open arrays.
func arrayStarts(data []byte, max int) []int {
	var out []int
	dec := json.NewDecoder(bytes.NewReader(data))
	for len(out) < max {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if tok == json.Delim('[') {
			out = append(out, int(dec.InputOffset()))
		}
	}
	return out
}

// ReadPath (perfpages import) refuses a file over the default limit by its
// size, before reading it, as a file of a folder.
func TestReadPathTooLarge(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "run", "huge.json")
	os.MkdirAll(filepath.Dir(huge), 0o755)
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(archive.DefaultMaxBytes + 1); err != nil { // sparse: never written
		t.Fatal(err)
	}
	f.Close()
	const tooLarge = "67108865 bytes, over the limit of 67108864 bytes per input file (max_input_bytes)"
	// import names the file it was given; a file found in a folder is
	// named here.
	for path, want := range map[string]string{huge: tooLarge, filepath.Dir(huge): huge + ": " + tooLarge} {
		if _, err := ReadPath(path); err == nil || err.Error() != want {
			t.Errorf("ReadPath(%s): %v, want %s", path, err, want)
		}
	}
}

// lfsPointer is what a checkout without LFS leaves of a results file.
const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"

// utf16LE encodes s as UTF-16LE, with a byte order mark when bom is set
// (PowerShell 5's `>` writes one; some tools do not).
func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// Every reader, and auto-detection, says what a Git LFS pointer or a
// UTF-16 file is and how to fix it, naming the file, instead of a syntax
// error; a folder format skips such a file with the same message.
func TestReadLFSPointerAndUTF16(t *testing.T) {
	lfs := "is a Git LFS pointer, not the results: run `git lfs pull` (or check out with lfs: true)"
	utf16 := "is UTF-16 encoded: save it as UTF-8 (PowerShell's > writes UTF-16; use Out-File -Encoding utf8)"
	for _, tt := range []struct{ format, file string }{
		{"gobench", "testdata/gobench/sort.txt"},
		{"googlebench", "testdata/googlebench/single.json"},
		{"pytest-benchmark", "testdata/pytest-benchmark/benchmark-json.json"},
		{"hyperfine", "testdata/hyperfine/basic.json"},
		{"bmf", "testdata/bmf/harness.json"},
		{"gab", "testdata/gab/custom-bigger.json"},
		{"gab", "testdata/gab/data.js"},
		{"perfgate", "testdata/perfgate/work.json"},
		{"auto", "testdata/hyperfine/basic.json"},
		{"auto", "testdata/gobench/sort.txt"},
	} {
		data, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if _, runs, problems := Read(tt.format, Input{Name: tt.file, Data: data}, Defaults{}); len(runs) == 0 || slices.ContainsFunc(problems, func(p archive.Problem) bool { return p.Fatal }) {
			t.Fatalf("%s %s: the file itself does not read: %v", tt.format, tt.file, problems)
		}
		for _, bad := range []struct {
			name string
			data []byte
			want string
		}{
			{"LFS pointer", []byte(lfsPointer), lfs},
			{"UTF-16 with BOM", utf16LE(string(data), true), utf16},
			{"UTF-16 without BOM", utf16LE(string(data), false), utf16},
		} {
			t.Run(tt.format+" "+filepath.Base(tt.file)+" "+bad.name, func(t *testing.T) {
				_, runs, problems := Read(tt.format, Input{Name: tt.file, Data: bad.data}, Defaults{})
				want := []string{"FATAL " + tt.file + ": " + bad.want}
				if diff := cmp.Diff(want, problemTexts(problems)); diff != "" || len(runs) != 0 {
					t.Errorf("%d runs; problems (-want +got):\n%s", len(runs), diff)
				}
			})
		}
	}
	for _, tt := range []struct{ format, dir, file string }{
		{"criterion", "testdata/criterion/current", "flat/fib 12/new/sample.json"},
		{"asv", "testdata/asv/results", "benchmarks.json"},
	} {
		for _, bad := range []struct {
			name string
			data func([]byte) []byte
			want string
		}{
			{"LFS pointer", func([]byte) []byte { return []byte(lfsPointer) }, lfs},
			{"UTF-16", func(b []byte) []byte { return utf16LE(string(b), true) }, utf16},
		} {
			t.Run(tt.format+" "+bad.name, func(t *testing.T) {
				in, err := ReadPath(tt.dir)
				if err != nil {
					t.Fatal(err)
				}
				orig, ok := in.Files[tt.file]
				if !ok {
					t.Fatalf("no %s in %s", tt.file, tt.dir)
				}
				in.Files[tt.file] = bad.data(orig)
				_, _, problems := Read(tt.format, in, Defaults{})
				want := tt.dir + "/" + tt.file + ": " + bad.want + "; file skipped"
				if texts := problemTexts(problems); !slices.Contains(texts, want) {
					t.Errorf("problems %q do not include %q", texts, want)
				}
			})
		}
	}
}
