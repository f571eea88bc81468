package generator

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/demo"
	"github.com/perfpages/perfpages/generator/internal/fileid"
)

// TestASVFolderPerFile: an asv results folder is read file by file. A
// nightly build of one new result file resumes from the checkpoint (a
// folder read as one input did not: every file was decoded again, every
// comparison computed) and writes what a cold build writes; a build with nothing new is up to date.
func TestASVFolderPerFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an asv data set three times")
	}
	plan, err := demo.PlanFor("S")
	if err != nil {
		t.Fatal(err)
	}
	plan.Commits, plan.SeriesPerMachine = 80, 8
	data := t.TempDir()
	n, err := WriteASV(data, ASVPlan(plan))
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(data, "results")
	machines, _ := filepath.Glob(filepath.Join(results, "*", "machine.json"))
	if len(machines) != 1 {
		t.Fatalf("machine folders: %q", machines)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(machines[0]), "*-"+ASVEnv+".json"))
	if len(files) != n || n < 20 {
		t.Fatalf("%d result files, WriteASV says %d", len(files), n)
	}
	// The newest commit's file: the latest date inside.
	newest, newestDate := "", ""
	for _, f := range files {
		b, _ := os.ReadFile(f)
		_, rest, _ := strings.Cut(string(b), `"date": `)
		date, _, _ := strings.Cut(rest, ",")
		if date > newestDate {
			newest, newestDate = f, date
		}
	}
	held := filepath.Join(t.TempDir(), filepath.Base(newest))
	if err := os.Rename(newest, held); err != nil {
		t.Fatal(err)
	}
	// benchmarks.json loses a benchmark every result file has: one
	// warning for the folder, in the cold build and the nightly one.
	suitePath := filepath.Join(results, "benchmarks.json")
	var suite map[string]any
	if b, err := os.ReadFile(suitePath); err != nil || json.Unmarshal(b, &suite) != nil {
		t.Fatalf("benchmarks.json: %v", err)
	}
	dropped := ""
	for k := range suite {
		if k != "version" && (dropped == "" || k < dropped) {
			dropped = k
		}
	}
	delete(suite, dropped)
	if b, err := json.Marshal(suite); err != nil || os.WriteFile(suitePath, b, 0o644) != nil {
		t.Fatal(err)
	}
	lacking := func(rep *Report) int {
		n := 0
		for _, w := range rep.Warnings {
			if strings.Contains(w.Error(), "not in benchmarks.json") {
				n++
				if !strings.Contains(w.Error(), "more result files of the folder name benchmarks benchmarks.json lacks") {
					t.Errorf("warning does not say how many files: %v", w)
				}
			}
		}
		return n
	}
	config := filepath.Join(data, "perfpages.toml")
	first := buildConfig(t, config, BuildOptions{Out: filepath.Join(data, "public")})
	if first.Resumed {
		t.Error("the first build resumed from a checkpoint")
	}
	if n := lacking(first); n != 1 {
		t.Errorf("cold build: %d warnings of benchmarks benchmarks.json lacks, want 1 for the folder", n)
	}
	if err := os.Rename(held, newest); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * fileid.FineWindow)
	var timings strings.Builder
	rep := buildConfig(t, config, BuildOptions{Out: filepath.Join(data, "public"), Timings: &timings})
	if want := fmt.Sprintf("perfpages: files      1 of %d decoded", n); !strings.Contains(timings.String(), want) {
		t.Errorf("+1 result file: want %q in the timings:\n%s", want, timings.String())
	}
	if !rep.Resumed {
		t.Error("+1 result file: the build did not resume from the checkpoint (the folder was read as one input)")
	}
	if n := lacking(rep); n != 1 {
		t.Errorf("+1 result file: %d warnings of benchmarks benchmarks.json lacks, want 1 for the folder", n)
	}
	// The comparisons whose chain key changed: the new commit's, and
	// those whose headline verdicts its values changed (many, in a short
	// history; 9 of 1,000 at the asv-layout M).
	if rep.Comparisons == 0 || rep.Comparisons >= plan.Commits {
		t.Errorf("+1 result file: %d comparisons computed of %d commits", rep.Comparisons, plan.Commits)
	}
	got := readTree(t, filepath.Join(data, "public"))
	buildConfig(t, config, BuildOptions{Out: filepath.Join(data, "cold"), Cold: true})
	sameAsCold(t, got, readTree(t, filepath.Join(data, "cold")))

	again := buildConfig(t, config, BuildOptions{Out: filepath.Join(data, "public")})
	if !again.UpToDate {
		t.Error("a build with the same input was not up to date")
	}
	for p, g := range readTree(t, filepath.Join(data, "public")) {
		if !g.mod.Equal(got[p].mod) {
			t.Errorf("%s: written by a build with nothing to do", p)
		}
	}
}

