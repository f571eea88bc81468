package planted

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// Class is what the truth says of a main-line commit's row (the series'
// value at the commit against its parent's).
type Class int

// Row classes.
const (
	Unchanged Class = iota // nothing planted: any flag is a false alarm
	StepRow                // the commit of a planted step
	SpikeRow               // a planted spike, or the commit after it where it returns
	DriftRow               // inside a planted drift (a real but gradual change)
)

func (c Class) String() string {
	return [...]string{"unchanged", "step", "spike", "drift"}[c]
}

// ClassAt classifies series s's row at main-line position p, with the
// event it belongs to (nil for Unchanged).
func (s *Series) ClassAt(p int) (Class, *Event) {
	for i := range s.Events {
		e := &s.Events[i]
		switch {
		case e.Kind == Step && p == e.At:
			return StepRow, e
		case e.Kind == Spike && (p == e.At || p == e.At+1):
			return SpikeRow, e
		case e.Kind == Drift && p > e.At && p <= e.End:
			return DriftRow, e
		}
	}
	return Unchanged, nil
}

// Verdict is what the site says first about one row of a main-line
// commit's comparison with its parent: whether it counts the row as a
// change (on the commit page, the dashboard, the triage report), and which
// way.
type Verdict struct {
	Flagged bool
	Up      bool // the value went up
	// Basis names the evidence the verdict rested on, for the report's
	// breakdown of false alarms.
	Basis string
}

// Headline is the headline verdict of row r of comparison c as the site
// counts it today: the row is relevant (significant by the model's basis,
// magnitude at least small). It is the one function a new verdict replaces;
// ScoreHeadline takes it as a parameter so that old and new can be scored
// side by side.
func Headline(c *analysis.Comparison, r *analysis.Row) Verdict {
	return Verdict{Flagged: r.OK && r.Relevant, Up: r.Change > 0, Basis: string(r.Basis)}
}

// HeadlineScore counts a suite's rows by class and verdict.
type HeadlineScore struct {
	Rows                        int // rows with a change (both values present)
	Unchanged, UnchangedFlagged int
	// … of which young: fewer values of history than the model's window
	// (Options.History), where the threshold is a default one.
	Young, YoungFlagged int
	// NearStep counts the flagged unchanged rows within DefaultTolerance
	// commits of a planted step of their series: a step counted at a
	// neighbour of its commit.
	NearStep int
	// NearNoiseStep counts the flagged unchanged rows within
	// DefaultTolerance commits of a step the detector finds in the same
	// series' values without the plants (the noise's own level shifts:
	// see ScoreHeadline's noise).
	NearNoiseStep         int
	Spikes, SpikesFlagged int
	Drifts, DriftsFlagged int
	Flagged               int             // every flagged row
	TrueFlags             int             // flagged step rows in the planted direction
	StepRows, StepFound   map[float64]int // by K: planted step rows, and those flagged in the planted direction
	// LocalRows and LocalFound are the same by bin of LocalBins: the
	// step's size in the noise around it (Series.LocalK).
	LocalRows, LocalFound [len(LocalBins)]int
	WrongWay              int // step rows flagged the other way
	// Up and Down count step rows of at least 8 widths by direction, and
	// those flagged in it: a relative change down is bounded by −100 %,
	// a threshold is not.
	Up, UpFound, Down, DownFound int
	FalseByBasis                 map[string]int // flagged unchanged rows by Verdict.Basis
	// BySource counts unchanged rows and flagged ones, and step rows of
	// at least 4 widths and flagged ones, by noise source.
	BySource                        map[string]*SourceCounts
	Comparisons, DefinitelyRelevant int // main-line comparisons, and those whose summary is definitely relevant
	CommitsWithBigStep              int // comparisons with a planted step of ≥ 4 widths
}

// Precision is the share of flagged rows that are planted steps flagged
// in their direction.
func (h *HeadlineScore) Precision() float64 { return ratio(h.TrueFlags, h.Flagged) }

