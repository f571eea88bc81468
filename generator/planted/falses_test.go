package planted

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestPlantedFalses prints every wrong flag of the headline and every
// false detection of step detection on the default suite, each with what
// lies near it and the series' values around it in widths from its
// unchanged level ("|" before the flagged commit), and counts them by
// kind: the throwaway diagnosis behind the planted README's account of
// what the wrong flags are, kept so that the next change can be traced
// the same way.
//
//	PLANTED_FALSES=values go test -count=1 -run TestPlantedFalses -v ./generator/planted
//	PLANTED_FALSES=samples …
//
// PLANTED_STEADY=1 does it over the corpus without the noise's own level
// moves (Corpus.Steady).
func TestPlantedFalses(t *testing.T) {
	shape := Shape(os.Getenv("PLANTED_FALSES"))
	if shape == "" {
		t.Skip("set PLANTED_FALSES=values (or samples) to print the wrong flags of the planted report")
	}
	o := DefaultOptions
	o.Shape = shape
	o.Steady = os.Getenv("PLANTED_STEADY") != ""
	s := suiteFor(t, o)
	cfg := parseConfig(t, "")
	d := inMemory(s, cfg)
	noise := noiseSteps(s, d)
	tr := s.truth()

	var head, steps strings.Builder
	headKinds, stepKinds := map[string]int{}, map[string]int{}
	for _, c := range consecutive(d, cfg) {
		p, ok := tr.pos[d.Artifacts[c.Head].ID]
		if !ok {
			continue
		}
		for i := range c.Rows {
			r := &c.Rows[i]
			ps := tr.of(d, r.Series)
			if ps == nil || !r.OK || !r.Relevant {
				continue
			}
			class, e := ps.ClassAt(p)
			if class == StepRow && (r.Change > 0) == e.Up {
				continue
			}
			kind := class.String()
			if class == Unchanged {
				kind = nearWhat(ps, p, noise)
			}
			headKinds[kind]++
			v := r.Headline
			fmt.Fprintf(&head, "%s p=%d %s: %s, %.1f widths\n%s", ps.Benchmark, p, kind, v.State, v.Widths, around(ps, p))
		}
	}
	by := map[*Series][]int{}
	for _, st := range detectSteps(d) {
		if ps := tr.of(d, d.Series[st.Series]); ps != nil {
			by[ps] = append(by[ps], tr.pos[d.Artifacts[st.Artifact].ID])
		}
	}
	for _, ps := range s.Series {
		det := by[ps]
		sort.Ints(det)
		for _, p := range det {
			if slices.ContainsFunc(ps.Events, func(e Event) bool {
				return (e.Kind == Step && abs(p-e.At) <= DefaultTolerance) || (e.Kind == Drift && p >= e.At-DefaultTolerance && p <= e.End+DefaultTolerance)
			}) {
				continue // right, or a drift's (ScoreSteps' rules but for matching each step once)
			}
			kind := nearWhat(ps, p, noise)
			stepKinds[kind]++
			fmt.Fprintf(&steps, "%s p=%d %s\n%s", ps.Benchmark, p, kind, around(ps, p))
		}
	}
	t.Logf("shape %s\n\nheadline, wrong flags by kind: %v\n%s\nstep detection, false detections by kind: %v\n%s", shape, headKinds, head.String(), stepKinds, steps.String())
}

// nearWhat names what lies near an unchanged position p of ps: a step the
// detector finds in the noise alone (within DefaultTolerance), a spike,
// or the nearest planted step within 8 commits ("step k=…, d=…"), else
// "other".
func nearWhat(ps *Series, p int, noise map[string][]int) string {
	if slices.ContainsFunc(noise[ps.Benchmark], func(q int) bool { return abs(q-p) <= DefaultTolerance }) {
		return "noise's own step"
	}
	best, bd := -1, math.MaxInt
	for i, e := range ps.Events {
		if e.Kind == Spike && p >= e.At-DefaultTolerance && p <= e.At+1+DefaultTolerance {
			return "spike"
		}
		if e.Kind == Step && abs(p-e.At) < bd {
			best, bd = i, abs(p-e.At)
		}
	}
	switch {
	case best >= 0 && bd <= DefaultTolerance:
		return fmt.Sprintf("step k=%g within %d", ps.Events[best].K, DefaultTolerance)
	case best >= 0 && bd <= 8:
		return fmt.Sprintf("step k=%g within 8", ps.Events[best].K)
	}
	return "other"
}

// around is ps's values within 12 commits of p in widths from its
// unchanged level, "|" before p's.
func around(ps *Series, p int) string {
	var b strings.Builder
	b.WriteString("   ")
	for q := max(ps.Start, p-12); q < min(len(ps.Values), p+12); q++ {
		if q == p {
			b.WriteString(" |")
		}
		fmt.Fprintf(&b, " %.1f", math.Log(ps.Values[q]/ps.Level)/ps.Width)
	}
	b.WriteString("\n")
	return b.String()
}
