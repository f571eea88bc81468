package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/shard"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/store"
)

// shardedBuild builds site s as n shards into dir/shard-<i> and merges
// them into dir/site; it returns the merged site's files.
func shardedBuild(t *testing.T, s func() *Site, dir string, n int) map[string]fileInfo {
	t.Helper()
	var shards []string
	for i := 1; i <= n; i++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		if rep, err := s().Build(context.Background(), BuildOptions{Out: out, Shard: shard.Spec{I: i, N: n}}); err != nil {
			t.Fatalf("shard %d/%d: %v (warnings %v)", i, n, err, rep.Warnings)
		}
		shards = append(shards, out)
	}
	out := filepath.Join(dir, "site")
	if rep, err := s().Merge(context.Background(), MergeOptions{Out: out, Shards: shards}); err != nil {
		t.Fatalf("merge: %v (warnings %v)", err, rep.Warnings)
	}
	return readTree(t, out)
}

// sameSite reports every file of got that is missing from want, differs,
// or is only in got.
func sameSite(t *testing.T, what string, got, want map[string]fileInfo) {
	t.Helper()
	var diff []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			diff = append(diff, p+": missing")
		case !bytes.Equal(g.data, w.data):
			diff = append(diff, p+": differs")
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, p+": only in the sharded site")
		}
	}
	slices.Sort(diff)
	if len(diff) > 0 {
		t.Errorf("%s: %d of %d files not as one build's:\n%v", what, len(diff), len(want), diff[:min(len(diff), 30)])
	}
}

