package changepoint

import (
	"fmt"
	"strings"
	"testing"
)

// history is a real series with the changes its curators (or a look at
// the data) name: each truth is a range of positions where a detection
// finds it (a step at one place, or a ramp that a method may cut into a
// few steps); detections in a neutral range neither count nor hurt.
type history struct {
	name    string
	values  []float64
	truth   [][2]int // inclusive ranges
	neutral [][2]int
}

func realHistories(t testing.TB) []history {
	return []history{
		{
			// TigerBeetle's benchmark at Nyrkiö, the series of Apache
			// Otava's tests/tigerbeetle_test.py. Its docstring: "a couple
			// distinctive ups and down, anomalous drop, then an upward
			// slope and the rest is just normal variance": steps at 15
			// (−12 %), 61 (+3 %), 71 (+16 %) and 95 (−4 %), a one-value
			// drop at 10 (not a step) and a slope from about 110 to 220.
			name:    "TigerBeetle (Otava's tests)",
			values:  readSections(t, "tigerbeetle.txt")[""],
			truth:   [][2]int{{13, 17}, {59, 63}, {69, 73}, {93, 97}},
			neutral: [][2]int{{110, 220}},
		},
		{
			// MongoDB's PERF-1635 series (signal-processing-algorithms'
			// tests/e_divisive_series.py): up 7 % at 25, down 6 % over
			// 63–71 (a ramp), up 8 % at 114.
			name:   "MongoDB PERF-1635",
			values: readSections(t, "perf-1635.txt")["series"],
			truth:  [][2]int{{23, 27}, {62, 72}, {112, 116}},
		},
	}
}

// score counts the detections in each truth range (the first is a find,
// the others are neutral) and outside every range (false).
func (h history) score(steps []Step) (found, false_ int) {
	hit := make([]bool, len(h.truth))
next:
	for _, st := range steps {
		for k, r := range h.truth {
			if r[0] <= st.Index && st.Index <= r[1] {
				if !hit[k] {
					hit[k] = true
					found++
				}
				continue next
			}
		}
		for _, r := range h.neutral {
			if r[0] <= st.Index && st.Index <= r[1] {
				continue next
			}
		}
		false_++
	}
	return found, false_
}

// TestRealHistories compares the methods on the real histories (go test
// -run RealHistories -v prints the table the package documentation
// quotes) and pins what Detect finds there: every named change, nothing
// else.
func TestRealHistories(t *testing.T) {
	methods := []struct {
		name   string
		detect func(Series) []Step
	}{
		{"e-divisive, windowed (Detect)", func(s Series) []Step { st, _ := Detect(s, DefaultOptions, nil); return st }},
		{"e-divisive, whole history (MongoDB)", func(s Series) []Step { return detectGlobal(s, DefaultOptions, 0.05, 100) }},
		{"potts (asv)", func(s Series) []Step {
			o := DefaultOptions
			o.Method = Potts
			st, _ := Detect(s, o, nil)
			return st
		}},
	}
	for _, h := range realHistories(t) {
		for k, m := range methods {
			cpu := cpuTime()
			steps := m.detect(Series{Values: h.values, Seed: 1})
			cpu = cpuTime() - cpu
			found, wrong := h.score(steps)
			var at []string
			for _, st := range steps {
				at = append(at, fmt.Sprintf("%d (%+.1f%%)", st.Index, 100*st.Change))
			}
			precision := 1.0
			if len(steps) > 0 {
				precision = 1 - float64(wrong)/float64(len(steps))
			}
			t.Logf("%s, %s: precision %.2f, recall %d/%d, %.1f ms CPU; steps at %s", h.name, m.name, precision, found, len(h.truth), float64(cpu)/1e6, strings.Join(at, ", "))
			if k == 0 && (found != len(h.truth) || wrong != 0) {
				t.Errorf("%s: Detect found %d of %d changes and %d false steps", h.name, found, len(h.truth), wrong)
			}
		}
	}
}
