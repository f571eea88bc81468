package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// Known answers for model rustc-perf. Upstream has no unit tests of the
// quartiles, the threshold or the magnitude, so unless a case says
// otherwise the numbers were derived from site/src/comparison.rs's rules
// by a separate re-implementation, or follow from the rules themselves.

// quartiles is rustcQuartiles of a sorted copy of p.
func quartiles(p []float64) (q1, q3 float64) {
	s := slices.Clone(p)
	slices.Sort(s)
	return rustcQuartiles(s)
}

func TestQuartiles(t *testing.T) {
	tests := []struct {
		name   string
		p      []float64
		q1, q3 float64
	}{
		{"even length 4 drops both middle elements", []float64{0.1, 0.2, 0.3, 0.4}, 0.1, 0.4},
		{"even length 6", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, 0.15, 0.55},
		{"odd length 5 drops the middle element", []float64{1, 2, 3, 4, 5}, 1.5, 4.5},
		{"length 2", []float64{0.5, 0.7}, 0.5, 0.7},
		{"length 3: halves of one element", []float64{1, 2, 3}, 1, 3},
		{"input is sorted first", []float64{5, 1, 4, 2, 3}, 1.5, 4.5},
		{"length 1 does not panic", []float64{0.3}, 0.3, 0.3},
		{"empty", nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q1, q3 := quartiles(tt.p)
			// (0.1 + 0.2) / 2 is 0.15000000000000002 in float64.
			if math.Abs(q1-tt.q1) > 1e-15 || math.Abs(q3-tt.q3) > 1e-15 {
				t.Errorf("quartiles(%v) = %v, %v; want %v, %v", tt.p, q1, q3, tt.q1, tt.q3)
			}
		})
	}
}

// With 30 history values there are 29 percent changes, and the
// median-of-halves rule says Q1 = (p[6] + p[7]) / 2 and
// Q3 = (p[21] + p[22]) / 2 of the sorted list.
func TestQuartilesOf29(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		p := make([]float64, 29)
		for i := range p {
			p[i] = rng.Float64() / 100
		}
		q1, q3 := quartiles(p)
		slices.Sort(p)
		if want := (p[6] + p[7]) / 2; q1 != want {
			t.Errorf("Q1 = %v, want (p6+p7)/2 = %v", q1, want)
		}
		if want := (p[21] + p[22]) / 2; q3 != want {
			t.Errorf("Q3 = %v, want (p21+p22)/2 = %v", q3, want)
		}
	}
}

func TestPercentChanges(t *testing.T) {
	tests := []struct {
		name    string
		history []float64
		want    []float64
	}{
		{"the newer value of each pair divides", []float64{110, 100, 125}, []float64{10.0 / 110, 25.0 / 100}},
		{"history order, not sorted", []float64{100, 100, 150}, []float64{0, 0.5}},
		{"one value has no change", []float64{100}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, appendPercentChanges(nil, tt.history)); diff != "" {
				t.Errorf("appendPercentChanges(%v) mismatch (-want +got):\n%s", tt.history, diff)
			}
		})
	}
}

// rpAlternating returns n values 1000, 1001, 1000, … (the alternating
// history of the derived vectors).
func rpAlternating(n int, a, b float64) []float64 {
	h := make([]float64, n)
	for i := range h {
		h[i] = a
		if i%2 == 1 {
			h[i] = b
		}
	}
	return h
}

