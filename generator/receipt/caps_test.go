package receipt

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ReadInput and Load, used by check and export, apply the same caps as a
// build: size on disk, size after gunzip, separators of a JSON receipt.
func TestReadInputCaps(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := readTestdata(t, "run.json")
	big := write("big.json", append(bytes.Clone(run[:len(run)-2]), []byte(`, "x": "`+strings.Repeat(" ", 8000)+`"}`)...))
	bomb := write("bomb.json.gz", gz(t, append([]byte(`{"schema": "perfpages.run.v1", "x": "`), bytes.Repeat([]byte(" "), 1<<20)...)))
	many := write("many.json", []byte(`{"schema": "perfgate.run.v1", "samples": [`+strings.Repeat("{},", 2000)+`{}]}`))
	tests := []struct {
		path string
		max  int64
		want string
	}{
		{big, 4096, big + ": 9.1 KiB, over the limit of 4 KiB per input file (max_input_bytes)"},
		{bomb, 64 << 10, bomb + ": gzip data inflates beyond 64 KiB, the limit per input file (max_input_bytes)"},
		{many, 64 << 10, many + ": 4006 separators (`,[{:` and newlines), more than the 1024 allowed under max_input_bytes = 64 KiB"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if _, _, err := ReadInput(tt.path, tt.max); err == nil || err.Error() != tt.want {
				t.Errorf("ReadInput: %v\nwant %s", err, tt.want)
			}
			if _, err := Load(tt.path, tt.max); err == nil || err.Error() != tt.want {
				t.Errorf("Load: %v\nwant %s", err, tt.want)
			}
		})
	}
	// Under the default limit all is well, and a gzipped receipt reads
	// like a plain one.
	if in, err := Load(write("run.json.gz", gz(t, run)), 0); err != nil || in.Kind != KindRun || in.Run.Bench.Name != "parse-large" {
		t.Errorf("gzipped receipt: %+v, %v", in, err)
	}
	if _, _, err := ReadInput(big, 0); err != nil {
		t.Errorf("big receipt under the default limit: %v", err)
	}
}

// A receipt with bytes that are not UTF-8 is read, with a warning at
// their line, as archives are.
func TestLoadInvalidUTF8(t *testing.T) {
	run := readTestdata(t, "run.json")
	bad := bytes.Replace(run, []byte(`"parse-large"`), []byte("\"parse-\xe9\""), 1)
	line := 1 + bytes.Count(bad[:bytes.Index(bad, []byte("parse-\xe9"))], []byte("\n"))
	p := filepath.Join(t.TempDir(), "latin1.json")
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Load(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := p + ":" + strconv.Itoa(line) + ": invalid UTF-8 (1 byte), replaced with U+FFFD"
	if len(in.Problems) != 1 || in.Problems[0] != want || in.Run.Bench.Name != "parse-\uFFFD" {
		t.Errorf("problems %q, bench %q; want [%s] and parse-\uFFFD", in.Problems, in.Run.Bench.Name, want)
	}
}
