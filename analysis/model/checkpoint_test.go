package model

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// randomHistory makes n runs with every kind of merge the builder settles:
// artifacts measured twice, conflicting metadata,
// machines described differently, units that disagree, errors, summaries,
// artifacts without a date. clean leaves out everything that makes a
// resumed builder diverge when runs of new artifacts are added.
func randomHistory(rng *rand.Rand, n int, clean bool) (runs []Run, origins []string) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	machines := []string{"m1", "m2"}
	benches := []string{"a", "b", "c", "d"}
	for i := range n {
		art := i
		if !clean && rng.IntN(4) == 0 {
			art = rng.IntN(i + 1) // an artifact measured again
		}
		a := Artifact{ID: fmt.Sprintf("%040x", art+1), Kind: KindCommit, Branch: "main",
			Date: base.Add(time.Duration((art*7)%n) * time.Hour)}
		if art > 0 {
			a.Parents = []string{fmt.Sprintf("%040x", art)}
		}
		if rng.IntN(8) == 0 {
			a.Title = fmt.Sprintf("title %d", rng.IntN(3))
		}
		if rng.IntN(10) == 0 {
			a.PR = 1 + rng.IntN(3)
		}
		if !clean && rng.IntN(15) == 0 {
			a.Date = time.Time{}
		}
		mname := machines[rng.IntN(len(machines))]
		m := Machine{Name: mname, OS: "linux"}
		if rng.IntN(3) == 0 {
			m.Cores = 8
		}
		if !clean && rng.IntN(10) == 0 {
			m.Cores = 16
		}
		var ctx Params
		if rng.IntN(4) == 0 {
			ctx = Params{{"toolchain", "go1.26"}}
		}
		r := Run{Artifact: a, Machine: m, Context: ctx}
		for _, bench := range benches {
			if rng.IntN(5) == 0 {
				continue
			}
			for _, metric := range []string{"wall-time", "instructions:u"} {
				res := Result{Case: TestCase{Benchmark: bench}, Metric: metric, Unit: "ns"}
				if metric == "instructions:u" {
					res.Unit = "count"
				}
				if !clean && rng.IntN(20) == 0 {
					res.Unit = "ms"
				}
				if rng.IntN(6) == 0 {
					res.Case.Params = Params{{"size", "big"}}
				}
				switch rng.IntN(12) {
				case 0:
					res.Error = "crashed"
				case 1:
					res.Summary = &SampleSummary{Mean: float64(rng.IntN(100)), StdDev: 1, N: 5}
					fallthrough
				default:
					if rng.IntN(6) == 0 {
						res.Range = fmt.Sprintf("± %d", rng.IntN(9))
					}
					k := 1 + rng.IntN(4)
					for range k {
						res.Samples = append(res.Samples, float64(100+rng.IntN(3)))
					}
					if rng.IntN(5) == 0 {
						for range k {
							res.Iters = append(res.Iters, float64(1+rng.IntN(2)))
						}
					}
				}
				r.Results = append(r.Results, res)
			}
		}
		runs = append(runs, r)
		origins = append(origins, fmt.Sprintf("results/%s/run%03d.json", mname, i))
	}
	return runs, origins
}

// sameDataset reports how two datasets differ, "" when they do not.
func sameDataset(x, y *Dataset) string {
	msgs := func(ws []error) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Error())
		}
		return out
	}
	if wx, wy := msgs(x.Warnings), msgs(y.Warnings); !reflect.DeepEqual(wx, wy) {
		return fmt.Sprintf("warnings:\n%q\n%q", wx, wy)
	}
	cx, cy := *x, *y
	cx.Warnings, cy.Warnings = nil, nil
	cx.Series, cy.Series = plainSamples(cx.Series), plainSamples(cy.Series)
	if !reflect.DeepEqual(cx.Series, cy.Series) {
		for i := range cx.Series {
			if i < len(cy.Series) && !reflect.DeepEqual(cx.Series[i], cy.Series[i]) {
				return fmt.Sprintf("series %d:\n%+v\n%+v", i, *cx.Series[i], *cy.Series[i])
			}
		}
		return fmt.Sprintf("series: %d vs %d", len(cx.Series), len(cy.Series))
	}
	if !reflect.DeepEqual(cx, cy) {
		return fmt.Sprintf("dataset:\n%+v\n%+v", cx, cy)
	}
	return ""
}

