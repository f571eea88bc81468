package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/perfpages/perfpages/generator/internal/fileid"

	"github.com/perfpages/perfpages/analysis/model"
)

func sampleEntry() Entry {
	return Entry{
		Problems: []Problem{{Line: 3, Msg: `unknown field "colour"`}, {Msg: "whole file", Fatal: false}},
		Runs: []model.Run{{
			Artifact: model.Artifact{ID: strings.Repeat("a", 40), Kind: model.KindCommit, Date: time.Date(2026, 9, 7, 10, 0, 0, 5, time.UTC),
				Parents: []string{strings.Repeat("b", 40)}, Branch: "main", PR: 12, Title: "Speed up (#12) ✓", Author: "A", Baseline: ""},
			Machine: model.Machine{Name: "linux", OS: "linux", Arch: "amd64", CPU: "EPYC", Cores: 16, MemoryBytes: 1 << 35,
				Labels: model.Params{{Key: "rack", Value: "7"}}},
			Context: model.Params{{Key: "toolchain", Value: "go1.26"}},
			Results: []model.Result{
				{Case: model.TestCase{Benchmark: "json-decode", Category: model.Primary, Params: model.Params{{Key: "size", Value: "large"}}},
					Metric: "wall-time", Unit: "ns", Samples: []float64{1203.5, math.Inf(1), math.Copysign(0, -1), 5e-324}, Iters: []float64{1, 2, 3, 4}},
				{Case: model.TestCase{Benchmark: "tls"}, Metric: "wall-time", Unit: "ns", Error: "exit status 2"},
				{Case: model.TestCase{Benchmark: "cargo"}, Metric: "wall-time", Unit: "ns", Samples: []float64{34012}, Range: "± 1,234"},
				{Case: model.TestCase{Benchmark: "json-decode"}, Metric: "throughput", Unit: "MB/s", Direction: model.HigherIsBetter, Samples: []float64{1},
					Summary: &model.SampleSummary{Mean: 6.764403985612581e-3, StdDev: 0.0020886163795779695, N: 139}},
				{Case: model.TestCase{Benchmark: "zero"}, Metric: "throughput", Unit: "iter/s", Samples: []float64{2}, Summary: &model.SampleSummary{}},
			},
		}, {Artifact: model.Artifact{ID: "v1.0", Kind: model.KindTag}}},
		Versions: &model.FileVersions{
			Origin:    "gh-pages@1234567:dev/bench/data.js",
			Runs:      []model.Run{{Artifact: model.Artifact{ID: "c"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "x"}, Metric: "m", Samples: []float64{3}}}}},
			History:   []model.Run{{Artifact: model.Artifact{ID: "a"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "x"}, Metric: "m", Samples: []float64{1}}}}},
			HistoryIn: []string{"gh-pages@0000001:dev/bench/data.js"},
			Removed:   []model.Run{{Artifact: model.Artifact{ID: "b"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "x"}, Metric: "m", Error: "gone"}}}},
			RemovedIn: []string{"gh-pages@0000002:dev/bench/data.js"},
			Seen:      []string{"a", "b", "c"},
			Corrected: 2, Correction: "x m on ci at b: [1] → [2] (in v1)", Fields: 1, Deleted: true,
		},
	}
}

func TestEntryRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir(), testOut)
	if err != nil {
		t.Fatal(err)
	}
	k := RunKey("perfpages", "opts", []byte("the archive"))
	if _, ok := s.Entry(k, 1<<20); ok {
		t.Fatal("an empty store has an entry")
	}
	want := sampleEntry()
	if err := s.Put(k, want); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Entry(k, 1<<20)
	if !ok {
		t.Fatal("the entry just stored is not there")
	}
	if d := cmp.Diff(want, got, cmpopts.EquateNaNs(), cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(model.FileVersions{})); d != "" {
		t.Errorf("entry read back differs (-want +got):\n%s", d)
	}
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
}

