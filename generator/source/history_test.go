package source

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func isJSON(name string) bool { return strings.HasSuffix(name, ".json") }

// nightlyRepo builds a results branch the way a nightly job fills it:
// files added each night, results/latest.json overwritten every time, one
// file deleted, one blob committed under a second path and one committed
// again later.
func nightlyRepo(t *testing.T) (r *testRepo, c []string) {
	r = newTestRepo(t)
	r.git("checkout", "-q", "-b", "perf-results")
	c = append(c, r.commit("night 1",
		put("results/linux/a.json", "a1"),
		put("results/latest.json", "L1"),
		put("README.md", "readme"),
		put("other/x.json", "o1")))
	c = append(c, r.commit("night 2",
		put("results/latest.json", "L2"),
		put("results/linux/b.json", "b1"),
		put("results/notes.txt", "not an archive")))
	c = append(c, r.commit("night 3",
		put("results/latest.json", "L3"),
		del("results/linux/a.json"),
		put("results/copy.json", "b1"))) // the blob of linux/b.json again
	c = append(c, r.commit("night 4",
		put("results/latest.json", "L1"), // night 1's blob again
		put("results/linux/c.json", "c1"),
		put("other/x.json", "o2")))
	return r, c
}

func TestHistory(t *testing.T) {
	r, c := nightlyRepo(t)
	g := r.open()
	// file is a version that commit brought in; its Version is the
	// commit's position in the (path-filtered) log, unless at says which
	// later commit wrote it last.
	// tip marks the versions the branch's tip has.
	tip := map[string]bool{"results/latest.json L1": true, "results/linux/b.json b1": true, "results/copy.json b1": true,
		"results/linux/c.json c1": true, "other/x.json o2": true, "results/notes.txt not an archive": true}
	file := func(commit int, path, data string, at ...int) File {
		v := commit + 1
		if len(at) > 0 {
			v = at[0]
		}
		return File{Name: path, Origin: "perf-results@" + c[commit][:7] + ":" + path, Data: []byte(data), Version: v, Tip: tip[path+" "+data]}
	}
	tests := []struct {
		name      string
		path      string
		isArchive func(string) bool
		want      []File
	}{
		{
			name:      "results folder with trailing slash",
			path:      "results/",
			isArchive: isJSON,
			want: []File{
				file(0, "results/latest.json", "L1", 4), // written again by night 4
				file(0, "results/linux/a.json", "a1"),
				file(1, "results/latest.json", "L2"),
				file(1, "results/linux/b.json", "b1"),
				file(2, "results/copy.json", "b1"), // the same blob at another path is another file's version
				file(2, "results/latest.json", "L3"),
				file(3, "results/linux/c.json", "c1"),
			},
		},
		{
			name:      "results folder without slash, dot prefix",
			path:      "./results",
			isArchive: isJSON,
			want: []File{
				file(0, "results/latest.json", "L1", 4), // written again by night 4
				file(0, "results/linux/a.json", "a1"),
				file(1, "results/latest.json", "L2"),
				file(1, "results/linux/b.json", "b1"),
				file(2, "results/copy.json", "b1"),
				file(2, "results/latest.json", "L3"),
				file(3, "results/linux/c.json", "c1"),
			},
		},
		{
			name:      "subfolder",
			path:      "results/linux",
			isArchive: isJSON,
			want: []File{
				file(0, "results/linux/a.json", "a1"),
				file(1, "results/linux/b.json", "b1"),
				file(3, "results/linux/c.json", "c1", 3), // night 3 only deleted here: not in the log
			},
		},
		{
			name:      "other folder",
			path:      "other",
			isArchive: isJSON,
			want: []File{
				file(0, "other/x.json", "o1"),
				file(3, "other/x.json", "o2", 2),
			},
		},
		{
			name:      "whole repository",
			path:      "",
			isArchive: isJSON,
			want: []File{
				file(0, "other/x.json", "o1"),
				file(0, "results/latest.json", "L1", 4), // written again by night 4
				file(0, "results/linux/a.json", "a1"),
				file(1, "results/latest.json", "L2"),
				file(1, "results/linux/b.json", "b1"),
				file(2, "results/copy.json", "b1"),
				file(2, "results/latest.json", "L3"),
				file(3, "other/x.json", "o2"),
				file(3, "results/linux/c.json", "c1"),
			},
		},
		{
			name: "nil isArchive takes every file",
			path: "results",
			want: []File{
				file(0, "results/latest.json", "L1", 4), // written again by night 4
				file(0, "results/linux/a.json", "a1"),
				file(1, "results/latest.json", "L2"),
				file(1, "results/linux/b.json", "b1"),
				file(1, "results/notes.txt", "not an archive"),
				file(2, "results/copy.json", "b1"),
				file(2, "results/latest.json", "L3"),
				file(3, "results/linux/c.json", "c1"),
			},
		},
		{
			name:      "isArchive rejecting everything",
			path:      "results",
			isArchive: func(string) bool { return false },
			want:      nil,
		},
		{
			name:      "folder that never existed",
			path:      "nothing-here",
			isArchive: isJSON,
			want:      nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := g.History(context.Background(), "perf-results", tt.path, tt.isArchive)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(bytesEqual), ignoreBlob); diff != "" {
				t.Errorf("History(%q) mismatch (-want +got):\n%s", tt.path, diff)
			}
			checkBlobs(t, got)
		})
	}
}