// plainSamples is a copy of series whose points hold their samples as
// their own decoded floats, so that reflect.DeepEqual compares samples by
// value, not by where they are kept (a resumed dataset's are encoded).
func plainSamples(series []*Series) []*Series {
	out := make([]*Series, len(series))
	for i, s := range series {
		c := *s
		c.Points = slices.Clone(s.Points)
		for k := range c.Points {
			c.Points[k].SetSamples(slices.Clone(c.Points[k].Samples()))
		}
		out[i] = &c
	}
	return out
}

// samplesByValue makes cmp compare points' samples and rare values by
// value, not by where they are kept.
var samplesByValue = cmp.Options{
	cmp.AllowUnexported(rarePoint{}),
	cmp.Transformer("point", func(p Point) pointByValue {
		return pointByValue{p.Artifact, p.Value, p.OK(), p.Samples(), p.rare()}
	}),
}

// pointByValue is what a point holds, by value.
type pointByValue struct {
	Artifact int32
	Value    float64
	OK       bool
	Samples  []float64
	Rare     *rarePoint
}

// TestResumeEqualsFull: a builder resumed from the state of some runs and
// given the others at their positions builds the dataset a builder given
// every run in order builds, or says it cannot (Diverged); on histories
// of new commits only, it always can. The state is also taken from a
// resumed builder and resumed again, as a nightly build does.
func TestResumeEqualsFull(t *testing.T) {
	defer func(n int) { StateChunk = n }(StateChunk)
	StateChunk = 5 // several chunks of the few series
	opts := BuildOptions{Value: Median, Metrics: map[string]Metric{"wall-time": {Noise: Noisy}}}
	resumed, diverged := 0, 0
	for seed := range 400 {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		clean := seed%2 == 0
		n := 4 + rng.IntN(30)
		runs, origins := randomHistory(rng, n, clean)

		full := NewBuilder(opts)
		for i := range runs {
			full.Add(origins[i], runs[i])
		}
		want := full.Dataset()

		// Three builds: the first has a random subset of the runs, each
		// later one adds some of the rest (a new run may fall before old
		// ones: a new machine's file sorts first).
		have := make([]bool, n)
		var state []byte
		var chunk func(int, []byte) ([]byte, []byte, bool)
		var stateRuns []int // full positions of the state's runs
		ok := true
		for step := range 3 {
			var b *Builder
			if state == nil {
				b = NewBuilder(opts)
			} else {
				// Half of them leave the samples in the floats' file
				// (lazyfloats.go), and a state written from such a
				// builder copies them from there.
				read := func(i int, cols, _ []byte) (ChunkParts, bool) {
					c, f, ok := chunk(i, cols)
					return ChunkParts{Cols: c, Floats: f}, ok
				}
				if seed%4 >= 2 {
					read = (&lazyChunks{chunk: chunk}).read
				}
				var err error
				b, err = ResumeBuilderFrom(opts, state, read, func(i int, origin string) (int, string, bool) {
					p := stateRuns[i]
					return p, origin, origins[p] == origin
				})
				if err != nil {
					t.Fatalf("seed %d: resume: %v", seed, err)
				}
			}
			var added []int
			for i := range n {
				take := step == 2 || rng.IntN(3) > 0
				if clean && step > 0 {
					// New commits: the runs of artifacts after the newest held.
					take = step == 2 || i >= n*(step+1)/3
				}
				if !have[i] && take {
					have[i] = true
					b.AddAt(i, origins[i], runs[i])
					added = append(added, i)
				}
			}
			if err := b.Diverged(); err != nil {
				if clean {
					t.Fatalf("seed %d: a history of new commits diverged: %v", seed, err)
				}
				ok = false
				break
			}
			if step == 2 {
				got := b.Dataset()
				if diff := sameDataset(want, got); diff != "" {
					t.Fatalf("seed %d (clean %t): resumed dataset differs: %s", seed, clean, diff)
				}
				break
			}
			state, chunk = writeState(t, b, step+3) // an odd offset, then an even one
			stateRuns = mergeSorted(stateRuns, added)
		}
		if ok {
			resumed++
		} else {
			diverged++
		}
	}
	t.Logf("%d resumed, %d diverged", resumed, diverged)
	// Every history of new commits resumes (checked above); enough of the
	// others do to cover conflicts and warnings in the state.
	if resumed < 220 {
		t.Errorf("only %d of 400 histories resumed", resumed)
	}
}

