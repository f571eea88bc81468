package zscore

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSVS(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		data []float64
		less bool
		kind string
		want float64
		ok   bool
	}{
		// Conbench's single value summary (SVS) rules, and the SVS of
		// Conbench's test vectors.
		{"best of one sample is the sample", []float64{5}, true, SVSBest, 5, true},
		{"best of two, less is better", []float64{10, 20}, true, SVSBest, 10, true},
		{"best of two, more is better", []float64{10, 20}, false, SVSBest, 20, true},
		{"best of three, less is better", []float64{2.1, 2.0, 1.9}, true, SVSBest, 1.9, true},
		{"best of three, more is better", []float64{4.1, 4.0, 4.9}, false, SVSBest, 4.9, true},
		{"empty kind is best", []float64{3, 1, 2}, true, "", 1, true},
		{"mean", []float64{10, 20}, true, SVSMean, 15, true},
		{"mean of 3 samples", []float64{4.1, 4.0, 4.9}, true, SVSMean, 13.0 / 3, true},
		{"mean ignores direction", []float64{50, 70}, false, SVSMean, 60, true},
		{"mean does not overflow", []float64{1e308, 1e308}, true, SVSMean, 1e308, true},
		{"no data", nil, true, SVSBest, 0, false},
		{"NaN sample", []float64{1, nan}, true, SVSBest, 0, false},
		{"infinite sample", []float64{inf, 1}, true, SVSMean, 0, false},
		{"unknown kind", []float64{1}, true, "median", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := SVS(tt.data, tt.less, tt.kind)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-15*math.Abs(tt.want) {
				t.Errorf("SVS(%v, %v, %q) = %v, %v; want %v, %v", tt.data, tt.less, tt.kind, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestScore(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	good := Dist{Mean: 1.5, Std: math.Sqrt(0.5), N: 2, Commits: 2, OK: true}
	z := (5 - 1.5) / math.Sqrt(0.5) // Conbench's worked example: 4.9497
	tests := []struct {
		name      string
		contender float64
		d         Dist
		less      bool
		threshold float64
		want      Z
	}{
		{
			"less is better flips the sign", 5, good, true, 5,
			Z{Z: -z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: 5},
		},
		{
			"more is better keeps it", 5, good, false, 5,
			Z{Z: z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: 5},
		},
		{
			"regression beyond the threshold", 5, good, true, 4.9,
			Z{Z: -z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: 4.9, Regression: true},
		},
		{
			"improvement beyond the threshold", 5, good, false, 4.9,
			Z{Z: z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: 4.9, Improvement: true},
		},
		{
			// Strict comparison: |z| equal to the threshold is no change.
			"at the threshold", 1.5 + 5, Dist{Mean: 1.5, Std: 1, OK: true}, false, 5,
			Z{Z: 5, OK: true, Mean: 1.5, Std: 1, Threshold: 5},
		},
		{
			"zero stays positive", 1.5, good, true, 5,
			Z{Z: 0, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: 5},
		},
		{
			"non-positive threshold means the default", 5, good, false, 0,
			Z{Z: z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: DefaultThreshold},
		},
		{
			"NaN threshold means the default", 5, good, false, nan,
			Z{Z: z, OK: true, Mean: 1.5, Std: math.Sqrt(0.5), Threshold: DefaultThreshold},
		},
		// The distribution is still given: it is the history chart's band.
		{"NaN contender", nan, good, true, 5, Z{Threshold: 5, Mean: 1.5, Std: math.Sqrt(0.5), Reason: "contender value is not a finite number"}},
		{"infinite contender", -inf, good, true, 5, Z{Threshold: 5, Mean: 1.5, Std: math.Sqrt(0.5), Reason: "contender value is not a finite number"}},
		{"NaN contender, no distribution", nan, Dist{Reason: "no history"}, true, 5, Z{Threshold: 5, Reason: "contender value is not a finite number"}},
		{"no distribution", 5, Dist{Reason: "no history"}, true, 5, Z{Threshold: 5, Reason: "no history"}},
		{"zero Dist", 5, Dist{}, true, 5, Z{Threshold: 5, Reason: "no history"}},
		{
			"hand-made Dist with zero std", 5, Dist{Mean: 1, OK: true}, true, 5,
			Z{Threshold: 5, Reason: "distribution has no positive finite standard deviation"},
		},
		{
			"z overflows", 1e308, Dist{Mean: -1e308, Std: 1e-10, OK: true}, true, 5,
			Z{Threshold: 5, Mean: -1e308, Std: 1e-10, Reason: "z-score is not finite"},
		},
		{
			"hand-made Dist with infinite mean", 5, Dist{Mean: inf, Std: 1, OK: true}, true, 5,
			Z{Threshold: 5, Reason: "distribution has no positive finite standard deviation"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(tt.contender, tt.d, tt.less, tt.threshold)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Score mismatch (-want +got):\n%s", diff)
			}
			if got.OK && math.Signbit(got.Z) && got.Z == 0 {
				t.Error("z is -0")
			}
		})
	}
}

// The band holds the values whose |z| is within the threshold; there is
// none without a usable distribution.
func TestZBand(t *testing.T) {
	d := Dist{Mean: 10, Std: 0.5, OK: true}
	lo, hi, ok := Score(10, d, true, 4).Band()
	if !ok || lo != 8 || hi != 12 {
		t.Errorf("Band = %v, %v, %v; want 8, 12", lo, hi, ok)
	}
	for _, v := range []float64{7.9, 8.1, 11.9, 12.1} {
		z := Score(v, d, true, 4)
		if outside := v < lo || v > hi; outside != (z.Regression || z.Improvement) {
			t.Errorf("%v: outside the band %v, z %+v", v, outside, z)
		}
	}
	if _, _, ok := Score(10, Dist{Reason: "no history"}, true, 4).Band(); ok {
		t.Error("a band without a distribution")
	}
}

func TestRound4(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{4.949747468305833, 4.95},
		{-12.020815280171307, -12.02},
		{13.435028842544385, 13.44},
		{-2.1857497724635935, -2.186},
		{0.10101, 0.101},
		{0.12345, 0.1235},   // half away from zero on the shortest decimal form
		{-0.12345, -0.1235}, // (sigfig.round; binary 0.12345 is a hair below)
		{1.0005, 1.001},
		{99995, 100000},
		{123456789, 123500000},
		{1.5e-20, 1.5e-20},
		{7, 7},
		{0, 0},
		{math.Copysign(0, -1), 0},
		{1.7976931348623157e308, 1.7976931348623157e308}, // rounding up would overflow
	}
	for _, tt := range tests {
		got := Round4(tt.in)
		if got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("Round4(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := Round4(x); !(got == x || math.IsNaN(got) && math.IsNaN(x)) {
			t.Errorf("Round4(%v) = %v, want it unchanged", x, got)
		}
	}
}
