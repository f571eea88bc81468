package model

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// heldBenchmarks is a Keep of a list of benchmarks.
type heldBenchmarks []string

func (h heldBenchmarks) Holds(name string) bool { return slices.Contains(h, name) }
func (h heldBenchmarks) String() string         { return "held " + strings.Join(h, ",") }

// skeletonOf is what a dataset says of its series besides their points.
func skeletonOf(d *Dataset) []Series {
	var out []Series
	for _, s := range d.Series {
		c := *s
		c.Points, c.Ranges = nil, nil
		out = append(out, c)
	}
	return out
}

// TestKeepEqualsFull: a builder that holds some benchmarks' points
// (BuildOptions.Keep), given every run or resumed from its own states as
// in TestResumeEqualsFull, builds the dataset a builder of every run
// builds, without the other benchmarks' points: the same warnings (units,
// duplicates with another value, machines, artifacts), artifacts, main
// line and series (their definitions and origins), every held series the
// same, the others without points. Its states hold the held series'
// points alone, and a state of a resumed builder resumes again.
func TestKeepEqualsFull(t *testing.T) {
	defer func(n int) { StateChunk = n }(StateChunk)
	StateChunk = 5
	opts := BuildOptions{Value: Median, Metrics: map[string]Metric{"wall-time": {Noise: Noisy}}}
	keep := heldBenchmarks{"a", "c"}
	held := func(s *Series) bool { return keep.Holds(s.Case.Benchmark) }
	kopts := opts
	kopts.Keep = keep
	check := func(seed int, what string, want, got *Dataset) {
		t.Helper()
		if diff := sameDataset(want.Subset(held), got.Subset(held)); diff != "" {
			t.Fatalf("seed %d, %s: the held series differ: %s", seed, what, diff)
		}
		if !reflect.DeepEqual(skeletonOf(want), skeletonOf(got)) {
			t.Fatalf("seed %d, %s: the series differ:\n%+v\n%+v", seed, what, skeletonOf(want), skeletonOf(got))
		}
		for _, s := range got.Series {
			if !held(s) && (len(s.Points) > 0 || s.Ranges != nil) {
				t.Fatalf("seed %d, %s: series %s of a benchmark not held has %d points", seed, what, s.Key, len(s.Points))
			}
		}
	}
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	resumed, dropped := 0, 0
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		clean := seed%2 == 0
		n := 4 + rng.IntN(30)
		runs, origins := randomHistory(rng, n, clean)
		full, b := NewBuilder(opts), NewBuilder(kopts)
		for i := range runs {
			full.Add(origins[i], runs[i])
			b.Add(origins[i], runs[i])
		}
		// The state: the held series' points, no other.
		heldPoints := 0
		for k, sb := range full.series {
			if keep.Holds(k.Benchmark) {
				heldPoints += int(sb.n)
			}
		}
		state, _ := writeState(t, b, 0)
		var m stateMeta
		if _, err := readHead(state, &m); err != nil {
			t.Fatal(err)
		}
		statePoints := 0
		for _, c := range m.Chunks {
			statePoints += c.Points
		}
		if statePoints != heldPoints {
			t.Fatalf("seed %d: the state holds %d points, the held series %d", seed, statePoints, heldPoints)
		}
		want := full.Dataset()
		check(seed, "every run", want, b.Dataset())
		for _, w := range want.Warnings {
			if strings.Contains(w.Error(), "duplicate result for b ") || strings.Contains(w.Error(), "unit") && strings.Contains(w.Error(), ": d ") {
				dropped++
			}
		}

		// Resumed: half the runs, then the rest.
		half := NewBuilder(kopts)
		var first []int
		for i := range n {
			if clean && i < n/2 || !clean && rng.IntN(2) == 0 {
				half.AddAt(i, origins[i], runs[i])
				first = append(first, i)
			}
		}
		state, chunk := writeState(t, half, 1)
		if _, err := ResumeBuilder(opts, state, chunk, func(i int, origin string) (int, string, bool) { return first[i], origin, true }); err == nil {
			t.Fatalf("seed %d: a state of some benchmarks resumed without Keep", seed)
		}
		r, err := ResumeBuilder(kopts, state, chunk, func(i int, origin string) (int, string, bool) {
			return first[i], origin, origins[first[i]] == origin
		})
		if err != nil {
			t.Fatalf("seed %d: resume: %v", seed, err)
		}
		for i := range n {
			if !slices.Contains(first, i) {
				r.AddAt(i, origins[i], runs[i])
			}
		}
		if err := r.Diverged(); err != nil {
			if clean {
				t.Fatalf("seed %d: a history of new commits diverged: %v", seed, err)
			}
			continue
		}
		resumed++
		// The resumed builder's state (its checkpoint's skeletons and its
		// own claims), resumed again with nothing new.
		state, chunk = writeState(t, r, 2)
		again, err := ResumeBuilder(kopts, state, chunk, func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin })
		if err != nil {
			t.Fatalf("seed %d: resume again: %v", seed, err)
		}
		check(seed, "resumed", want, r.Dataset())
		check(seed, "resumed twice", want, again.Dataset())
	}
	if dropped == 0 {
		t.Error("no warning about a benchmark not held: the test does not test them")
	}
	t.Logf("%d resumed, %d warnings about benchmarks not held", resumed, dropped)
	if resumed < seeds/2 {
		t.Errorf("only %d of %d histories resumed", resumed, seeds)
	}
}
