package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// This file summarizes the changes of one comparison (one metric): per
// category statistics and direction (rustc-perf's
// ArtifactComparisonSummary in site/src/comparison.rs), how much the
// comparison deserves attention (its deserves_attention_icount) and its
// relevance ([RelevanceOf]).
//
// rustc-perf only knows lower-is-better metrics, where a regression is a
// positive change. Here a regression is a change in the metric's bad
// direction ([IsRegression]); the statistics keep rustc-perf's arithmetic on
// the signed changes within each class. For a higher-is-better metric the
// regressions are negative changes, so their mean is negative and their
// range [min, max] runs from the worst regression to the mildest; for the
// improvements it runs from the mildest to the best. The "all" statistics
// and the largest change do not depend on the class.

// SummaryItem is one change as the summaries see it.
type SummaryItem struct {
	Change      float64   // relative change (b − a) / a
	Magnitude   Magnitude // rustc-perf magnitude
	Regression  bool      // the change goes in the metric's bad direction
	Significant bool
	Relevant    bool // significant and at least Small
}

// ChangeStats are the count, arithmetic mean and range of a set of relative
// changes (fractions; all zero when Count is 0).
//
// Changes from 0 ([Row.FromZero], ±Inf) count in Count and in FromZero,
// but not in Mean, Min and Max, which are those of the finite changes
// (all zero when every change is from 0): an infinite mean or bound would
// say nothing a reader can use, and would not fit a JSON number.
type ChangeStats struct {
	Count          int
	Mean, Min, Max float64
	FromZero       int // how many of Count are changes from 0
}

// CategorySummary summarizes the relevant changes of one category (primary
// or secondary) of a comparison, like rustc-perf's
// ArtifactComparisonSummary.
type CategorySummary struct {
	// Changes are the relevant changes, ascending by relative change (most
	// negative first; equal changes keep their input order).
	Changes      []SummaryItem
	Regressions  ChangeStats
	Improvements ChangeStats
	All          ChangeStats
}

// Summarize keeps the relevant items and computes their statistics. Means
// are summed in ascending order of change, as upstream, so that rounding
// matches its tables.
func Summarize(items []SummaryItem) CategorySummary {
	var s CategorySummary
	for _, it := range items {
		if it.Relevant {
			s.Changes = append(s.Changes, it)
		}
	}
	slices.SortStableFunc(s.Changes, func(a, b SummaryItem) int { return cmp.Compare(a.Change, b.Change) })
	var sumR, sumI, sumA float64
	for _, it := range s.Changes {
		if it.Regression {
			addChangeStat(&s.Regressions, &sumR, it.Change)
		} else {
			addChangeStat(&s.Improvements, &sumI, it.Change)
		}
		addChangeStat(&s.All, &sumA, it.Change)
	}
	finishChangeStat(&s.Regressions, sumR)
	finishChangeStat(&s.Improvements, sumI)
	finishChangeStat(&s.All, sumA)
	return s
}

func addChangeStat(st *ChangeStats, sum *float64, x float64) {
	st.Count++
	if math.IsInf(x, 0) {
		st.FromZero++
		return
	}
	finite := st.Count - st.FromZero
	if finite == 1 || x < st.Min {
		st.Min = x
	}
	if finite == 1 || x > st.Max {
		st.Max = x
	}
	*sum += x
}

func finishChangeStat(st *ChangeStats, sum float64) {
	if n := st.Count - st.FromZero; n > 0 {
		st.Mean = sum / float64(n)
	}
}

// Largest returns the largest relevant change: the most negative one if its
// absolute value is strictly greater than the most positive one's, else the
// most positive one (ties go to the positive side, as upstream). Its
// Magnitude is that change's own, not the largest magnitude present. It
// reports false when there is no relevant change.
func (s CategorySummary) Largest() (SummaryItem, bool) {
	if len(s.Changes) == 0 {
		return SummaryItem{}, false
	}
	neg, pos := s.Changes[0], s.Changes[len(s.Changes)-1]
	if math.Abs(neg.Change) > math.Abs(pos.Change) {
		return neg, true
	}
	return pos, true
}

// Direction is the category's direction by rustc-perf's rules
// (ArtifactComparisonSummary::direction), with ratio = regressions /
// relevant changes as a float64:
//   - no relevant change: none; no regression: improvement; no
//     improvement: regression;
//   - medium-or-larger changes of both kinds: mixed;
//   - only improvements reach medium: mixed iff ratio ≥ 0.15;
//   - only regressions reach medium: mixed iff ratio < 0.85;
//   - neither: mixed iff 0.1 ≤ ratio ≤ 0.9, else the majority.
//
// The comparisons are against the float literals, so 3 of 20 (= 0.15) is
// mixed, 17 of 20 (= 0.85) is a regression and 2 of 20 (= 0.1) is mixed.
func (s CategorySummary) Direction() SummaryDirection {
	nr, ni := s.Regressions.Count, s.Improvements.Count
	switch {
	case nr+ni == 0:
		return DirectionNone
	case nr == 0:
		return DirectionImprovement
	case ni == 0:
		return DirectionRegression
	}
	ratio := float64(nr) / float64(nr+ni)
	var medR, medI bool
	for _, it := range s.Changes {
		if it.Magnitude >= Medium {
			if it.Regression {
				medR = true
			} else {
				medI = true
			}
		}
	}
	switch {
	case medI && medR:
		return DirectionMixed
	case medI:
		if ratio >= 0.15 {
			return DirectionMixed
		}
		return DirectionImprovement
	case medR:
		if ratio < 0.85 {
			return DirectionMixed
		}
		return DirectionRegression
	case 0.1 <= ratio && ratio <= 0.9:
		return DirectionMixed
	case ratio <= 0.1:
		return DirectionImprovement
	default:
		return DirectionRegression
	}
}

