package generator

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/fileid"
)

// scaleSite writes the S data set's archives into dir/results, except
// those whose name contains skip, and a config that builds them.
func scaleSite(t testing.TB, dir string, files map[string][]byte, skip string) {
	t.Helper()
	for name, data := range files {
		if skip != "" && strings.Contains(name, skip) {
			continue
		}
		p := filepath.Join(dir, "results", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := "[site]\ntitle = \"S\"\n\n[[sources]]\ndir = \"results\"\n"
	if err := os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scaleFiles is the S data set's archives by name, and their names in
// order; it skips a short test (the tests that use it build S several
// times).
func scaleFiles(t *testing.T) (map[string][]byte, []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the S data set several times")
	}
	gen, err := DemoFiles("S")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var names []string
	for _, f := range gen {
		files[f.Name] = f.Data
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return files, names
}

func buildDir(t testing.TB, dir string) *Report {
	t.Helper()
	return buildConfig(t, filepath.Join(dir, "perfpages.toml"), BuildOptions{})
}

// siteOf is the site of the configuration file at path.
func siteOf(t testing.TB, path string) *Site {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// buildConfig builds the site of the configuration file at path.
func buildConfig(t testing.TB, path string, opts BuildOptions) *Report {
	t.Helper()
	rep, err := siteOf(t, path).Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("build: %v (warnings %v)", err, rep.Warnings)
	}
	return rep
}

// buildIn builds root/perfpages.toml into root/out with opts and returns
// the report, the site's files and what -timings printed.
func buildIn(t *testing.T, root, out string, opts BuildOptions) (*Report, map[string]fileInfo, string) {
	t.Helper()
	var timings strings.Builder
	opts.Out, opts.Timings = filepath.Join(root, out), &timings
	rep := buildConfig(t, filepath.Join(root, "perfpages.toml"), opts)
	return rep, readTree(t, opts.Out), timings.String()
}

// gitReads is the -timings line of the git blobs a build read ("12 blobs
// read (…)").
func gitReads(timings string) string {
	for line := range strings.Lines(timings) {
		if rest, ok := strings.CutPrefix(line, "perfpages: git"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return "no git line in:\n" + timings
}

// loadConfig loads the dataset of the configuration file at path, with
// the build's warnings.
func loadConfig(t *testing.T, path string) (*model.Dataset, []error) {
	t.Helper()
	d, warnings, err := siteOf(t, path).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d, warnings
}

// sameAsCold reports the files of got that differ from want's, a cold
// build's.
func sameAsCold(t *testing.T, got, want map[string]fileInfo) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d files, a cold build %d", len(got), len(want))
	}
	for p, w := range want {
		if p != ".perfpages-site" && !bytes.Equal(got[p].data, w.data) {
			t.Errorf("%s: differs from a cold build", p)
		}
	}
}

type fileInfo struct {
	data []byte
	mod  time.Time
}

func readTree(t *testing.T, root string) map[string]fileInfo {
	t.Helper()
	out := map[string]fileInfo{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = fileInfo{data, fi.ModTime()}
		return nil
	})
	return out
}

// An incremental build (the previous build's store and site, one commit
// added) writes the same bytes as a cold build of the same input, writes
// only the files that changed, and a build with nothing new writes none.
func TestIncrementalEqualsCold(t *testing.T) {
	files, names := scaleFiles(t)
	var stamps []string
	for _, name := range names {
		stamps = append(stamps, filepath.Base(name)[:17]) // the date of the commit
	}
	slices.Sort(stamps)
	newest := stamps[len(stamps)-1]

	cold := t.TempDir()
	scaleSite(t, cold, files, "")
	buildDir(t, cold)
	want := readTree(t, filepath.Join(cold, "public"))

	inc := t.TempDir()
	scaleSite(t, inc, files, newest)
	first := buildDir(t, inc)
	if first.Kept != 0 {
		t.Errorf("the first build kept %d files", first.Kept)
	}
	before := readTree(t, filepath.Join(inc, "public"))
	time.Sleep(20 * time.Millisecond) // let modification times tell writes apart
	scaleSite(t, inc, files, "")
	time.Sleep(2 * fileid.FineWindow) // inputs older than a tick: the build's fingerprint is saved
	rep := buildDir(t, inc)
	got := readTree(t, filepath.Join(inc, "public"))

	if rep.Kept == 0 || rep.Comparisons >= 99 {
		t.Errorf("the incremental build computed %d comparisons and kept %d files", rep.Comparisons, rep.Kept)
	}
	// The new commit's archives sort among the old ones (one folder per
	// machine): the builder resumed from the checkpoint all the same.
	if first.Resumed || !rep.Resumed {
		t.Errorf("resumed from the checkpoint: first build %t, incremental build %t", first.Resumed, rep.Resumed)
	}
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: missing from the incremental build", p)
		case !bytes.Equal(g.data, w.data) && p != ".perfpages-site":
			t.Errorf("%s: differs from the cold build", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: only in the incremental build", p)
		}
	}
	// The steps the incremental build resumed from the store's states are
	// a cold build's: the regressions page, its feed and the bench pages
	// (compared above) show steps, and the same ones.
	for _, p := range []string{"regressions/index.html", "regressions/feed.xml"} {
		if !bytes.Equal(got[p].data, want[p].data) {
			t.Errorf("%s: differs from the cold build", p)
		}
	}
	if !bytes.Contains(want["regressions/index.html"].data, []byte(`<div class="step-group"`)) || !bytes.Contains(want["regressions/feed.xml"].data, []byte("<entry>")) {
		t.Error("the S data set shows no steps on /regressions/ or in its feed")
	}
	written := 0
	for p, g := range got {
		if b, ok := before[p]; ok && bytes.Equal(b.data, g.data) && !b.mod.Equal(g.mod) {
			t.Errorf("%s: same bytes, but rewritten (its time changed)", p)
		}
		if !before[p].mod.Equal(g.mod) {
			written++
		}
	}
	t.Logf("incremental: %d comparisons computed, %d files kept, %d of %d files written", rep.Comparisons, rep.Kept, written, len(got))

	// Nothing new: nothing written, the build says so.
	again := buildDir(t, inc)
	if !again.UpToDate {
		t.Error("a build with the same input was not up to date")
	}
	for p, g := range readTree(t, filepath.Join(inc, "public")) {
		if !g.mod.Equal(got[p].mod) {
			t.Errorf("%s: written by a build with nothing to do", p)
		}
	}
}

// When a file the checkpoint holds changed, the build does not resume
// from it: the result is a cold build's, and the next build resumes from
// the checkpoint it wrote.
func TestCheckpointFallback(t *testing.T) {
	files, all := scaleFiles(t)
	var names []string
	for _, name := range all {
		if strings.Contains(name, ".json") {
			names = append(names, name)
		}
	}
	dir := t.TempDir()
	scaleSite(t, dir, files, "")
	buildDir(t, dir)

	// An old archive corrected: another result for a commit the
	// checkpoint holds.
	name := names[len(names)/2]
	raw, err := gunzipIf(files[name])
	if err != nil {
		t.Fatal(err)
	}
	fixed := bytes.Replace(raw, []byte(`"samples": [`), []byte(`"samples": [1, `), 1)
	if bytes.Equal(fixed, raw) {
		t.Fatalf("%s has no samples to change", name)
	}
	files[name] = fixed
	os.Remove(filepath.Join(dir, "results", filepath.FromSlash(name)))
	name = strings.TrimSuffix(name, ".gz")
	delete(files, name+".gz")
	files[name] = fixed
	scaleSite(t, dir, files, "")
	rep := buildDir(t, dir)
	if rep.Resumed {
		t.Error("resumed from a checkpoint holding a file that changed")
	}
	cold := t.TempDir()
	scaleSite(t, cold, files, "")
	buildDir(t, cold)
	same := func() {
		t.Helper()
		sameAsCold(t, readTree(t, filepath.Join(dir, "public")), readTree(t, filepath.Join(cold, "public")))
	}
	same()
	// A new file now, of a new machine whose folder sorts first: resumed
	// from the checkpoint the last build wrote, the same as cold.
	files["results/extra/2099-01-01T000000-ffffffffffff.json"] = []byte(`{"schema": "perfpages.run.v1",
"artifact": {"id": "ffffffffffffffffffffffffffffffffffffffff", "kind": "commit", "date": "2099-01-01T00:00:00Z", "branch": "feature"},
"machine": {"name": "extra"}, "results": [{"benchmark": "x", "metric": "wall-time", "unit": "ns", "samples": [1, 2, 3]}]}`)
	scaleSite(t, dir, files, "")
	if rep := buildDir(t, dir); !rep.Resumed {
		t.Error("did not resume from the checkpoint the fallback build wrote")
	}
	os.RemoveAll(cold)
	scaleSite(t, cold, files, "")
	buildDir(t, cold)
	same()
}

// A corrupt store is a warning and is rebuilt; the site is the same.
func TestCorruptStoreRebuilt(t *testing.T) {
	b := siteTest(t, basicSite)
	want := b.Files()
	// The store keeps a .run entry only for a file its checkpoint does not
	// hold: one added since the checkpoint was written.
	addedAfterCheckpoint(t, b, "results/try.json")
	storeDir := testStoreDir(t, b.dir, b.out)
	var runs []string
	filepath.WalkDir(storeDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".run") {
			runs = append(runs, p)
		}
		return nil
	})
	if len(runs) == 0 {
		t.Fatal("the build left no store entries")
	}
	for _, p := range runs {
		os.WriteFile(p, []byte("perfpages run v1\nnot an entry at all"), 0o644)
	}
	os.WriteFile(filepath.Join(storeDir, "briefs.gob"), []byte("garbage"), 0o644)
	// The checkpoint holds what the entries hold: broken too, so that the
	// entries are read.
	os.WriteFile(filepath.Join(storeDir, "builder.ckpt"), []byte("perfpages checkpoint v1\ngarbage"), 0o644)
	// A changed input, so that the build does not stop at "up to date".
	os.WriteFile(filepath.Join(b.out, "note.txt"), []byte("x"), 0o644)
	b.build(false)
	if b.err != nil {
		t.Fatal(b.err)
	}
	var msgs []string
	for _, w := range b.report.Warnings {
		msgs = append(msgs, w.Error())
	}
	if joined := strings.Join(msgs, "\n"); !strings.Contains(joined, ".run: corrupt") || !strings.Contains(joined, "briefs.gob") || !strings.Contains(joined, "builder.ckpt: ") {
		t.Errorf("no warning about the corrupt store:\n%s", joined)
	}
	got := b.Files()
	for p, w := range want {
		if p != ".perfpages-site" && !bytes.Equal(got[p], w) {
			t.Errorf("%s differs after rebuilding the store", p)
		}
	}
}