// A damaged or foreign .run file is a warning, is removed, and reads as
// missing: the input is decoded again, nothing wrong is trusted.
func TestEntryCorrupt(t *testing.T) {
	s, _ := Open(t.TempDir(), testOut)
	k := RunKey("perfpages", "", []byte("x"))
	if err := s.Put(k, sampleEntry()); err != nil {
		t.Fatal(err)
	}
	path := s.runPath(k)
	data, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{
		"flipped byte":  append(append([]byte{}, data[:40]...), append([]byte{data[40] ^ 1}, data[41:]...)...),
		"truncated":     data[:len(data)/2],
		"other version": append([]byte("perfpages run v0\n"), data[len(runMagic):]...),
		// v2 entries have no key.
		"v2 entry": append([]byte("perfpages run v2\n"), data[len(runMagic)+32:]...),
		"empty":    nil,
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := Open(filepath.Dir(s.dir), testOut)
			os.WriteFile(path, bad, 0o644)
			if _, ok := s.Entry(k, 1<<20); ok {
				t.Fatal("a damaged entry was read")
			}
			if len(s.Warnings()) != 1 || !strings.Contains(s.Warnings()[0].Error(), path) {
				t.Errorf("warnings %v, want one naming %s", s.Warnings(), path)
			}
			if _, err := os.Stat(path); err == nil {
				t.Error("the damaged entry is still there")
			}
		})
	}
}

// Fuzz the decoder: any bytes under a good checksum decode or fail,
// without a panic or an allocation beyond the input's size.
func FuzzDecodeEntry(f *testing.F) {
	f.Add(encodeEntry("", sampleEntry()))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err == nil {
			// What decodes encodes back to the same bytes.
			if got := encodeEntry("", e); string(got) != string(b) {
				t.Skip() // non-canonical varints decode too; fine
			}
		}
	})
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testOut)
	a, b := RunKey("x", "", []byte("a")), RunKey("x", "", []byte("b"))
	s.Put(a, Entry{})
	s.Put(b, Entry{})
	// The next build uses only a.
	s2, _ := Open(dir, testOut)
	if _, ok := s2.Entry(a, 1<<20); !ok {
		t.Fatal("entry a is gone")
	}
	if err := s2.Prune(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s2.runPath(b)); err == nil {
		t.Error("the unused entry b survived the prune")
	}
	if _, err := os.Stat(s2.runPath(a)); err != nil {
		t.Error("the used entry a was pruned")
	}
}

// testOut is the output folder the tests' stores belong to.
const testOut = "/srv/site/public"

// A store under the name builds before 2026-11-29 gave it (a hash of the
// output's absolute path) is renamed, not left behind; a folder under that
// name that is not a store is left alone.
func TestLegacyNameRenamed(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, testOut)
	if err != nil {
		t.Fatal(err)
	}
	k := RunKey("perfpages", "opts", []byte("the archive"))
	if err := s.Put(k, sampleEntry()); err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(dir, folderName(testOut, testOut))
	if err := os.Rename(filepath.Join(dir, FolderName(dir, testOut)), legacy); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, testOut)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Entry(k, 1<<20); !ok {
		t.Error("the store under its old name lost its entry")
	}
	if _, err := os.Stat(legacy); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old name is still there: %v", err)
	}

	other := filepath.Join(t.TempDir(), "cache")
	mine := filepath.Join(other, folderName(testOut, testOut))
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Open(other, testOut); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(mine, "notes.txt")); string(data) != "mine" {
		t.Errorf("a folder that is no store was moved or changed: %q, %v", data, err)
	}
}

