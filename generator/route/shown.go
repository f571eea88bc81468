package route

import (
	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// Shown is the set of comparisons a site pre-renders, each with the page
// that shows it, and the PRs that have a page. Documents link a
// comparison through it: a pair the site shows to its page, any other
// pair to the compare form ([CompareForm]), never to a /compare/ page
// that is not there.
//
// Which pairs, in the order a site plans them:
//
//   - each main-line commit against its predecessor, on the commit's page;
//   - each triage week's range (its first base against its last head), on
//     its own /compare/<a>...<b>/ page;
//   - each PR's try runs against their baselines, on their own pages, and
//     the PR's head (its merge commit, else its latest try run) against
//     its base, on the PR's page.
//
// A pair that more than one rule names is shown on the first page given
// to it (a merged PR's commit and its parent: the commit's page). Every
// pair's /compare/<a>...<b>/ path is written, as the page itself or as a
// redirect to the page that shows the pair.
type Shown struct {
	Pairs []ShownPair
	index map[[2]int]int
	prs   map[int]bool
}

// ShownPair is one comparison a site pre-renders.
type ShownPair struct {
	Base, Head int // indices into the dataset's Artifacts
	// Page is the path of the page that shows it: a commit's, a PR's, or
	// the pair's own /compare/ page (Own).
	Page string
	Own  bool
}

// Shown returns the comparisons the site of d pre-renders (see [Shown]).
func (t *Table) Shown(d *model.Dataset) *Shown {
	s := &Shown{index: map[[2]int]int{}, prs: map[int]bool{}}
	add := func(base, head int, page string) {
		k := [2]int{base, head}
		if i, ok := s.index[k]; ok {
			if s.Pairs[i].Own && page != "" {
				s.Pairs[i].Page, s.Pairs[i].Own = page, false
			}
			return
		}
		p := ShownPair{Base: base, Head: head, Page: page}
		if page == "" {
			p.Page, p.Own = t.Compare(d.Artifacts[base].ID, d.Artifacts[head].ID), true
		}
		s.index[k] = len(s.Pairs)
		s.Pairs = append(s.Pairs, p)
	}
	for _, a := range d.MainLine {
		if prev, ok := d.Previous(a); ok {
			add(prev, a, t.Commit(d.Artifacts[a].ID))
		}
	}
	for _, w := range analysis.Weeks(d) {
		if first, last, ok := w.Range(d); ok {
			add(first, last, "")
		}
	}
	for _, pr := range d.PRs() {
		head, ok := d.PRHead(pr)
		if !ok {
			continue
		}
		s.prs[pr] = true
		for i, a := range d.Artifacts {
			if a.PR == pr && a.Kind == model.KindTry {
				if b, ok := d.PRBase(i); ok {
					add(b, i, "")
				}
			}
		}
		if b, ok := d.PRBase(head); ok {
			add(b, head, PR(pr))
		}
	}
	return s
}

// Page returns the path of the page that shows base against head, and
// false when the site does not pre-render the pair.
func (s *Shown) Page(base, head int) (string, bool) {
	i, ok := s.index[[2]int{base, head}]
	if !ok {
		return "", false
	}
	return s.Pairs[i].Page, true
}

// HasPR reports whether PR n has a page (/pr/<n>/).
func (s *Shown) HasPR(n int) bool { return s.prs[n] }