// gunzipIf returns data uncompressed when it is gzip, else as it is.
func gunzipIf(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// TestChunkLengthChanges: a benchmark's data files are as long as its
// series count allows (sitemodel.ChunkLen); when a new commit gives it more
// series, its files are written under the new length and the old ones go,
// and the incremental site is the cold one's.
func TestChunkLengthChanges(t *testing.T) {
	root := t.TempDir()
	results := filepath.Join(root, "results")
	os.MkdirAll(results, 0o755)
	archive := func(i, params int) {
		var rs []string
		rs = append(rs, `{"benchmark": "other", "metric": "wall-time", "unit": "ns", "samples": [`+strconv.Itoa(500+i%3)+`]}`)
		for p := range params {
			rs = append(rs, `{"benchmark": "parse", "params": {"n": "`+strconv.Itoa(p)+`"}, "metric": "wall-time", "unit": "ns", "samples": [`+strconv.Itoa(1000+p+i%2)+`]}`)
		}
		doc := `{"schema": "perfpages.run.v1", "artifact": {"id": "` + fmt.Sprintf("%040x", i+1) + `", "kind": "commit", "date": "2026-03-` + fmt.Sprintf("%02d", 1+i/4) + `T` + fmt.Sprintf("%02d", 1+i%4) + `:00:00Z"},
 "machine": {"name": "ci"}, "results": [` + strings.Join(rs, ",\n") + `]}`
		os.WriteFile(filepath.Join(results, fmt.Sprintf("2026-03-%02dT%02d-%03d.json", 1+i/4, 1+i%4, i)), []byte(doc), 0o644)
	}
	for i := range 40 {
		archive(i, 1) // parse: one series, 1,024 positions a file
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte("[site]\ntitle = \"t\"\n\n[[sources]]\ndir = \"results\"\n"), 0o644)
	build := func(out string, cold bool) map[string]fileInfo {
		t.Helper()
		_, tree, _ := buildIn(t, root, out, BuildOptions{Cold: cold})
		return tree
	}
	// parse has one series: its values are in its pack's files, of 256
	// positions (the pack holds it alone, or with "other").
	first := build("public", false)
	pack := route.PackData(shard.Pack("parse"), 0)
	if _, ok := first[pack]; !ok {
		t.Fatalf("no %s in the first build: %v", pack, keysWith(first, "data/"))
	}
	if _, ok := first["data/series/parse/0.json.gz"]; ok {
		t.Errorf("parse, of one series, has data files of its own")
	}
	time.Sleep(2 * fileid.FineWindow)
	archive(40, 40) // parse now has 40 series: files of its own, 32 positions each
	time.Sleep(2 * fileid.FineWindow)
	got := build("public", false)
	want := build("cold", true)
	sameAsCold(t, got, want)
	if _, ok := got["data/series/parse/1.json.gz"]; !ok {
		t.Errorf("parse's files are not its own of 32 positions after it gained series: %v", keysWith(got, "data/series/parse/"))
	}
}

func keysWith(m map[string]fileInfo, prefix string) []string {
	var out []string
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestRunEntriesBeyondCheckpoint: the store keeps a file's decoded runs
// (.run entry) only while its checkpoint does not hold the file.
func TestRunEntriesBeyondCheckpoint(t *testing.T) {
	b := siteTest(t, basicSite)
	storeDir := testStoreDir(t, b.dir, b.out)
	entries := func() int {
		n := 0
		filepath.WalkDir(storeDir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".run") {
				n++
			}
			return nil
		})
		return n
	}
	if n := entries(); n != 0 {
		t.Errorf("a cold build kept %d .run entries beside the checkpoint holding their files", n)
	}
	addedAfterCheckpoint(t, b, "results/try.json")
	if !b.report.Resumed {
		t.Fatal("the build with a new file did not resume from the checkpoint")
	}
	if n := entries(); n != 1 {
		t.Errorf("%d .run entries after one file added to the checkpoint's, want 1", n)
	}
}