// A store of another version (its marker says so) is emptied, with a
// warning; the legacy store-v2 folder and criterion-v1.gob beside it go
// when their content shows they are perfpages'.
func TestOtherVersionRemoved(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, FolderName(dir, testOut))
	os.MkdirAll(filepath.Join(folder, "runs", "ab"), 0o755)
	os.WriteFile(filepath.Join(folder, Marker), []byte("perfpages store store-v2\n"), 0o644)
	os.WriteFile(filepath.Join(folder, "runs", "ab", "x.run"), []byte("old"), 0o644)
	os.MkdirAll(filepath.Join(dir, "store-v2", "runs"), 0o755)
	os.WriteFile(filepath.Join(dir, "store-v2", "state.gob"), []byte("perfpages state v1\n..."), 0o644)
	var legacy bytes.Buffer // what perfpages wrote before the store kept it
	gob.NewEncoder(&legacy).Encode(struct {
		Magic   string
		Entries int
	}{"perfpages analysis cache v1", 0})
	os.WriteFile(filepath.Join(dir, "criterion-v1.gob"), legacy.Bytes(), 0o644)
	s, err := Open(dir, testOut)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(folder, "runs", "ab", "x.run")); err == nil {
		t.Error("the entries of the store of another version are still there")
	}
	for _, old := range []string{"store-v2", "criterion-v1.gob"} {
		if _, err := os.Stat(filepath.Join(dir, old)); err == nil {
			t.Errorf("the legacy %s is still there", old)
		}
	}
	if len(s.Warnings()) != 2 {
		t.Errorf("warnings: %v", s.Warnings())
	}
}

// Nothing that is not the store's own is ever removed: folders named like
// stores (store-frontend, a store-v2 of someone else's files), a folder
// at the store's own path without the marker, a link there.
func TestOpenLeavesOthersAlone(t *testing.T) {
	dir := t.TempDir()
	keep := map[string]string{
		"store-frontend/src/app.js": "app",
		"store-v2/notes.txt":        "mine",
		"store-v1/runs/x":           "mine",
		"criterion-v1.gob":          "not a cache",
	}
	for p, data := range keep {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644)
	}
	if _, err := Open(dir, testOut); err != nil {
		t.Fatal(err)
	}
	for p, data := range keep {
		if got, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(got) != data {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}

	// The store's own path, taken by something else.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "precious"), []byte("x"), 0o644)
	for name, make := range map[string]func(string) error{
		"folder without marker": func(p string) error {
			os.Mkdir(p, 0o755)
			return os.WriteFile(filepath.Join(p, "precious"), []byte("x"), 0o644)
		},
		"foreign marker": func(p string) error {
			os.Mkdir(p, 0o755)
			return os.WriteFile(filepath.Join(p, Marker), []byte("my own marker\n"), 0o644)
		},
		"link to a folder": func(p string) error { return os.Symlink(other, p) },
		"file":             func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, FolderName(dir, testOut))
			if err := make(p); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir, testOut)
			var own *OwnershipError
			if !errors.As(err, &own) {
				t.Fatalf("Open = %v, want an OwnershipError", err)
			}
			if _, err := Reset(dir, testOut); !errors.As(err, &own) {
				t.Fatalf("Reset = %v, want an OwnershipError", err)
			}
			if _, err := os.Stat(filepath.Join(other, "precious")); err != nil {
				t.Error("the link's target lost a file")
			}
		})
	}
}

// Two outputs never share a store; an output and its cache moved
// together keep theirs.
func TestFolderName(t *testing.T) {
	a, b := FolderName("/srv/cache", "/srv/a/public"), FolderName("/srv/cache", "/srv/b/public")
	if a == b || !strings.HasPrefix(a, "public-") {
		t.Errorf("FolderName: %q and %q", a, b)
	}
	if n := FolderName("/srv/cache", "/x/../odd name\n"); strings.ContainsAny(n, " /\n.") {
		t.Errorf("FolderName(odd) = %q", n)
	}
	if a, b := FolderName("/home/ci/w1/.perfpages-cache", "/home/ci/w1/public"), FolderName("/tmp/w2/.perfpages-cache", "/tmp/w2/public"); a != b {
		t.Errorf("a project moved whole: %q, then %q", a, b)
	}
	if a, b := FolderName("/srv/cache", "/home/a/public"), FolderName("/srv/cache", "/home/b/public"); a == b {
		t.Errorf("two projects sharing a cache folder share a store: %q", a)
	}
}

