package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

func gzipped(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const (
	yamlNote = "schema: perfpages.run.v1\nmachine: {name: linux-1}\n"
	tomlNote = "# a run\nschema = \"perfpages.run.v1\"\n\n[machine]\nname = \"linux-1\"\n"
	jsonNote = `{"schema": "perfpages.run.v1"}`
)

func TestNotes(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	c2 := r.commit("two")
	c3 := r.commit("three")
	c4 := r.commit("four")
	r.commit("five, without a note")
	r.git("notes", "--ref=perf", "add", "-m", yamlNote, c1)
	r.git("notes", "--ref=perf", "add", "-m", tomlNote, c2)
	r.git("notes", "--ref=perf", "add", "-m", jsonNote, c3)
	// Binary content, stored verbatim as a blob (-m would clean it up).
	gz := gzipped(t, jsonNote)
	gzPath := filepath.Join(t.TempDir(), "note.gz")
	if err := os.WriteFile(gzPath, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	blob := r.git("hash-object", "-w", gzPath)
	r.git("notes", "--ref=perf", "add", "-C", blob, c4)
	// A note elsewhere is not read.
	r.git("notes", "add", "-m", "unrelated", c1)

	// git notes add -m cleans the message up: one final newline, no
	// trailing blank lines.
	cleaned := func(s string) []byte { return []byte(strings.TrimRight(s, "\n") + "\n") }
	want := []File{
		{Name: c1 + ".yaml", Origin: "refs/notes/perf:" + c1, Data: cleaned(yamlNote), Artifact: c1},
		{Name: c2 + ".toml", Origin: "refs/notes/perf:" + c2, Data: cleaned(tomlNote), Artifact: c2},
		{Name: c3 + ".json", Origin: "refs/notes/perf:" + c3, Data: cleaned(jsonNote), Artifact: c3},
		{Name: c4 + ".json.gz", Origin: "refs/notes/perf:" + c4, Data: gz, Artifact: c4},
	}
	slices.SortFunc(want, func(a, b File) int { return strings.Compare(a.Artifact, b.Artifact) })

	g := r.open()
	for _, ref := range []string{"refs/notes/perf", "notes/perf", "perf"} {
		t.Run(ref, func(t *testing.T) {
			got, err := g.Notes(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Notes(%q) mismatch (-want +got):\n%s", ref, diff)
			}
		})
	}
	t.Run("default ref", func(t *testing.T) {
		got, err := g.Notes(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Notes(\"\") mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestNoteList: the notes are listed with their blob ids and sizes and
// none is read until its Load is called; a note over the size limit has
// Err and no Load.
func TestNoteList(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	c2 := r.commit("two")
	r.git("notes", "--ref=perf", "add", "-m", jsonNote, c1)
	r.git("notes", "--ref=perf", "add", "-m", strings.Repeat("x", 100), c2)
	g := r.open()
	g.MaxFileBytes = 64
	got, err := g.NoteList(context.Background(), "perf")
	if err != nil {
		t.Fatal(err)
	}
	if blobs, _ := g.Reads(); blobs != 0 {
		t.Errorf("NoteList read %d blobs, want none", blobs)
	}
	byArtifact := map[string]File{}
	for _, f := range got {
		byArtifact[f.Artifact] = f
	}
	small, big := byArtifact[c1], byArtifact[c2]
	if small.Name != c1 || small.Origin != "refs/notes/perf:"+c1 || small.Data != nil || small.Size != int64(len(jsonNote)+1) || !isObjectID(small.Blob) || small.Err != nil || small.Load == nil {
		t.Errorf("small note: %+v", small)
	}
	data, err := small.Load()
	if err != nil || string(data) != jsonNote+"\n" {
		t.Errorf("Load() = %q, %v", data, err)
	}
	if blobs, _ := g.Reads(); blobs != 1 {
		t.Errorf("%d blobs read after one Load, want 1", blobs)
	}
	if big.Err == nil || big.Load != nil || big.Size != 101 {
		t.Errorf("note over the limit: Err %v, Load set %t, Size %d", big.Err, big.Load != nil, big.Size)
	}
}

func TestNotesManyWithFanout(t *testing.T) {
	// Past a few hundred notes git splits the notes tree into folders
	// ("ab/cdef…"); the ids must still come back whole.
	r := newTestRepo(t)
	var stream strings.Builder
	const n = 300
	stream.WriteString("commit refs/heads/main\ncommitter C <c@example.com> 1767225600 +0000\ndata 4\ninit\n\n")
	for i := 0; i < n; i++ {
		msg := "commit " + itoa(i)
		stream.WriteString("commit refs/heads/main\ncommitter C <c@example.com> 1767225600 +0000\ndata " + itoa(len(msg)) + "\n" + msg + "\n\n")
	}
	fastImport(t, r, stream.String())
	shas := strings.Fields(r.git("rev-list", "main"))
	var notes strings.Builder
	for i, sha := range shas[:n] {
		notes.WriteString("N inline " + sha + "\ndata " + itoa(len(jsonNote)+len(itoa(i))) + "\n" + jsonNote + itoa(i) + "\n")
	}
	fastImport(t, r, "commit refs/notes/perf\ncommitter C <c@example.com> 1767225600 +0000\ndata 5\nnotes\n"+notes.String()+"\n")
	if top := strings.Fields(r.git("ls-tree", "--name-only", "refs/notes/perf")); len(top[0]) != 2 {
		t.Fatalf("notes tree has no fanout: %v…", top[:3])
	}
	g := r.open()
	got, err := g.Notes(context.Background(), "perf")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("Notes returned %d files, want %d", len(got), n)
	}
	for i, f := range got {
		if !isObjectID(f.Artifact) || f.Name != f.Artifact+".json" {
			t.Fatalf("file %d: Artifact %q, Name %q", i, f.Artifact, f.Name)
		}
		if i > 0 && got[i-1].Artifact >= f.Artifact {
			t.Fatalf("files not sorted by annotated commit at %d", i)
		}
	}
}

func TestExpandNotesRef(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "refs/notes/perf",
		"perf":             "refs/notes/perf",
		"notes/perf":       "refs/notes/perf",
		"refs/notes/perf":  "refs/notes/perf",
		"refs/notes/a/b":   "refs/notes/a/b",
		"refs/heads/main":  "refs/notes/refs/heads/main",
		"commits/nightly":  "refs/notes/commits/nightly",
		"refs/notes/perf2": "refs/notes/perf2",
	} {
		if got := expandNotesRef(in); got != want {
			t.Errorf("expandNotesRef(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNoteExt(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
	}{
		{"json object", `{"schema": "perfpages.run.v1"}`, ".json"},
		{"json object after space", "\n\t  {\"a\": 1}", ".json"},
		{"invalid json object is still json", `{"a": `, ".json"},
		{"json array of objects", `[{"a": 1}]`, ".json"},
		{"json array over lines", "[\n  {\"a\": 1}\n]\n", ".json"},
		{"json array of one name is valid json", `["machine"]`, ".json"},
		{"toml table first", "[machine]\nname = \"x\"\n", ".toml"},
		{"toml array of tables", "[[results]]\nbenchmark = \"x\"\n", ".toml"},
		{"toml dotted quoted table", "[ \"a b\".c ] # comment\nk = 1\n", ".toml"},
		{"toml key first", "schema = \"perfpages.run.v1\"\n", ".toml"},
		{"toml key after comment and blank lines", "# run\n\nschema=\"x\"\n", ".toml"},
		{"toml dotted key", "machine.name = \"x\"\n", ".toml"},
		{"toml quoted key", "\"my key\" = 1\n", ".toml"},
		{"yaml mapping", "schema: perfpages.run.v1\n", ".yaml"},
		{"yaml document marker", "---\nschema: x\n", ".yaml"},
		{"yaml with = in a value", "title: a = b\n", ".yaml"},
		{"yaml flow sequence", "[a, b]\n", ".json"},
		{"empty", "", ".yaml"},
		{"byte order mark", "\xef\xbb\xbf{\"a\": 1}", ".json"},
		{"gzip of json", string(gzipped(t, `{"a": 1}`)), ".json.gz"},
		{"gzip of yaml", string(gzipped(t, "schema: x\n")), ".yaml.gz"},
		{"gzip of toml", string(gzipped(t, "[machine]\nname = \"x\"\n")), ".toml.gz"},
		{"gzip of nothing", string(gzipped(t, "")), ".json.gz"},
		{"broken gzip", "\x1f\x8b\x00garbage", ".json.gz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NoteExt([]byte(tt.data)); got != tt.want {
				t.Errorf("NoteExt(%q) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}