// PrecisionNetOfNoise is the precision with the flags at the noise's own
// level shifts (NearNoiseStep) left out, as StepScore's: the corpus still
// holds shifts its cleaning did not remove (two-level runners, load
// switches of the local noise), and a flag there is a real change of the
// level that the suite does not know of.
func (h *HeadlineScore) PrecisionNetOfNoise() float64 {
	return ratio(h.TrueFlags, h.Flagged-h.NearNoiseStep)
}

// Recall is the share of step rows of size k flagged in their direction.
func (h *HeadlineScore) Recall(k float64) float64 { return ratio(h.StepFound[k], h.StepRows[k]) }

// FalsePer1000 is flagged unchanged rows per 1,000 unchanged rows.
func (h *HeadlineScore) FalsePer1000() float64 {
	return 1000 * ratio(h.UnchangedFlagged, h.Unchanged)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// truth maps a dataset onto a suite.
type truth struct {
	series map[string]*Series // by benchmark
	pos    map[string]int     // artifact id → suite position
}

func (s *Suite) truth() truth {
	t := truth{series: map[string]*Series{}, pos: map[string]int{}}
	for _, ps := range s.Series {
		t.series[ps.Benchmark] = ps
	}
	for p, a := range s.Artifacts {
		t.pos[a.ID] = p
	}
	return t
}

func (t truth) of(d *model.Dataset, sr *model.Series) *Series {
	if sr.Key.Metric != Metric {
		return nil
	}
	return t.series[sr.Case.Benchmark]
}

// ScoreHeadline scores the comparisons of consecutive main-line commits
// of d (a dataset built from s's runs or archives) with verdict (Headline
// for today's).
func ScoreHeadline(s *Suite, d *model.Dataset, comps []*analysis.Comparison, verdict func(*analysis.Comparison, *analysis.Row) Verdict, noise map[string][]int) *HeadlineScore {
	t := s.truth()
	h := &HeadlineScore{StepRows: map[float64]int{}, StepFound: map[float64]int{}, FalseByBasis: map[string]int{}, BySource: map[string]*SourceCounts{}}
	for _, c := range comps {
		p, ok := t.pos[d.Artifacts[c.Head].ID]
		if !ok {
			continue
		}
		h.Comparisons++
		if m, ok := c.Metric(Metric); ok && m.DefinitelyRelevant {
			h.DefinitelyRelevant++
		}
		big := false
		for i := range c.Rows {
			r := &c.Rows[i]
			ps := t.of(d, r.Series)
			if ps == nil || !r.OK {
				continue
			}
			h.Rows++
			v := verdict(c, r)
			if v.Flagged {
				h.Flagged++
			}
			class, e := ps.ClassAt(p)
			src := h.BySource[ps.Noise.Source]
			if src == nil {
				src = &SourceCounts{}
				h.BySource[ps.Noise.Source] = src
			}
			switch class {
			case Unchanged:
				h.Unchanged++
				src.Unchanged++
				young := r.History < c.Options.History
				if young {
					h.Young++
				}
				if v.Flagged && young {
					h.YoungFlagged++
				}
				if v.Flagged {
					src.UnchangedFlagged++
					h.UnchangedFlagged++
					h.FalseByBasis[v.Basis]++
					for q := p - DefaultTolerance; q <= p+DefaultTolerance; q++ {
						if cl, _ := ps.ClassAt(q); cl == StepRow {
							h.NearStep++
							break
						}
					}
					if slices.ContainsFunc(noise[ps.Benchmark], func(q int) bool { return q >= p-DefaultTolerance && q <= p+DefaultTolerance }) {
						h.NearNoiseStep++
					}
				}
			case SpikeRow:
				h.Spikes++
				if v.Flagged {
					h.SpikesFlagged++
				}
			case DriftRow:
				h.Drifts++
				if v.Flagged {
					h.DriftsFlagged++
				}
			case StepRow:
				h.StepRows[e.K]++
				lb := localBin(ps.LocalK(*e))
				h.LocalRows[lb]++
				big = big || e.K >= 4
				if e.K >= 4 {
					src.Steps++
				}
				found := v.Flagged && v.Up == e.Up
				if e.K >= 8 && e.Up {
					h.Up++
					if found {
						h.UpFound++
					}
				} else if e.K >= 8 {
					h.Down++
					if found {
						h.DownFound++
					}
				}
				switch {
				case found:
					h.StepFound[e.K]++
					h.LocalFound[lb]++
					h.TrueFlags++
					if e.K >= 4 {
						src.StepsFound++
					}
				case v.Flagged:
					h.WrongWay++
				}
			}
		}
		if big {
			h.CommitsWithBigStep++
		}
	}
	return h
}

// SourceCounts are a score's counts for the series of one noise source.
type SourceCounts struct {
	Unchanged, UnchangedFlagged int // headline: unchanged rows, flagged ones
	Steps, StepsFound           int // planted steps of at least 4 widths, found ones
	Detections, False           int // step detection: detections, false ones
}

func writeSources(w io.Writer, m map[string]*SourceCounts, headline bool) {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	var parts []string
	for _, n := range names {
		c := m[n]
		if headline {
			parts = append(parts, fmt.Sprintf("%s %.0f‰ %.2f", n, 1000*ratio(c.UnchangedFlagged, c.Unchanged), ratio(c.StepsFound, c.Steps)))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d/%d %.2f", n, c.False, c.Detections, ratio(c.StepsFound, c.Steps)))
		}
	}
	if headline {
		fmt.Fprintf(w, "  by noise source (false alarms per 1,000 unchanged rows, recall ≥ 4 widths): %s\n", strings.Join(parts, ", "))
	} else {
		fmt.Fprintf(w, "  by noise source (false detections/detections, recall ≥ 4 widths): %s\n", strings.Join(parts, ", "))
	}
}

// StepScore is step detection scored against the planted truth.
type StepScore struct {
	Tolerance      int
	Planted, Found map[float64]int // steps by K, and those detected within Tolerance
	// LocalPlanted and LocalFound are the same by bin of LocalBins (the
	// step's size in the noise around it, Series.LocalK).
	LocalPlanted, LocalFound [len(LocalBins)]int
	Detections               int // detections, those inside a drift left out
	False                    int // detections that match no planted step
	AtSpike                  int // … of which next to a planted spike
	AtLoadSwitch             int // … of which next to a switch of the background load under the noise (local noise only)
	InNoise                  int // … of which next to a step the detector finds in the series' noise without the plants
	Drifts, DriftsFound      int
	Exact                    int // detections at exactly the planted commit
	BySource                 map[string]*SourceCounts
}

// Precision is the share of detections that found a planted step.
func (s *StepScore) Precision() float64 { return ratio(s.Detections-s.False, s.Detections) }

// PrecisionNetOfNoise is the precision with the false detections that the
// noise alone also gives (InNoise) left out: the detector's precision if
// the corpus held no step of its own.
func (s *StepScore) PrecisionNetOfNoise() float64 {
	return ratio(s.Detections-s.False, s.Detections-s.InNoise)
}

// Recall is the share of planted steps of size k detected.
func (s *StepScore) Recall(k float64) float64 { return ratio(s.Found[k], s.Planted[k]) }

// RecallAtLeast is the recall of the steps of at least k widths.
func (s *StepScore) RecallAtLeast(k float64) float64 {
	f, p := 0, 0
	for kk, n := range s.Planted {
		if kk >= k {
			p += n
			f += s.Found[kk]
		}
	}
	return ratio(f, p)
}

// DefaultTolerance is how many main-line commits a detected step may be
// from the planted one and still find it: the tolerance of
// generator/changepoint_eval_test.go (a step detector places a step
// between two values; noise next to the step can move it a commit or
// two, and the regressions page names the range of candidate commits).
const DefaultTolerance = 2

// ScoreSteps scores the steps detected in d (analysis.Steps) on
// suite s: a detection within tol commits of a planted step finds it (each
// planted step at most once, the nearest detection first); a detection
// inside a planted drift (or within tol of it) finds the drift and is
// neither right nor wrong; every other detection is false. noise, when not
// nil, holds by benchmark the positions of the steps the detector finds in
// each series' Unplanted values: false detections within tol of one are
// counted in InNoise (the noise itself has a step there, or looks as if it
// had).
func ScoreSteps(s *Suite, d *model.Dataset, steps []analysis.Step, tol int, noise map[string][]int) *StepScore {
	t := s.truth()
	by := map[*Series][]int{}
	for _, st := range steps {
		ps := t.of(d, d.Series[st.Series])
		if ps == nil {
			continue
		}
		p, ok := t.pos[d.Artifacts[st.Artifact].ID]
		if !ok {
			continue
		}
		by[ps] = append(by[ps], p)
	}
	return ScorePositions(s, by, tol, noise)
}

// ScorePositions is ScoreSteps for detections given as main-line
// positions (the position of the first value after each step) by planted
// series: the score of any detector run on the series' Values, such as the
// reference methods package changepoint measures itself against.
func ScorePositions(s *Suite, by map[*Series][]int, tol int, noise map[string][]int) *StepScore {
	sc := &StepScore{Tolerance: tol, Planted: map[float64]int{}, Found: map[float64]int{}, BySource: map[string]*SourceCounts{}}
	for _, ps := range s.Series {
		det := slices.Clone(by[ps])
		sort.Ints(det)
		src := sc.BySource[ps.Noise.Source]
		if src == nil {
			src = &SourceCounts{}
			sc.BySource[ps.Noise.Source] = src
		}
		used := make([]bool, len(det))
		for _, e := range ps.Events {
			switch e.Kind {
			case Step:
				sc.Planted[e.K]++
				lb := localBin(ps.LocalK(e))
				sc.LocalPlanted[lb]++
				if e.K >= 4 {
					src.Steps++
				}
				best := -1
				for i, p := range det {
					if !used[i] && abs(p-e.At) <= tol && (best < 0 || abs(p-e.At) < abs(det[best]-e.At)) {
						best = i
					}
				}
				if best >= 0 {
					used[best] = true
					sc.Found[e.K]++
					sc.LocalFound[lb]++
					if e.K >= 4 {
						src.StepsFound++
					}
					if det[best] == e.At {
						sc.Exact++
					}
				}
			case Drift:
				sc.Drifts++
				found := false
				for i, p := range det {
					if !used[i] && p >= e.At-tol && p <= e.End+tol {
						used[i] = true // neutral: not a detection of anything wrong
						found = true
					}
				}
				if found {
					sc.DriftsFound++
				}
			}
		}
		for i, p := range det {
			inDrift := false
			for _, e := range ps.Events {
				if e.Kind == Drift && p >= e.At-tol && p <= e.End+tol {
					inDrift = true
				}
			}
			if inDrift {
				continue
			}
			sc.Detections++
			src.Detections++
			if used[i] {
				continue
			}
			sc.False++
			src.False++
			for _, q := range noise[ps.Benchmark] {
				if abs(q-p) <= tol {
					sc.InNoise++
					break
				}
			}
			for q := p - tol; q <= p+tol; q++ {
				if q >= ps.Start && ps.Noise.LoadSwitch(ps.Offset+q-ps.Start) {
					sc.AtLoadSwitch++
					break
				}
			}
			for _, e := range ps.Events {
				if e.Kind == Spike && p >= e.At-tol && p <= e.At+1+tol {
					sc.AtSpike++
					break
				}
			}
		}
	}
	return sc
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Ks lists the step sizes of a score's map, ascending.
func ks(m map[float64]int) []float64 {
	var out []float64
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// WriteHeadline writes one headline score as a Markdown table row group
// under a title.
func WriteHeadline(w io.Writer, title string, h *HeadlineScore) {
	fmt.Fprintf(w, "%s: precision %.3f (%d of %d flagged rows are planted steps, %d flagged the wrong way; %.3f counting flagged drift rows as right); false alarms %.1f per 1,000 unchanged rows (%d of %d); spikes flagged %d of %d; drift rows flagged %d of %d; comparisons definitely relevant %d of %d (%d have a planted step ≥ 4 widths)\n",
		title, h.Precision(), h.TrueFlags, h.Flagged, h.WrongWay, ratio(h.TrueFlags+h.DriftsFlagged, h.Flagged), h.FalsePer1000(), h.UnchangedFlagged, h.Unchanged,
		h.SpikesFlagged, h.Spikes, h.DriftsFlagged, h.Drifts, h.DefinitelyRelevant, h.Comparisons, h.CommitsWithBigStep)
	var parts []string
	for _, k := range ks(h.StepRows) {
		parts = append(parts, fmt.Sprintf("k=%g %.2f (%d/%d)", k, h.Recall(k), h.StepFound[k], h.StepRows[k]))
	}
	fmt.Fprintf(w, "  recall at the planted commit: %s; of steps ≥ 8 widths up %.2f (%d/%d), down %.2f (%d/%d)\n", strings.Join(parts, ", "),
		ratio(h.UpFound, h.Up), h.UpFound, h.Up, ratio(h.DownFound, h.Down), h.DownFound, h.Down)
	writeLocal(w, "  recall at the planted commit by the step's widths in its local noise", h.LocalFound, h.LocalRows)
	var bases []string
	for b := range h.FalseByBasis {
		bases = append(bases, b)
	}
	slices.Sort(bases)
	parts = parts[:0]
	for _, b := range bases {
		parts = append(parts, fmt.Sprintf("%s %d", cmp.Or(b, "-"), h.FalseByBasis[b]))
	}
	fmt.Fprintf(w, "  false alarms by basis: %s; per 1,000 unchanged rows with a full history %.1f (%d of %d), with a young one %.1f (%d of %d); %d within %d commits of a planted step\n", strings.Join(parts, ", "),
		1000*ratio(h.UnchangedFlagged-h.YoungFlagged, h.Unchanged-h.Young), h.UnchangedFlagged-h.YoungFlagged, h.Unchanged-h.Young,
		1000*ratio(h.YoungFlagged, h.Young), h.YoungFlagged, h.Young, h.NearStep, DefaultTolerance)
	fmt.Fprintf(w, "  %d flagged unchanged rows within %d commits of a step of the noise alone: precision net of them %.3f\n", h.NearNoiseStep, DefaultTolerance, h.PrecisionNetOfNoise())
	writeSources(w, h.BySource, true)
}

// WriteSteps writes one step score.
func WriteSteps(w io.Writer, title string, s *StepScore) {
	fmt.Fprintf(w, "%s: precision %.3f (%d of %d detections false, %d next to a spike; %d at the exact commit), recall ≥ 4 widths %.3f; drifts found %d of %d (tolerance ±%d)\n",
		title, s.Precision(), s.False, s.Detections, s.AtSpike, s.Exact, s.RecallAtLeast(4), s.DriftsFound, s.Drifts, s.Tolerance)
	var parts []string
	for _, k := range ks(s.Planted) {
		parts = append(parts, fmt.Sprintf("k=%g %.2f (%d/%d)", k, s.Recall(k), s.Found[k], s.Planted[k]))
	}
	fmt.Fprintf(w, "  recall: %s\n", strings.Join(parts, ", "))
	writeLocal(w, "  recall by the step's widths in its local noise", s.LocalFound, s.LocalPlanted)
	writeSources(w, s.BySource, false)
}

// writeLocal writes recall by bin of LocalBins.
func writeLocal(w io.Writer, title string, found, of [len(LocalBins)]int) {
	var parts []string
	for b := range LocalBins {
		parts = append(parts, fmt.Sprintf("%s %.2f (%d/%d)", localBinName(b), ratio(found[b], of[b]), found[b], of[b]))
	}
	fmt.Fprintf(w, "%s (±%d commits): %s\n", title, LocalSpan, strings.Join(parts, ", "))
}

// Labeled is a score with the labels of its table row.
type Labeled[S any] struct {
	Shape, Model string
	Score        S
}

// WriteHeadlineTable writes headline scores as one Markdown table.
func WriteHeadlineTable(w io.Writer, rows []Labeled[*HeadlineScore], ks []float64) {
	fmt.Fprint(w, "| shape | model | precision | net of the noise's own steps |")
	for _, k := range ks {
		fmt.Fprintf(w, " recall k=%g |", k)
	}
	fmt.Fprintln(w, " recall, local 4–8 | recall, local ≥ 8 | false alarms ‰ (full history / young) | spikes flagged | drift rows flagged | comparisons definitely relevant |")
	fmt.Fprint(w, "|---|---|---|---|")
	for range ks {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w, "---|---|---|---|---|---|")
	for _, r := range rows {
		h := r.Score
		fmt.Fprintf(w, "| %s | %s | %.3f | %.3f |", r.Shape, r.Model, h.Precision(), h.PrecisionNetOfNoise())
		for _, k := range ks {
			fmt.Fprintf(w, " %.2f |", h.Recall(k))
		}
		b4, b8 := localBin(4), localBin(8)
		fmt.Fprintf(w, " %.2f | %.2f |", ratio(h.LocalFound[b4], h.LocalRows[b4]), ratio(h.LocalFound[b8], h.LocalRows[b8]))
		fmt.Fprintf(w, " %.0f (%.0f / %.0f) | %d/%d | %d/%d | %d/%d |\n", h.FalsePer1000(),
			1000*ratio(h.UnchangedFlagged-h.YoungFlagged, h.Unchanged-h.Young), 1000*ratio(h.YoungFlagged, h.Young),
			h.SpikesFlagged, h.Spikes, h.DriftsFlagged, h.Drifts, h.DefinitelyRelevant, h.Comparisons)
	}
}

// WriteStepsTable writes step scores as one Markdown table.
func WriteStepsTable(w io.Writer, rows []Labeled[*StepScore], ks []float64) {
	fmt.Fprint(w, "| shape | precision | net of the noise's own steps |")
	for _, k := range ks {
		fmt.Fprintf(w, " recall k=%g |", k)
	}
	fmt.Fprintln(w, " recall k≥4 | recall, local 4–8 | recall, local ≥ 8 | false / detections | … at a step of the noise alone | … at a spike | … at a load switch | exact commit | drifts found |")
	fmt.Fprint(w, "|---|---|---|")
	for range ks {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w, "---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		s := r.Score
		fmt.Fprintf(w, "| %s | %.3f | %.3f |", r.Shape, s.Precision(), s.PrecisionNetOfNoise())
		for _, k := range ks {
			fmt.Fprintf(w, " %.2f |", s.Recall(k))
		}
		fmt.Fprintf(w, " %.2f | %.2f | %.2f | %d/%d | %d | %d | %d | %d | %d/%d |\n", s.RecallAtLeast(4),
			ratio(s.LocalFound[localBin(4)], s.LocalPlanted[localBin(4)]), ratio(s.LocalFound[localBin(8)], s.LocalPlanted[localBin(8)]), s.False, s.Detections, s.InNoise, s.AtSpike, s.AtLoadSwitch, s.Exact, s.DriftsFound, s.Drifts)
	}
}