// bytesEqual compares file contents, treating nil and empty as equal.
func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

// ignoreBlob leaves a file's blob id and size to checkBlobs.
var ignoreBlob = cmpopts.IgnoreFields(File{}, "Blob", "Size")

// checkBlobs checks that each file's Blob and Size are its content's.
func checkBlobs(t *testing.T, files []File) {
	t.Helper()
	for _, f := range files {
		sum := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(f.Data), f.Data)))
		if f.Blob != hex.EncodeToString(sum[:]) || f.Size != int64(len(f.Data)) {
			t.Errorf("%s: blob %s of %d bytes, want %x of %d", f.Origin, f.Blob, f.Size, sum, len(f.Data))
		}
	}
}

func TestHistoryRefs(t *testing.T) {
	r, c := nightlyRepo(t)
	r.git("checkout", "-q", "-b", "other-branch", c[1])
	r.git("tag", "v1", c[0])
	g := r.open()
	tests := []struct {
		ref  string
		want []string // Origins
	}{
		{"v1", []string{"v1@" + c[0][:7] + ":results/latest.json", "v1@" + c[0][:7] + ":results/linux/a.json"}},
		{c[0], []string{c[0] + "@" + c[0][:7] + ":results/latest.json", c[0] + "@" + c[0][:7] + ":results/linux/a.json"}},
		{"", []string{ // HEAD is other-branch, at night 2
			"HEAD@" + c[0][:7] + ":results/latest.json",
			"HEAD@" + c[0][:7] + ":results/linux/a.json",
			"HEAD@" + c[1][:7] + ":results/latest.json",
			"HEAD@" + c[1][:7] + ":results/linux/b.json",
		}},
	}
	for _, tt := range tests {
		t.Run("ref "+tt.ref, func(t *testing.T) {
			files, err := g.History(context.Background(), tt.ref, "results", isJSON)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Origin)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("origins mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHistoryMerges(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit("base", put("results/base.json", "base"))
	r.git("checkout", "-q", "-b", "side")
	side := r.commit("side run", put("results/side.json", "side"))
	r.git("checkout", "-q", "main")
	main := r.commit("main run", put("results/main.json", "main"))
	// An "evil" merge: its result holds a blob that neither parent has.
	r.clock = r.clock.Add(time.Hour)
	r.git("merge", "-q", "--no-ff", "--no-commit", "side")
	r.apply([]change{put("results/merged.json", "made in the merge")})
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "Merge branch 'side'")
	merge := r.git("rev-parse", "HEAD")
	g := r.open()

	got, err := g.History(context.Background(), "main", "results", isJSON)
	if err != nil {
		t.Fatal(err)
	}
	// The merge (4th in the log) brings each side's file to the other
	// side: that is their last write.
	want := []File{
		{Name: "results/base.json", Origin: "main@" + base[:7] + ":results/base.json", Data: []byte("base"), Version: 1, Tip: true},
		{Name: "results/side.json", Origin: "main@" + side[:7] + ":results/side.json", Data: []byte("side"), Version: 4, Tip: true},
		{Name: "results/main.json", Origin: "main@" + main[:7] + ":results/main.json", Data: []byte("main"), Version: 4, Tip: true},
		{Name: "results/merged.json", Origin: "main@" + merge[:7] + ":results/merged.json", Data: []byte("made in the merge"), Version: 4, Tip: true},
	}
	checkBlobs(t, got)
	if diff := cmp.Diff(want, got, ignoreBlob); diff != "" {
		t.Errorf("History mismatch (-want +got):\n%s", diff)
	}
}

// TestHistoryVersions: of the versions of one path, the one the ref's
// tip holds is the newest: after a correction, after a revert to an older
// blob, and after a merge of two branches that wrote the file differently.
func TestHistoryVersions(t *testing.T) {
	r := newTestRepo(t)
	r.commit("first run", put("results/a.json", "a: 100"))
	r.commit("corrected", put("results/a.json", "a: 90"))
	r.commit("next run", put("results/b.json", "b"))
	r.commit("revert the correction", put("results/a.json", "a: 100"))
	r.git("checkout", "-q", "-b", "side")
	r.commit("side run", put("results/c.json", "c: side"))
	r.git("checkout", "-q", "main")
	r.commit("main run", put("results/c.json", "c: main"))
	r.clock = r.clock.Add(time.Hour)
	r.git("merge", "-q", "-X", "theirs", "--no-edit", "side")
	g := r.open()
	files, err := g.History(context.Background(), "main", "results", isJSON)
	if err != nil {
		t.Fatal(err)
	}
	newest := map[string]string{}
	seq := map[string]int{}
	for _, f := range files {
		if f.Version > seq[f.Name] {
			seq[f.Name], newest[f.Name] = f.Version, string(f.Data)
		} else if f.Version == seq[f.Name] {
			t.Errorf("%s has two versions numbered %d", f.Name, f.Version)
		}
	}
	want := map[string]string{"results/a.json": "a: 100", "results/b.json": "b", "results/c.json": "c: side"}
	if diff := cmp.Diff(want, newest); diff != "" {
		t.Errorf("newest versions (-want +got):\n%s", diff)
	}
}

func TestHistorySkipsLinksAndSubmodules(t *testing.T) {
	r := newTestRepo(t)
	if err := os.MkdirAll(filepath.Join(r.dir, "results"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(r.dir, "results", "link.json")); err != nil {
		t.Fatal(err)
	}
	// A gitlink (submodule entry) without a submodule checkout.
	r.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",results/sub.json")
	c := r.commit("links", put("results/real.json", "real"))
	g := r.open()
	got, err := g.History(context.Background(), "main", "results", isJSON)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{Name: "results/real.json", Origin: "main@" + c[:7] + ":results/real.json", Data: []byte("real"), Version: 1, Tip: true}}
	if diff := cmp.Diff(want, got, ignoreBlob); diff != "" {
		t.Errorf("History mismatch (-want +got):\n%s", diff)
	}
}

func TestHistoryBareRepository(t *testing.T) {
	r, c := nightlyRepo(t)
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.runIn("", "clone", "-q", "--bare", r.dir, bare)
	g := openGit(t, bare)
	got, err := g.History(context.Background(), "perf-results", "results/linux", isJSON)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Name: "results/linux/a.json", Origin: "perf-results@" + c[0][:7] + ":results/linux/a.json", Data: []byte("a1"), Version: 1},
		{Name: "results/linux/b.json", Origin: "perf-results@" + c[1][:7] + ":results/linux/b.json", Data: []byte("b1"), Version: 2, Tip: true},
		{Name: "results/linux/c.json", Origin: "perf-results@" + c[3][:7] + ":results/linux/c.json", Data: []byte("c1"), Version: 3, Tip: true},
	}
	if diff := cmp.Diff(want, got, ignoreBlob); diff != "" {
		t.Errorf("History mismatch (-want +got):\n%s", diff)
	}
}

