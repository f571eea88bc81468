package analysis

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Known answers for model rustc-perf-2021. The rules are those of
// rustc-perf's docs/comparison-analysis.md as of 2021: deltas above 0.1 are significant for
// dodginess, more than 5 % of them makes a test case highly variable, a
// mean of the others above 0.001 makes it noisy; significance at 0.1 % or
// 1 % (dodgy); confidence 0–3 maybe, 4–6 probably, > 6 definitely.

// withSpikes returns n values of 1000, newest first, where the values at
// the given indices are 2000 (each spike makes two deltas of 100 % or 50 %).
func withSpikes(n int, at ...int) []float64 {
	h := make([]float64, n)
	for i := range h {
		h[i] = 1000
	}
	for _, i := range at {
		h[i] = 2000
	}
	return h
}

// relativeDeltas returns (for the test below: the model scans the deltas
// without collecting them) |x[i] − x[i+1]| / x[i+1] for each adjacent pair of
// history, newest first: the change from each result to the next newer
// one, relative to the older result. Pairs whose older value is 0 are left
// out, and so are deltas that are not finite.
func relativeDeltas(history []float64) []float64 {
	var ds []float64
	for i := 0; i+1 < len(history); i++ {
		if d, ok := relativeDelta2021(history[i], history[i+1]); ok {
			ds = append(ds, d)
		}
	}
	return ds
}

func TestRelativeDeltas(t *testing.T) {
	tests := []struct {
		name    string
		history []float64
		want    []float64
	}{
		{"the older value of each pair divides (seed: testResult1)", []float64{110, 100}, []float64{0.1}},
		{"absolute value", []float64{90, 100, 50}, []float64{0.1, 1}},
		{"a zero older value has no relative delta", []float64{5, 0, 10}, []float64{1}},
		{"fewer than two values: none", []float64{3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, relativeDeltas(tt.history)); diff != "" {
				t.Errorf("relativeDeltas(%v) mismatch (-want +got):\n%s", tt.history, diff)
			}
		})
	}
}

func TestClassifyDodginess(t *testing.T) {
	tests := []struct {
		name       string
		history    []float64
		dodgyDelta float64
		want       Dodginess
		dodgy      bool
	}{
		{"no history: not dodgy", nil, 0.1, Dodginess{}, false},
		{"one value has no delta: not dodgy", []float64{1000}, 0.1, Dodginess{}, false},
		{"flat history", withSpikes(100), 0.1, Dodginess{Deltas: 99}, false},
		{
			// Two spikes give 4 significant deltas of 99: 4.04 % ≤ 5 %.
			"4 of 99 deltas significant: not highly variable", withSpikes(100, 10, 50), 0.1,
			Dodginess{Deltas: 99, SignificantDeltas: 4}, false,
		},
		{
			// A spike at the newest value gives one delta, two more give 4:
			// 5 of 99 = 5.05 % > 5 %.
			"5 of 99 deltas significant: highly variable", withSpikes(100, 0, 10, 50), 0.1,
			Dodginess{Deltas: 99, SignificantDeltas: 5, HighlyVariable: true}, true,
		},
		{
			"exactly 5 % (1 of 20) is not more than 5 %", withSpikes(21, 0), 0.1,
			Dodginess{Deltas: 20, SignificantDeltas: 1}, false,
		},
		{
			"2 of 20 is", withSpikes(21, 10), 0.1,
			Dodginess{Deltas: 20, SignificantDeltas: 2, HighlyVariable: true}, true,
		},
		{
			"a delta of exactly 0.1 is not above 0.1", []float64{110, 100, 100}, 0.1,
			Dodginess{Deltas: 2, MeanNonSignificant: 0.05, Noisy: true}, true,
		},
		{
			"the dodgy delta is configurable", []float64{110, 100, 100}, 0.05,
			Dodginess{Deltas: 2, SignificantDeltas: 1, HighlyVariable: true}, true,
		},
		{
			// Deltas alternate 1/1001 and 1/1000: mean just below 0.001.
			"alternating 1000/1001 is not noisy", rpAlternating(100, 1000, 1001), 0.1,
			Dodginess{Deltas: 99, MeanNonSignificant: (50.0/1001 + 49.0/1000) / 99}, false,
		},
		{
			// Deltas alternate 2/1002 and 2/1000: mean about 0.002.
			"alternating 1000/1002 is noisy", rpAlternating(100, 1000, 1002), 0.1,
			Dodginess{Deltas: 99, MeanNonSignificant: (50.0*2/1002 + 49.0*2/1000) / 99, Noisy: true}, true,
		},
		{
			"significant deltas are left out of the noise mean", []float64{1000, 1002, 3000, 1002}, 0.1,
			Dodginess{Deltas: 3, SignificantDeltas: 2, MeanNonSignificant: 2.0 / 1002, Noisy: true, HighlyVariable: true}, true,
		},
		{"dodgy delta 0 means the default", []float64{110, 100, 100}, 0, Dodginess{Deltas: 2, MeanNonSignificant: 0.05, Noisy: true}, true},
	}
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyDodginess(tt.history, tt.dodgyDelta)
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("ClassifyDodginess mismatch (-want +got):\n%s", diff)
			}
			if got.Dodgy() != tt.dodgy {
				t.Errorf("Dodgy() = %v, want %v", got.Dodgy(), tt.dodgy)
			}
		})
	}
}