// ladderHistory returns 30 values, newest first, whose percent changes are
// 0.0001, 0.0002, …, 0.0029 (each up to rounding), in a shuffled order.
func ladderHistory() []float64 {
	steps := make([]float64, 29)
	for i := range steps {
		steps[i] = float64(i+1) / 10000
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	h := []float64{1e6}
	for i, p := range steps {
		x := h[i]
		if i%2 == 0 {
			h = append(h, x-x*p)
		} else {
			h = append(h, x+x*p)
		}
	}
	return h
}

// altFence is Q3 + 3·(Q3 − Q1) with Q1 = 1/1001 and Q3 = 1/1000, computed
// in float64 at run time (a constant expression would be exact).
func altFence() float64 {
	one := 1.0
	q1, q3 := one/1001, one/1000
	return q3 + (q3-q1)*IQRMultiplier
}

func TestSignificanceThreshold(t *testing.T) {
	// Every percent change is 1/1000 or 1/1001, so Q1 = 1/1001 and
	// Q3 = 1/1000 exactly, threshold = Q3 + 3·(Q3 − Q1) ≈ 0.001002997.
	alt := altFence()

	tests := []struct {
		name    string
		history []float64
		want    float64
		tol     float64
	}{
		{"sorted percent changes 0.0001…0.0029 give 0.00675", ladderHistory(), 0.00675, 1e-12},
		{"alternating 1000/1001", rpAlternating(30, 1000, 1001), alt, 0},
		{"alternating starting with 1001", rpAlternating(30, 1001, 1000), alt, 0},
		{"only the 30 newest values count", append(rpAlternating(30, 1000, 1001), 5000, 1, 9000), alt, 0},
		{"29 values: default", rpAlternating(29, 1000, 1001), DefaultSignificanceThreshold, 0},
		{"no history: default", nil, DefaultSignificanceThreshold, 0},
		{"flat history: 0 (no floor)", rpAlternating(30, 7, 7), 0, 0},
		{"zeros only: 0/0 is NaN, so is the fence: default", rpAlternating(30, 0, 0), DefaultSignificanceThreshold, 0},
		{"a zero newest value: its infinite change sorts last", append([]float64{0}, rpAlternating(29, 1000, 1001)...), alt, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := thresholdInto(nil, tt.history, RustcPerfHistory)
			if math.Abs(got-tt.want) > tt.tol || math.IsNaN(got) {
				t.Errorf("SignificanceThreshold = %v, want %v (±%v)", got, tt.want, tt.tol)
			}
		})
	}
}

func TestSignificanceThresholdN(t *testing.T) {
	h := rpAlternating(12, 1000, 1001)
	if got := thresholdInto(nil, h, 12); got != altFence() {
		t.Errorf("thresholdInto(12 values, 12) = %v", got)
	}
	if got := thresholdInto(nil, h, 13); got != DefaultSignificanceThreshold {
		t.Errorf("thresholdInto(12 values, 13) = %v, want the default", got)
	}
	if got, want := thresholdInto(nil, rpAlternating(40, 1000, 1001), 0), thresholdInto(nil, rpAlternating(40, 1000, 1001), RustcPerfHistory); got != want {
		t.Errorf("thresholdInto(…, 0) = %v, want the 30-value threshold %v", got, want)
	}
}

func TestSignificanceFactor(t *testing.T) {
	tests := []struct {
		name              string
		change, threshold float64
		want              float64
	}{
		{"ratio of absolute change", -0.006, 0.002, 3},
		{"threshold 0 gives 0", 0.0002, 0, 0},
		{"0 / 0 gives 0", 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SignificanceFactor(tt.change, tt.threshold); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("SignificanceFactor(%v, %v) = %v, want %v", tt.change, tt.threshold, got, tt.want)
			}
		})
	}
}

