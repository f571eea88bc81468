package generator

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/source"
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