// TestSiteFromGitASVIncremental: asv results kept in a git history. A
// nightly commit of one result file reads that file's blob and the two
// shared files' (benchmarks.json, machine.json), not every result file,
// and builds what a cold build builds.
func TestSiteFromGitASVIncremental(t *testing.T) {
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "bench"))
	res.write("results/benchmarks.json", `{"bench.time_parse": {"name": "bench.time_parse", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"},
 "bench.time_read": {"name": "bench.time_read", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"}, "version": 2}`)
	res.write("results/cheetah/machine.json", `{"arch": "x86_64", "cpu": "AMD EPYC 7B13", "machine": "cheetah", "num_cpu": "2", "os": "Linux", "ram": "16318900", "version": 1}`)
	commit := func(i int) {
		sha := fmt.Sprintf("%08x%032x", i, i)
		res.write("results/cheetah/"+sha[:8]+"-virtualenv-py3.12.json", asvResult(sha, "3.12", 1763600000000+int64(i)*86400000, 0.010+float64(i%3)/1000, false))
		res.git("add", ".")
		res.git("commit", "-qm", "results for "+sha[:8])
	}
	for i := 1; i <= 6; i++ {
		commit(i)
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte("[site]\ntitle = \"t\"\n\n[[sources]]\ngit = \"bench\"\nref = \"main\"\npath = \"results\"\nformat = \"asv\"\n"), 0o644)
	build := func(out string, cold bool) (*Report, map[string]fileInfo, string) {
		t.Helper()
		return buildIn(t, root, out, BuildOptions{Cold: cold})
	}
	if _, _, tm := build("public", false); !strings.HasPrefix(gitReads(tm), "8 blobs read") {
		t.Errorf("cold build: %s, want the 6 result files and the 2 shared files read", gitReads(tm))
	}
	commit(7)
	rep, got, tm := build("public", false)
	if !strings.Contains(tm, "perfpages: files      1 of 7 decoded") {
		t.Errorf("+1 result file: want 1 of 7 files decoded in the timings:\n%s", tm)
	}
	if r := gitReads(tm); !strings.HasPrefix(r, "3 blobs read") {
		t.Errorf("+1 result file: %s, want the new file and the 2 shared files read", r)
	}
	if !rep.Resumed {
		t.Error("+1 result file: the build did not resume from the checkpoint")
	}
	_, want, _ := build("cold", true)
	sameAsCold(t, got, want)
}

// TestASVFolderListedUnread: with a store, an asv results folder is listed
// unread like an archive folder — its result files are read only when
// their identity on disk changed (fileSums) — and builds as it did read
// whole; a result file rewritten with its time restored is read again.
func TestASVFolderListedUnread(t *testing.T) {
	if _, _, ok := fileid.Identity(must(os.Stat(t.TempDir()))); !ok {
		t.Skip("no status-change time on this system: every file is read")
	}
	root := t.TempDir()
	plan, err := demo.PlanFor("S")
	if err != nil {
		t.Fatal(err)
	}
	plan.Commits, plan.SeriesPerMachine = 12, 4
	if _, err := WriteASV(root, ASVPlan(plan)); err != nil {
		t.Fatal(err)
	}
	src := config.Source{Dir: filepath.Join(root, "results"), Format: "asv"}
	files, problems, err := readSource(context.Background(), src, 0, nil, true)
	if err != nil || len(problems) > 0 || len(files) < 12 {
		t.Fatalf("readSource: %v %v, %d files", err, problems, len(files))
	}
	for _, f := range files {
		if f.Data != nil || f.Load == nil || f.Info == nil {
			t.Fatalf("%s: read when listed (Data %t, Load %t)", f.Name, f.Data != nil, f.Load != nil)
		}
	}
	time.Sleep(2 * fileid.FineWindow) // the files out of the racy window
	_, first, _ := buildIn(t, root, "public", BuildOptions{Strict: false})
	var sums []fileSum
	if !openTestStore(t, root, filepath.Join(root, "public")).Load(fileSumsValue, "", &sums) {
		t.Fatal("no file sums kept")
	}
	recorded := 0
	for _, s := range sums {
		if strings.HasSuffix(s.Origin, "-"+ASVEnv+".json") {
			recorded++
		}
	}
	if recorded < 12 {
		t.Errorf("%d asv result files known by their identity, want every one", recorded)
	}
	_, cold, _ := buildIn(t, root, "cold", BuildOptions{Cold: true, Strict: false})
	sameAsCold(t, first, cold)

	// A result file rewritten with its time restored: read again, and the
	// site follows it.
	results, _ := filepath.Glob(filepath.Join(root, "results", "*", "*-"+ASVEnv+".json"))
	f := results[len(results)/2]
	info := must(os.Stat(f))
	data := must(os.ReadFile(f))
	changed := strings.Replace(string(data), `": [[`, `": [[9`, 1) // a first result ten times or more larger
	if changed == string(data) {
		t.Fatalf("%s: no result list to change", f)
	}
	if err := os.WriteFile(f, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(f, info.ModTime(), info.ModTime())
	_, again, _ := buildIn(t, root, "public", BuildOptions{Strict: false})
	_, cold2, _ := buildIn(t, root, "cold2", BuildOptions{Cold: true, Strict: false})
	sameAsCold(t, again, cold2)
}
