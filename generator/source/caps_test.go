package source

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// Files over the size limit are reported (Dir) or come back unread with
// Err set (git), naming the file and the limit, and the others are read.
func TestSizeLimit(t *testing.T) {
	big := strings.Repeat("x", 5000)
	t.Run("Dir", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{"a.json": "small", "b.json": big, "c.json": strings.Repeat("y", 4096)})
		files, problems, err := Dir(root, isArchiveName, 4096)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, f.Name)
		}
		if diff := cmp.Diff([]string{"a.json", "c.json"}, names); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
		want := filepath.Join(root, "b.json") + ": 4.9 KiB, over the limit of 4 KiB per input file (max_input_bytes); file skipped"
		if len(problems) != 1 || problems[0].Error() != want {
			t.Errorf("problems = %v, want [%s]", problems, want)
		}
	})
	t.Run("History", func(t *testing.T) {
		r := newTestRepo(t)
		r.commit("results", put("r/a.json", "small"), put("r/b.json", big), put("r/c.json", "also small"))
		g := r.open()
		g.MaxFileBytes = 4096
		files, err := g.History(context.Background(), "", "r", isJSON)
		if err != nil {
			t.Fatal(err)
		}
		checkGitFiles(t, files, "r/b.json")
	})
	t.Run("Notes", func(t *testing.T) {
		r := newTestRepo(t)
		c1 := r.commit("one")
		c2 := r.commit("two")
		r.git("notes", "--ref=perf", "add", "-m", jsonNote, c1)
		r.git("notes", "--ref=perf", "add", "-m", big, c2)
		g := r.open()
		g.MaxFileBytes = 4096
		files, err := g.Notes(context.Background(), "perf")
		if err != nil {
			t.Fatal(err)
		}
		checkGitFiles(t, files, c2+".yaml")
		// The cat-file process is still in step: the next read works.
		g.MaxFileBytes = 0
		files, err = g.Notes(context.Background(), "perf")
		if err != nil || len(files) != 2 || files[0].Err != nil || files[1].Err != nil {
			t.Fatalf("Notes without the small limit = %+v, %v", files, err)
		}
	})
}

// checkGitFiles checks that only the file named tooLarge came back
// unread, with a TooLargeError that knows its size.
func checkGitFiles(t *testing.T, files []File, tooLarge string) {
	t.Helper()
	if len(files) < 2 {
		t.Fatalf("%d files, want the small ones too", len(files))
	}
	for _, f := range files {
		var tl *capped.TooLargeError
		switch {
		case f.Name != tooLarge && (f.Err != nil || len(f.Data) == 0):
			t.Errorf("%s: Err %v, %d bytes; want it read", f.Name, f.Err, len(f.Data))
		case f.Name == tooLarge && (!errors.As(f.Err, &tl) || f.Data != nil || tl.Limit != 4096 || tl.Size < 5000):
			t.Errorf("%s: Err %v, %d bytes; want a TooLargeError and no data", f.Name, f.Err, len(f.Data))
		}
	}
}
