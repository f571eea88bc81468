package zscore

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Commit is a node of the git graph as Conbench sees it. A commit with a
// zero Time (unknown) is never part of an ancestry.
type Commit struct {
	ID     string
	Time   time.Time // commit timestamp: the order of every rolling window
	Branch string    // branch name; "" or the default branch's name for default-branch commits
	// ForkPoint is the id of the commit where the branch left the default
	// branch; == ID on the default branch.
	ForkPoint string
}

// onDefault reports whether c is on the default branch.
func (c *Commit) onDefault() bool { return c.ID == c.ForkPoint }

// Graph answers ancestry queries over one repository's commits. Build it
// once with [NewGraph] and ask it for every baseline; it is read-only, so
// goroutines may share it.
type Graph struct {
	commits  []Commit
	byID     map[string]int
	defaults []int               // default-branch commits, newest first
	branches map[branchKey][]int // other commits by (branch, fork point), newest first
}

type branchKey struct{ branch, forkPoint string }

// NewGraph indexes commits. When several commits share an id, the first
// one counts. Commits with an empty id or a zero time are not indexed for
// ancestries (a baseline with a zero time is reported as such).
func NewGraph(commits []Commit) *Graph {
	g := &Graph{
		commits:  slices.Clone(commits),
		byID:     make(map[string]int, len(commits)),
		branches: make(map[branchKey][]int),
	}
	for i := range g.commits {
		c := &g.commits[i]
		if c.ID == "" {
			continue
		}
		if _, dup := g.byID[c.ID]; dup {
			continue
		}
		g.byID[c.ID] = i
		if c.Time.IsZero() {
			continue
		}
		if c.onDefault() {
			g.defaults = append(g.defaults, i)
		} else if c.ForkPoint != "" {
			k := branchKey{c.Branch, c.ForkPoint}
			g.branches[k] = append(g.branches[k], i)
		}
	}
	g.sort(g.defaults)
	for _, list := range g.branches {
		g.sort(list)
	}
	return g
}

// sort orders commit indexes newest first, ties by id.
func (g *Graph) sort(list []int) {
	slices.SortFunc(list, func(a, b int) int {
		ca, cb := &g.commits[a], &g.commits[b]
		if c := cb.Time.Compare(ca.Time); c != 0 {
			return c
		}
		return cmp.Compare(ca.ID, cb.ID)
	})
}

// Ancestry is [Graph.Ancestry] over a one-off [Graph] of commits.
func Ancestry(commits []Commit, baseline string, limit int) ([]string, error) {
	return NewGraph(commits).Ancestry(baseline, limit)
}

// Ancestry implements Conbench's Commit.commit_ancestry_query: the ids of
// the commits whose results form the distribution for baseline commit
// baseline (inclusive), at most limit commits (DefaultCommits when
// limit < 1; the limit counts commits whether or not they have results).
//
// The candidates are the default-branch commits no newer than the
// baseline's fork point and, when the baseline is on a branch, the commits
// of that branch (same name, same fork point) no newer than the baseline.
// Branch commits come first, newest first, then default-branch commits,
// newest first; equal times are ordered by id. Like Conbench, ancestry is
// decided by timestamps, not by walking parents.
//
// The error says why there is no ancestry: the baseline is unknown, has no
// time or no fork point, or its fork point is unknown or has no time.
func (g *Graph) Ancestry(baseline string, limit int) ([]string, error) {
	if limit < 1 {
		limit = DefaultCommits
	}
	bi, ok := g.byID[baseline]
	if !ok {
		return nil, fmt.Errorf("baseline commit %q is unknown", baseline)
	}
	b := &g.commits[bi]
	if b.Time.IsZero() {
		return nil, fmt.Errorf("baseline commit %q has no timestamp", baseline)
	}
	if b.ForkPoint == "" {
		return nil, fmt.Errorf("baseline commit %q has no fork point", baseline)
	}
	fi, ok := g.byID[b.ForkPoint]
	if !ok {
		return nil, fmt.Errorf("fork point %q of baseline commit %q is unknown", b.ForkPoint, baseline)
	}
	fp := &g.commits[fi]
	if fp.Time.IsZero() {
		return nil, fmt.Errorf("fork point %q of baseline commit %q has no timestamp", b.ForkPoint, baseline)
	}
	var ids []string
	if !b.onDefault() {
		ids = g.upTo(ids, g.branches[branchKey{b.Branch, b.ForkPoint}], b.Time, limit)
	}
	return g.upTo(ids, g.defaults, fp.Time, limit), nil
}

// upTo appends the ids of list (newest first) no newer than t until dst
// holds limit ids.
func (g *Graph) upTo(dst []string, list []int, t time.Time, limit int) []string {
	from, _ := slices.BinarySearchFunc(list, t, func(i int, t time.Time) int {
		return t.Compare(g.commits[i].Time) // list is descending in time
	})
	for _, i := range list[from:] {
		if len(dst) >= limit {
			break
		}
		dst = append(dst, g.commits[i].ID)
	}
	return dst
}
