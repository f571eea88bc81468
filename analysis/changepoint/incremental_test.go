package changepoint

import (
	"bytes"
	"encoding/gob"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// incrementalCases are series with every feature the scan handles: steps
// close together, spikes, an excursion, missing values, breaks (one at a
// missing value), bimodal and heavy-tailed noise, a drift.
func incrementalCases() []struct {
	name   string
	values []float64
	breaks []int
} {
	a := gen{n: 260, sigma: 0.002, seed: 21, steps: map[int]float64{40: 0.05, 43: 0.03, 120: -0.04, 123: 1/0.96 - 1, 200: 0.02},
		spikes: map[int]float64{80: 0.3, 81: 0.3}}.values()
	for _, i := range []int{10, 11, 12, 99, 150, 151} {
		a[i] = math.NaN()
	}
	a[60] = math.Inf(-1)
	b := gen{n: 240, sigma: 0.01, seed: 22, tails: true, steps: map[int]float64{70: 0.08, 170: -0.06}}.values()
	c := gen{n: 240, sigma: 0.003, seed: 23, bimodal: 0.04, steps: map[int]float64{150: 0.1}}.values()
	d := gen{n: 300, sigma: 0.002, seed: 24, drift: 0.1}.values()
	return []struct {
		name   string
		values []float64
		breaks []int
	}{
		{"steps, spikes, gaps", a, []int{99, 200}},
		{"heavy tails", b, nil},
		{"bimodal", c, []int{30}},
		{"drift", d, nil},
	}
}

// TestIncrementalExact: resuming from the state of any prefix gives what
// a cold run gives, steps and state alike, whether one value or several
// arrive at a time.
func TestIncrementalExact(t *testing.T) {
	o := DefaultOptions
	o.Permutations = 999
	for i, tc := range incrementalCases() {
		// One value at a time for two of the series, a few at a time for
		// the others: a cold run per prefix costs O(n²) in all.
		for _, stride := range []int{1 + 4*(i%2)} {
			var prev *State
			for n := 0; n <= len(tc.values); n += stride {
				s := Series{Values: tc.values[:n], Breaks: tc.breaks, Seed: 9}
				got, gotState := Detect(s, o, prev)
				want, wantState := Detect(s, o, nil)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%s, stride %d, %d values: steps differ (-cold +resumed):\n%s", tc.name, stride, n, diff)
				}
				if diff := cmp.Diff(wantState, gotState); diff != "" {
					t.Fatalf("%s, stride %d, %d values: states differ (-cold +resumed):\n%s", tc.name, stride, n, diff)
				}
				prev = gotState
			}
			if len(prev.Decisions) == 0 {
				t.Errorf("%s: no step found; the case tests little", tc.name)
			}
		}
	}
}

// TestIncrementalChanged: a state of other values, breaks or options never
// changes the result, however it differs: a value changed, added or
// removed in the middle, a break added, the series cut short.
func TestIncrementalChanged(t *testing.T) {
	for _, tc := range incrementalCases() {
		s := Series{Values: tc.values, Breaks: tc.breaks, Seed: 9}
		_, state := Detect(s, DefaultOptions, nil)
		variants := map[string]Series{}
		for _, k := range []int{0, 45, 100, 130, 199, len(tc.values) - 1} {
			v := slices.Clone(tc.values)
			v[k] *= 1.1
			variants["value changed at "+itoa(k)] = Series{Values: v, Breaks: tc.breaks, Seed: 9}
			v = slices.Clone(tc.values)
			v[k] = math.NaN()
			variants["value removed at "+itoa(k)] = Series{Values: v, Breaks: tc.breaks, Seed: 9}
			variants["break added at "+itoa(k)] = Series{Values: tc.values, Breaks: append(slices.Clone(tc.breaks), k), Seed: 9}
			variants["cut at "+itoa(k)] = Series{Values: tc.values[:k], Breaks: tc.breaks, Seed: 9}
			variants["value inserted at "+itoa(k)] = Series{Values: slices.Insert(slices.Clone(tc.values), k, 1000), Breaks: tc.breaks, Seed: 9}
		}
		variants["another seed"] = Series{Values: tc.values, Breaks: tc.breaks, Seed: 10}
		for name, v := range variants {
			got, gotState := Detect(v, DefaultOptions, state)
			want, wantState := Detect(v, DefaultOptions, nil)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s: steps differ (-cold +resumed):\n%s", tc.name, name, diff)
			}
			if diff := cmp.Diff(wantState, gotState); diff != "" {
				t.Errorf("%s, %s: states differ (-cold +resumed):\n%s", tc.name, name, diff)
			}
		}
		// Other options: the state is not used.
		o := DefaultOptions
		o.MinChange = 0.01
		got, _ := Detect(s, o, state)
		want, _ := Detect(s, o, nil)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s, other options: steps differ (-cold +resumed):\n%s", tc.name, diff)
		}
	}
}