// addedAfterCheckpoint builds b's site without the file name (a path below
// its folder), which writes a checkpoint without it, then with it again:
// the file is then one the checkpoint does not hold.
func addedAfterCheckpoint(t *testing.T, b *builder, name string) {
	t.Helper()
	path := filepath.Join(b.dir, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if b.build(false); b.err != nil {
		t.Fatal(b.err)
	}
	os.WriteFile(path, data, 0o644)
	if b.build(false); b.err != nil {
		t.Fatal(b.err)
	}
}

// TestOutputInsideSource: a config kept beside its data (dir = ".") with
// the site built into that folder. The site, its spare and a build's
// temporary folder are perfpages' own, not results: reading them warned
// about each of their data files and made every build find new inputs
// (the site it had just written), never up to date.
func TestOutputInsideSource(t *testing.T) {
	dir := t.TempDir()
	entry := func(i int) string {
		return fmt.Sprintf(`{"commit": {"id": "%040x", "message": "c%d", "timestamp": "2026-10-%02dT10:00:00Z", "url": "https://github.com/o/r/commit/%040x"},
			"date": 1, "tool": "customSmallerIsBetter", "benches": [{"name": "parse", "value": %d, "unit": "ms"}]}`, i+1, i, i+1, i+1, 100+i%3)
	}
	var entries []string
	for i := range 12 {
		entries = append(entries, entry(i))
	}
	data := `window.BENCHMARK_DATA = {"lastUpdate": 1, "repoUrl": "https://github.com/o/r", "entries": {"Bench": [` + strings.Join(entries, ",") + `]}}`
	if err := os.WriteFile(filepath.Join(dir, "data.js"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "[site]\ntitle = \"t\"\noutput = \"site\"\n[[sources]]\ndir = \".\"\nformat = \"gab\"\n"
	if err := os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{false, true, false, true} {
		if i == 2 {
			// A new version of the data: the build after it starts from
			// the spare site, which it renames while the source is read.
			if err := os.WriteFile(filepath.Join(dir, "data.js"), []byte(strings.Replace(data, `"value": 100`, `"value": 160`, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if !want {
			time.Sleep(2 * fileid.FineWindow) // inputs older than a tick: the build's fingerprint is saved
		}
		rep := buildDir(t, dir)
		if len(rep.Warnings) > 0 || rep.UpToDate != want || rep.Series != 1 {
			t.Errorf("build %d: up to date %t (want %t), %d series, warnings %v", i+1, rep.UpToDate, want, rep.Series, rep.Warnings)
		}
	}
}
