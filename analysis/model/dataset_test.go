package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

var day0 = time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)

func sha(c byte) string { return strings.Repeat(string(c), 40) }

func result(bench, metric, unit string, samples ...float64) Result {
	return Result{Case: TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: samples}
}

func TestBuilderMainLineAndOrder(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	m := Machine{Name: "m"}
	// Added out of order; a try run, a tag and a feature-branch commit.
	b.Add("c", Run{Artifact: Artifact{ID: sha('c'), Kind: KindCommit, Date: day0.Add(2 * time.Hour), Branch: "main", Parents: []string{sha('b')}}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 3)}})
	b.Add("a", Run{Artifact: Artifact{ID: sha('a'), Kind: KindCommit, Date: day0, Branch: "main"}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 1)}})
	b.Add("b", Run{Artifact: Artifact{ID: sha('b'), Kind: KindCommit, Date: day0.Add(time.Hour), Branch: "main", Parents: []string{sha('a')}, PR: 7}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 2, 1.5)}})
	b.Add("t", Run{Artifact: Artifact{ID: sha('d'), Kind: KindTry, Date: day0.Add(3 * time.Hour), Baseline: sha('c'), PR: 9}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 4)}})
	b.Add("f", Run{Artifact: Artifact{ID: sha('e'), Kind: KindCommit, Date: day0.Add(4 * time.Hour), Branch: "feature"}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 5)}})
	b.Add("v", Run{Artifact: Artifact{ID: "v1.0.0", Kind: KindTag, Date: day0.Add(5 * time.Hour)}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 6)}})
	d := b.Dataset()

	var ids []string
	for _, a := range d.Artifacts {
		ids = append(ids, a.ID[:1])
	}
	if got := strings.Join(ids, ""); got != "abcdev" {
		t.Errorf("artifact order = %s, want abcdev (by date)", got)
	}
	var line []string
	for _, a := range d.MainLine {
		line = append(line, d.Artifacts[a].ID[:1])
	}
	if got := strings.Join(line, ""); got != "abc" {
		t.Errorf("main line = %s, want abc (commits of the most common branch)", got)
	}
	if len(d.Series) != 1 || len(d.Series[0].Points) != 6 {
		t.Fatalf("series = %+v", d.Series)
	}
	// The default rule, Auto, reduces a noisy metric's samples to their
	// median.
	if p := d.Series[0].At(1); p == nil || p.Value != 1.75 || !p.OK() || d.Series[0].Value != Median {
		t.Errorf("point b = %+v by %s, want median 1.75", p, d.Series[0].Value)
	}
	if prev, ok := d.Previous(2); !ok || prev != 1 || !d.Contiguous(1, 2) {
		t.Errorf("Previous/Contiguous of c wrong")
	}
	if _, ok := d.Previous(0); ok {
		t.Error("the first commit has a predecessor")
	}
	if head, ok := d.PRHead(9); !ok || d.Artifacts[head].ID != sha('d') {
		t.Errorf("PRHead(9) = %v", head)
	}
	if base, ok := d.PRBase(3); !ok || d.Artifacts[base].ID != sha('c') {
		t.Errorf("PRBase(try) = %v, want its baseline", base)
	}
	for ref, want := range map[string]string{sha('b'): sha('b'), "bbbb": sha('b'), "pr/7": sha('b'), "pr/9": sha('d'), "v1.0.0": "v1.0.0"} {
		i, err := d.Resolve(ref)
		if err != nil || d.Artifacts[i].ID != want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", ref, i, err, want)
		}
	}
	for ref, want := range map[string]string{"abc": "at least 4 characters", "ffff": "unknown artifact", "pr/x": "not a PR reference", "pr/07": "not a PR reference", "pr/8": "no results for PR #8"} {
		if _, err := d.Resolve(ref); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) error = %v, want %q", ref, err, want)
		}
	}
}

func TestBuilderWarnings(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	b.Add("one.json", Run{Artifact: Artifact{ID: sha('a'), Date: day0, Title: "first"}, Machine: Machine{Name: "m", OS: "linux"}, Results: []Result{result("x", "wall-time", "ns", 1)}})
	// More detail for the machine is fine; a different date, title and
	// OS conflict; the same result twice is a duplicate; a different unit
	// for the same series is refused.
	b.Add("two.json", Run{Artifact: Artifact{ID: sha('a'), Date: day0.Add(time.Hour), Title: "second"}, Machine: Machine{Name: "m", OS: "linux", Cores: 8}, Results: []Result{result("x", "wall-time", "ns", 2)}})
	b.Add("three.json", Run{Artifact: Artifact{ID: sha('b'), Date: day0.Add(time.Hour)}, Machine: Machine{Name: "m", OS: "darwin"}, Results: []Result{result("x", "wall-time", "s", 2)}})
	b.Add("four.json", Run{Artifact: Artifact{ID: sha('c')}, Machine: Machine{Name: "m"}, Results: []Result{result("x", "wall-time", "ns", 2)}})
	d := b.Dataset()
	var got []string
	for _, w := range d.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"two.json: duplicate result for x wall-time on m at " + sha('a') + " (first in one.json); keeping the first",
		`three.json: machine "m" is described differently than in an earlier archive; keeping the first description`,
		`three.json: x wall-time has unit "s", but earlier archives say "ns"; skipping it`,
		"artifact " + sha('a') + ": archives disagree on its date: 2026-09-07T10:00:00Z in one.json, 2026-09-07T11:00:00Z in two.json; using 2026-09-07T10:00:00Z, the earliest",
		"artifact " + sha('a') + `: archives disagree on its title: "first" in one.json, "second" in two.json; using "first", the first in byte order`,
		"four.json: artifact " + sha('c') + " has no date and the project history does not know it; skipping its results",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if d.Machines[0].Cores != 8 {
		t.Errorf("machine details were not merged: %+v", d.Machines[0])
	}
}

