package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

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

// TestMainLineFollowsParentsComparisons: comparisons and the consecutive
// comparisons of the triage walk the reordered main line: a commit is
// compared with its parent, not with the commit dated before it.
func TestMainLineFollowsParentsComparisons(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	// Pushed a (10), b (20), c (30); b's author date is the oldest.
	hours := map[byte]int{'a': 5, 'b': 1, 'c': 9}
	vals := map[byte]float64{'a': 10, 'b': 20, 'c': 30}
	parent := map[byte]byte{'b': 'a', 'c': 'b'}
	for _, id := range []byte("abc") {
		art := Artifact{ID: sha(id), Kind: KindCommit, Date: day0.Add(time.Duration(hours[id]) * time.Hour)}
		if p, ok := parent[id]; ok {
			art.Parents = []string{sha(p)}
		}
		b.Add(string(id), Run{Artifact: art, Machine: Machine{Name: "m"}, Results: []Result{result("x", "wall-time", "ns", vals[id])}})
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
	b := NewBuilder(BuildOptions{})
	const n = 45
	for k := range n {
		id := fmt.Sprintf("%040x", k+1)
		// Dates run backwards in blocks of five: a rebased history.
		hour := (k/5)*5 + (4 - k%5)
		art := Artifact{ID: id, Kind: KindCommit, Date: day0.Add(time.Duration(hour) * time.Hour)}
		if k > 0 {
			art.Parents = []string{fmt.Sprintf("%040x", k)}
		}
		v := 100 + float64(k%7)
		if k >= 40 {
			v *= 1.5 // a step late in the chain
		}
		b.Add(id, Run{Artifact: art, Machine: Machine{Name: "m"}, Results: []Result{result("x", "wall-time", "ns", v, v+1, v+2, v+0.5, v+1.5)}})
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
