package generator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/outdir"
)

// What a build keeps between builds (its store, the spare site, the
// fingerprint) must never make a site that differs from a build from
// nothing. TestKeptStateRandomized applies random sequences of the changes
// that broke that once — an archive edited with its modification time
// restored, links and moves in the source, a source folder that is a link
// switched to another folder, content edits, option changes, a flipped
// byte in the store, a hand edit of the live site, builds killed with
// SIGKILL — and after each one builds incrementally and compares the site
// byte for byte with a build from nothing of the same inputs (no store,
// no spare, another folder). A build that says "up to date" is compared
// too. PERFPAGES_KEPT_SEED replays a sequence; PERFPAGES_KEPT_STEPS makes
// it longer.

// keptChild names the config a child build of the kill step builds.
const keptChild = "PERFPAGES_TEST_KEPT_CONFIG"

// TestKeptStateChild is the child process of the kill step: it builds the
// config keptChild names, and does nothing in a normal test run.
func TestKeptStateChild(t *testing.T) {
	path := os.Getenv(keptChild)
	if path == "" {
		t.Skip("only run as the child of TestKeptStateRandomized")
	}
	buildConfig(t, path, BuildOptions{})
}

func TestKeptStateRandomized(t *testing.T) {
	files, names := scaleFiles(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PERFPAGES_KEPT_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	steps := 24
	if s := os.Getenv("PERFPAGES_KEPT_STEPS"); s != "" {
		steps, _ = strconv.Atoi(s)
	}
	t.Logf("PERFPAGES_KEPT_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	// The pool: the first 20 commits of S (two machines, one file each).
	byCommit := map[string][]string{}
	var commits []string
	for _, n := range names {
		c := filepath.Base(n)[:17]
		if byCommit[c] == nil {
			commits = append(commits, c)
		}
		byCommit[c] = append(byCommit[c], n)
	}
	slices.Sort(commits)
	commits = commits[:20]

	proj := t.TempDir()
	k := &keptProject{t: t, dir: proj, rng: rng, files: files, byCommit: byCommit}
	for _, d := range []string{"data-a", "data-b", "outside", "content"} {
		os.MkdirAll(filepath.Join(proj, d), 0o755)
	}
	// The source folder is a link to data-a (a real setup: results
	// checked out elsewhere); data-b is another folder it may point to.
	os.Symlink("data-a", filepath.Join(proj, "results"))
	for _, c := range commits[:10] {
		k.add(c, "data-a")
	}
	for _, c := range commits[:12] {
		k.add(c, "data-b")
	}
	k.pending = commits[10:]
	k.write("content/about.md", "---\ntitle: About\n---\nAbout these benchmarks.\n")
	k.config(5)

	ops := []struct {
		name string
		do   func() string
	}{
		{"add a commit", k.addPending},
		{"remove a commit", k.removeCommit},
		{"edit an archive, time restored", k.editArchive},
		{"move an archive", k.moveArchive},
		{"link an archive", k.linkArchive},
		{"switch the source link", k.switchRoot},
		{"edit content, time restored", k.editContent},
		{"change an option", k.changeOption},
		{"flip a byte in the store", k.corruptStore},
		{"edit the live site, time restored", k.tamperSite},
		{"kill a build", k.killBuild},
		{"nothing", func() string { return "" }},
	}
	k.build() // the first build
	for i := range steps {
		op := ops[rng.IntN(len(ops))]
		what := op.do()
		rep := k.build()
		t.Logf("step %d: %s %s → up to date %t, resumed %t, kept %d", i, op.name, what, rep.UpToDate, rep.Resumed, rep.Kept)
		if d := k.diffCold(); d != "" {
			t.Fatalf("step %d (%s %s): the site differs from a cold build (PERFPAGES_KEPT_SEED=%d):\n%s", i, op.name, what, seed, d)
		}
	}
}

// keptProject is the project TestKeptStateRandomized changes.
type keptProject struct {
	t        *testing.T
	dir      string
	rng      *rand.Rand
	files    map[string][]byte   // S's archives by name
	byCommit map[string][]string // names by commit stamp
	pending  []string            // commits not yet added to data-a
	zthresh  float64
	title    int
}

func (k *keptProject) path(rel string) string { return filepath.Join(k.dir, filepath.FromSlash(rel)) }

func (k *keptProject) write(rel, data string) {
	k.t.Helper()
	p := k.path(rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		k.t.Fatal(err)
	}
}

func (k *keptProject) config(z float64) {
	k.zthresh = z
	k.write("perfpages.toml", fmt.Sprintf("[site]\ntitle = \"Kept %d\"\n\n[analysis]\nz_threshold = %g\nnresamples = 1000\n\n[[sources]]\ndir = \"results\"\n", k.title, z))
}

// add writes commit c's archives (plain JSON) into the folder dir.
func (k *keptProject) add(c, dir string) {
	for _, n := range k.byCommit[c] {
		data, err := gunzipIf(k.files[n])
		if err != nil {
			k.t.Fatal(err)
		}
		k.write(dir+"/"+strings.TrimSuffix(n, ".gz"), string(data))
	}
}

// archives lists the archive files under data-a (slash paths relative to
// the project), sorted.
func (k *keptProject) archives() []string {
	var out []string
	filepath.WalkDir(k.path("data-a"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			rel, _ := filepath.Rel(k.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func (k *keptProject) pick(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[k.rng.IntN(len(list))]
}

func (k *keptProject) addPending() string {
	if len(k.pending) == 0 {
		return "(none left)"
	}
	c := k.pending[0]
	k.pending = k.pending[1:]
	k.add(c, "data-a")
	return c
}

func (k *keptProject) removeCommit() string {
	a := k.pick(k.archives())
	if a == "" {
		return ""
	}
	os.Remove(k.path(a))
	return a
}

// editArchive changes one digit of a sample and restores the file's
// modification time: the size and the time are the same, the results not.
func (k *keptProject) editArchive() string {
	a := k.pick(k.archives())
	if a == "" {
		return ""
	}
	p := k.path(a)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return a + " (not a plain file)"
	}
	data, _ := os.ReadFile(p)
	i := bytes.Index(data, []byte(`"samples": [`))
	if i < 0 {
		return a + " (no samples)"
	}
	for j := i + len(`"samples": [`); j < len(data); j++ {
		if c := data[j]; c >= '1' && c <= '8' {
			data[j]++
			break
		}
	}
	os.WriteFile(p, data, 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	return a
}

// moveArchive moves an archive into another folder of the source.
func (k *keptProject) moveArchive() string {
	a := k.pick(k.archives())
	if a == "" {
		return ""
	}
	to := "data-a/moved/" + filepath.Base(a)
	os.MkdirAll(k.path("data-a/moved"), 0o755)
	os.Rename(k.path(a), k.path(to))
	return a + " → " + to
}

// linkArchive replaces an archive by a link: to a copy outside the source
// (which the source does not read), or to a copy inside it.
func (k *keptProject) linkArchive() string {
	a := k.pick(k.archives())
	if a == "" {
		return ""
	}
	data, err := os.ReadFile(k.path(a))
	if err != nil {
		return a + " (unreadable)"
	}
	target := "outside/" + filepath.Base(a)
	if k.rng.IntN(2) == 0 {
		target = "data-a/linked/" + filepath.Base(a) + ".txt"
	}
	k.write(target, string(data))
	os.Remove(k.path(a))
	rel, _ := filepath.Rel(filepath.Dir(k.path(a)), k.path(target))
	os.Symlink(rel, k.path(a))
	return a + " → " + target
}

// switchRoot points the source link at the other folder.
func (k *keptProject) switchRoot() string {
	now, _ := os.Readlink(k.path("results"))
	next := "data-b"
	if now == "data-b" {
		next = "data-a"
	}
	os.Remove(k.path("results"))
	os.Symlink(next, k.path("results"))
	return next
}

func (k *keptProject) editContent() string {
	p := k.path("content/about.md")
	fi, _ := os.Stat(p)
	data, _ := os.ReadFile(p)
	data = bytes.Replace(data, []byte("these"), []byte("those"), 1)
	if !bytes.Contains(data, []byte("those")) {
		data = bytes.Replace(data, []byte("those"), []byte("these"), 1)
	}
	os.WriteFile(p, data, 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	return ""
}

func (k *keptProject) changeOption() string {
	if k.rng.IntN(2) == 0 {
		k.title++
		k.config(k.zthresh)
		return "title"
	}
	z := 5.0
	if k.zthresh == 5 {
		z = 3
	}
	k.config(z)
	return fmt.Sprintf("z_threshold %g", z)
}

// pickFile picks a regular file under root that keep accepts.
func (k *keptProject) pickFile(root string, keep func(string) bool) string {
	var list []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && keep(p) {
			list = append(list, p)
		}
		return nil
	})
	return k.pick(list)
}

// flipByte changes one bit of the file p, writing a new file (a live
// site's file is a hard link of the spare's, and an editor writes anew)
// with the old modification time; it returns p relative to the project.
func (k *keptProject) flipByte(p string) string {
	data, _ := os.ReadFile(p)
	if len(data) == 0 {
		return ""
	}
	fi, _ := os.Stat(p)
	data[k.rng.IntN(len(data))] ^= 1 << k.rng.IntN(8)
	os.Remove(p)
	os.WriteFile(p, data, 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	rel, _ := filepath.Rel(k.dir, p)
	return rel
}

// corruptStore flips a bit of a file of the store.
func (k *keptProject) corruptStore() string {
	p := k.pickFile(k.path(".perfpages-cache"), func(string) bool { return true })
	if p == "" {
		return ""
	}
	return k.flipByte(p)
}

// tamperSite flips a bit of a file of the live site, time restored.
func (k *keptProject) tamperSite() string {
	p := k.pickFile(k.path("public"), func(p string) bool { return !strings.HasSuffix(p, ".perfpages-site") })
	if p == "" {
		return ""
	}
	return k.flipByte(p)
}

// killBuild starts a build in a child process and kills it (SIGKILL)
// after a random moment.
func (k *keptProject) killBuild() string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKeptStateChild$")
	cmd.Env = append(os.Environ(), keptChild+"="+k.path("perfpages.toml"))
	cmd.Dir = k.dir
	if err := cmd.Start(); err != nil {
		k.t.Fatal(err)
	}
	after := time.Duration(k.rng.IntN(400)) * time.Millisecond
	time.Sleep(after)
	cmd.Process.Kill()
	cmd.Wait()
	return "after " + after.String()
}

// build builds the project incrementally.
func (k *keptProject) build() *Report {
	k.t.Helper()
	return buildConfig(k.t, k.path("perfpages.toml"), BuildOptions{})
}

// diffCold builds the project from nothing into another folder and
// returns how the live site differs from it ("" when it does not).
func (k *keptProject) diffCold() string {
	k.t.Helper()
	cfg, err := config.Load(k.path("perfpages.toml"))
	if err != nil {
		k.t.Fatal(err)
	}
	cfg.Site.Cache = "off"
	s, err := FromConfig(cfg)
	if err != nil {
		k.t.Fatal(err)
	}
	ref := filepath.Join(k.t.TempDir(), "public")
	if _, err := s.Build(context.Background(), BuildOptions{Out: ref}); err != nil {
		k.t.Fatalf("cold build: %v", err)
	}
	want, got := treeBytes(k.t, ref), treeBytes(k.t, k.path("public"))
	var diffs []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diffs = append(diffs, "missing "+p)
		} else if !bytes.Equal(g, w) {
			diffs = append(diffs, "differs "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, "extra "+p)
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 20 {
		diffs = append(diffs[:20], fmt.Sprintf("… and %d more", len(diffs)-20))
	}
	return strings.Join(diffs, "\n")
}

// treeBytes reads every file under root (not following links).
func treeBytes(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if !d.Type().IsRegular() {
			out[filepath.ToSlash(rel)] = []byte("not a regular file: " + d.Type().String())
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	return out
}

// A second build of the output fails at once, before it reads anything,
// while the first holds the output's lock (which guards its store too).
func TestSecondBuildFailsBeforeReading(t *testing.T) {
	b := siteTest(t, basicSite)
	out, _ := filepath.Abs(b.out)
	unlock, err := outdir.Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	// A source that would hang a reader: the build must not get there.
	os.Remove(filepath.Join(b.dir, "results", "c2.yaml"))
	syscall.Mkfifo(filepath.Join(b.dir, "results", "c2.yaml"), 0o644)
	done := make(chan error, 1)
	go func() {
		b.build(false)
		done <- b.err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, outdir.ErrBusy) {
			t.Errorf("second build = %v, want ErrBusy", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the second build did not fail at once")
	}
}

// Two outputs built side by side have stores of their own: neither
// evicts the other's, and building both at once gives no warning.
func TestTwoOutputsOwnStores(t *testing.T) {
	b := siteTest(t, basicSite)
	cfg, err := config.Load(filepath.Join(b.dir, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	outs := []string{filepath.Join(b.dir, "public"), filepath.Join(b.dir, "public2")}
	time.Sleep(2 * fileid.FineWindow) // inputs older than a tick: the builds' fingerprints are saved
	errs := make(chan error, 2)
	reps := make([]*Report, 2)
	for i, out := range outs {
		go func() {
			s, _ := FromConfig(cfg)
			var err error
			reps[i], err = s.Build(context.Background(), BuildOptions{Out: out, Cold: true})
			errs <- err
		}()
	}
	for range outs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i, rep := range reps {
		if len(rep.Warnings) != 0 {
			t.Errorf("build %d: warnings %v", i, rep.Warnings)
		}
	}
	for _, out := range outs {
		s, _ := FromConfig(cfg)
		if rep, err := s.Build(context.Background(), BuildOptions{Out: out}); err != nil || !rep.UpToDate {
			t.Errorf("rebuild of %s: up to date %t, %v", out, rep.UpToDate, err)
		}
	}
}

// A cache folder that would put the store inside the output or a source
// is refused before anything is written; one beside unrelated folders
// named like stores leaves them alone.
func TestCacheFolder(t *testing.T) {
	for name, tt := range map[string]struct {
		cache string
		want  string
	}{
		"the output":     {"public", "inside the output folder"},
		"a source":       {"results", "inside a source folder"},
		"the content":    {"content", "inside the content folder"},
		"the config dir": {".", ""},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTxtar(t, dir, basicSite)
			os.MkdirAll(filepath.Join(dir, "store-frontend", "src"), 0o755)
			os.WriteFile(filepath.Join(dir, "store-frontend", "src", "app.js"), []byte("app"), 0o644)
			cfg, err := config.Load(filepath.Join(dir, "perfpages.toml"))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Site.Cache = filepath.Join(dir, tt.cache)
			s, _ := FromConfig(cfg)
			_, err = s.Build(context.Background(), BuildOptions{Out: filepath.Join(dir, "public")})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("build = %v, want a refusal saying %q", err, tt.want)
			}
			if data, err := os.ReadFile(filepath.Join(dir, "store-frontend", "src", "app.js")); string(data) != "app" {
				t.Errorf("store-frontend/src/app.js: %q, %v", data, err)
			}
		})
	}
}

// A content folder that is a link is fingerprinted through the link: an
// edit behind it is a change.
func TestFingerprintFollowsLinkedRoots(t *testing.T) {
	dir := t.TempDir()
	writeTxtar(t, dir, basicSite)
	os.Rename(filepath.Join(dir, "content"), filepath.Join(dir, "real-content"))
	os.Symlink("real-content", filepath.Join(dir, "content"))
	os.Rename(filepath.Join(dir, "results"), filepath.Join(dir, "real-results"))
	os.Symlink("real-results", filepath.Join(dir, "results"))
	b := &builder{t: t, dir: dir, out: filepath.Join(dir, "public")}
	b.build(false)
	if b.err != nil {
		t.Fatal(b.err)
	}
	os.WriteFile(filepath.Join(dir, "real-content", "about.md"), []byte("---\ntitle: About\n---\nChanged behind the link.\n"), 0o644)
	b.build(false)
	if b.err != nil || b.report.UpToDate {
		t.Fatalf("after a content edit behind a link: up to date %t, %v", b.report.UpToDate, b.err)
	}
	b.AssertFileContent("about/index.html", "Changed behind the link.")
	os.Remove(filepath.Join(dir, "real-results", "c3.toml"))
	b.build(false)
	if b.err != nil || b.report.UpToDate {
		t.Fatalf("after removing an archive behind a link: up to date %t, %v", b.report.UpToDate, b.err)
	}
	if _, err := os.Stat(filepath.Join(b.out, "commit", sha3)); err == nil {
		t.Error("the removed commit's page is still there")
	}
}

// A build run from a git hook, with GIT_DIR pointing at another
// repository, fingerprints the configured one: a commit there changes the
// fingerprint, a commit in the other one does not.
func TestFingerprintIgnoresGitDir(t *testing.T) {
	src := newGitRepo(t, filepath.Join(t.TempDir(), "src"))
	other := newGitRepo(t, filepath.Join(t.TempDir(), "other"))
	for _, g := range []*gitRepo{src, other} {
		g.write("a.txt", "1")
		g.git("add", "a.txt")
		g.git("commit", "-qm", "one")
	}
	s := &Site{Config: &config.Config{Sources: []config.Source{{Git: src.dir, Ref: "main"}}}}
	t.Setenv("GIT_DIR", "") // restored after the test
	fp := func() [32]byte {
		os.Setenv("GIT_DIR", filepath.Join(other.dir, ".git"))
		defer os.Unsetenv("GIT_DIR")
		repos := s.gitRepos()
		defer repos.close()
		fp, _, _ := s.fingerprint(t.Context(), "/out", repos)
		return fp
	}
	before := fp()
	other.write("a.txt", "2")
	other.git("commit", "-qam", "two")
	if fp() != before {
		t.Error("a commit in $GIT_DIR's repository changed the fingerprint")
	}
	src.write("a.txt", "2")
	src.git("commit", "-qam", "two")
	if fp() == before {
		t.Error("a commit in the source repository did not change the fingerprint")
	}
}

// A project moved or copied whole with its cache (a CI cache restored into
// a workspace at another path) finds its store: nothing is computed or
// written again.
func TestMovedProjectKeepsItsStore(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	writeTxtar(t, first, basicSite)
	buildIn(t, first, "public", BuildOptions{})
	moved := filepath.Join(dir, "elsewhere", "moved")
	if err := os.CopyFS(moved, os.DirFS(first)); err != nil {
		t.Fatal(err)
	}
	want := readTree(t, filepath.Join(moved, "public"))
	rep, got, timings := buildIn(t, moved, "public", BuildOptions{})
	if rep.Comparisons != 0 || rep.Kept == 0 || !strings.Contains(timings, "files      0 of 4 decoded") {
		t.Errorf("the moved project's build computed %d comparisons and kept %d files; want none computed, every file kept, no file decoded:\n%s", rep.Comparisons, rep.Kept, timings)
	}
	sameAsCold(t, got, want)
	stores, _ := os.ReadDir(filepath.Join(moved, ".perfpages-cache"))
	if len(stores) != 1 {
		t.Errorf("the moved project's cache holds %d stores, want its one", len(stores))
	}

	// Enough new commits that the moved project's build writes its
	// checkpoint again, then one more: the build after reads only that
	// one (the checkpoint names its files where they are now).
	parent := sha3
	add := func(k int) {
		id := fmt.Sprintf("%040x", 0xa00+k)
		doc := fmt.Sprintf(`{"schema": "perfpages.run.v1", "artifact": {"id": %q, "kind": "commit", "date": "2026-10-%02dT10:00:00Z", "parents": [%q], "branch": "main"},
 "machine": {"name": "linux-x64", "os": "linux", "arch": "amd64"},
 "results": [{"benchmark": "json-decode", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [%d]}]}`, id, 1+k, parent, 900+k)
		if err := os.WriteFile(filepath.Join(moved, "results", fmt.Sprintf("n%02d.json", k)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		parent = id
	}
	for k := range checkpointSlack(4) + 1 {
		add(k)
	}
	buildIn(t, moved, "public", BuildOptions{})
	add(checkpointSlack(4) + 1)
	if _, _, timings := buildIn(t, moved, "public", BuildOptions{}); !strings.Contains(timings, fmt.Sprintf("files      1 of %d decoded", 4+checkpointSlack(4)+2)) {
		t.Errorf("after the moved project's checkpoint was written again, one more commit:\n%s", timings)
	}
}