// Store files are read only when they are regular files of the size the
// store wrote: a FIFO does not hang, a link to /dev/zero or a sparse huge
// file is refused by its size, and each is one warning and rebuilt.
func TestReadRefusesOddFiles(t *testing.T) {
	for name, plant := range map[string]func(path string) error{
		"fifo":        func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dev zero":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"sparse huge": func(p string) error { return os.Truncate(p, 20<<30) },
		"grown":       func(p string) error { return os.WriteFile(p, append(must(os.ReadFile(p)), 0), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, _ := Open(dir, testOut)
			if err := s.Save("steps", "", []int{1, 2, 3}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(s.Dir(), "steps.gob")
			if name != "sparse huge" && name != "grown" {
				os.Remove(path)
			}
			if err := plant(path); err != nil {
				t.Skip(err)
			}
			done := make(chan bool)
			go func() {
				s, _ := Open(dir, testOut)
				var v []int
				ok := s.Load("steps", "", &v)
				done <- !ok && len(s.Warnings()) == 1
			}()
			select {
			case ok := <-done:
				if !ok {
					t.Error("the odd file was read, or not one warning")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("reading the store hangs")
			}
		})
	}
}

// An entry copied over another's file is not taken for it.
func TestEntryOfAnotherKey(t *testing.T) {
	s, _ := Open(t.TempDir(), testOut)
	a, b := RunKey("x", "", []byte("a")), RunKey("x", "", []byte("b"))
	s.Put(a, sampleEntry())
	s.Put(b, Entry{})
	data, _ := os.ReadFile(s.runPath(a))
	os.WriteFile(s.runPath(b), data, 0o644)
	if _, ok := s.Entry(b, 1<<20); ok {
		t.Error("a's entry was read as b's")
	}
	if _, ok := s.Entry(a, 10); ok {
		t.Error("an entry over its size limit was read")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestGobFiles(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testOut)
	o := Outputs{"index.html": {Key: "k", Size: 3, Sum: sha256.Sum256([]byte("abc"))}}
	if err := s.SaveOutputs(o); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(o, s.Outputs(), cmpopts.IgnoreUnexported(Output{})); d != "" {
		t.Errorf("outputs read back differ:\n%s", d)
	}
	os.WriteFile(filepath.Join(s.dir, "outputs.gob"), []byte("perfpages outputs v1\ngarbage!"), 0o644)
	if got := s.Outputs(); got != nil {
		t.Errorf("garbage read as %v", got)
	}
	if len(s.Warnings()) != 1 {
		t.Errorf("warnings: %v", s.Warnings())
	}
}

// withTool makes the store's entries those of the tool name until the
// test ends.
func withTool(t *testing.T, name string) {
	old := tool
	tool = func() string { return name }
	t.Cleanup(func() { tool = old })
}

// A value is read only under the version it was saved with: of another
// tool or other options it is not read, is no warning, and goes at the
// next prune unless saved again. The site's manifest belongs to no tool.
func TestVersions(t *testing.T) {
	dir := t.TempDir()
	withTool(t, "perfpages 1")
	s := must(Open(dir, testOut))
	s.Save("steps", "window=30", []int{1, 2, 3})
	s.Save("briefs", "", []int{4})
	o := Outputs{"index.html": {Key: "k", Size: 3}}
	s.SaveOutputs(o)
	old := RunKey("archive", "", []byte("a"))
	s.Put(old, Entry{})

	var v []int
	if s := must(Open(dir, testOut)); s.Load("steps", "window=40", &v) || len(s.Warnings()) != 0 {
		t.Errorf("a value of other options was read (%v), warnings %v", v, s.Warnings())
	}
	withTool(t, "perfpages 2")
	if RunKey("archive", "", []byte("a")) == old {
		t.Error("an input read by another tool has the same key")
	}
	s = must(Open(dir, testOut))
	if s.Load("steps", "window=30", &v) || s.Load("briefs", "", &v) || len(s.Warnings()) != 0 {
		t.Errorf("a value of another tool was read (%v), warnings %v", v, s.Warnings())
	}
	if d := cmp.Diff(o, s.Outputs(), cmpopts.IgnoreUnexported(Output{})); d != "" {
		t.Errorf("the manifest of another tool differs:\n%s", d)
	}
	s.Save("briefs", "", []int{5})
	if err := s.Prune(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"steps.gob": false, "briefs.gob": true, "outputs.gob": true} {
		if _, err := os.Lstat(filepath.Join(s.Dir(), name)); (err == nil) != want {
			t.Errorf("after the prune, %s is there: %t", name, err == nil)
		}
	}
	if _, err := os.Stat(s.runPath(old)); err == nil {
		t.Error("the entry of another tool survived the prune")
	}
	s = must(Open(dir, testOut))
	if !s.Load("briefs", "", &v) || len(v) != 1 || v[0] != 5 {
		t.Errorf("briefs after the prune: %v", v)
	}
}

// The prune keeps what the build read or wrote and removes everything
// else in the store's folder, and nothing outside it.
func TestPruneNamed(t *testing.T) {
	dir := t.TempDir()
	s := must(Open(dir, testOut))
	s.Save("a", "", 1)
	s.Save("b", "", 2)
	outside := filepath.Join(dir, "outside")
	os.WriteFile(outside, []byte("x"), 0o644)
	s = must(Open(dir, testOut))
	var n int
	if !s.Load("a", "", &n) || n != 1 {
		t.Fatal("value a is not there")
	}
	os.WriteFile(filepath.Join(s.Dir(), ".tmp-123"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(s.Dir(), "stray.gob"), []byte("?"), 0o644)
	os.Symlink(outside, filepath.Join(s.Dir(), "link"))
	if err := s.Prune(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range must(os.ReadDir(s.Dir())) {
		names[e.Name()] = true
	}
	want := map[string]bool{Marker: true, indexName: true, "runs": true, "a.gob": true}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("the store after the prune (-want +got):\n%s", d)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Error("the prune removed a link's target")
	}
	s = must(Open(dir, testOut))
	if s.Load("b", "", &n) || !s.Load("a", "", &n) || len(s.Warnings()) != 0 {
		t.Errorf("after the prune: b read or a not, warnings %v", s.Warnings())
	}
}

// A checkpoint reads back as written, only with the options it was
// written with; a broken one is a warning.
func TestCheckpoint(t *testing.T) {
	dir := t.TempDir()
	s := must(Open(dir, testOut))
	b := model.NewBuilder(model.BuildOptions{})
	run := sampleEntry().Runs[0]
	b.AddAt(0, "a.json", run)
	held := []Held{{Key: RunKey("x", "", []byte("a")), Origin: "a.json", Problems: []Problem{{Line: 2, Msg: "odd"}}, Artifact: run.Artifact.ID}}
	s.SaveCheckpoint("opts", held, b)
	s = must(Open(dir, testOut))
	if _, _, _, ok := s.Checkpoint("other opts"); ok {
		t.Error("the checkpoint of other options was read")
	}
	got, state, chunk, ok := s.Checkpoint("opts")
	if !ok {
		t.Fatalf("no checkpoint; warnings %v", s.Warnings())
	}
	if d := cmp.Diff(held, got); d != "" {
		t.Errorf("held inputs differ:\n%s", d)
	}
	resume := func() *model.Builder {
		t.Helper()
		r, err := model.ResumeBuilderFrom(model.BuildOptions{}, state, chunk, func(run int, origin string) (int, string, bool) { return run, origin, origin == "a.json" })
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := resume()
	// The resumed points read their samples from the floats file they
	// were resumed from, open: a checkpoint saved since (files replaced
	// by a rename) changes nothing.
	other := model.NewBuilder(model.BuildOptions{})
	other.AddAt(0, "b.json", sampleEntry().Runs[0])
	s.SaveCheckpoint("opts", held, other)
	// Points by what they hold (a resumed point's samples are encoded).
	type pointView struct {
		Artifact       int32
		Value          float64
		OK             bool
		Samples, Iters []float64
		Failure        string
		Summary        *model.SampleSummary
	}
	byValue := cmp.Transformer("point", func(p model.Point) pointView {
		return pointView{p.Artifact, p.Value, p.OK(), p.Samples(), p.Iters(), p.Failure(), p.Summary()}
	})
	if d := cmp.Diff(b.Dataset(), r.Dataset(), byValue, cmpopts.EquateNaNs(), cmpopts.EquateEmpty(), cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
		t.Errorf("resumed dataset differs:\n%s", d)
	}
	path := filepath.Join(s.Dir(), checkpointName)
	data := must(os.ReadFile(path))
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	s = must(Open(dir, testOut))
	if _, _, _, ok := s.Checkpoint("opts"); ok || len(s.Warnings()) != 1 {
		t.Errorf("a flipped bit: read %t, warnings %v", ok, s.Warnings())
	}
	// A broken chunk: the head reads, the chunk does not, with a warning.
	fresh := func() *model.Builder {
		b := model.NewBuilder(model.BuildOptions{})
		b.AddAt(0, "a.json", run)
		return b
	}
	s.SaveCheckpoint("opts", held, fresh())
	path = filepath.Join(s.Dir(), chunkName(0))
	data = must(os.ReadFile(path))
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	s = must(Open(dir, testOut))
	_, _, chunk, ok = s.Checkpoint("opts")
	if !ok {
		t.Fatalf("no checkpoint; warnings %v", s.Warnings())
	}
	if _, ok := chunk(0, nil, nil); ok || len(s.Warnings()) != 1 {
		t.Errorf("a flipped bit in a chunk: read %t, warnings %v", ok, s.Warnings())
	}
	// A chunk's columns or floats of another checkpoint are not read.
	for _, part := range []struct {
		name func(int) string
		what string
	}{{chunkName, "a chunk"}, {floatsName, "floats"}} {
		s.SaveCheckpoint("opts", held, fresh())
		old := must(os.ReadFile(filepath.Join(s.Dir(), part.name(0))))
		s.SaveCheckpoint("opts", held, fresh())
		os.WriteFile(filepath.Join(s.Dir(), part.name(0)), old, 0o644)
		s = must(Open(dir, testOut))
		if _, _, chunk, ok = s.Checkpoint("opts"); !ok {
			t.Fatal("no checkpoint")
		}
		if _, ok := chunk(0, nil, nil); ok {
			t.Errorf("%s of another checkpoint was read", part.what)
		}
	}
}

// A file the index lists that someone removed is missing, not broken.
func TestRemovedFile(t *testing.T) {
	dir := t.TempDir()
	s := must(Open(dir, testOut))
	s.Save("a", "", 1)
	os.Remove(filepath.Join(s.Dir(), "a.gob"))
	s = must(Open(dir, testOut))
	var n int
	if s.Load("a", "", &n) || len(s.Warnings()) != 0 {
		t.Errorf("a removed value: read or warnings %v", s.Warnings())
	}
}

// TestOutputsIdentity: a file whose identity Identify recorded is checked
// without its bytes; an edit of the same size with the modification time
// restored still fails the check (the status-change time moved), and a
// file changed within the clock's tick gets no identity.
func TestOutputsIdentity(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "page.html")
	body := []byte("<p>hello</p>")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	o := Outputs{"page.html": {Key: "k", Size: int64(len(body)), Time: fi.ModTime(), Sum: sha256.Sum256(body)}}
	o.Identify(root, time.Now())
	if o["page.html"].Ident != "" {
		t.Errorf("a file written just now has an identity: %q", o["page.html"].Ident)
	}
	later := time.Now().Add(time.Hour)
	o.Identify(root, later)
	if o["page.html"].Ident == "" {
		t.Skip("no status-change time on this system: files are always hashed")
	}
	kept, all := o.Check(root)
	if !all {
		t.Fatal("the unchanged file fails the check")
	}
	// What the check found is the file itself, for a writer to tell its
	// links by (write.FileRecord.Live) and Identify to take its identity
	// from — once it is older than the clock's tick: written just now, it
	// could change again unseen.
	if live := kept["page.html"].Live(); live != nil {
		t.Errorf("a file written just now is Live: %v", live)
	}
	time.Sleep(fileid.FineWindow + 20*time.Millisecond)
	kept, _ = o.Check(root)
	if live := kept["page.html"].Live(); (live == nil) != (fi.ModTime().Nanosecond() == 0) || live != nil && !os.SameFile(live, fi) {
		t.Errorf("the checked file's Live is %v, not the file", live)
	}
	if o["page.html"].Live() != nil {
		t.Error("the manifest itself has a Live file")
	}
	// Identify takes a Live file's identity from it.
	if live := kept["page.html"].Live(); live != nil {
		id := Outputs{"page.html": kept["page.html"].WithLive(live)}
		os.Chmod(path, 0o600) // moves the status-change time: seen only by a lookup
		id.Identify(root, later)
		if id["page.html"].Ident != o["page.html"].Ident {
			t.Errorf("identity from the Live file %q, want %q", id["page.html"].Ident, o["page.html"].Ident)
		}
		os.Chmod(path, 0o644)
	}
	// An edit of the same size, its time restored (touch -r).
	time.Sleep(20 * time.Millisecond) // a clock tick, so the status-change time moves
	if err := os.WriteFile(path, []byte("<p>HELLO</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if kept, all := o.Check(root); all || len(kept) != 0 {
		t.Errorf("the edited file passes the check: %v", kept)
	}
	// A link in its place, to a file with the same bytes: not a regular
	// file, refused whatever its identity.
	other := filepath.Join(root, "other.html")
	os.WriteFile(other, body, 0o644)
	os.Remove(path)
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
	if _, all := o.Check(root); all {
		t.Error("a link passes the check")
	}
}

// identifyLater records the identities of the files s read, as a build an
// hour later would, and saves its index; the test is skipped where the
// system keeps no status-change time (name's identity then stays empty).
func identifyLater(t *testing.T, s *Store, name string) {
	t.Helper()
	s.mu.Lock()
	s.identify(time.Now().Add(time.Hour))
	ident := s.index[name].Ident
	err := s.saveIndex()
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if ident == "" {
		t.Skip("no status-change time on this system: files are always checked")
	}
}

// TestTrustedByIdentity: a named file a build read and kept is read by
// the next build on its identity on disk, without its checksum, once it
// is older than the clock's tick; a write to it (its time restored) moves
// its identity, and the checksum finds the flipped byte.
func TestTrustedByIdentity(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testOut)
	if err := s.Save("value", "o", []int{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(); err != nil {
		t.Fatal(err)
	}
	const name = "value.gob"
	if s.index[name].Ident != "" {
		t.Fatalf("a file written just now has an identity: %q", s.index[name].Ident)
	}
	// The next build reads it, checked by its checksum, and records its
	// identity (a build an hour later).
	s, _ = Open(dir, testOut)
	var got []int
	if !s.Load("value", "o", &got) {
		t.Fatal("not read back")
	}
	identifyLater(t, s, name)
	s, _ = Open(dir, testOut)
	path := filepath.Join(s.dir, name)
	data, _ := os.ReadFile(path)
	if _, id, _, err := readSized(path, int64(len(data)), nil, false); err != nil || id != s.index[name].Ident {
		t.Fatalf("the unchanged file's identity %q, recorded %q (%v)", id, s.index[name].Ident, err)
	}
	got = nil
	if !s.Load("value", "o", &got) || len(got) != 3 || len(s.Warnings()) > 0 {
		t.Fatalf("trusted file read as %v, warnings %v", got, s.Warnings())
	}
	// A byte of the payload flipped, the file's times restored.
	fi, _ := os.Stat(path)
	time.Sleep(20 * time.Millisecond) // a clock tick, so the status-change time moves
	data[len(data)-6] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	s, _ = Open(dir, testOut)
	if s.Load("value", "o", &got) || len(s.Warnings()) != 1 {
		t.Errorf("a flipped byte was read; warnings %v", s.Warnings())
	}
}

// TestSaveGobs: a value saved in parts comes back part by part, under its
// options only; a read that fails removes it with a warning.
func TestSaveGobs(t *testing.T) {
	dir := t.TempDir()
	s := must(Open(dir, testOut))
	parts := [][]int{{1, 2}, {3}, {4, 5, 6}}
	err := s.SaveGobs("parts", "o1", func(enc *gob.Encoder) error {
		for _, p := range parts {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	readAll := func(s *Store, options string, n int) ([][]int, bool) {
		var got [][]int
		ok := s.LoadGobs("parts", options, func(dec *gob.Decoder) error {
			for range n {
				var p []int
				if err := dec.Decode(&p); err != nil {
					return err
				}
				got = append(got, p)
			}
			return nil
		})
		return got, ok
	}
	s = must(Open(dir, testOut))
	if got, ok := readAll(s, "o1", 3); !ok || !cmp.Equal(got, parts) {
		t.Fatalf("parts read back: %v, %t", got, ok)
	}
	if _, ok := readAll(s, "o2", 3); ok {
		t.Error("parts read under other options")
	}
	if _, ok := readAll(s, "o1", 4); ok || len(s.Warnings()) == 0 {
		t.Errorf("a fourth part read from three, or no warning: %v", s.Warnings())
	}
	if _, ok := readAll(s, "o1", 3); ok {
		t.Error("a value that failed to read was kept")
	}
}

// TestCheckpointFloatsTrusted: a chunk's floats part whose identity on
// disk a build recorded is not read (its points read their samples when
// asked for, each segment checked against the sums the columns list);
// changed since, it is read and checked whole.
func TestCheckpointFloatsTrusted(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	b.AddAt(0, "a.json", sampleEntry().Runs[0])
	dir := t.TempDir()
	s := must(Open(dir, testOut))
	s.SaveCheckpoint("opts", nil, b)
	want := b.Dataset()
	// The next build reads the checkpoint, checked, and records its files'
	// identities (as a build an hour later would).
	s = must(Open(dir, testOut))
	_, _, chunk, ok := s.Checkpoint("opts")
	if !ok {
		t.Fatal("no checkpoint")
	}
	if parts, ok := chunk(0, nil, nil); !ok || parts.Floats == nil {
		t.Fatalf("a floats part written just now: read %t, %d bytes", ok, len(parts.Floats))
	}
	identifyLater(t, s, floatsName(0))
	pos := func(run int, origin string) (int, string, bool) { return run, origin, origin == "a.json" }
	s = must(Open(dir, testOut))
	_, state, chunk, ok := s.Checkpoint("opts")
	if !ok {
		t.Fatal("no checkpoint")
	}
	parts, ok := chunk(0, nil, nil)
	if !ok || parts.Floats != nil || parts.At == nil || parts.FloatsLen == 0 {
		t.Fatalf("a trusted floats part: read %t, %d bytes, length %d", ok, len(parts.Floats), parts.FloatsLen)
	}
	r, err := model.ResumeBuilderFrom(model.BuildOptions{}, state, chunk, pos)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Dataset()
	for i, s := range want.Series {
		for k := range s.Points {
			if w, g := s.Points[k].Samples(), got.Series[i].Points[k].Samples(); !slices.Equal(w, g) {
				t.Fatalf("series %d point %d: samples %v, resumed %v", i, k, g, w)
			}
		}
	}
	// A byte flipped, the times restored: read, and broken.
	path := filepath.Join(s.Dir(), floatsName(0))
	data := must(os.ReadFile(path))
	fi := must(os.Stat(path))
	time.Sleep(20 * time.Millisecond)
	data[len(data)-6] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	s = must(Open(dir, testOut))
	if _, _, chunk, ok = s.Checkpoint("opts"); !ok {
		t.Fatal("no checkpoint")
	}
	if _, ok := chunk(0, nil, nil); ok || len(s.Warnings()) != 1 {
		t.Errorf("a changed floats part: read %t, warnings %v", ok, s.Warnings())
	}
}