// Two files that hold the same commits on the same machine (a data.js per
// runner read as one machine) collide on every result: one warning per
// pair of files, with how many and how to tell them apart.
func TestDuplicatesOfTwoFiles(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	for _, file := range []string{"linux/data.js", "windows/data.js"} {
		for i := range 3 {
			b.Add(file, Run{Artifact: Artifact{ID: sha(byte('a' + i)), Date: day0.Add(time.Duration(i) * time.Hour)}, Machine: Machine{Name: "default"},
				Results: []Result{result("x", "wall-time", "ns", float64(len(file)+i)), result("y", "wall-time", "ns", float64(len(file)*2+i))}})
		}
	}
	d := b.Dataset()
	if len(d.Warnings) != 1 {
		t.Fatalf("%d warnings, want 1: %v", len(d.Warnings), d.Warnings)
	}
	w := d.Warnings[0].Error()
	for _, part := range []string{"windows/data.js: 6 duplicate results of linux/data.js, such as x wall-time on default at " + sha('a'), `"{machine}/data.js"`} {
		if !strings.Contains(w, part) {
			t.Errorf("warning %q lacks %q", w, part)
		}
	}
}

func TestBuilderProjectHistory(t *testing.T) {
	// Archives carry only the sha; the project's history supplies the rest
	// and defines the main line (first-parent order, not dates).
	history := []Artifact{
		{ID: sha('a'), Kind: KindCommit, Date: day0, Title: "Initial", Branch: "main"},
		{ID: sha('b'), Kind: KindCommit, Date: day0.Add(-time.Hour), Parents: []string{sha('a'), sha('f')}, Title: "Speed up (#12)", PR: 12, Branch: "main"},
	}
	b := NewBuilder(BuildOptions{History: history, Metrics: map[string]Metric{"speed": {Direction: HigherIsBetter, Noise: Reliable}}})
	for _, id := range []string{sha('b'), sha('a')} {
		b.Add(id, Run{Artifact: Artifact{ID: id}, Machine: Machine{Name: "m"}, Results: []Result{result("x", "speed", "ops", 1, 3)}})
	}
	d := b.Dataset()
	if len(d.Warnings) != 0 {
		t.Fatalf("warnings: %v", d.Warnings)
	}
	if len(d.MainLine) != 2 || d.Artifacts[d.MainLine[1]].PR != 12 || d.Artifacts[d.MainLine[1]].Title != "Speed up (#12)" {
		t.Errorf("main line from history wrong: %+v", d.Artifacts)
	}
	s := d.Series[0]
	if s.Metric.Direction != HigherIsBetter || s.Metric.Noise != Reliable || s.Points[0].Value != 3 {
		t.Errorf("metric config not applied: %+v, best = %v", s.Metric, s.Points[0].Value)
	}
}

func TestSingleValue(t *testing.T) {
	xs := []float64{3, 1, 2, 10}
	for _, tt := range []struct {
		v    ValueKind
		d    Direction
		want float64
	}{{Best, LowerIsBetter, 1}, {Best, HigherIsBetter, 10}, {Median, LowerIsBetter, 2.5}, {Mean, LowerIsBetter, 4}} {
		if got, ok := SingleValue(xs, tt.v, tt.d); !ok || got != tt.want {
			t.Errorf("SingleValue(%s, %s) = %v, want %v", tt.v, tt.d, got, tt.want)
		}
	}
	if _, ok := SingleValue(nil, Best, LowerIsBetter); ok {
		t.Error("SingleValue of no samples is ok")
	}
	if m := DefaultMetric("throughput", "MB/s"); m.Direction != HigherIsBetter || m.Noise != Noisy {
		t.Errorf("DefaultMetric(MB/s) = %+v", m)
	}
	if m := DefaultMetric("instructions:u", "count"); m.Direction != LowerIsBetter || m.Noise != Reliable {
		t.Errorf("DefaultMetric(instructions) = %+v", m)
	}
}

func TestParamsString(t *testing.T) {
	p := NewParams(map[string]string{"size": "large", "b": "x y", "a": ""})
	if got := p.String(); got != `a="" b="x y" size=large` {
		t.Errorf("Params.String = %q", got)
	}
	if v, ok := p.Get("size"); !ok || v != "large" {
		t.Errorf("Get(size) = %q, %v", v, ok)
	}
}

// permutations calls fn with every order of 0..n-1.
func permutations(n int, fn func([]int)) {
	var rec func(p []int, used []bool)
	rec = func(p []int, used []bool) {
		if len(p) == n {
			fn(p)
			return
		}
		for i := range n {
			if !used[i] {
				used[i] = true
				rec(append(p, i), used)
				used[i] = false
			}
		}
	}
	rec(nil, make([]bool, n))
}

// namedRun is a run and the file it came from.
type namedRun struct {
	origin string
	run    Run
}

// builtFrom adds the runs in the given order.
func builtFrom(runs []namedRun, order []int, opts BuildOptions) *Dataset {
	b := NewBuilder(opts)
	for _, i := range order {
		b.Add(runs[i].origin, runs[i].run)
	}
	return b.Dataset()
}

func errorStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestBuilderIdenticalEverywhere: the same results in many files are
// neither a warning nor a note; different ones are one warning each.
func TestBuilderIdenticalEverywhere(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	m := Machine{Name: "m"}
	for v := 1; v <= 5; v++ {
		for a := 1; a <= 20; a++ {
			id := fmt.Sprintf("%040d", a)
			b.Add(fmt.Sprintf("copy%d/%d.json", v, a),
				Run{Artifact: Artifact{ID: id, Date: day0.Add(time.Duration(a) * time.Hour), Title: "commit " + id[38:]}, Machine: m,
					Results: []Result{result("x", "wall-time", "ns", float64(a), 2*float64(a))}})
		}
	}
	b.Add("other.json", Run{Artifact: Artifact{ID: fmt.Sprintf("%040d", 7)}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 8)}})
	d := b.Dataset()
	want := []string{"other.json: duplicate result for x wall-time on m at " + fmt.Sprintf("%040d", 7) + " (first in copy1/7.json); keeping the first"}
	if diff := cmp.Diff(want, errorStrings(d.Warnings)); diff != "" || len(d.Notes) != 0 {
		t.Errorf("warnings (-want +got):\n%s\nnotes %v", diff, d.Notes)
	}
	if len(d.Artifacts) != 20 || len(d.Series) != 1 || len(d.Series[0].Points) != 20 || d.Artifacts[6].Title != "commit 07" {
		t.Errorf("dataset: %d artifacts, %+v", len(d.Artifacts), d.Series)
	}
}

// TestBuilderMetadataDeterministic: archives that disagree on an
// artifact's title or date give the same artifact and the same warnings
// whatever order they are read in; fields the project history supplies
// are not warned about.
func TestBuilderMetadataDeterministic(t *testing.T) {
	m := Machine{Name: "m"}
	run := func(a Artifact, v float64) Run {
		return Run{Artifact: a, Machine: m, Results: []Result{result("x", "wall-time", "ns", v)}}
	}
	a := sha('a')
	runs := []namedRun{
		{"z.json", run(Artifact{ID: a, Date: day0.Add(time.Hour), Title: "Zebra", PR: 12}, 1)},
		{"b.json", run(Artifact{ID: a, Date: day0, Title: "apple", Branch: "main"}, 1)},
		{"m.json", run(Artifact{ID: a, Date: day0.Add(2 * time.Hour), Title: "Mango", PR: 10}, 1)},
	}
	wantArtifact := Artifact{ID: a, Kind: KindCommit, Date: day0, Title: "Mango", PR: 10, Branch: "main"}
	wantWarnings := []string{
		"artifact " + a + ": archives disagree on its date: 2026-09-07T10:00:00Z in b.json, 2026-09-07T11:00:00Z in z.json, 2026-09-07T12:00:00Z in m.json; using 2026-09-07T10:00:00Z, the earliest",
		"artifact " + a + ": archives disagree on its pr: 10 in m.json, 12 in z.json; using 10, the lowest",
		"artifact " + a + `: archives disagree on its title: "Mango" in m.json, "Zebra" in z.json, "apple" in b.json; using "Mango", the first in byte order`,
	}
	permutations(len(runs), func(order []int) {
		d := builtFrom(runs, order, BuildOptions{})
		if diff := cmp.Diff([]Artifact{wantArtifact}, d.Artifacts); diff != "" {
			t.Errorf("order %v: artifact (-want +got):\n%s", order, diff)
		}
		if diff := cmp.Diff(wantWarnings, errorStrings(d.Warnings)); diff != "" {
			t.Errorf("order %v: warnings (-want +got):\n%s", order, diff)
		}
		if len(d.Notes) != 0 {
			t.Errorf("order %v: notes %v", order, d.Notes)
		}
	})

	// The project history knows the commit: its date, title and PR are
	// used, and the archives' disagreement about them is moot.
	h := []Artifact{{ID: a, Kind: KindCommit, Date: day0.Add(-time.Hour), Title: "Speed up (#12)", PR: 12}}
	d := builtFrom(runs, []int{0, 1, 2}, BuildOptions{History: h})
	if len(d.Warnings) != 0 {
		t.Errorf("with history: warnings %v", d.Warnings)
	}
	if got := d.Artifacts[0]; got.Title != "Speed up (#12)" || got.PR != 12 || !got.Date.Equal(day0.Add(-time.Hour)) {
		t.Errorf("with history: artifact %+v", got)
	}
}

// TestBuilderSeriesSizes: series given their size from an earlier build
// keep their points in one array, in place; the dataset is the same as
// without sizes, whether a size is right, short or long, with duplicates
// in other files and points of dropped artifacts.
func TestBuilderSeriesSizes(t *testing.T) {
	m := Machine{Name: "m"}
	var runs []namedRun
	for v := 1; v <= 3; v++ {
		for a := 1; a <= 40; a++ {
			id := fmt.Sprintf("%040d", a)
			x := float64(a * v) // other files disagree with the first
			runs = append(runs, namedRun{fmt.Sprintf("copy%d/data.json", v),
				Run{Artifact: Artifact{ID: id, Date: day0.Add(time.Duration(a) * time.Hour)}, Machine: m,
					Results: []Result{result("x", "wall-time", "ns", x, x+1, x+2), result("y", "wall-time", "ns", 5, 3, 4)}}})
		}
	}
	// A result in a file of its own for an artifact with no date: the
	// artifact and its points are left out of the dataset.
	runs = append(runs, namedRun{"undated.json", Run{Artifact: Artifact{ID: sha('u')}, Machine: m,
		Results: []Result{result("x", "wall-time", "ns", 1)}}})
	order := make([]int, len(runs))
	for i := range order {
		order[i] = len(runs) - 1 - i // artifacts newest first: points arrive out of order
	}
	want := builtFrom(runs, order, BuildOptions{})
	exact := map[SeriesKey]int{}
	for _, s := range want.Series {
		exact[s.Key] = len(s.Points)
	}
	scaled := func(f func(int) int) map[SeriesKey]int {
		out := map[SeriesKey]int{}
		for k, n := range exact {
			out[k] = f(n)
		}
		return out
	}
	for name, sizes := range map[string]map[SeriesKey]int{
		"exact": exact,
		"short": scaled(func(int) int { return 1 }),
		"long":  scaled(func(n int) int { return 10 * n }),
	} {
		got := builtFrom(runs, order, BuildOptions{SeriesSizes: sizes})
		if diff := cmp.Diff(want.Series, got.Series, samplesByValue); diff != "" {
			t.Errorf("%s sizes: series differ (-without +with):\n%s", name, diff)
		}
		if diff := cmp.Diff(errorStrings(want.Warnings), errorStrings(got.Warnings)); diff != "" {
			t.Errorf("%s sizes: warnings differ:\n%s", name, diff)
		}
		if diff := cmp.Diff(want.Notes, got.Notes); diff != "" {
			t.Errorf("%s sizes: notes differ:\n%s", name, diff)
		}
	}
	if len(want.Series) != 2 || len(want.Series[0].Points) != 40 || len(want.Artifacts) != 40 {
		t.Fatalf("the test's dataset is not what it means to be: %d series, %d artifacts", len(want.Series), len(want.Artifacts))
	}
}