// historyBuilder is a builder given every run of a random history of n
// commits (randomHistory, seed), with the runs' origins.
func historyBuilder(seed uint64, n int) (*Builder, []string) {
	runs, origins := randomHistory(rand.New(rand.NewPCG(seed, 2)), n, true)
	b := NewBuilder(BuildOptions{})
	for i := range runs {
		b.Add(origins[i], runs[i])
	}
	return b, origins
}

// TestResumedSamplesStayEncoded: a resumed builder's points keep their
// samples encoded in the chunk's floats part (a nightly build reads a few
// points' samples of each series, not all), decode them on request into
// the caller's memory when it is large enough, and count them without
// decoding.
func TestResumedSamplesStayEncoded(t *testing.T) {
	full, origins := historyBuilder(3, 12)
	state, chunk := writeState(t, full, 0) // before Dataset, which takes the builder's points
	want := full.Dataset()
	b, err := ResumeBuilder(BuildOptions{}, state, chunk, func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin })
	if err != nil {
		t.Fatal(err)
	}
	got := b.Dataset()
	if diff := sameDataset(want, got); diff != "" {
		t.Fatal(diff)
	}
	buf := make([]float64, 0, 64)
	checked := 0
	for i, s := range got.Series {
		for k := range s.Points {
			p, w := &s.Points[k], &want.Series[i].Points[k]
			if p.NumSamples() == 0 {
				continue
			}
			if !p.src.encoded() {
				t.Fatalf("series %d point %d: samples decoded on resume", i, k)
			}
			xs := p.SamplesTo(buf)
			if &xs[0] != &buf[:1][0] || !slices.Equal(xs, w.Samples()) || p.NumSamples() != w.NumSamples() {
				t.Fatalf("series %d point %d: %v (in the buffer: %t), want %v", i, k, xs, &xs[0] == &buf[:1][0], w.Samples())
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no point with samples")
	}
}

// writeState writes b's state into memory at offset off (the chunks' parts
// each at off too): the dataset-wide part and a reader of the chunks,
// which checks that the columns part may go in the scratch it is given.
func writeState(t testing.TB, b *Builder, off int) ([]byte, func(int, []byte) ([]byte, []byte, bool)) {
	t.Helper()
	var head bytes.Buffer
	var cols, floats [][]byte
	// at puts a part at offset off of its memory: in place where the
	// offset is right, copied where not.
	at := func(part StatePart) ([]byte, error) {
		var buf bytes.Buffer
		if err := part(&buf, off); err != nil {
			return nil, err
		}
		return append(make([]byte, off, buf.Len()+off), buf.Bytes()...)[off:], nil
	}
	err := b.WriteState(&head, off, func(i int, c, f StatePart) error {
		if i != len(cols) {
			t.Fatalf("chunk %d written after %d", i, len(cols))
		}
		cb, err := at(c)
		if err != nil {
			return err
		}
		fb, err := at(f)
		if err != nil {
			return err
		}
		cols, floats = append(cols, cb), append(floats, fb)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return head.Bytes(), func(i int, scratch []byte) ([]byte, []byte, bool) {
		if i < 0 || i >= len(cols) {
			return nil, nil, false
		}
		// The columns in scratch, as the store reads them: the builder
		// must not keep them.
		c := append(scratch[:0], cols[i]...)
		return c, floats[i], true
	}
}

func mergeSorted(x, y []int) []int {
	out := append(append([]int(nil), x...), y...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestResumeCorrupt: a state that does not decode is an error, not a
// panic or a wrong builder.
func TestResumeCorrupt(t *testing.T) {
	b, _ := historyBuilder(1, 10)
	defer func(n int) { StateChunk = n }(StateChunk)
	StateChunk = 4
	state, chunk := writeState(t, b, 0)
	pos := func(i int, origin string) (int, string, bool) { return i, origin, true }
	if _, err := ResumeBuilder(BuildOptions{}, state, chunk, pos); err != nil {
		t.Fatalf("good state: %v", err)
	}
	if _, err := ResumeBuilder(BuildOptions{Value: Mean}, state, chunk, pos); err == nil {
		t.Error("state of other options resumed")
	}
	gone := func(i int, origin string) (int, string, bool) { return i, origin, i != 3 }
	if _, err := ResumeBuilder(BuildOptions{}, state, chunk, gone); err == nil {
		t.Error("state with a run gone resumed")
	}
	for _, cut := range []int{0, 10, len(state) / 2, len(state) - 1} {
		if _, err := ResumeBuilder(BuildOptions{}, state[:cut], chunk, pos); err == nil {
			t.Errorf("state cut at %d resumed", cut)
		}
	}
	c1, f1, _ := chunk(1, nil)
	missing := func(i int, scratch []byte) ([]byte, []byte, bool) {
		if i == 1 {
			return nil, nil, false
		}
		return chunk(i, scratch)
	}
	if _, err := ResumeBuilder(BuildOptions{}, state, missing, pos); err == nil {
		t.Error("state with a chunk missing resumed")
	}
	swapped := func(i int, scratch []byte) ([]byte, []byte, bool) { return chunk(i^1, scratch) }
	if _, err := ResumeBuilder(BuildOptions{}, state, swapped, pos); err == nil {
		t.Error("state with chunks swapped resumed")
	}
	otherFloats := func(i int, scratch []byte) ([]byte, []byte, bool) {
		c, _, ok := chunk(i, scratch)
		_, f, _ := chunk(i^1, nil)
		return c, f, ok
	}
	if _, err := ResumeBuilder(BuildOptions{}, state, otherFloats, pos); err == nil {
		t.Error("state with another chunk's floats resumed")
	}
	flip := func(part []byte, with func(bad []byte)) {
		for i := 0; i < len(part); i += 1 + len(part)/200 {
			bad := append([]byte(nil), part...)
			bad[i] ^= 0xff
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("byte %d flipped: panic %v", i, r)
					}
				}()
				with(bad)
			}()
		}
	}
	flip(state, func(bad []byte) { ResumeBuilder(BuildOptions{}, bad, chunk, pos) })
	flip(c1, func(bad []byte) {
		ResumeBuilder(BuildOptions{}, state, func(i int, scratch []byte) ([]byte, []byte, bool) {
			if i == 1 {
				return bad, f1, true
			}
			return chunk(i, scratch)
		}, pos)
	})
	// Every byte of a floats part is under its segment's sum.
	flip(f1, func(bad []byte) {
		_, err := ResumeBuilder(BuildOptions{}, state, func(i int, scratch []byte) ([]byte, []byte, bool) {
			if i == 1 {
				return c1, bad, true
			}
			return chunk(i, scratch)
		}, pos)
		if err == nil {
			t.Fatal("a floats part with a byte flipped resumed")
		}
	})
}

// A point's samples' place is 31 bits of it (TestPointSize): points with
// more samples than the bits hold, and samples further into a builder's
// slab or a resumed chunk than they reach, keep every sample, built and
// resumed, with failures set on some of them.
func TestPointsPastTheirLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var runs []Run
	var origins []string
	for i := range 700 {
		a := Artifact{ID: fmt.Sprintf("%040x", i+1), Kind: KindCommit, Branch: "main", Date: base.Add(time.Duration(i) * time.Hour)}
		r := Run{Artifact: a, Machine: Machine{Name: "m"}}
		for _, bench := range []string{"a", "b"} {
			n := 1 + rng.IntN(300)
			switch rng.IntN(20) {
			case 0:
				n = maxInlineN + rng.IntN(3) // at and past the limit
			case 1:
				n = 5000
			}
			// Full-precision floats: 8 bytes each encoded, so that the
			// samples run past maxOff in a slab and in a chunk.
			res := Result{Case: TestCase{Benchmark: bench}, Metric: "wall-time", Unit: "ns", Samples: make([]float64, n)}
			for k := range res.Samples {
				res.Samples[k] = 100 + rng.Float64()
			}
			if rng.IntN(10) == 0 {
				res.Iters = []float64{2}
			}
			r.Results = append(r.Results, res)
		}
		runs = append(runs, r)
		origins = append(origins, fmt.Sprintf("results/run%03d.json", i))
	}
	full := NewBuilder(BuildOptions{})
	for i := range runs {
		full.Add(origins[i], runs[i])
	}
	state, chunk := writeState(t, full, 0)
	built := full.Dataset()
	pos := func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin }
	b, err := ResumeBuilder(BuildOptions{}, state, chunk, pos)
	if err != nil {
		t.Fatal(err)
	}
	resumed := b.Dataset()
	b, err = ResumeBuilderFrom(BuildOptions{}, state, (&lazyChunks{chunk: chunk}).read, pos)
	if err != nil {
		t.Fatal(err)
	}
	lazy := b.Dataset()
	for _, d := range []*Dataset{built, resumed, lazy} {
		for _, s := range d.Series {
			if len(s.Points) != len(runs) {
				t.Fatalf("%s: %d points", s.Key, len(s.Points))
			}
			for k := range s.Points {
				p := &s.Points[k]
				want := runs[p.Artifact].Results[slices.IndexFunc(runs[p.Artifact].Results, func(r Result) bool { return r.Case.Benchmark == s.Key.Benchmark })]
				if p.NumSamples() != len(want.Samples) || !slices.Equal(p.Samples(), want.Samples) || !p.OK() {
					t.Fatalf("%s point %d: %d samples (OK %t), want %d", s.Key, k, p.NumSamples(), p.OK(), len(want.Samples))
				}
				if !slices.Equal(p.Iters(), want.Iters) {
					t.Fatalf("%s point %d: iters %v, want %v", s.Key, k, p.Iters(), want.Iters)
				}
				q := *p
				q.SetFailure("crashed")
				if q.Failure() != "crashed" || p.Failure() != "" || !slices.Equal(q.Samples(), want.Samples) || q.NumSamples() != len(want.Samples) {
					t.Fatalf("%s point %d: a failure set on a copy: %q %q, %d samples", s.Key, k, q.Failure(), p.Failure(), q.NumSamples())
				}
			}
		}
	}
}

