package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
)

// TestFileSums: an archive whose identity on disk is the one recorded is
// keyed without being read; one rewritten with its modification time
// restored (same size, same inode) is read again, its status-change time
// tells; one changed within the racy window is read and not recorded.
func TestFileSums(t *testing.T) {
	if _, _, ok := fileid.Identity(must(os.Stat(t.TempDir()))); !ok {
		t.Skip("no status-change time on this system: every file is read")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	if err := os.WriteFile(path, []byte(`{"x": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(path, mtime, mtime)
	time.Sleep(2 * fileid.FineWindow) // out of the racy window
	// list lists the folder and counts the reads of its one file.
	reads := 0
	list := func() input {
		t.Helper()
		files, problems, err := source.List(dir, nil, 0)
		if err != nil || len(problems) > 0 || len(files) != 1 {
			t.Fatalf("list: %v %v %d files", err, problems, len(files))
		}
		in := archiveInputs(files)[0]
		load := in.Load
		in.Load = func() ([]byte, error) { reads++; return load() }
		return in
	}
	next := func(prev *fileSums) *fileSums {
		fs := &fileSums{listed: time.Now(), old: map[string]fileSum{}}
		for _, s := range prev.now {
			fs.old[s.Origin] = s
		}
		return fs
	}

	fs1 := &fileSums{listed: time.Now(), old: map[string]fileSum{}}
	in := list()
	if err := fs1.sum(&in); err != nil || reads != 1 || len(fs1.now) != 1 {
		t.Fatalf("first: err %v, %d reads, %d recorded", err, reads, len(fs1.now))
	}
	first := in.sum

	fs2 := next(fs1)
	in = list()
	if err := fs2.sum(&in); err != nil || reads != 1 || in.sum != first || in.Data != nil {
		t.Fatalf("unchanged: err %v, %d reads, same sum %t", err, reads, in.sum == first)
	}

	// One digit changed, the time restored (cp -p, rsync -a, touch -r).
	if err := os.WriteFile(path, []byte(`{"x": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, mtime, mtime)
	time.Sleep(2 * fileid.FineWindow)
	fs3 := next(fs2)
	in = list()
	if err := fs3.sum(&in); err != nil || reads != 2 || in.sum == first {
		t.Fatalf("rewritten with its time restored: err %v, %d reads, same sum %t", err, reads, in.sum == first)
	}

	// Changed just now: read, and its hash not recorded.
	if err := os.WriteFile(path, []byte(`{"x": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fs4 := next(fs3)
	in = list()
	if err := fs4.sum(&in); err != nil || reads != 3 || len(fs4.now) != 0 {
		t.Fatalf("racy: err %v, %d reads, %d recorded", err, reads, len(fs4.now))
	}
}

// TestColdBuildReadsEachFileOnce: with nothing to resume, addArchives
// reads, hashes and decodes each file in one go — once, its bytes
// dropped with the decode rather than held by the inputs — and still records every file's hash
// for the next build, which then keys the unchanged files unread.
func TestColdBuildReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	for i := range n {
		archive := fmt.Sprintf(`{"schema": "perfpages.run.v1",
 "artifact": {"id": "%040x", "kind": "commit", "date": "2026-09-07T10:%02d:00Z", "branch": "main"},
 "machine": {"name": "m"},
 "results": [{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [%d]}]}`, i+1, i, 100+i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%02d.json", i)), []byte(archive), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * fileid.FineWindow) // out of the racy window: the hashes are recorded
	st, err := store.Open(filepath.Join(t.TempDir(), "cache"), filepath.Join(t.TempDir(), "site"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	reads := map[string]int{}
	list := func() []input {
		t.Helper()
		files, problems, err := source.List(dir, nil, 0)
		if err != nil || len(problems) > 0 || len(files) != n {
			t.Fatalf("list: %v %v %d files", err, problems, len(files))
		}
		ins := archiveInputs(files)
		for i := range ins {
			load, origin := ins[i].Load, ins[i].Origin
			ins[i].Load = func() ([]byte, error) {
				mu.Lock()
				reads[origin]++
				mu.Unlock()
				return load()
			}
		}
		return ins
	}
	sums := newFileSums(st)
	files := list()
	a := addArchives(files, model.BuildOptions{}, archive.Options{}, st, sums, func(o string) string { return o })
	if a.resumed || a.decoded != n {
		t.Fatalf("cold: resumed %t, %d of %d decoded", a.resumed, a.decoded, n)
	}
	for name, k := range reads {
		if k != 1 {
			t.Errorf("cold: %s read %d times", name, k)
		}
	}
	if len(reads) != n || len(sums.now) != n {
		t.Fatalf("cold: %d files read, %d hashes recorded, want %d", len(reads), len(sums.now), n)
	}
	if err := sums.save(st); err != nil {
		t.Fatal(err)
	}
	// The bytes went with the decode: the inputs hold none (a keying
	// pass ahead of the decode left every file's bytes in them).
	for _, f := range files {
		if f.Data != nil {
			t.Fatalf("cold: %s still holds its %d bytes", f.Origin, len(f.Data))
		}
	}

	// The next build: every file keyed from its recorded hash, none read.
	clear(reads)
	b := addArchives(list(), model.BuildOptions{}, archive.Options{}, st, newFileSums(st), func(o string) string { return o })
	if !b.resumed || len(reads) != 0 {
		t.Fatalf("next: resumed %t, %d files read", b.resumed, len(reads))
	}
}