func TestClassifyChange2021(t *testing.T) {
	tests := []struct {
		name      string
		change    float64
		dodgy     bool
		threshold float64
		sig       bool
	}{
		{"0.1 % exactly is not above 0.1 % (strict)", 0.001, false, 0.001, false},
		{"just above 0.1 % is significant", math.Nextafter(0.001, 1), false, 0.001, true},
		{"negative changes count by absolute value", -0.002, false, 0.001, true},
		{"dodgy: 1 % exactly is not above 1 %", -0.01, true, 0.01, false},
		{"dodgy: just above 1 %", math.Nextafter(0.01, 1), true, 0.01, true},
		{"0.5 % is significant for a steady test case", 0.005, false, 0.001, true},
		{"0.5 % is not for a dodgy one", 0.005, true, 0.01, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyChange2021(tt.change, tt.dodgy, 1)
			if got.Threshold != tt.threshold || got.Significant != tt.sig {
				t.Errorf("ClassifyChange2021(%v, %v) = threshold %v significant %v; want %v, %v", tt.change, tt.dodgy, got.Threshold, got.Significant, tt.threshold, tt.sig)
			}
			if want := MagnitudeOf(tt.change, tt.threshold, 1); got.Magnitude != want {
				t.Errorf("magnitude %v, want rustc-perf's %v at the 2021 threshold", got.Magnitude, want)
			}
			if got.Relevant != (got.Significant && got.Magnitude >= Small) {
				t.Errorf("relevant = %v with significant %v and magnitude %v", got.Relevant, got.Significant, got.Magnitude)
			}
		})
	}
}

func TestConfidenceOf(t *testing.T) {
	tests := []struct {
		significant int
		want        Confidence
	}{
		{0, MaybeRelevant}, {3, MaybeRelevant},
		{4, ProbablyRelevant}, {6, ProbablyRelevant},
		{7, DefinitelyRelevant}, {100, DefinitelyRelevant},
	}
	for _, tt := range tests {
		if got := ConfidenceOf(tt.significant); got != tt.want {
			t.Errorf("ConfidenceOf(%d) = %v, want %v", tt.significant, got, tt.want)
		}
	}
}

func TestConfidenceText(t *testing.T) {
	for c, want := range map[Confidence]string{MaybeRelevant: "maybe-relevant", ProbablyRelevant: "probably-relevant", DefinitelyRelevant: "definitely-relevant"} {
		b, err := c.MarshalText()
		if err != nil || string(b) != want || c.String() != want {
			t.Errorf("%d: MarshalText = %q, %v; String = %q; want %q", int(c), b, err, c.String(), want)
		}
		var back Confidence
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
	var c Confidence
	if err := c.UnmarshalText([]byte("sure")); err == nil {
		t.Error("UnmarshalText(sure) succeeded")
	}
}