// TestResumeMoved: a state resumed where its runs' files have other
// origins (a project moved whole) names them where they are now: its
// series' origins and its warnings.
func TestResumeMoved(t *testing.T) {
	runs, origins := randomHistory(rand.New(rand.NewPCG(5, 2)), 60, false)
	b := NewBuilder(BuildOptions{})
	for i := range runs {
		b.Add("/home/ci/old/results/"+origins[i], runs[i])
	}
	state, chunk := writeState(t, b, 0)
	want := b.Dataset()
	r, err := ResumeBuilder(BuildOptions{}, state, chunk, func(i int, origin string) (int, string, bool) {
		rest, ok := strings.CutPrefix(origin, "/home/ci/old/")
		return i, "/tmp/w2/project/" + rest, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Dataset()
	if len(want.Warnings) == 0 || len(got.Warnings) != len(want.Warnings) {
		t.Fatalf("%d warnings resumed, want %d (and some)", len(got.Warnings), len(want.Warnings))
	}
	for i, w := range got.Warnings {
		if moved := strings.ReplaceAll(want.Warnings[i].Error(), "/home/ci/old/", "/tmp/w2/project/"); w.Error() != moved {
			t.Errorf("warning %d: %q, want %q", i, w, moved)
		}
	}
	for i, s := range got.Series {
		if wantOrigin := strings.Replace(want.Series[i].Origin, "/home/ci/old/", "/tmp/w2/project/", 1); s.Origin != wantOrigin {
			t.Errorf("series %s: origin %q, want %q", s.Key, s.Origin, wantOrigin)
		}
	}
}

func TestMovedFolder(t *testing.T) {
	for _, tt := range []struct {
		renamed  map[string]string
		from, to string
		ok       bool
	}{
		{map[string]string{"/a/x/r/1.json": "/b/y/r/1.json", "/a/x/r/2.json": "/b/y/r/2.json"}, "/a/x", "/b/y", true},
		{map[string]string{"/a/x1/f": "/b/yy1/f"}, "/a/x1", "/b/yy1", true},
		{map[string]string{"/a/r/1.json": "/b/r/1.json", "/c/r/2.json": "/d/r/2.json"}, "", "", false},
		{map[string]string{"f.json": "g.json"}, "", "", false},
		{nil, "", "", false},
	} {
		from, to, ok := movedFolder(tt.renamed)
		if from != tt.from || to != tt.to || ok != tt.ok {
			t.Errorf("movedFolder(%v) = %q, %q, %t; want %q, %q, %t", tt.renamed, from, to, ok, tt.from, tt.to, tt.ok)
		}
	}
}