// The over-threshold buckets are strict "<" against threshold × k computed
// in float64, so a change exactly at k·t belongs to the upper bucket and the
// float64 just below it to the lower one (upstream multiplies the threshold
// by k and divides nothing). The
// absolute bucket is fixed at VeryLarge by using a large change relative to
// a noise factor, so the combined magnitude shows the over bucket.
func TestMagnitudeOverThresholdBoundaries(t *testing.T) {
	for _, threshold := range []float64{0.002, 0.01, 0.0037} {
		cuts := []struct {
			k            float64
			below, above Magnitude // over-threshold bucket below and at k·t
		}{{1.5, VerySmall, Small}, {3.0, Small, Medium}, {6.0, Medium, Large}, {12.0, Large, VeryLarge}}
		for _, cut := range cuts {
			at := threshold * cut.k
			below := math.Nextafter(at, 0)
			// With the absolute bucket at VeryLarge (rank 5), the combined
			// rank is (over + 5) / 2, which tells ranks 1|2, 3|4 apart but
			// not 2|3 or 4|5; a Small absolute bucket (rank 2) tells those.
			for _, abs := range []Magnitude{VeryLarge, Small} {
				nf := noiseFactorFor(at, abs)
				if got, want := MagnitudeOf(at, threshold, nf), (cut.above+abs)/2; got != want {
					t.Errorf("t=%v: change = %v·t exactly, abs %v: magnitude %v, want %v", threshold, cut.k, abs, got, want)
				}
				if got, want := MagnitudeOf(-below, threshold, nf), (cut.below+abs)/2; got != want {
					t.Errorf("t=%v: change just below %v·t, abs %v: magnitude %v, want %v", threshold, cut.k, abs, got, want)
				}
			}
		}
	}
	// 1.5 % with T = 1 % is over = Small because 1.5 × 0.01 == 0.015.
	if got := overThresholdBucket(0.015, 0.01); got != Small {
		t.Errorf("over bucket of 1.5%% at T = 1%% = %v, want small", got)
	}
}

// noiseFactorFor returns a noise factor that puts change c in absolute
// bucket m, away from the cut-offs.
func noiseFactorFor(c float64, m Magnitude) float64 {
	pct := map[Magnitude]float64{VerySmall: 0.1, Small: 0.5, Medium: 1.5, Large: 3, VeryLarge: 8}[m]
	return c * 100 / pct
}

// belowPct is the largest change whose pct = c·100/nf is below cut.
func belowPct(cut, nf float64) float64 {
	c := cut * nf / 100
	for c*100/nf >= cut {
		c = math.Nextafter(c, 0)
	}
	return c
}

func TestAbsoluteBucketBoundaries(t *testing.T) {
	// site/src/comparison.rs: pct = |c|·100 / nf; < 0.2 VerySmall, < 1 Small, < 2 Medium,
	// < 5 Large, else VeryLarge.
	tests := []struct {
		name  string
		c, nf float64
		want  Magnitude
	}{
		{"0.2 % reliable is small", 0.002, 1, Small},
		{"just below 0.2 % reliable is very small", belowPct(0.2, 1), 1, VerySmall},
		{"1 % reliable is medium", 0.01, 1, Medium},
		{"just below 1 % reliable is small", belowPct(1, 1), 1, Small},
		{"2 % reliable is large", 0.02, 1, Large},
		{"just below 2 % reliable is medium", belowPct(2, 1), 1, Medium},
		{"5 % reliable is very large", 0.05, 1, VeryLarge},
		{"just below 5 % reliable is large", belowPct(5, 1), 1, Large},
		{"0.4 % noisy is small", 0.004, 2, Small},
		{"just below 0.4 % noisy is very small", belowPct(0.2, 2), 2, VerySmall},
		{"0.2 % noisy is very small", 0.002, 2, VerySmall},
		{"2 % noisy is medium", 0.02, 2, Medium},
		{"4 % noisy is large", 0.04, 2, Large},
		{"just below 4 % noisy is medium", belowPct(2, 2), 2, Medium},
		{"10 % noisy is very large", 0.1, 2, VeryLarge},
		{"just below 10 % noisy is large", belowPct(5, 2), 2, Large},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := absoluteBucket(tt.c, tt.nf); got != tt.want {
				t.Errorf("absoluteBucket(%v, %v) = %v, want %v", tt.c, tt.nf, got, tt.want)
			}
		})
	}
}

