package quantile

import (
	"math"
	"slices"
	"testing"
)

func sorted(xs ...float64) []float64 { return slices.Sorted(slices.Values(xs)) }

// Known answers, hand-computed or from the upstreams' own tests, one table
// per definition; where upstreams differ on the same data, the cases say
// so.
func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{
		{sorted(1, 2, 3, 4, 100), 3},                               // hand-computed
		{sorted(1, 2, 3, 4), 2.5},                                  // (a+b)/2
		{sorted(100, 102, 98, 101, 99), 100},                       // perfgate's CLI fixture: wall median
		{[]float64{math.MaxFloat64, math.MaxFloat64}, math.Inf(1)}, // (a+b)/2 overflows: see HalvesMedian
	} {
		if got := Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

func TestFloorMedianU64(t *testing.T) {
	for _, tt := range []struct {
		in   []uint64
		want uint64
	}{
		{[]uint64{10, 20, 30, 40}, 25},                              // perfgate's compute_stats
		{[]uint64{1, 2}, 1},                                         // floors, where Median gives 1.5
		{[]uint64{50, 60, 70, 80, 90, 100, 110, 120, 130, 140}, 95}, // perfgate's compare_runs_can_require_significance
		{[]uint64{1024, 1026, 1028}, 1026},
		{[]uint64{math.MaxUint64, math.MaxUint64}, math.MaxUint64}, // no overflow
		{nil, 0},
	} {
		if got := FloorMedianU64(tt.in); got != tt.want {
			t.Errorf("FloorMedianU64(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestHalvesMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{
		{sorted(1, 2, 3, 4), 2.5},
		{sorted(5, 1, 3), 3},
		{[]float64{math.MaxFloat64, math.MaxFloat64}, math.MaxFloat64}, // where Median overflows
	} {
		if got := HalvesMedian(tt.in); got != tt.want {
			t.Errorf("HalvesMedian(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(HalvesMedian(nil)) {
		t.Error("HalvesMedian(nil) is not NaN")
	}
}

// Linear is Criterion's Percentiles::at: its vectors hold to the last bit.
func TestLinear(t *testing.T) {
	oneTo100 := make([]float64, 100)
	for i := range oneTo100 {
		oneTo100[i] = float64(i + 1)
	}
	tukey := sorted(1, 2, 3, 4, 5, 6, 7, 8, 9, 100)
	newS := sorted(10.0, 10.2, 9.9, 10.1, 10.3, 9.8, 10.0, 10.4)
	base := sorted(11.0, 11.3, 10.9, 11.2, 11.1, 10.8, 11.4, 11.0)
	cl := 0.95 // a variable: Criterion computes 50·(1−cl) in float64, not exactly
	q95 := 0.95
	p95 := q95 * 9 // perfgate's rank for 10 values in float64, 8.549999999999999
	for _, tt := range []struct {
		name string
		got  float64
		want float64
	}{
		{"Tukey q1 (hand-computed)", Linear(tukey, 0.25), 3.25},
		{"Tukey q3 (hand-computed)", Linear(tukey, 0.75), 7.75},
		{"median of [1 2 3 4 100]", Linear(sorted(1, 2, 3, 4, 100), 0.5), 3},
		{"CI low of 1..100 at 95 %", Linear(oneTo100, 50*(1-cl)/100), 3.4750000000000023},
		{"CI high of 1..100 at 95 %", Linear(oneTo100, 50*(1+cl)/100), 97.52499999999999},
		{"median change of the second Welch pair", Linear(newS, 0.5)/Linear(base, 0.5) - 1, -0.0904977375565611},
		{"maximum", Linear(tukey, 1), 100},
		{"above 1 clamps", Linear(tukey, 7), 100},
		{"NaN is 0", Linear(tukey, math.NaN()), 1},
		{"one value", Linear([]float64{4}, 0.3), 4},
		// perfgate's p95: rank 0.95·9 = 8.55 between 9 and 100.
		{"p95 (perfgate)", Linear(tukey, 0.95), 9 + (100-9)*(p95-8)},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if !math.IsNaN(Linear(nil, 0.5)) {
		t.Error("Linear(nil) is not NaN")
	}
}

// Conbench's trimming percentiles of the spike vector of zscore's tests
// (vector1 in analysis/zscore/distribution_test.go).
func TestConbench(t *testing.T) {
	svs := []float64{10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 30.0, 10.0, 9.9, 10.1}
	var diffs []float64
	for i := 1; i < len(svs); i++ {
		diffs = append(diffs, svs[i]-svs[i-1])
	}
	slices.Sort(diffs)
	if q05, q95 := Conbench(diffs, 0.05), Conbench(diffs, 0.95); math.Abs(q05+10.2) > 1e-12 || math.Abs(q95-10.05) > 1e-12 {
		t.Errorf("q05, q95 = %v, %v, want -10.2, 10.05", q05, q95)
	}
	for _, tt := range []struct {
		in   []float64
		q    float64
		want float64
	}{
		{sorted(1, 2, 3, 4), 0.5, 2.5},
		{sorted(1, 2, 3, 4), 0, 1},
		{sorted(1, 2, 3, 4), 1, 4},
		{sorted(1, 2, 3, 4), 0.9, 3.7},        // numpy.percentile([1,2,3,4], 90)
		{[]float64{0, 1}, 0.7, 1 - 1*(1-0.7)}, // numpy's lerp counts from the nearer end
	} {
		if got := Conbench(tt.in, tt.q); got != tt.want {
			t.Errorf("Conbench(%v, %v) = %v, want %v", tt.in, tt.q, got, tt.want)
		}
	}
	if !math.IsNaN(Conbench(nil, 0.5)) {
		t.Error("Conbench(nil) is not NaN")
	}
}

// BenchstatR8 against R's quantile(type = 8), the definition go-moremath
// implements.
func TestBenchstatR8(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		q    float64
		want float64
	}{
		{sorted(1, 2, 3, 4), 0.5, 2.5},
		{sorted(1, 2, 3, 4, 5), 0.5, 3},
		{sorted(1, 2, 3, 4, 5), 0, 1},
		{sorted(1, 2, 3, 4, 5), 1, 5},
		{[]float64{-math.MaxFloat64, math.MaxFloat64}, 0.5, math.Inf(1)}, // overflows: benchstat falls back to HalvesMedian
	} {
		if got := BenchstatR8(tt.in, tt.q); got != tt.want {
			t.Errorf("BenchstatR8(%v, %v) = %v, want %v", tt.in, tt.q, got, tt.want)
		}
	}
	if got := BenchstatR8(sorted(1, 2, 3, 4, 5), 0.25); math.Abs(got-1.666667) > 1e-6 {
		t.Errorf("BenchstatR8 q=0.25 = %v, want R's 1.666667", got)
	}
}

// LinearOf is Linear of the sorted values, on the stack and off it, and
// leaves its input as it was.
func TestLinearOf(t *testing.T) {
	for _, n := range []int{1, 2, 5, 16, 17, 40} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64((i*7919)%n) + 0.25
		}
		orig := slices.Clone(xs)
		for _, q := range []float64{0, 0.25, 0.5, 0.95, 1} {
			if got, want := LinearOf(xs, q), Linear(sorted(xs...), q); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d q=%v: LinearOf = %v, Linear = %v", n, q, got, want)
			}
		}
		if !slices.Equal(xs, orig) {
			t.Errorf("n=%d: input reordered", n)
		}
	}
}

// TestInsertionSortIsSlicesSort checks that the small sort LinearOf uses
// orders values bit for bit as slices.Sort does, NaNs, ±0 and ties
// included, for every length it is used for.
func TestInsertionSortIsSlicesSort(t *testing.T) {
	pool := []float64{math.NaN(), math.Copysign(0, -1), 0, 1, 1, -2.5, math.Inf(1), math.Inf(-1), 3e9, 1e-300}
	for n := 0; n <= 12; n++ {
		for seed := range 200 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = pool[(seed*31+i*17+i*i*seed)%len(pool)]
			}
			want, got := slices.Clone(xs), slices.Clone(xs)
			slices.Sort(want)
			insertionSort(got)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%v: insertionSort %v, slices.Sort %v", xs, got, want)
				}
			}
		}
	}
}
