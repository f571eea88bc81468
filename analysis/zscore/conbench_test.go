package zscore

// Known answers from Conbench's own test suite (conbench 3af4a55):
// conbench/tests/entities/test_history.py, conbench/tests/api/test_compare.py
// and the fixture conbench/tests/api/_fixtures.py gen_fake_data(). The
// tests compare like Conbench's assert_equal_leeway: equal within 1e-13, or
// equal to 4 significant figures.

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// none marks an expected "no z-score" (Conbench's None).
var none = math.NaN()

func day(d, h int) time.Time { return time.Date(2022, 1, d, h, 0, 0, 0, time.UTC) }

// fxCommit is a commit of the fixture with the parent the baseline
// strategies need.
type fxCommit struct {
	Commit
	parent string
	repo   string
}

// fxResult is one benchmark result of the fixture. A nil data is an errored
// result. fp stands for Conbench's history fingerprint (repository,
// hardware, case and context).
type fxResult struct {
	data   []float64
	commit string
	fp     string
}

const repoMain = "https://github.com/org/something"

// fakeCommits are gen_fake_data's commits.
func fakeCommits() []fxCommit {
	var cs []fxCommit
	prev := ""
	for i, id := range []string{"11111", "22222", "33333", "44444", "55555", "66666"} {
		cs = append(cs, fxCommit{Commit{id, day(1+i, 0), "default", id}, prev, repoMain})
		prev = id
	}
	for _, c := range []struct {
		id, parent, fork string
		t                time.Time
	}{
		{"aaaaa", "22222", "22222", day(2, 10)}, // start at 22222
		{"bbbbb", "aaaaa", "22222", day(3, 10)},
		{"ccccc", "33333", "33333", day(2, 10)}, // rebase to 33333
		{"ddddd", "ccccc", "33333", day(3, 10)},
		{"eeeee", "44444", "44444", day(2, 10)}, // rebase to 44444
		{"fffff", "eeeee", "44444", day(3, 10)},
		{"00000", "fffff", "44444", day(4, 10)}, // new commit on the branch
	} {
		cs = append(cs, fxCommit{Commit{c.id, c.t, "branch", c.fork}, c.parent, repoMain})
	}
	cs = append(cs,
		fxCommit{Commit{"abcde", day(3, 0), "default", "abcde"}, "12345", "https://github.com/org/something_else"},
		// An "unknown context" commit: no branch, fork point, parent or time.
		fxCommit{Commit{ID: "sha"}, "", "https://github.com/org/something_else_entirely"},
	)
	return cs
}

// fakeResults are gen_fake_data's results, indices 0…15.
func fakeResults() []fxResult {
	return []fxResult{
		{[]float64{2.1, 2.0, 1.9}, "11111", "main"},     // 0 first commit
		{[]float64{2.2, 2.0, 2.1}, "22222", "main"},     // 1 stayed the sameish
		{nil, "aaaaa", "main"},                          // 2 failed on PR
		{[]float64{2.0, 2.1, 1.9}, "bbbbb", "main"},     // 3 fixed the PR
		{[]float64{1.9, 2.0, 1.8}, "ddddd", "main"},     // 4 rebased onto 33333
		{[]float64{1.2, 1.1, 1.0}, "44444", "main"},     // 5 default branch got better
		{[]float64{1.0, 1.2, 1.1}, "fffff", "main"},     // 6 rebased the PR
		{[]float64{3.1, 3.0, 2.9}, "00000", "main"},     // 7 PR got worse
		{[]float64{4.1, 4.0, 4.9}, "66666", "main"},     // 8 66666 got even worse
		{[]float64{4.5, 4.6, 4.7}, "66666", "main"},     // 9 another run on 66666
		{nil, "abcde", "other-repo"},                    // 10 on a different repo
		{[]float64{20.0, 20.1, 20.2}, "sha", "unknown"}, // 11 unknown-context commit
		{[]float64{5.1, 5.2, 5.3}, "66666", "case"},     // 12 different case
		{[]float64{5.1, 5.2, 5.3}, "66666", "context"},  // 13 different context
		{[]float64{5.1, 5.2, 5.3}, "66666", "hardware"}, // 14 different hardware
		{[]float64{5.1, 5.2, 5.3}, "66666", "main"},     // 15 run reason "nightly": same fingerprint
	}
}

// fixture is a repository history with results, scored the way
// Conbench's set_z_scores scores one contender against a baseline commit.
type fixture struct {
	commits   []fxCommit
	results   []fxResult
	kind      string          // SVS kind
	annotated map[string]bool // commits whose results begin a distribution change
}

func (f *fixture) commit(id string) *fxCommit {
	for i := range f.commits {
		if f.commits[i].ID == id {
			return &f.commits[i]
		}
	}
	return nil
}

// A baseline strategy picks the baseline commit of a contender's commit;
// nil means none.
type strategy func(f *fixture, c *fxCommit) *fxCommit

// closest is the parent on the default branch, else the fork point.
func closest(f *fixture, c *fxCommit) *fxCommit {
	if c.ID == c.ForkPoint {
		return f.commit(c.parent)
	}
	if c.ForkPoint == "" {
		return nil
	}
	return f.commit(c.ForkPoint)
}

