package budget

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMedianU64 pins perfgate's u64 median: the floor of the average for
// an even count (perfgate's docs/DESIGN.md, "Overflow-Safe Median":
// [10,20,30,40] → 25 and [1,2] → 1), and no overflow next to MaxUint64.
func TestMedianU64(t *testing.T) {
	const maxU = math.MaxUint64
	tests := []struct {
		name string
		xs   []uint64
		want uint64
	}{
		{"empty", nil, 0},
		{"one value", []uint64{7}, 7},
		{"odd count takes the middle", []uint64{102, 98, 100, 101, 99}, 100},
		{"even count floors the average", []uint64{10, 20, 30, 40}, 25},
		{"floor of 1.5", []uint64{1, 2}, 1},
		{"two odd values", []uint64{3, 5}, 4},
		{"unsorted even", []uint64{90, 140, 50, 100, 60, 130, 70, 120, 80, 110}, 95},
		{"max and max-1", []uint64{maxU, maxU - 1}, maxU - 1},
		{"max twice", []uint64{maxU, maxU}, maxU},
		{"max and max-2", []uint64{maxU - 2, maxU}, maxU - 1},
		{"zero and max", []uint64{0, maxU}, maxU / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MedianU64(tt.xs); got != tt.want {
				t.Errorf("MedianU64(%v) = %d, want %d", tt.xs, got, tt.want)
			}
		})
	}
}

// TestMedianU64AgainstBig checks the even-count formula against exact
// arithmetic (perfgate checks it against u128 with property tests), with
// values drawn near MaxUint64 and across the whole range.
func TestMedianU64AgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	draw := []func() uint64{
		func() uint64 { return math.MaxUint64 - r.Uint64N(1000) },
		func() uint64 { return r.Uint64() },
		func() uint64 { return r.Uint64N(10) },
	}
	for i := range 3000 {
		a, b := draw[i%3](), draw[(i/3)%3]()
		sum := new(big.Int).Add(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
		want := sum.Rsh(sum, 1).Uint64()
		if got := MedianU64([]uint64{a, b}); got != want {
			t.Fatalf("MedianU64(%d, %d) = %d, want %d", a, b, got, want)
		}
	}
}

func TestMedianF64(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{1, 2}, 1.5},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := MedianF64(tt.xs); got != tt.want {
			t.Errorf("MedianF64(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

// TestPercentileLinear: rank = p·(n−1), interpolated (numpy "linear").
func TestPercentileLinear(t *testing.T) {
	xs := []float64{15, 20, 35, 40, 50}
	tests := []struct {
		p, want float64
	}{
		{0, 15},
		{1, 50},
		{0.5, 35},
		{0.25, 20},
		{0.4, 29},   // rank 1.6: 20 + 0.6·15
		{0.95, 48},  // rank 3.8: 40 + 0.8·10
		{0.75, 40},  // rank 3
		{0.1, 17},   // rank 0.4
		{-1, 15},    // clamped
		{2, 50},     // clamped
		{0.9, 46.0}, // rank 3.6
	}
	for _, tt := range tests {
		if got := PercentileLinear(xs, tt.p); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("PercentileLinear(p=%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := PercentileLinear(nil, 0.95); got != 0 {
		t.Errorf("empty: %v", got)
	}
	if got := PercentileLinear([]float64{7}, 0.95); got != 7 {
		t.Errorf("one value: %v", got)
	}
	if !slices.Equal(xs, []float64{15, 20, 35, 40, 50}) {
		t.Error("input modified")
	}
}

// TestMeanVar: Welford with n−1 against the two-pass textbook values.
func TestMeanVar(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		mean, v  float64
		wantOK   bool
		relative bool
	}{
		{"empty", nil, 0, 0, false, false},
		{"one value has variance 0", []float64{5}, 5, 0, true, false},
		{"perfgate's CLI fixture: baseline wall", []float64{100, 102, 98, 101, 99}, 100, 2.5, true, false},
		{"perfgate's schema fixture samples", []float64{100, 104}, 102, 8, true, false},
		{"large offset stays exact", []float64{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}, 1e9 + 10, 30, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, v, ok := MeanVar(tt.xs)
			if ok != tt.wantOK || math.Abs(m-tt.mean) > 1e-9 || math.Abs(v-tt.v) > 1e-9 {
				t.Errorf("MeanVar = %v, %v, %v; want %v, %v, %v", m, v, ok, tt.mean, tt.v, tt.wantOK)
			}
		})
	}
	// perfgate's schema fixture (fixtures/schema/v0.15/perfgate.run.v1.json)
	// claims stddev 2.0 for 100, 104; the n−1 value is 2.828.
	_, sd, _ := MeanStddev([]float64{100, 104})
	if math.Abs(sd-2.8284271247461903) > 1e-12 {
		t.Errorf("stddev = %v, want 2.828…", sd)
	}
	if _, _, ok := MeanStddev([]float64{math.Inf(1), 1}); ok {
		t.Error("non-finite mean reported as ok")
	}
}

func TestCV(t *testing.T) {
	tests := []struct {
		mean, sd float64
		want     float64
		ok       bool
	}{
		{100, 5, 0.05, true},
		{0, 5, 0, false},
		{-3, 1, 0, false},
		{10, 0, 0, true},
	}
	for _, tt := range tests {
		got, ok := CV(tt.mean, tt.sd)
		if ok != tt.ok || got != tt.want {
			t.Errorf("CV(%v, %v) = %v, %v; want %v, %v", tt.mean, tt.sd, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSummarize(t *testing.T) {
	s, ok := SummarizeU64([]uint64{100, 102, 98, 101, 99})
	sd := math.Sqrt(2.5)
	want := U64Summary{Median: 100, Min: 98, Max: 102, Mean: ptr(100.0), Stddev: &sd}
	if !ok {
		t.Fatal("not ok")
	}
	if diff := cmp.Diff(want, s, approx); diff != "" {
		t.Errorf("SummarizeU64 (-want +got):\n%s", diff)
	}
	if cv, ok := s.CV(); !ok || math.Abs(cv-sd/100) > 1e-15 {
		t.Errorf("CV = %v, %v", cv, ok)
	}
	if _, ok := SummarizeU64(nil); ok {
		t.Error("empty summary ok")
	}

	f, _ := SummarizeF64([]float64{2000, 1000, 4000, 3000})
	sdf := math.Sqrt(5e6 / 3)
	wantF := F64Summary{Median: 2500, Min: 1000, Max: 4000, Mean: ptr(2500.0), Stddev: &sdf}
	if diff := cmp.Diff(wantF, f, approx); diff != "" {
		t.Errorf("SummarizeF64 (-want +got):\n%s", diff)
	}
	if _, ok := (U64Summary{Median: 1}).CV(); ok {
		t.Error("CV without mean is ok")
	}
}