// TestResumePoint: appending resumes after the last value seen; a change in
// the middle resumes at the last step confirmed before it, not from the
// start.
func TestResumePoint(t *testing.T) {
	tc := incrementalCases()[0]
	s := Series{Values: tc.values, Breaks: tc.breaks, Seed: 9}
	_, state := Detect(Series{Values: tc.values[:250], Breaks: tc.breaks, Seed: 9}, DefaultOptions, nil)
	d := newDetector(s, DefaultOptions.normalized())
	d.resume(state)
	if want, _ := slices.BinarySearch(d.idx, 250); d.from != want || len(d.decisions) != len(state.Decisions) {
		t.Errorf("appending: resumed at value %d with %d decisions, want %d with %d", d.from, len(d.decisions), want, len(state.Decisions))
	}
	// Change the value at 180: the steps confirmed by then stand.
	v := slices.Clone(tc.values)
	v[180]++
	d = newDetector(Series{Values: v, Breaks: tc.breaks, Seed: 9}, DefaultOptions.normalized())
	d.resume(state)
	var kept []Decision
	for _, dec := range state.Decisions {
		if dec.At <= 180 {
			kept = append(kept, dec)
		}
	}
	if len(kept) == 0 || len(d.decisions) != len(kept) || d.idx[d.from] != kept[len(kept)-1].At-1 {
		t.Errorf("change at 180: resumed at position %d with %d decisions, want %d with %d", d.idx[d.from], len(d.decisions), kept[len(kept)-1].At-1, len(kept))
	}
}

// TestStateDamaged: a state whose hashes match but whose decisions do not
// fit (a damaged cache file) is not trusted.
func TestStateDamaged(t *testing.T) {
	var s Series
	var want []Step
	var wantState *State
	for _, tc := range incrementalCases() {
		s = Series{Values: tc.values, Breaks: tc.breaks, Seed: 9}
		if want, wantState = Detect(s, DefaultOptions, nil); len(wantState.Decisions) >= 2 {
			break
		}
	}
	if len(wantState.Decisions) < 2 {
		t.Fatal("no case has two decisions to damage")
	}
	damage := []func(*State){
		func(st *State) { st.Decisions[0].Index = 0 },
		func(st *State) { st.Decisions[0].Index = 11 }, // a missing value
		func(st *State) { st.Decisions[0], st.Decisions[1] = st.Decisions[1], st.Decisions[0] },
		func(st *State) { st.Decisions[1].At = st.Decisions[1].Index },
		func(st *State) { st.Start = -1 },
		func(st *State) { st.Start = st.N + 5 },
		func(st *State) { st.N = -3 },
		func(st *State) { st.N = 1 << 40 },
		func(st *State) { st.Decisions[0].At = 1 << 40 },
	}
	for k, f := range damage {
		st := *wantState
		st.Decisions = slices.Clone(st.Decisions)
		f(&st)
		got, gotState := Detect(s, DefaultOptions, &st)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("damage %d: steps differ (-cold +resumed):\n%s", k, diff)
		}
		if diff := cmp.Diff(wantState, gotState); diff != "" {
			t.Errorf("damage %d: states differ (-cold +resumed):\n%s", k, diff)
		}
	}
}

// TestStateGob: a state survives encoding/gob, the cache's format.
func TestStateGob(t *testing.T) {
	tc := incrementalCases()[1]
	_, st := Detect(Series{Values: tc.values, Seed: 9}, DefaultOptions, nil)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(st); err != nil {
		t.Fatal(err)
	}
	var back State
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*st, back); diff != "" {
		t.Errorf("gob round trip (-want +got):\n%s", diff)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