// SummaryDirection is the overall direction of a set of changes.
type SummaryDirection int

// Summary directions. They form a lattice with None at the bottom and Mixed
// at the top (see [SummaryDirection.Join]).
const (
	DirectionNone SummaryDirection = iota
	DirectionImprovement
	DirectionRegression
	DirectionMixed
)

var summaryDirectionNames = [...]string{"none", "improvement", "regression", "mixed"}

// String is "none", "improvement", "regression" or "mixed".
func (d SummaryDirection) String() string {
	if d < 0 || int(d) >= len(summaryDirectionNames) {
		return fmt.Sprintf("SummaryDirection(%d)", int(d))
	}
	return summaryDirectionNames[d]
}

// MarshalText encodes the direction as its String.
func (d SummaryDirection) MarshalText() ([]byte, error) {
	if d < 0 || int(d) >= len(summaryDirectionNames) {
		return nil, fmt.Errorf("invalid summary direction %d", int(d))
	}
	return []byte(summaryDirectionNames[d]), nil
}

// UnmarshalText decodes a direction name.
func (d *SummaryDirection) UnmarshalText(b []byte) error {
	for i, name := range summaryDirectionNames {
		if name == string(b) {
			*d = SummaryDirection(i)
			return nil
		}
	}
	return fmt.Errorf("unknown summary direction %q (want none, improvement, regression or mixed)", b)
}

// Join is the least upper bound of two directions, how rustc-perf combines
// primary and secondary: None is the identity, equal directions stay, any
// other pair is Mixed.
func (d SummaryDirection) Join(o SummaryDirection) SummaryDirection {
	switch {
	case d == DirectionNone:
		return o
	case o == DirectionNone || d == o:
		return d
	default:
		return DirectionMixed
	}
}

// DeservesAttention is rustc-perf's current triage and PR-label rule
// (deserves_attention_icount), tried in order: the primary largest
// change is at least Medium; else the secondary largest change is at least
// Large; else 3 × primary + secondary relevant changes ≥ 9.
func DeservesAttention(primary, secondary CategorySummary) bool {
	if c, ok := primary.Largest(); ok && c.Magnitude >= Medium {
		return true
	}
	if c, ok := secondary.Largest(); ok && c.Magnitude >= Large {
		return true
	}
	return 3*primary.All.Count+secondary.All.Count >= 9
}

// Relevance is how much a whole comparison matters ([RelevanceOf]).
type Relevance int

// Relevance levels.
const (
	RelevanceLow Relevance = iota
	RelevanceMedium
	RelevanceHigh
)

var relevanceNames = [...]string{"low", "medium", "high"}

// String is "low", "medium" or "high".
func (r Relevance) String() string {
	if r < 0 || int(r) >= len(relevanceNames) {
		return fmt.Sprintf("Relevance(%d)", int(r))
	}
	return relevanceNames[r]
}

// MarshalText encodes the relevance as its String.
func (r Relevance) MarshalText() ([]byte, error) {
	if r < 0 || int(r) >= len(relevanceNames) {
		return nil, fmt.Errorf("invalid relevance %d", int(r))
	}
	return []byte(relevanceNames[r]), nil
}

// UnmarshalText decodes a relevance name.
func (r *Relevance) UnmarshalText(b []byte) error {
	for i, name := range relevanceNames {
		if name == string(b) {
			*r = Relevance(i)
			return nil
		}
	}
	return fmt.Errorf("unknown relevance %q (want low, medium or high)", b)
}

// Confidence maps relevance onto the 2021 confidence levels it replaced
// upstream (high = definitely, medium = probably, low = maybe relevant).
func (r Relevance) Confidence() Confidence {
	switch r {
	case RelevanceHigh:
		return DefinitelyRelevant
	case RelevanceMedium:
		return ProbablyRelevant
	default:
		return MaybeRelevant
	}
}

// RelevanceOf is the relevance of a comparison from its significant changes
// (rustc-perf's docs/comparison-analysis.md describes it in prose; these
// are perfpages' numbers for it):
//   - high: any Large or VeryLarge change, or at least 2 Medium, or at
//     least 20 Small-or-VerySmall changes;
//   - medium: exactly 1 Medium, or 10 to 19 Small-or-VerySmall changes;
//   - low: otherwise.
//
// Only significant items count, and among them not those below the 0.01 %
// magnitude floor ([MagnitudeFloor]): a flat history gives a threshold of 0,
// which makes even a change of 0 significant, and twenty unchanged binary
// sizes are not a relevant comparison. Upstream's floor on magnitude exists
// for the same reason.
func RelevanceOf(items []SummaryItem) Relevance {
	var small, medium int
	for _, it := range items {
		if !it.Significant || math.Abs(it.Change) < MagnitudeFloor {
			continue
		}
		switch {
		case it.Magnitude >= Large:
			return RelevanceHigh
		case it.Magnitude == Medium:
			medium++
		default:
			small++
		}
	}
	switch {
	case medium >= 2 || small >= 20:
		return RelevanceHigh
	case medium == 1 || small >= 10:
		return RelevanceMedium
	default:
		return RelevanceLow
	}
}