// demoSite is a new Site of the embedded demo: each build of a test takes
// its own.
func demoSite(t *testing.T) *Site {
	t.Helper()
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestShardedDemo(t *testing.T) {
	demo := func() *Site { return demoSite(t) }
	dir := t.TempDir()
	one := filepath.Join(dir, "one")
	if rep, err := demo().Build(context.Background(), BuildOptions{Out: one}); err != nil {
		t.Fatalf("build: %v (%v)", err, rep.Warnings)
	}
	want := readTree(t, one)
	for _, n := range []int{1, 3} {
		got := shardedBuild(t, demo, filepath.Join(dir, fmt.Sprint(n)), n)
		sameSite(t, fmt.Sprintf("%d shards", n), got, want)
		t.Logf("%d shards: %d files, one build %d", n, len(got), len(want))
	}
}

// shardedSite is a site for the sharded tests: the S data set (PRs, try
// runs, failed results, five machines) without the archives whose name
// holds skip, a benchmark of one series on a machine of its own, and a
// broken archive (a warning every page shows).
func shardedSite(t *testing.T, dir string, files map[string][]byte, skip string) {
	t.Helper()
	scaleSite(t, dir, files, skip)
	solo := `{"schema": "perfpages.run.v1", "artifact": {"id": "231fb282053342ea40b01fc87b9ec318469c437d", "kind": "commit", "date": "2026-01-05T01:13:54Z", "branch": "main"},
 "machine": {"name": "solo-box"}, "results": [{"benchmark": "solo", "metric": "wall-time", "unit": "ns", "samples": [10, 11, 12]}]}`
	writeFile(t, filepath.Join(dir, "results", "solo-box", "solo.json"), solo)
	writeFile(t, filepath.Join(dir, "results", "solo-box", "broken.json"), `{"schema": "perfpages.run.v1", "artifact": `)
	streakBox(t, dir, files, skip)
}

// streakBox adds a machine whose one series fails on the last three
// main-line commits of the data set (without the archives whose name holds
// skip) after a result on the one before: the dashboard's failing list
// walks the streak back to its first commit, a point the partial site
// models must keep (sitePoints).
func streakBox(t *testing.T, dir string, files map[string][]byte, skip string) {
	t.Helper()
	type main struct {
		stamp    string
		artifact json.RawMessage
	}
	var commits []main
	for name, data := range files {
		if !strings.HasSuffix(name, ".json") || skip != "" && strings.Contains(name, skip) {
			continue
		}
		var run struct {
			Artifact json.RawMessage `json:"artifact"`
		}
		var a struct{ Branch, Kind string }
		if json.Unmarshal(data, &run) != nil || json.Unmarshal(run.Artifact, &a) != nil || a.Branch != "main" || a.Kind != "commit" {
			continue
		}
		commits = append(commits, main{filepath.Base(name)[:17], run.Artifact})
	}
	slices.SortFunc(commits, func(a, b main) int { return strings.Compare(a.stamp, b.stamp) })
	commits = slices.CompactFunc(commits, func(a, b main) bool { return a.stamp == b.stamp })
	if len(commits) < 4 {
		t.Fatalf("%d main-line commits: too few for a failing streak", len(commits))
	}
	for i, c := range commits[len(commits)-4:] {
		result := `"samples": [10, 11, 12]`
		if i > 0 {
			result = `"error": "exit status 2"`
		}
		writeFile(t, filepath.Join(dir, "results", "streak-box", c.stamp+".json"), `{"schema": "perfpages.run.v1", "artifact": `+string(c.artifact)+`,
 "machine": {"name": "streak-box"}, "results": [{"benchmark": "streak", "metric": "wall-time", "unit": "ns", `+result+`}]}`)
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardedEqualsOne builds the S data set once, as 3 shards and a
// merge, and as 1 shard and a merge: the sites are the same files with the
// same bytes. Then a commit more, built incrementally (the same output
// folders and stores): one build, the shards and the merge again write a
// cold build's site.
func TestShardedEqualsOne(t *testing.T) {
	files, names := scaleFiles(t)
	newest := filepath.Base(names[len(names)-1])[:17]
	for _, name := range names {
		if s := filepath.Base(name)[:17]; s > newest {
			newest = s
		}
	}
	dir := t.TempDir()
	shardedSite(t, dir, files, newest)
	site := func() *Site {
		cfg, err := config.Load(filepath.Join(dir, "perfpages.toml"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := FromConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	build := func(out string) map[string]fileInfo {
		if rep, err := site().Build(context.Background(), BuildOptions{Out: out}); err != nil {
			t.Fatalf("build: %v (%v)", err, rep.Warnings)
		}
		return readTree(t, out)
	}
	want := build(filepath.Join(dir, "one"))
	for _, must := range []string{"pr/", "bench/solo/", "data/packs/"} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(want)), func(p string) bool { return strings.HasPrefix(p, must) }) {
			t.Errorf("the site has no %s…: the data set does not test what it should", must)
		}
	}
	failed := false
	for p, f := range want {
		failed = failed || strings.HasPrefix(p, "commit/") && bytes.Contains(f.data, []byte("failed: "))
	}
	if !failed {
		t.Error("no commit page shows a failed result")
	}
	if !bytes.Contains(want["index.html"].data, []byte("streak")) {
		t.Error("the dashboard does not list the failing streak of streak-box")
	}
	if !bytes.Contains(want["index.html"].data, []byte("broken.json")) {
		t.Error("the dashboard does not show the broken archive's warning")
	}
	for _, n := range []int{1, 3} {
		sameSite(t, fmt.Sprintf("%d shards", n), shardedBuild(t, site, filepath.Join(dir, fmt.Sprint(n)), n), want)
	}
	checkPartialBound(t, filepath.Join(dir, "3"), 3)

	// A commit more: incremental builds of the same folders.
	time.Sleep(20 * time.Millisecond)
	shardedSite(t, dir, files, "")
	time.Sleep(2 * fileid.FineWindow)
	// The cold build of the same folder (the warnings name its files).
	wantCold := func() map[string]fileInfo {
		out := filepath.Join(dir, "cold")
		if rep, err := site().Build(context.Background(), BuildOptions{Out: out, Cold: true}); err != nil {
			t.Fatalf("build: %v (%v)", err, rep.Warnings)
		}
		return readTree(t, out)
	}()
	sameSite(t, "one build +1", build(filepath.Join(dir, "one")), wantCold)
	sameSite(t, "3 shards +1", shardedBuild(t, site, filepath.Join(dir, "3"), 3), wantCold)
}

// TestMergeRefuses: a merge of shards that are not every shard of one
// build, or whose partial site model is not one, fails naming what is
// wrong, and writes no site.
func TestMergeRefuses(t *testing.T) {
	demo := func() *Site { return demoSite(t) }
	dir := t.TempDir()
	shardOf := func(s *Site, name string, i, n int) string {
		out := filepath.Join(dir, name)
		if rep, err := s.Build(context.Background(), BuildOptions{Out: out, Shard: shard.Spec{I: i, N: n}}); err != nil {
			t.Fatalf("shard %d/%d: %v (%v)", i, n, err, rep.Warnings)
		}
		return out
	}
	s1, s2, s3 := shardOf(demo(), "s1", 1, 3), shardOf(demo(), "s2", 2, 3), shardOf(demo(), "s3", 3, 3)
	half := shardOf(demo(), "half", 1, 2)
	other := demo()
	other.Files = other.Files[:len(other.Files)-1] // one archive less
	otherInputs := shardOf(other, "other-inputs", 1, 3)
	titled := demo()
	cfg := *titled.Config
	cfg.Site.Title = "another title"
	titled.Config = &cfg
	otherConfig := shardOf(titled, "other-config", 1, 3)

	corrupt := filepath.Join(dir, "corrupt")
	os.CopyFS(corrupt, os.DirFS(s1))
	partial, err := os.ReadFile(filepath.Join(s1, "perfpages-partial.gob.gz"))
	if err != nil {
		t.Fatal(err)
	}
	magic, rest, _ := strings.Cut(string(partial), "\n")
	writeFile(t, filepath.Join(corrupt, "perfpages-partial.gob.gz"), magic+"\nnot gzip")
	oldFormat := filepath.Join(dir, "old-format")
	os.CopyFS(oldFormat, os.DirFS(s1))
	writeFile(t, filepath.Join(oldFormat, "perfpages-partial.gob.gz"), "perfpages partial site model 0\n")
	// Version 1 carried every point of every series: a merge of this
	// perfpages refuses its shards, whatever follows the line.
	version1 := filepath.Join(dir, "version-1")
	os.CopyFS(version1, os.DirFS(s1))
	writeFile(t, filepath.Join(version1, "perfpages-partial.gob.gz"), "perfpages partial site model 1\n"+rest)
	notShard := filepath.Join(dir, "not-a-shard")
	os.MkdirAll(notShard, 0o755)
	changed := filepath.Join(dir, "changed")
	os.CopyFS(changed, os.DirFS(s2))
	tampered := false
	filepath.WalkDir(changed, func(p string, d os.DirEntry, err error) error {
		if err == nil && !tampered && strings.HasSuffix(p, "index.html") {
			tampered = true
			return os.WriteFile(p, []byte("edited"), 0o644)
		}
		return err
	})

	for _, tc := range []struct {
		name   string
		shards []string
		want   string
	}{
		{"a shard missing", []string{s1, s3}, "shards [2] of 3 missing"},
		{"a shard twice", []string{s1, s2, s3, s2}, "shard 2/3 twice"},
		{"shards of different counts", []string{s1, half}, "shards of different builds"},
		{"different inputs", []string{s3, s2, otherInputs}, "read different inputs"},
		{"different settings", []string{otherConfig, s2, s3}, "other settings"},
		{"corrupt", []string{corrupt, s2, s3}, "corrupt partial site model"},
		{"another format", []string{oldFormat, s2, s3}, "another format"},
		{"version 1 (every point)", []string{s1, s2, version1}, `another format ("perfpages partial site model 1"`},
		{"not a shard", []string{notShard, s2, s3}, "no partial site model"},
		{"a shard's file changed", []string{s1, changed, s3}, "changed since its shard wrote it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "site-"+strings.ReplaceAll(tc.name, " ", "-"))
			_, err := demo().Merge(context.Background(), MergeOptions{Out: out, Shards: tc.shards})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("merge: %v, want an error with %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
				t.Error("the failed merge wrote a site")
			}
		})
	}
	// The output may be no shard's folder.
	if _, err := demo().Merge(context.Background(), MergeOptions{Out: s1, Shards: []string{s1, s2, s3}}); err == nil {
		t.Error("a merge into a shard's folder was not refused")
	}
}

// checkPartialBound checks that the partial site models of the n shards in
// dir hold what the site-wide pages show, not the series' histories: of a
// series, besides its failing results (a failing streak the dashboard
// walks back), at most its first and last main-line points and
// sitemodel.SparkSide values either side of each of its steps, whatever
// the length of its history; rows hold no samples (a PartialValue has
// their count). The merge's dataset is made of these points alone.
func checkPartialBound(t *testing.T, dir string, n int) {
	t.Helper()
	kept, series, steps := 0, 0, 0
	for i := 1; i <= n; i++ {
		p, err := sitemodel.ReadPartial(filepath.Join(dir, fmt.Sprintf("shard-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
		stepsOf := map[int]int{}
		for _, st := range p.Steps {
			stepsOf[st.Series]++
		}
		steps += len(p.Steps)
		for k, s := range p.Series {
			failing := 0
			for _, pt := range s.Points {
				if pt.Error != "" {
					failing++
				}
			}
			if bound := 2 + 2*sitemodel.SparkSide*stepsOf[k] + failing; len(s.Points) > bound {
				t.Errorf("shard %d: series %s keeps %d points, more than the %d its site-wide pages read", i, s.Key, len(s.Points), bound)
			}
			kept += len(s.Points)
			series++
		}
	}
	if steps == 0 {
		t.Error("no series has a step: the data set does not test the regressions page's points")
	}
	t.Logf("partial site models: %d series, %d steps, %d points kept", series, steps, kept)
}

// TestShardLoadsItsSeries: a shard's dataset holds the points of its
// benchmarks' series and no other, decoded from the archives (a cold
// build) or resumed from its store's checkpoint (a nightly build), with
// every series' name and every warning of one build; the checkpoint a
// shard keeps holds its series' samples alone (the shards' together are
// one build's).
func TestShardLoadsItsSeries(t *testing.T) {
	files, _ := scaleFiles(t)
	dir := t.TempDir()
	shardedSite(t, dir, files, "")
	cfg, err := config.Load(filepath.Join(dir, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	site := func() *Site {
		s, err := FromConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	repos := site().gitRepos()
	defer repos.close()
	full, fullWarnings, err := site().load(t.Context(), nil, repos, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := full.d
	total := 0
	for _, s := range want.Series {
		total += len(s.Points)
	}
	// floats is the size of the samples' files of the checkpoint in the
	// store of output out.
	floats := func(out string) int64 {
		names, _ := filepath.Glob(filepath.Join(testStoreDir(t, dir, out), "builder-*.floats"))
		var n int64
		for _, name := range names {
			fi, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			n += fi.Size()
		}
		return n
	}
	one := filepath.Join(dir, "one")
	if rep, err := site().Build(t.Context(), BuildOptions{Out: one}); err != nil {
		t.Fatalf("build: %v (%v)", err, rep.Warnings)
	}
	heldPoints, shardFloats := 0, int64(0)
	for i := 1; i <= 3; i++ {
		sp := shard.Spec{I: i, N: 3}
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		if rep, err := site().Build(t.Context(), BuildOptions{Out: out, Shard: sp}); err != nil {
			t.Fatalf("shard %v: %v (%v)", sp, err, rep.Warnings)
		}
		shardFloats += floats(out)
		t.Logf("shard %v: checkpoint samples %d bytes", sp, floats(out))
		for _, resume := range []bool{false, true} {
			var st *store.Store
			if resume {
				st = openTestStore(t, dir, out)
			}
			l, warnings, err := site().load(t.Context(), st, repos, shard.Keep{Spec: sp})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("shard %v (resumed %t)", sp, resume)
			if l.resumed != resume {
				t.Fatalf("%s: resumed from the checkpoint: %t", what, l.resumed)
			}
			if fmt.Sprint(warnings) != fmt.Sprint(fullWarnings) {
				t.Errorf("%s: warnings\n%v\nnot one build's\n%v", what, warnings, fullWarnings)
			}
			if len(l.d.Series) != len(want.Series) || len(l.d.Artifacts) != len(want.Artifacts) || !slices.Equal(l.d.MainLine, want.MainLine) {
				t.Fatalf("%s: %d series, %d artifacts, not one build's %d and %d (or another main line)", what, len(l.d.Series), len(l.d.Artifacts), len(want.Series), len(want.Artifacts))
			}
			points := 0
			for k, s := range l.d.Series {
				w := want.Series[k]
				switch {
				case s.Key != w.Key || s.Origin != w.Origin || s.Metric != w.Metric:
					t.Fatalf("%s: series %d is %s from %s, not %s from %s", what, k, s.Key, s.Origin, w.Key, w.Origin)
				case !sp.Holds(s.Case.Benchmark) && len(s.Points) > 0:
					t.Fatalf("%s: series %s of another shard has %d points", what, s.Key, len(s.Points))
				case sp.Holds(s.Case.Benchmark) && pointsText(s.Points) != pointsText(w.Points):
					t.Fatalf("%s: the points of %s are not one build's", what, s.Key)
				}
				points += len(s.Points)
			}
			if !resume {
				heldPoints += points
			}
			t.Logf("%s: %d of %d points", what, points, total)
		}
	}
	if heldPoints != total {
		t.Errorf("the shards hold %d points together, one build %d", heldPoints, total)
	}
	// Each chunk file has a header of its own: a few hundred bytes.
	if f := floats(one); f == 0 || shardFloats < f || shardFloats > f+3*1024 {
		t.Errorf("the shards' checkpoints hold %d bytes of samples, one build's %d", shardFloats, f)
	}
}

// pointsText is every field of points, the rare ones by their accessors
// (fmt would print their pointer).
func pointsText(points []model.Point) string {
	var b strings.Builder
	for _, p := range points {
		fmt.Fprintf(&b, "%d %v %v %t %q %v", p.Artifact, p.Samples(), p.Value, p.OK(), p.Failure(), p.Iters())
		if s := p.Summary(); s != nil {
			fmt.Fprintf(&b, " %+v", *s)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