func TestClassifyChange(t *testing.T) {
	rel, noisy := model.Reliable.NoiseFactor(), model.Noisy.NoiseFactor()
	tests := []struct {
		name                  string
		change, threshold, nf float64
		want                  ChangeSignificance
	}{
		{"0.25 % at T 0.2 %: significant but very small, not relevant", 0.0025, 0.002, rel,
			ChangeSignificance{Threshold: 0.002, Factor: 1.25, Significant: true, Magnitude: VerySmall}},
		{"0.5 % at T 0.2 %: small", 0.005, 0.002, rel,
			ChangeSignificance{Threshold: 0.002, Factor: 2.5, Significant: true, Magnitude: Small, Relevant: true}},
		{"3 % at T 0.2 %: large (5 + 4)", 0.03, 0.002, rel,
			ChangeSignificance{Threshold: 0.002, Factor: 15, Significant: true, Magnitude: Large, Relevant: true}},
		{"3 % at T 0.2 % noisy: large (5 + 3)", -0.03, 0.002, noisy,
			ChangeSignificance{Threshold: 0.002, Factor: 15, Significant: true, Magnitude: Large, Relevant: true}},
		{"0.05 % at T 0.01 %: small (3 + 1)", 0.0005, 0.0001, rel,
			ChangeSignificance{Threshold: 0.0001, Factor: 5, Significant: true, Magnitude: Small, Relevant: true}},
		{"1.2 % at T 1 %: small (1 + 3)", 0.012, 0.01, rel,
			ChangeSignificance{Threshold: 0.01, Factor: 1.2, Significant: true, Magnitude: Small, Relevant: true}},
		{"1.2 % at T 1 % noisy: very small (1 + 2), not relevant", 0.012, 0.01, noisy,
			ChangeSignificance{Threshold: 0.01, Factor: 1.2, Significant: true, Magnitude: VerySmall}},
		{"0.02 % at T 0: significant, factor 0, medium (5 + 1), relevant", 0.0002, 0, rel,
			ChangeSignificance{Threshold: 0, Factor: 0, Significant: true, Magnitude: Medium, Relevant: true}},
		{"below the 0.01 % floor: very small whatever the threshold", 0.00009, 0, rel,
			ChangeSignificance{Threshold: 0, Factor: 0, Significant: true, Magnitude: VerySmall}},
		{"exactly at the threshold is significant (>=)", -0.002, 0.002, rel,
			ChangeSignificance{Threshold: 0.002, Factor: 1, Significant: true, Magnitude: VerySmall}},
		{"just below the threshold is not", math.Nextafter(0.002, 0), 0.002, rel,
			ChangeSignificance{Threshold: 0.002, Factor: math.Nextafter(0.002, 0) / 0.002, Magnitude: VerySmall}},
		{"huge change below a huge threshold is not relevant", 0.5, 0.6, rel,
			ChangeSignificance{Threshold: 0.6, Factor: 0.5 / 0.6, Magnitude: Medium}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyChange(tt.change, tt.threshold, tt.nf)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 })); diff != "" {
				t.Errorf("ClassifyChange(%v, %v, %v) mismatch (-want +got):\n%s", tt.change, tt.threshold, tt.nf, diff)
			}
		})
	}
}

func TestMagnitudeText(t *testing.T) {
	for m, want := range map[Magnitude]string{VerySmall: "very-small", Small: "small", Medium: "medium", Large: "large", VeryLarge: "very-large"} {
		if m.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(m), m.String(), want)
		}
		b, err := m.MarshalText()
		if err != nil || string(b) != want {
			t.Errorf("%d.MarshalText() = %q, %v", int(m), b, err)
		}
		var back Magnitude
		if err := back.UnmarshalText([]byte(want)); err != nil || back != m {
			t.Errorf("UnmarshalText(%q) = %v, %v", want, back, err)
		}
	}
	if !(VerySmall < Small && Small < Medium && Medium < Large && Large < VeryLarge) {
		t.Error("magnitudes are not ordered")
	}
	var m Magnitude
	if err := m.UnmarshalText([]byte("huge")); err == nil {
		t.Error("UnmarshalText(huge) succeeded")
	}
	if _, err := Magnitude(9).MarshalText(); err == nil {
		t.Error("MarshalText of an invalid magnitude succeeded")
	}
}