// TestPRsHaveHeads: a PR number named only by a commit off the main line
// (a merge commit off the first-parent chain) has no head, so it gets no
// PR page: PRs lists only the PRs PRHead finds, and a note says why the
// others are missing.
func TestPRsHaveHeads(t *testing.T) {
	day := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	c1, c2, off, try := strings.Repeat("1", 40), strings.Repeat("2", 40), strings.Repeat("3", 40), strings.Repeat("4", 40)
	main := []Artifact{
		{ID: c1, Kind: KindCommit, Date: day},
		{ID: c2, Kind: KindCommit, Date: day.Add(time.Hour), Parents: []string{c1}, PR: 5},
	}
	other := []Artifact{{ID: off, Kind: KindCommit, Date: day.Add(2 * time.Hour), Parents: []string{c1, c2}, PR: 7, Title: "Merge pull request #7 from a/b"}}
	b := NewBuilder(BuildOptions{History: main, Other: other})
	for _, a := range []Artifact{main[0], main[1], other[0], {ID: try, Kind: KindTry, Date: day, PR: 9, Baseline: c1}} {
		b.Add("t", Run{Artifact: a, Machine: Machine{Name: "m"}, Results: []Result{{Case: TestCase{Benchmark: "x"}, Metric: "wall-time", Unit: "ns", Samples: []float64{1}}}})
	}
	d := b.Dataset()
	if diff := cmp.Diff([]int{5, 9}, d.PRs()); diff != "" {
		t.Errorf("PRs (-want +got):\n%s", diff)
	}
	for _, pr := range d.PRs() {
		if _, ok := d.PRHead(pr); !ok {
			t.Errorf("PR %d is listed without a head", pr)
		}
	}
	want := []string{"artifacts naming a PR that no main-line commit or try run names get no PR page (they are off the main line): 1 (e.g. 3333333 names #7)"}
	if diff := cmp.Diff(want, d.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// TestBuilderDisagreementsOnce: files that disagree on a field of many
// artifacts for one reason (each github-action-benchmark data.js makes
// the previous entry of its own list a commit's parent) are one warning
// that says how many, not one per artifact.
func TestBuilderDisagreementsOnce(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	m := Machine{Name: "m"}
	for f, file := range []string{"s3/data.js", "redis/data.js"} {
		for a := 1; a <= 5; a++ {
			id := fmt.Sprintf("%040d", a)
			b.Add(file, Run{Artifact: Artifact{ID: id, Date: day0.Add(time.Duration(a) * time.Hour), Parents: []string{fmt.Sprintf("%039d%d", f, a)}}, Machine: m,
				Context: Params{{Key: "suite", Value: file}}, Results: []Result{result("x", "wall-time", "ns", 1)}})
		}
	}
	d := b.Dataset()
	got := errorStrings(d.Warnings)
	if len(got) != 1 || !strings.HasPrefix(got[0], "archives disagree on the parents of 5 artifacts, each settled by its rule (e.g. artifact "+fmt.Sprintf("%040d", 1)+": archives disagree on its parents:") {
		t.Errorf("warnings: %q", got)
	}
}

// TestParentsOfSubsets: data.js files that list different parts of one
// main line (a runner that skipped a commit) name different parents for
// the commit after the gap; the nearest, which descends from the others,
// is the parent, and that is no disagreement. A parent that is not on the
// chain is one, settled by the rule.
func TestParentsOfSubsets(t *testing.T) {
	id := func(i int) string { return fmt.Sprintf("%040d", i) }
	add := func(b *Builder, file string, chain []int) {
		for k, a := range chain {
			art := Artifact{ID: id(a), Date: day0.Add(time.Duration(a) * time.Hour)}
			if k > 0 {
				art.Parents = []string{id(chain[k-1])}
			}
			b.Add(file, Run{Artifact: art, Machine: Machine{Name: file}, Results: []Result{result("x", "wall-time", "ns", 1)}})
		}
	}
	b := NewBuilder(BuildOptions{})
	add(b, "linux/data.js", []int{10, 20, 30, 40, 50})
	add(b, "windows/data.js", []int{10, 30, 50}) // skipped 20 and 40
	add(b, "macos/data.js", []int{10, 40, 50})
	d := b.Dataset()
	if len(d.Warnings) != 0 {
		t.Errorf("warnings %q, want none", errorStrings(d.Warnings))
	}
	for i, a := range d.Artifacts {
		if want := []string{id(10 * i)}; i > 0 && !slices.Equal(a.Parents, want) {
			t.Errorf("artifact %s: parents %v, want %v", a.ID, a.Parents, want)
		}
	}

	b = NewBuilder(BuildOptions{})
	add(b, "linux/data.js", []int{10, 20, 30, 40, 50})
	add(b, "fork/data.js", []int{10, 45, 50}) // 45: a commit off the chain
	d = b.Dataset()
	got := errorStrings(d.Warnings)
	want := "artifact " + id(50) + ": archives disagree on its parents: [" + id(40) + "] in linux/data.js, [" + id(45) + "] in fork/data.js; using [" + id(40) + "], the first in byte order"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("warnings %q, want one beginning %q", got, want)
	}
}

// TestMainLineFollowsParents: without the project's history, the main
// line is the main branch's commits by date, except that a commit comes
// after its first parent. A github-action-benchmark history gives each run
// the previous run as parent, and its commits' (author) dates can go
// backwards.
func TestMainLineFollowsParents(t *testing.T) {
	type art struct {
		id     byte
		hour   int
		parent byte // 0: none
		kind   ArtifactKind
	}
	tests := []struct {
		name     string
		arts     []art
		want     string // main line, oldest first
		warnings []string
	}{
		{
			name: "no parents: by date",
			arts: []art{{'c', 2, 0, KindCommit}, {'a', 0, 0, KindCommit}, {'b', 1, 0, KindCommit}},
			want: "abc",
		},
		{
			name: "parents agree with dates",
			arts: []art{{'a', 0, 0, KindCommit}, {'b', 1, 'a', KindCommit}, {'c', 2, 'b', KindCommit}},
			want: "abc",
		},
		{
			name: "author dates go backwards: the chain wins",
			// Pushed a, b, c, d; b was authored before a, d before c.
			arts: []art{{'a', 5, 0, KindCommit}, {'b', 1, 'a', KindCommit}, {'c', 9, 'b', KindCommit}, {'d', 7, 'c', KindCommit}},
			want: "abcd",
		},
		{
			name: "commits without parents keep their dates among the chain",
			arts: []art{{'a', 5, 0, KindCommit}, {'b', 1, 'a', KindCommit}, {'x', 3, 0, KindCommit}, {'y', 6, 0, KindCommit}},
			want: "xaby",
		},
		{
			name: "a parent that is not on the main line says nothing",
			arts: []art{{'a', 5, 't', KindCommit}, {'b', 1, 0, KindCommit}, {'t', 0, 0, KindTry}},
			want: "ba",
		},
		{
			name:     "a parent cycle keeps date order, last, with a warning",
			arts:     []art{{'a', 0, 0, KindCommit}, {'b', 1, 'c', KindCommit}, {'c', 2, 'b', KindCommit}, {'d', 3, 'a', KindCommit}},
			want:     "adbc",
			warnings: []string{"main line: the first parents of artifacts " + sha('b') + ", " + sha('c') + " form a cycle (or descend from one); they are placed last, by date"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder(BuildOptions{})
			for _, a := range tt.arts {
				art := Artifact{ID: sha(a.id), Kind: a.kind, Date: day0.Add(time.Duration(a.hour) * time.Hour)}
				if a.parent != 0 {
					art.Parents = []string{sha(a.parent)}
				}
				b.Add(string(a.id), Run{Artifact: art, Machine: Machine{Name: "m"}, Results: []Result{result("x", "wall-time", "ns", float64(a.hour+1))}})
			}
			d := b.Dataset()
			var got strings.Builder
			for p, a := range d.MainLine {
				got.WriteByte(d.Artifacts[a].ID[0])
				if d.MainPos(a) != p {
					t.Errorf("MainPos(%d) = %d, want %d", a, d.MainPos(a), p)
				}
			}
			if got.String() != tt.want {
				t.Errorf("main line = %s, want %s", got.String(), tt.want)
			}
			var warnings []string
			for _, w := range d.Warnings {
				warnings = append(warnings, w.Error())
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPointSize: a dataset holds every point in memory (fifty million at
// L); what few points have stays out of line.
func TestPointSize(t *testing.T) {
	if n := unsafe.Sizeof(Point{}); n != 24 {
		t.Errorf("a Point is %d bytes, want 24", n)
	}
	var p Point
	p.SetFailure("exit status 2")
	p.setRare([]float64{1}, nil)
	q := p
	q.SetFailure("other")
	if p.Failure() != "exit status 2" || q.Failure() != "other" || len(q.Iters()) != 1 {
		t.Errorf("failures %q %q, iters %v", p.Failure(), q.Failure(), q.Iters())
	}
	// Rare values live in a source of the point's own; samples set before
	// or after them stay, and a source shared by other points never gets
	// them.
	var b Builder
	var sb seriesBuild
	var x, y Point
	x.setSamples(b.encodeSamples(&sb, []float64{1, 2}))
	y.setSamples(b.encodeSamples(&sb, []float64{3}))
	x.SetFailure("crashed")
	x.setRare([]float64{5, 6}, &SampleSummary{N: 2})
	if y.Failure() != "" || y.Iters() != nil || b.encSlab.rare != nil || x.Failure() != "crashed" || len(x.Iters()) != 2 || x.Summary().N != 2 || !slices.Equal(x.Samples(), []float64{1, 2}) {
		t.Errorf("after setting x's rare values: x %q %v %v %v, y %q %v", x.Failure(), x.Iters(), x.Summary(), x.Samples(), y.Failure(), y.Iters())
	}
	x.SetSamples([]float64{7})
	x.SetZeroSamples(3)
	if x.Failure() != "crashed" || len(x.Iters()) != 2 || !slices.Equal(x.Samples(), []float64{0, 0, 0}) || zeroSamples.rare != nil {
		t.Errorf("after new samples: %q %v %v", x.Failure(), x.Iters(), x.Samples())
	}
	x.setRare(nil, nil)
	x.SetFailure("")
	if x.Failure() != "" || x.Iters() != nil || x.Summary() != nil || x.NumSamples() != 3 {
		t.Errorf("rare values cleared: %q %v %v, %d samples", x.Failure(), x.Iters(), x.Summary(), x.NumSamples())
	}
	// The rare bit is what rare() reads instead of the source: it says
	// whether the point's source has rare values, through every change.
	for name, pt := range map[string]*Point{"p": &p, "q": &q, "x": &x, "y": &y} {
		if has := pt.src != nil && pt.src.rare != nil; has != (pt.ref&rareBit != 0) {
			t.Errorf("%s: source has rare values %v, rare bit %v", name, has, pt.ref&rareBit != 0)
		}
	}
	x.SetFailure("again")
	x.SetSamples(make([]float64, maxInlineN+5)) // a source of its own past the inline limit
	if x.ref&rareBit == 0 || x.Failure() != "again" || x.NumSamples() != maxInlineN+5 {
		t.Errorf("past the limit: rare bit %v, %q, %d samples", x.ref&rareBit != 0, x.Failure(), x.NumSamples())
	}
}

// TestBuiltSamplesEncoded: the points a builder adds hold their samples
// encoded in the builder's slabs, which give back every value bit for
// bit (full-precision floats, −0, subnormals, the largest floats beside
// values of a few digits), and a point's value is reduced from the
// samples as the result gave them.
func TestBuiltSamplesEncoded(t *testing.T) {
	groups := [][]float64{
		{1.5, 2.25, 1.75},
		{0.1 + 0.2, 1.0 / 3},
		{math.Copysign(0, -1), 5e-324, math.MaxFloat64},
		{123456789012, 17},
		{2.5},
	}
	b := NewBuilder(BuildOptions{})
	m := Machine{Name: "m"}
	for i, xs := range groups {
		a := Artifact{ID: sha(byte('a' + i)), Kind: KindCommit, Date: day0.Add(time.Duration(i) * time.Hour), Branch: "main"}
		if i > 0 {
			a.Parents = []string{sha(byte('a' + i - 1))}
		}
		b.Add(a.ID[:1], Run{Artifact: a, Machine: m, Results: []Result{result("x", "wall-time", "ns", slices.Clone(xs)...)}})
	}
	d := b.Dataset()
	if len(d.Series) != 1 || len(d.Series[0].Points) != len(groups) {
		t.Fatalf("series = %+v", d.Series)
	}
	for i, xs := range groups {
		p := d.Series[0].At(i)
		if p == nil || p.src == nil || p.src.enc == nil {
			t.Fatalf("point %d: samples not encoded: %+v", i, p)
		}
		got := p.Samples()
		if len(got) != len(xs) || p.NumSamples() != len(xs) {
			t.Fatalf("point %d: %v, want %v", i, got, xs)
		}
		for k := range xs {
			if math.Float64bits(got[k]) != math.Float64bits(xs[k]) {
				t.Errorf("point %d sample %d: %v (%#x), want %v (%#x)", i, k, got[k], math.Float64bits(got[k]), xs[k], math.Float64bits(xs[k]))
			}
		}
		if want, _ := SingleValue(xs, d.Series[0].Value, d.Series[0].Metric.Direction); p.Value != want || !p.OK() {
			t.Errorf("point %d: value %v, want %v", i, p.Value, want)
		}
	}
}

// TestOrderScratch: points in any order come out sorted by artifact,
// dense series through the slots, sparse ones sorted, every point kept
// with its values.
func TestOrderScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var o orderScratch
	for _, c := range []struct{ n, arts int }{{0, 10}, {1, 1}, {7, 10}, {300, 1000}, {50, 1000}, {1000, 1000}, {3, 5000}} {
		pts := make([]Point, c.n)
		for i, a := range rng.Perm(c.arts)[:c.n] {
			pts[i] = Point{Artifact: int32(a)}
			pts[i].SetValue(float64(a)/2, a%3 == 0)
			pts[i].SetSamples([]float64{float64(a)})
		}
		o.order(pts, c.arts)
		for i, p := range pts {
			if i > 0 && pts[i-1].Artifact >= p.Artifact || p.Value != float64(p.Artifact)/2 || p.OK() != (p.Artifact%3 == 0) || p.Samples()[0] != float64(p.Artifact) {
				t.Fatalf("%d of %d artifacts: point %d is %+v after %+v", c.n, c.arts, i, p, pts[max(i-1, 0)])
			}
		}
	}
	// Two points of one artifact are both kept, in their order.
	pts := []Point{{Artifact: 2, Value: 1}, {Artifact: 0}, {Artifact: 2, Value: 2}}
	o.order(pts, 3)
	if pts[0].Artifact != 0 || pts[1].Value != 1 || pts[2].Value != 2 {
		t.Fatalf("duplicates: %+v", pts)
	}
}

// TestPooledMachines: CI runners that get a new name every run, pooled by
// a rule, are one machine with one series per benchmark; a commit run on
// two of them keeps the first run's result and is a note, not a warning;
// a machine no rule matches is left alone; a resumed builder counts on.
func TestPooledMachines(t *testing.T) {
	opts := BuildOptions{Machines: []MachineRule{{Match: "fv-az*", Name: "github-hosted"}, {Match: "runner-?", Name: "github-hosted"}}}
	run := func(machine string, c byte, hour int, v float64) Run {
		return Run{Artifact: Artifact{ID: sha(c), Date: day0.Add(time.Duration(hour) * time.Hour)},
			Machine: Machine{Name: machine, CPU: "cpu of " + machine, Cores: hour + 1},
			Results: []Result{result("x", "wall-time", "ns", v)}}
	}
	b := NewBuilder(opts)
	b.Add("fv-az1/a.json", run("fv-az1", 'a', 0, 10))
	b.Add("fv-az1/b.json", run("fv-az1", 'b', 1, 11))
	b.Add("fv-az2/b.json", run("fv-az2", 'b', 1, 12)) // b again, on another runner
	state, chunk := writeState(t, b, 0)
	b.Add("runner-3/c.json", run("runner-3", 'c', 2, 13))
	b.Add("runner-4/c.json", run("runner-4", 'c', 2, 14))
	b.Add("lab/c.json", run("lab", 'c', 2, 20))
	check := func(name string, d *Dataset) {
		t.Helper()
		if len(d.Warnings) != 0 {
			t.Errorf("%s: warnings %v, want none", name, d.Warnings)
		}
		wantMachines := []Machine{{Name: "github-hosted", Labels: Params{{Key: "runners", Value: "fv-az* runner-?"}}}, {Name: "lab", CPU: "cpu of lab", Cores: 3}}
		if diff := cmp.Diff(wantMachines, d.Machines); diff != "" {
			t.Errorf("%s: machines (-want +got):\n%s", name, diff)
		}
		s, ok := d.SeriesByKey(SeriesKey{Machine: "github-hosted", Context: "", Benchmark: "x", Params: "", Metric: "wall-time"})
		if !ok {
			t.Fatalf("%s: no pooled series among %v", name, d.Series)
		}
		var got []float64
		for _, p := range s.Points {
			got = append(got, p.Value)
		}
		if diff := cmp.Diff([]float64{10, 11, 13}, got); diff != "" {
			t.Errorf("%s: pooled values (-want +got):\n%s", name, diff)
		}
		want := []string{"machine github-hosted pools the runners fv-az* runner-?: 2 results are of commits another of its runners had run already; the first run's results are kept (sources in configuration order, files by name)"}
		if diff := cmp.Diff(want, d.Notes); diff != "" {
			t.Errorf("%s: notes (-want +got):\n%s", name, diff)
		}
	}
	check("built", b.Dataset())

	r, err := ResumeBuilder(opts, state, chunk, func(i int, origin string) (int, string, bool) { return i, origin, true })
	if err != nil {
		t.Fatal(err)
	}
	r.Add("runner-3/c.json", run("runner-3", 'c', 2, 13))
	r.Add("runner-4/c.json", run("runner-4", 'c', 2, 14))
	r.Add("lab/c.json", run("lab", 'c', 2, 20))
	check("resumed", r.Dataset())

	// Another rule is another state: not resumed.
	if _, err := ResumeBuilder(BuildOptions{}, state, chunk, func(i int, origin string) (int, string, bool) { return i, origin, true }); err == nil {
		t.Error("a state of other machine rules resumed")
	}
}

// TestGuessedDirectionByUnit: a metric whose direction nothing states is
// warned about once per unit, naming the section that sets it — the
// metric's, or the unit's within it when the metric's series come in
// several units (asv's track_ benchmarks); a unit's section sets the
// direction and noise class of that unit's series only.
func TestGuessedDirectionByUnit(t *testing.T) {
	m := Machine{Name: "m"}
	runs := []namedRun{{"a.json", Run{Artifact: Artifact{ID: sha('a'), Date: day0}, Machine: m, Results: []Result{
		result("solve.track_gflopss", "track", "gflopss", 10),
		result("solve.track_runtime", "track", "runtime (s)", 2),
		result("solve.rate", "score", "points", 5),
	}}}}
	dirs := func(d *Dataset) map[string]string {
		out := map[string]string{}
		for _, s := range d.Series {
			out[s.Case.Benchmark] = fmt.Sprintf("%s %s guessed=%v", s.Metric.Direction, s.Metric.Noise, s.Metric.Guessed)
		}
		return out
	}
	d := builtFrom(runs, []int{0}, BuildOptions{})
	want := []string{
		`metric "score" (unit "points"): neither the results nor the configuration say whether lower or higher is better, and its unit does not tell; it is taken as lower is better: set [metrics."score"] direction = "higher" (or "lower") in the config (first read from a.json)`,
		`metric "track" (unit "gflopss"): neither the results nor the configuration say whether lower or higher is better, and its unit does not tell; it is taken as lower is better: set [metrics."track".units."gflopss"] direction = "higher" (or "lower") in the config (first read from a.json)`,
		`metric "track" (unit "runtime (s)"): neither the results nor the configuration say whether lower or higher is better, and its unit does not tell; it is taken as lower is better: set [metrics."track".units."runtime (s)"] direction = "higher" (or "lower") in the config (first read from a.json)`,
	}
	if diff := cmp.Diff(want, errorStrings(d.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}

	opts := BuildOptions{
		Metrics:     map[string]Metric{"track": {Name: "track", Direction: LowerIsBetter}},
		UnitMetrics: []Metric{{Name: "track", Unit: "gflopss", Direction: HigherIsBetter, Noise: Reliable}},
	}
	d = builtFrom(runs, []int{0}, opts)
	wantDirs := map[string]string{
		"solve.track_gflopss": "higher reliable guessed=false",
		"solve.track_runtime": "lower noisy guessed=false",
		"solve.rate":          "lower noisy guessed=true",
	}
	if diff := cmp.Diff(wantDirs, dirs(d)); diff != "" {
		t.Errorf("directions (-want +got):\n%s", diff)
	}
	if len(d.Warnings) != 1 {
		t.Errorf("warnings %v, want the one of metric score", d.Warnings)
	}
	// The units' sections are part of what the builder's state depends on.
	if NewBuilder(opts).optionsKey() == NewBuilder(BuildOptions{Metrics: opts.Metrics}).optionsKey() {
		t.Error("the options key does not tell the units' sections apart")
	}
}

// TestRateUnits: an amount per unit of time is a rate, higher is better,
// whatever the time unit (JMH writes ops/ms for a benchmark whose output
// time unit is milliseconds; it was lower is better, as a unit that is
// not "/s"); a time per operation, a size or a time per time is not.
func TestRateUnits(t *testing.T) {
	for unit, rate := range map[string]bool{
		"MB/s": true, "ops/s": true, "ops/ms": true, "ops/us": true, "ops/min": true, "iter/sec": true,
		"req/second": true, "rays/sec": true, "points/s": true, "OPS/MS": true,
		"ns/op": false, "ms/iter": false, "s/s": false, "B/op": false, "ops": false, "/s": false, "a/b/s": false, "": false,
	} {
		if got := IsRate(unit); got != rate {
			t.Errorf("IsRate(%q) = %v, want %v", unit, got, rate)
		}
		m := DefaultMetric("x", unit)
		higher := rate || unit == "ops"
		if higher && (m.Direction != HigherIsBetter || m.Guessed) {
			t.Errorf("DefaultMetric(x, %q) = %+v, want higher is better, not guessed", unit, m)
		}
		if !higher && m.Direction != LowerIsBetter {
			t.Errorf("DefaultMetric(x, %q) = %+v, want lower is better", unit, m)
		}
	}
	// What KnownDirection takes as telling higher is better, DefaultMetric
	// makes higher is better (a series in "rps" was lower is better, with
	// no warning, since its direction was known).
	for _, c := range []struct{ name, unit string }{{"x", "rps"}, {"x", "QPS"}, {"x", "Hz"}, {"x", "ops"}, {"throughput", ""}, {"read-throughput", "MiB"}} {
		if m := DefaultMetric(c.name, c.unit); m.Direction != HigherIsBetter || m.Guessed || !KnownDirection(c.name, c.unit) {
			t.Errorf("DefaultMetric(%q, %q) = %+v, want higher is better, not guessed", c.name, c.unit, m)
		}
	}
}

// TestContradictedDirection: results that say the other way is better
// than their unit does (github-action-benchmark's customBiggerIsBetter
// for times in ms) are taken as they say, with one warning per metric and
// unit naming the config section that settles it; none once the config
// says which way, and none for a unit that does not tell.
func TestContradictedDirection(t *testing.T) {
	build := func(o BuildOptions, unit string, dir Direction) []string {
		b := NewBuilder(o)
		for i, name := range []string{"fib", "tak"} {
			a := Artifact{ID: sha(byte('a' + i)), Kind: KindCommit, Date: day0.Add(time.Duration(i) * time.Hour), Branch: "main"}
			r := result(name, "wall-time", unit, 510, 512)
			r.Direction = dir
			b.Add("data.js", Run{Artifact: a, Machine: Machine{Name: "m"}, Results: []Result{r}})
		}
		d := b.Dataset()
		want := o.Metrics["wall-time"].Direction
		if want == "" {
			want = dir
		}
		if got := d.Series[0].Metric.Direction; want != "" && got != want {
			t.Errorf("unit %q: direction %q, want %q", unit, got, want)
		}
		var ws []string
		for _, w := range d.Warnings {
			ws = append(ws, w.Error())
		}
		return ws
	}
	ws := build(BuildOptions{}, "ms", HigherIsBetter)
	want := `metric "wall-time" (unit "ms"): the results say higher is better, though the unit says lower; taken as the results say: if that is a mistake (github-action-benchmark's customBiggerIsBetter for times, customSmallerIsBetter for rates), set [metrics."wall-time"] direction = "lower" in the config (first read from data.js)`
	if len(ws) != 1 || ws[0] != want {
		t.Errorf("warnings %q, want one:\n%s", ws, want)
	}
	if ws := build(BuildOptions{}, "MB/s", LowerIsBetter); len(ws) != 1 || !strings.Contains(ws[0], `the results say lower is better, though the unit says higher`) {
		t.Errorf("a rate lower is better: warnings %q", ws)
	}
	for name, o := range map[string]BuildOptions{
		"configured": {Metrics: map[string]Metric{"wall-time": {Direction: HigherIsBetter}}},
		"by unit":    {UnitMetrics: []Metric{{Name: "wall-time", Unit: "ms", Direction: HigherIsBetter}}},
	} {
		if ws := build(o, "ms", HigherIsBetter); len(ws) != 0 {
			t.Errorf("%s: warnings %q", name, ws)
		}
	}
	// A metric in several units: the section is the unit's, as for a
	// guessed direction; one direction would not fit them all.
	b := NewBuilder(BuildOptions{})
	for i := range 2 {
		a := Artifact{ID: sha(byte('a' + i)), Kind: KindCommit, Date: day0.Add(time.Duration(i) * time.Hour), Branch: "main"}
		slow, fast := result("fib", "wall-time", "ms", 510), result("tak", "wall-time", "ns", 12)
		slow.Direction = HigherIsBetter
		b.Add("data.js", Run{Artifact: a, Machine: Machine{Name: "m"}, Results: []Result{slow, fast}})
	}
	if ws := b.Dataset().Warnings; len(ws) != 1 || !strings.Contains(ws[0].Error(), `set [metrics."wall-time".units."ms"] direction = "lower"`) {
		t.Errorf("a metric in two units: warnings %v", ws)
	}
	for unit, dir := range map[string]Direction{"ms": LowerIsBetter, "ns": "", "%": HigherIsBetter} {
		if ws := build(BuildOptions{}, unit, dir); len(ws) != 0 {
			t.Errorf("unit %q, results %q: warnings %q", unit, dir, ws)
		}
	}
}