func parent(f *fixture, c *fxCommit) *fxCommit {
	if c.parent == "" {
		return nil
	}
	return f.commit(c.parent)
}

// head is the newest commit on the default branch of the main repository.
func head(f *fixture, _ *fxCommit) *fxCommit {
	var h *fxCommit
	for i := range f.commits {
		c := &f.commits[i]
		if c.repo == repoMain && c.Branch == "default" && (h == nil || c.Time.After(h.Time)) {
			h = c
		}
	}
	return h
}

// score scores result i against the baseline its strategy picks.
func (f *fixture) score(t *testing.T, i int, pick strategy) Z {
	t.Helper()
	r := f.results[i]
	contender := none
	if r.data != nil {
		v, ok := SVS(r.data, true, f.kind) // unit s: less is better
		if !ok {
			t.Fatalf("result %d: no SVS", i)
		}
		contender = v
	}
	b := pick(f, f.commit(r.commit))
	if b == nil {
		return Score(contender, Dist{Reason: "no baseline commit"}, true, DefaultThreshold)
	}
	var repo []Commit
	for _, c := range f.commits {
		if c.repo == b.repo {
			repo = append(repo, c.Commit)
		}
	}
	ids, err := Ancestry(repo, b.ID, DefaultCommits)
	if err != nil {
		return Score(contender, Dist{Reason: err.Error()}, true, DefaultThreshold)
	}
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	var obs []Observation
	for _, h := range f.results {
		if h.fp != r.fp || h.data == nil || !in[h.commit] {
			continue
		}
		v, _ := SVS(h.data, true, f.kind)
		obs = append(obs, Observation{Commit: h.commit, Time: f.commit(h.commit).Time, Value: v, BeginsChange: f.annotated[h.commit]})
	}
	return Score(contender, Distribution(obs, DefaultCommits), true, DefaultThreshold)
}

// checkZ compares like Conbench's assert_equal_leeway.
func checkZ(t *testing.T, name string, got Z, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		if got.OK {
			t.Errorf("%s: z = %.6g, want none", name, got.Z)
		}
		return
	}
	if !got.OK {
		t.Errorf("%s: no z-score (%s), want %.4g", name, got.Reason, want)
		return
	}
	if math.Abs(got.Z-want) < 1e-13 {
		return
	}
	if Round4(got.Z) != Round4(want) {
		t.Errorf("%s: z = %.6g (rounded %v), want %v", name, got.Z, Round4(got.Z), want)
	}
}

// The expected z-scores of test_set_z_scores, by (SVS kind, strategy).
var fakeExpected = map[string][]float64{
	"mean/closest": {none, none, none, 0.7071, 2.121, 13.44, 1.093, -2.186, -4.487, -4.947, none, none, none, none, none, -5.982},
	"mean/parent":  {none, none, none, 0.7071, 2.121, 13.44, 1.093, -2.825, -4.487, -4.947, none, none, none, none, none, -5.982},
	"mean/head":    {0.6625, 0.6083, none, 0.6625, 0.7167, 1.150, 1.150, 0.1205, -0.6023, -0.7468, none, none, none, none, none, -1.072},
	"best/closest": {none, none, none, 0.7071, 2.121, 13.44, 1.093, -2.186, -4.084, -4.947, none, none, none, none, none, -5.982},
	"best/parent":  {none, none, none, 0.7071, 2.121, 13.44, 1.093, -2.825, -4.084, -4.947, none, none, none, none, none, -5.982},
	"best/head":    {0.6518, 0.5967, none, 0.6518, 0.7069, 1.148, 1.148, 0.101, -0.5049, -0.7804, none, none, none, none, none, -1.111},
}

var strategies = map[string]strategy{"closest": closest, "parent": parent, "head": head}

func TestConbenchSetZScores(t *testing.T) {
	for _, kind := range []string{SVSMean, SVSBest} {
		for _, strat := range []string{"closest", "parent", "head"} {
			name := kind + "/" + strat
			t.Run(name, func(t *testing.T) {
				f := &fixture{commits: fakeCommits(), results: fakeResults(), kind: kind}
				want := fakeExpected[name]
				if len(want) != len(f.results) {
					t.Fatalf("%d expectations for %d results", len(want), len(f.results))
				}
				for i := range f.results {
					checkZ(t, fmt.Sprintf("result %d", i), f.score(t, i, strategies[strat]), want[i])
				}
				if strat == "head" {
					return
				}
				// Post another result on a new default-branch commit: it
				// scores against 66666, and no earlier score changes.
				f.commits = append(f.commits, fxCommit{Commit{"77777", day(7, 0), "default", "77777"}, "66666", repoMain})
				f.results = append(f.results, fxResult{[]float64{100, 101, 102}, "77777", "main"})
				newZ := -53.00
				if kind == SVSBest {
					newZ = -53.39
				}
				want = append(want[:len(want):len(want)], newZ)
				for i := range f.results {
					checkZ(t, fmt.Sprintf("with 77777, result %d", i), f.score(t, i, strategies[strat]), want[i])
				}
			})
		}
	}
}

