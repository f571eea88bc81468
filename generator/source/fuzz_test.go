package source

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/perfpages/perfpages/analysis/model"
)

const (
	fuzzC1   = "1111111111111111111111111111111111111111"
	fuzzZero = "0000000000000000000000000000000000000000"
	fuzzB1   = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
)

func FuzzParseRawLog(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(fuzzC1 + "\x00\n:000000 100644 " + fuzzZero + " " + fuzzB1 + " A\x00results/a.json\x00"))
	f.Add([]byte(fuzzC1 + "\x00\n:100644 000000 " + fuzzB1 + " " + fuzzZero + " D\x00a\x00" + fuzzC1 + "\x00"))
	f.Add([]byte(":\x00\x00\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseRawLog(bufio.NewReader(bytes.NewReader(data)), func(e rawEntry) {
			if !isObjectID(e.commit) || !isObjectID(e.blob) {
				t.Fatalf("entry with a bad id: %+v", e)
			}
		})
	})
}

func FuzzParseProjectLog(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(fuzzC1 + "\x00\x002026-03-01T09:00:00Z\x00Bo\x00Merge pull request #1 from a/b\x00Title\n\x00"))
	f.Add([]byte(fuzzC1 + "\x00" + fuzzC1 + " " + fuzzC1 + "\x002026-03-01T09:00:00+02:00\x00\xff\x00Fix (#2)\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseProjectLog(bufio.NewReader(bytes.NewReader(data)), func(a model.Artifact) {
			if !isObjectID(a.ID) || a.Date.Location().String() != "UTC" || a.PR < 0 {
				t.Fatalf("bad artifact: %+v", a)
			}
		})
	})
}

func FuzzReadObject(f *testing.F) {
	f.Add([]byte(fuzzB1 + " blob 3\nabc\n"))
	f.Add([]byte(fuzzB1 + " missing\n"))
	f.Add([]byte(fuzzB1 + " blob 99999999999\nabc"))
	f.Fuzz(func(t *testing.T, data []byte) {
		blob, tooLarge, err := readObject(bufio.NewReader(bytes.NewReader(data)), fuzzB1, 1<<20)
		if err == nil && len(blob) > len(data) {
			t.Fatalf("blob of %d bytes from %d bytes of input", len(blob), len(data))
		}
		if tooLarge != nil && blob != nil {
			t.Fatalf("a blob over the limit, and %d bytes of it", len(blob))
		}
	})
}

func FuzzNoteExt(f *testing.F) {
	for _, s := range []string{yamlNote, tomlNote, jsonNote, "[machine]\n", "[1, 2]", "\x1f\x8b", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		switch ext := NoteExt(data); ext {
		case ".json", ".toml", ".yaml", ".json.gz", ".toml.gz", ".yaml.gz":
		default:
			t.Fatalf("NoteExt(%q) = %q", data, ext)
		}
	})
}