func TestHistoryFromSubfolder(t *testing.T) {
	r, _ := nightlyRepo(t)
	// Opened from a folder inside the work tree, the path stays relative
	// to the repository root.
	g := openGit(t, filepath.Join(r.dir, "other"))
	got, err := g.History(context.Background(), "perf-results", "results/linux", isJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Errorf("History from a subfolder returned %d files, want 3", len(got))
	}
}

func TestHistoryBadPath(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	for _, path := range []string{"/results", "../results", "results/../.."} {
		if _, err := g.History(context.Background(), "perf-results", path, nil); err == nil {
			t.Errorf("History(%q) succeeded, want an error", path)
		}
	}
}

func TestParseRawLog(t *testing.T) {
	const (
		c1   = "1111111111111111111111111111111111111111"
		c2   = "2222222222222222222222222222222222222222"
		zero = "0000000000000000000000000000000000000000"
		b1   = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		b2   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	)
	tests := []struct {
		name    string
		in      string
		want    []rawEntry
		wantErr string
	}{
		{name: "empty", in: ""},
		{
			name: "add, sorted by path, odd names kept verbatim",
			in: c1 + "\x00\n" +
				":000000 100644 " + zero + " " + b2 + " A\x00z/b.json\x00" +
				":000000 100755 " + zero + " " + b1 + " A\x00\na \"x\".json\x00",
			want: []rawEntry{{c1, "\na \"x\".json", b1, 1}, {c1, "z/b.json", b2, 1}},
		},
		{
			name: "deletions, symlinks and submodules skipped",
			in: c1 + "\x00\n" +
				":100644 000000 " + b1 + " " + zero + " D\x00gone.json\x00" +
				":000000 120000 " + zero + " " + b1 + " A\x00link.json\x00" +
				":000000 160000 " + zero + " " + b2 + " A\x00sub\x00",
		},
		{
			name: "merge header repeated per parent",
			in: c1 + "\x00\n:000000 100644 " + zero + " " + b1 + " A\x00b.json\x00" +
				c1 + "\x00\n:000000 100644 " + zero + " " + b2 + " A\x00a.json\x00" +
				c2 + "\x00\n:100644 100644 " + b1 + " " + b2 + " M\x00c.json\x00",
			want: []rawEntry{{c1, "a.json", b2, 1}, {c1, "b.json", b1, 1}, {c2, "c.json", b2, 2}},
		},
		{name: "entry before commit", in: ":000000 100644 " + zero + " " + b1 + " A\x00a\x00", wantErr: "before any commit"},
		{name: "missing path", in: c1 + "\x00\n:000000 100644 " + zero + " " + b1 + " A\x00", wantErr: "has no path"},
		{name: "malformed entry", in: c1 + "\x00\n:000000 100644 xyz A\x00a\x00", wantErr: "malformed entry"},
		{name: "garbage", in: "hello\x00", wantErr: "unexpected"},
		{name: "truncated", in: c1 + "\x00\n:0000", wantErr: "ends in the middle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []rawEntry
			err := parseRawLog(bufioReader(tt.in), func(e rawEntry) { got = append(got, e) })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(rawEntry{})); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