func TestConbenchSetZScoresWithDistributionChange(t *testing.T) {
	for _, kind := range []string{SVSMean, SVSBest} {
		for _, strat := range []string{"closest", "parent"} {
			name := kind + "/" + strat
			t.Run(name, func(t *testing.T) {
				want := append([]float64(nil), fakeExpected[name]...)
				want[6] = 0.000
				want[7] = -32.91
				if strat == "parent" {
					want[7] = -3.847
				}
				want[8] = -56.00
				if kind == SVSBest {
					want[8] = -51.96
				}
				want[9] = -60.62
				want[15] = -71.01
				f := &fixture{
					commits: fakeCommits(), results: fakeResults(), kind: kind,
					annotated: map[string]bool{"44444": true},
				}
				for i := range f.results {
					checkZ(t, fmt.Sprintf("result %d", i), f.score(t, i, strategies[strat]), want[i])
				}
			})
		}
	}
}

func TestConbenchSetZScoresWithSmallReps(t *testing.T) {
	data := map[int][][]float64{
		1: {{1}, {2}, {5}},
		2: {{10, 20}, {11, 22}, {50, 70}},
	}
	tests := []struct {
		reps int
		unit string
		kind string
		want float64 // for the third result; the first two have no z-score
	}{
		{1, "s", SVSMean, -4.95},
		{1, "s", SVSBest, -4.95},
		{1, "i/s", SVSMean, 4.95},
		{1, "i/s", SVSBest, 4.95},
		{2, "s", SVSMean, -41.72},
		{2, "s", SVSBest, -55.86},
		{2, "i/s", SVSMean, 41.72},
		{2, "i/s", SVSBest, 34.65},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d reps %s %s", tt.reps, tt.unit, tt.kind), func(t *testing.T) {
			less := tt.unit == "s"
			f := &fixture{commits: fakeCommits(), kind: tt.kind}
			var svs []float64
			for i, id := range []string{"22222", "33333", "44444"} {
				f.results = append(f.results, fxResult{data[tt.reps][i], id, "small"})
				v, _ := SVS(data[tt.reps][i], less, tt.kind)
				svs = append(svs, v)
			}
			// Each result scores against its parent commit.
			for i, want := range []float64{none, none, tt.want} {
				c := f.commit(f.results[i].commit)
				ids, err := Ancestry(repoCommits(f.commits), c.parent, DefaultCommits)
				if err != nil {
					t.Fatal(err)
				}
				var obs []Observation
				for j, r := range f.results {
					if contains(ids, r.commit) {
						obs = append(obs, Observation{Commit: r.commit, Time: f.commit(r.commit).Time, Value: svs[j]})
					}
				}
				checkZ(t, fmt.Sprintf("result %d", i), Score(svs[i], Distribution(obs, DefaultCommits), less, DefaultThreshold), want)
			}
		})
	}
}

func TestConbenchSetZScoresOneRep(t *testing.T) {
	cs := repoCommits(fakeCommits())
	ids, err := Ancestry(cs, "22222", DefaultCommits)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"22222", "11111"}; fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("ancestry = %v, want %v", ids, want)
	}
	obs := []Observation{
		{Commit: "11111", Time: day(1, 0), Value: 1},
		{Commit: "22222", Time: day(2, 0), Value: 2},
	}
	checkZ(t, "contender [3] on 33333", Score(3, Distribution(obs, DefaultCommits), true, DefaultThreshold), -2.121)
}

// TestConbenchCompare is test_compare of conbench/tests/api/test_compare.py:
// grandparent [1,2,3], parent [2,3,4], contender [10,20,30], unit s, SVS best.
func TestConbenchCompare(t *testing.T) {
	commits := []Commit{
		{"grandparent", day(1, 0), "default", "grandparent"},
		{"parent", day(2, 0), "default", "parent"},
		{"contender", day(3, 0), "default", "contender"},
	}
	data := map[string][]float64{"grandparent": {1, 2, 3}, "parent": {2, 3, 4}}
	ids, err := Ancestry(commits, "parent", DefaultCommits)
	if err != nil {
		t.Fatal(err)
	}
	var obs []Observation
	for _, c := range commits {
		if contains(ids, c.ID) {
			v, _ := SVS(data[c.ID], true, SVSBest)
			obs = append(obs, Observation{Commit: c.ID, Time: c.Time, Value: v})
		}
	}
	contender, _ := SVS([]float64{10, 20, 30}, true, SVSBest)
	d := Distribution(obs, DefaultCommits)
	for _, threshold := range []float64{5.0, 5.7} {
		z := Score(contender, d, true, threshold)
		checkZ(t, fmt.Sprint("threshold ", threshold), z, -12.02)
		if !z.Regression || z.Improvement || z.Threshold != threshold {
			t.Errorf("threshold %v: regression %v, improvement %v, threshold %v; want true, false, %v",
				threshold, z.Regression, z.Improvement, z.Threshold, threshold)
		}
	}
}

func repoCommits(cs []fxCommit) []Commit {
	var out []Commit
	for _, c := range cs {
		if c.repo == repoMain {
			out = append(out, c.Commit)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
