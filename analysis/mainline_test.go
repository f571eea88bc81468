package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

var day0 = time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)

func sha(c byte) string { return strings.Repeat(string(c), 40) }

func result(bench, metric, unit string, samples ...float64) model.Result {
	return model.Result{Case: model.TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: samples}
}

// TestMainLineFollowsParentsComparisons: comparisons and the consecutive
// comparisons of the triage walk the reordered main line: a commit is
// compared with its parent, not with the commit dated before it.
func TestMainLineFollowsParentsComparisons(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	// Pushed a (10), b (20), c (30); b's author date is the oldest.
	hours := map[byte]int{'a': 5, 'b': 1, 'c': 9}
	vals := map[byte]float64{'a': 10, 'b': 20, 'c': 30}
	parent := map[byte]byte{'b': 'a', 'c': 'b'}
	for _, id := range []byte("abc") {
		art := model.Artifact{ID: sha(id), Kind: model.KindCommit, Date: day0.Add(time.Duration(hours[id]) * time.Hour)}
		if p, ok := parent[id]; ok {
			art.Parents = []string{sha(p)}
		}
		b.Add(string(id), model.Run{Artifact: art, Machine: model.Machine{Name: "m"}, Results: []model.Result{result("x", "wall-time", "ns", vals[id])}})
	}
	d := b.Dataset()
	ia, _ := d.Index(sha('a'))
	ib, _ := d.Index(sha('b'))
	ic, _ := d.Index(sha('c'))
	if prev, ok := d.Previous(ib); !ok || prev != ia || !d.Contiguous(ia, ib) {
		t.Errorf("Previous(b) = %d, %v; want a (%d)", prev, ok, ia)
	}
	if prev, ok := d.Previous(ic); !ok || prev != ib {
		t.Errorf("Previous(c) = %d, %v; want b (%d)", prev, ok, ib)
	}
	c := NewComparer(d, DefaultOptions)
	for _, tt := range []struct {
		base, head int
		want       float64
	}{{ia, ib, 1}, {ib, ic, 0.5}} {
		cmp := c.Compare(tt.base, tt.head)
		if len(cmp.Rows) != 1 || !cmp.Rows[0].OK || cmp.Rows[0].Change != tt.want {
			t.Errorf("Compare(%d, %d) rows = %+v, want change %v", tt.base, tt.head, cmp.Rows, tt.want)
		}
	}
	cons := c.Consecutive(0, len(d.MainLine))
	if len(cons) != 2 {
		t.Fatalf("%d consecutive comparisons, want 2", len(cons))
	}
	for k, want := range []float64{1, 0.5} {
		if r := cons[k].Rows; len(r) != 1 || r[0].Change != want {
			t.Errorf("consecutive %d: rows %+v, want change %v", k, r, want)
		}
	}
	checkConsecutive(t, d, DefaultOptions)
}

// TestMainLineFollowsParentsEngines: on a longer chain whose dates are
// shuffled, every engine (thresholds over 30 ancestors, lookback z-scores,
// sample tests) walks the parent order, and Consecutive agrees with
// Compare bit for bit.
func TestMainLineFollowsParentsEngines(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	const n = 45
	for k := range n {
		id := fmt.Sprintf("%040x", k+1)
		// Dates run backwards in blocks of five: a rebased history.
		hour := (k/5)*5 + (4 - k%5)
		art := model.Artifact{ID: id, Kind: model.KindCommit, Date: day0.Add(time.Duration(hour) * time.Hour)}
		if k > 0 {
			art.Parents = []string{fmt.Sprintf("%040x", k)}
		}
		v := 100 + float64(k%7)
		if k >= 40 {
			v *= 1.5 // a step late in the chain
		}
		b.Add(id, model.Run{Artifact: art, Machine: model.Machine{Name: "m"}, Results: []model.Result{result("x", "wall-time", "ns", v, v+1, v+2, v+0.5, v+1.5)}})
	}
	d := b.Dataset()
	for p, a := range d.MainLine {
		if want := fmt.Sprintf("%040x", p+1); d.Artifacts[a].ID != want {
			t.Fatalf("main line position %d is %s, want %s", p, d.Artifacts[a].ID, want)
		}
	}
	checkConsecutive(t, d, DefaultOptions)
	c := NewComparer(d, DefaultOptions)
	step := c.Compare(d.MainLine[39], d.MainLine[40])
	// Five values after it: step detection confirms it at the last.
	if r := step.Rows[0]; !r.OK || r.History != 40 || !r.Significant || r.Headline.State != StateConfirmed || r.Headline.ConfirmedAt != 44 || !r.Z.OK || r.Z.Z >= 0 {
		t.Errorf("the step's row = %+v, want a significant regression confirmed at 44, judged on its 40 ancestors, with a negative z-score", r)
	}
}
