package criterion

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The bootstraps compute resample statistics without materialising and
// sorting the resamples. These tests replay the same draws the slow,
// obvious way — build the resample, then apply the exported statistics —
// and require identical order statistics (median, MAD) and sums equal to
// the last few bits (the bootstrap sums with four accumulators, see
// resample.go).

// close reports whether x and y agree to 1e-12 relative (or are equal).
func close(x, y float64) bool {
	return x == y || math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
}

// testSamples are shapes that stress the order-statistic shortcuts: odd and
// even sizes, ties, outliers, the minimum size.
func testSamples() map[string][]float64 {
	rng := rand.New(rand.NewPCG(3, 5))
	normal := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 100 + 5*rng.NormFloat64()
		}
		return xs
	}
	ties := make([]float64, 31)
	for i := range ties {
		ties[i] = float64(1 + rng.IntN(4))
	}
	return map[string][]float64{
		"two values":             {1, 2},
		"three values":           {3, 1, 2},
		"normal, n=100":          normal(100),
		"normal, n=101":          normal(101),
		"many ties, n=31":        ties,
		"outliers":               {1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 1000},
		"constant":               {4, 4, 4, 4},
		"one different":          {4, 4, 4, 9},
		"large n (32-bit draws)": normal(1500),
	}
}

// replay calls draw for every resample of a bootstrap of N resamples in
// blocks of blockSize, each block with its generator, as the bootstraps do.
func replay(seed uint64, s stream, N int, draw func(k int, src *source)) {
	for b := 0; b*blockSize < N; b++ {
		src := blockSource(seed, s, b)
		for k := b * blockSize; k < min(N, (b+1)*blockSize); k++ {
			draw(k, src)
		}
	}
}

func withResamples(n int) Options {
	o := DefaultOptions
	o.NResamples = n
	return o
}

func TestBootstrapAbsoluteMatchesNaive(t *testing.T) {
	const seed = 42
	N := blockSize + 300 // two blocks
	for name, xs := range testSamples() {
		t.Run(name, func(t *testing.T) {
			sorted := sortedCopy(xs)
			var w workspace
			dMean, dStd, dMedian, dMAD := bootstrapAbsolute(&w, padded(sorted), seed, withResamples(N))

			idx := make([]uint32, len(xs))
			res := make([]float64, len(xs))
			replay(seed, streamAbsolute, N, func(k int, src *source) {
				src.fill(idx, len(xs))
				for i, j := range idx {
					res[i] = sorted[j]
				}
				mean := Mean(res)
				median := Median(res)
				want := []float64{mean, math.Sqrt(variance(res, mean)), median, medianAbsDev(res, median)}
				got := []float64{dMean[k], dStd[k], dMedian[k], dMAD[k]}
				if !close(got[0], want[0]) || !close(got[1], want[1]) || got[2] != want[2] || got[3] != want[3] {
					t.Fatalf("resample %d: (mean, std, median, MAD) = %v, want %v", k, got, want)
				}
			})
		})
	}
}

func TestBootstrapSlopeMatchesNaive(t *testing.T) {
	s := Sample{Iters: []float64{3, 6, 9, 12, 15}, Times: []float64{31, 59, 95, 118, 160}}
	o := withResamples(blockSize + 100)
	var w workspace
	got, err := bootstrapSlope(&w, s, 9, o)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]uint32, 5)
	dist := make([]float64, o.NResamples)
	x, y := make([]float64, 5), make([]float64, 5)
	replay(9, streamSlope, o.NResamples, func(k int, src *source) {
		src.fill(idx, 5)
		for i, j := range idx {
			x[i], y[i] = s.Iters[j], s.Times[j]
		}
		dist[k] = Slope(x, y)
	})
	// The slope's sums stay left to right: the distribution is exact.
	lo, hi := ConfidenceInterval(dist, o.ConfidenceLevel)
	want := Estimate{Point: Slope(s.Iters, s.Times), Lower: lo, Upper: hi, StdErr: StdDev(dist), ConfidenceLevel: 0.95}
	if got != want {
		t.Errorf("slope estimate = %+v, want %+v", got, want)
	}
}

func TestChangeDistsMatchNaive(t *testing.T) {
	samples := testSamples()
	pairs := [][2]string{
		{"normal, n=100", "normal, n=101"},
		{"two values", "three values"},
		{"many ties, n=31", "one different"},
		{"large n (32-bit draws)", "outliers"},
	}
	for _, N := range []int{1, 2, 7, 10, 17, 1000, 20000} {
		for _, p := range pairs {
			a, b := samples[p[0]], samples[p[1]]
			var w workspace
			_, _, dMean, dMedian := changeDists(&w, a, b, 77, withResamples(N))

			sa, sb := sortedCopy(a), sortedCopy(b)
			ia, ib := make([]uint32, len(a)), make([]uint32, len(b))
			ra, rb := make([]float64, len(a)), make([]float64, len(b))
			// univariate::bootstrap, written out, a generator per chunk.
			chunks := int(math.Ceil(math.Sqrt(float64(N))))
			per := (N + chunks - 1) / chunks
			k := 0
			for c := range chunks {
				src := blockSource(77, streamChange, c)
				src.fill(ia, len(a))
				for i, j := range ia {
					ra[i] = sa[j]
				}
				for range max(0, min((c+1)*per, N)-c*per) {
					src.fill(ib, len(b))
					for i, j := range ib {
						rb[i] = sb[j]
					}
					wantMean := Mean(ra)/Mean(rb) - 1
					wantMedian := Median(ra)/Median(rb) - 1
					// Compare the ratios: the change near 0 magnifies their
					// last-bit differences.
					if !close(dMean[k]+1, wantMean+1) || dMedian[k] != wantMedian {
						t.Fatalf("N=%d %v resample %d: (mean, median) change = (%v, %v), want (%v, %v)", N, p, k, dMean[k], dMedian[k], wantMean, wantMedian)
					}
					k++
				}
			}
			if k != N {
				t.Fatalf("N=%d: the chunks hold %d resamples", N, k)
			}
		}
	}
}

func TestBootstrapTMatchesNaive(t *testing.T) {
	samples := testSamples()
	for _, p := range [][2]string{{"normal, n=100", "normal, n=101"}, {"two values", "three values"}, {"constant", "one different"}} {
		a, b := samples[p[0]], samples[p[1]]
		N := blockSize + 500
		tObs := WelchT(a, b)
		gotP, gotN := bootstrapT(a, b, tObs, 5, withResamples(N))

		pool := append(slices.Clone(a), b...)
		idx := make([]uint32, len(pool))
		res := make([]float64, len(pool))
		ts := make([]float64, N)
		replay(5, streamT, N, func(k int, src *source) {
			src.fill(idx, len(pool))
			for i, j := range idx {
				res[i] = pool[j]
			}
			ts[k] = WelchT(res[:len(a)], res[len(a):])
		})
		finiteTs := slices.DeleteFunc(slices.Clone(ts), func(x float64) bool { return !finite(x) })
		if wantP := PValue(ts, tObs); gotP != wantP || gotN != len(finiteTs) {
			t.Errorf("%v: p, N = %v, %d; want %v, %d", p, gotP, gotN, wantP, len(finiteTs))
		}
	}
}

func TestWorkersDoNotChangeResults(t *testing.T) {
	cur, base := gaussian(30, 60, 100, 0.05), gaussian(31, 60, 101, 0.05)
	var wantA Estimates
	var wantC Change
	for _, workers := range []int{1, 2, 3, 16} {
		o := withResamples(3*blockSize + 17)
		o.Workers = workers
		a, err := Analyze(cur, 4, o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compare(cur, base, 4, o)
		if err != nil {
			t.Fatal(err)
		}
		if workers == 1 {
			wantA, wantC = a, c
			continue
		}
		if diff := cmp.Diff(wantA, a); diff != "" {
			t.Errorf("Analyze with %d workers (-1 worker +%d):\n%s", workers, workers, diff)
		}
		if diff := cmp.Diff(wantC, c); diff != "" {
			t.Errorf("Compare with %d workers (-1 worker +%d):\n%s", workers, workers, diff)
		}
	}
}

func TestCountedOnHandMadeCounts(t *testing.T) {
	sorted := []float64{1, 2, 4, 8, 16}
	tests := []struct {
		name        string
		idx         []uint32 // a resample, as positions in sorted
		median, mad float64
	}{
		// {1,1,2,16,16}: median 2, |devs| {1,1,0,14,14} → 1
		{"odd, ties across the median", []uint32{0, 0, 1, 4, 4}, 2, 1},
		// {4,4,4,4,4}: median 4, devs all 0
		{"all the same value", []uint32{2, 2, 2, 2, 2}, 4, 0},
		// {1,2,8,16,16}: median 8; devs {7,6,0,8,8} sorted {0,6,7,8,8} → 7
		{"deviations alternate sides", []uint32{4, 0, 3, 1, 4}, 8, 7},
		// {16,16,16,16,1}: median 16, devs {0,0,0,0,15} → 0
		{"median at the top", []uint32{4, 4, 4, 4, 0}, 16, 0},
		// even: {1,2,8,16}: median 5, devs {4,3,3,11} → 3.5
		{"even interpolates", []uint32{0, 1, 3, 4}, 5, 3.5},
		// even: {1,1,1,16}: median 1, devs {0,0,0,15} → 0
		{"even, median on a run", []uint32{0, 0, 0, 4}, 1, 0},
		// even: {2,4,4,16}: median 4, devs {2,0,0,12} → (0+2)/2 = 1
		{"even, MAD ceiling on the other side", []uint32{1, 2, 2, 4}, 4, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The resample has len(idx) values drawn from sorted; a
			// sample of len(idx) values is what newCounted ranks.
			vals := make([]float64, len(tt.idx))
			for i, j := range tt.idx {
				vals[i] = sorted[j]
			}
			if Median(vals) != tt.median || MedianAbsDev(vals) != tt.mad*MADScale {
				t.Fatalf("bad case: Median, MAD/scale = %v, %v", Median(vals), MedianAbsDev(vals)/MADScale)
			}
			c := newCounted(padded(sorted))
			c.lo, c.fraction = rankOf(50, len(tt.idx))
			c.add(tt.idx)
			med, j := c.median()
			mad := c.medianAbsDev(med, j)
			if med != tt.median || mad != tt.mad {
				t.Errorf("median, MAD = %v, %v; want %v, %v", med, mad, tt.median, tt.mad)
			}
		})
	}
}

func TestConfidenceIntervalSelectionMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	gens := map[string]func(n int) []float64{
		"uniform": func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = rng.Float64()
			}
			return xs
		},
		"few distinct values": func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(rng.IntN(5))
			}
			return xs
		},
		"ascending": func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(i)
			}
			return xs
		},
		"descending": func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(n - i)
			}
			return xs
		},
		"organ pipe": func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(min(i, n-i))
			}
			return xs
		},
	}
	for name, gen := range gens {
		for _, n := range []int{1, 2, 3, 10, 99, 1000, 4099} {
			for _, cl := range []float64{0.95, 0.5, 0.99, 0.999999, 1e-9} {
				xs := gen(n)
				s := sortedCopy(xs)
				wantLo, wantHi := at(s, 50*(1-cl)), at(s, 50*(1+cl))
				gotLo, gotHi := ConfidenceInterval(xs, cl)
				if gotLo != wantLo || gotHi != wantHi {
					t.Errorf("%s n=%d cl=%v: interval [%v, %v], sorting gives [%v, %v]", name, n, cl, gotLo, gotHi, wantLo, wantHi)
				}
			}
		}
	}
}

func TestConfidenceIntervalEdges(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	in := slices.Clone(xs)
	tests := []struct {
		name   string
		cl     float64
		lo, hi float64
	}{
		{"cl 1 spans min to max", 1, 1, 5},
		{"cl above 1 is clamped", 3, 1, 5},
		{"cl 0 collapses to the median", 0, 3, 3},
		{"cl −1 gives percentiles 100 and 0, put in order", -1, 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := ConfidenceInterval(xs, tt.cl)
			if lo != tt.lo || hi != tt.hi {
				t.Errorf("ConfidenceInterval(%v, %v) = [%v, %v], want [%v, %v]", xs, tt.cl, lo, hi, tt.lo, tt.hi)
			}
		})
	}
	if !slices.Equal(in, xs) {
		t.Errorf("ConfidenceInterval modified its input")
	}
	for _, bad := range [][]float64{nil, {1, math.NaN()}} {
		if lo, hi := ConfidenceInterval(bad, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("ConfidenceInterval(%v) = [%v, %v], want NaN", bad, lo, hi)
		}
	}
}

func TestFillIsUniform(t *testing.T) {
	// Every index of [0, n) must come out about equally often; the test is
	// a chi-square with a threshold far in the tail (p ≈ 1e-9), on fixed
	// seeds so it cannot flake.
	for _, n := range []int{1, 2, 3, 7, 100, 1000, 1024, 1025, 5000} {
		src := newSource(uint64(n), streamT)
		draws := 2000 * n
		counts := make([]int, n)
		idx := make([]uint32, 999) // odd: exercises the tail of the loops
		for done := 0; done < draws; done += len(idx) {
			src.fill(idx, n)
			for _, j := range idx {
				if int(j) >= n {
					t.Fatalf("n=%d: index %d out of range", n, j)
				}
				counts[j]++
			}
		}
		total := (draws + len(idx) - 1) / len(idx) * len(idx)
		exp := float64(total) / float64(n)
		chi2 := 0.0
		for _, c := range counts {
			d := float64(c) - exp
			chi2 += d * d / exp
		}
		// For k = n−1 degrees of freedom the chi-square has mean k and
		// standard deviation √(2k); 6 of those plus 40 is far in the tail.
		k := float64(n - 1)
		if limit := k + 6*math.Sqrt(2*k) + 40; chi2 > limit {
			t.Errorf("n=%d: chi-square %.1f over %d bins exceeds %.1f", n, chi2, n, limit)
		}
	}
}

func TestFillRedrawsRejectedLanes(t *testing.T) {
	// n = 1000 rejects lanes below 65536 mod 1000 = 536 (0.8 %); over
	// enough draws some are rejected, and indices stay in range.
	src := newSource(1, streamAbsolute)
	idx := make([]uint32, 1000)
	for range 100 {
		src.fill(idx, 1000)
		for _, j := range idx {
			if j >= 1000 {
				t.Fatalf("index %d out of range", j)
			}
		}
	}
}

func TestSeed(t *testing.T) {
	// FNV-1a 64 test vectors (Fowler, Noll and Vo's reference code).
	tests := []struct {
		key  string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
		{"foobar", 0x85944171f73967e8},
	}
	for _, tt := range tests {
		if got := Seed(tt.key); got != tt.want {
			t.Errorf("Seed(%q) = %#x, want %#x", tt.key, got, tt.want)
		}
	}
}

func TestStreamsDiffer(t *testing.T) {
	first := func(s stream) uint32 {
		idx := make([]uint32, 8)
		newSource(0, s).fill(idx, 1<<10)
		return idx[0]<<20 | idx[1]<<10 | idx[2]
	}
	seen := map[uint32]stream{}
	for _, s := range []stream{streamAbsolute, streamSlope, streamT, streamChange} {
		v := first(s)
		if other, ok := seen[v]; ok {
			t.Errorf("streams %d and %d start alike", other, s)
		}
		seen[v] = s
	}
}

func TestSourceIsMathRandPCG(t *testing.T) {
	// source re-implements math/rand/v2's PCG with its state in registers;
	// it must produce the same numbers.
	for _, seed := range []uint64{0, 1, 0xdeadbeef} {
		s := newSource(seed, streamT)
		p := rand.NewPCG(s.hi, s.lo)
		for i := range 1000 {
			if got, want := s.Uint64(), p.Uint64(); got != want {
				t.Fatalf("seed %d, number %d: %#x, math/rand/v2 gives %#x", seed, i, got, want)
			}
		}
	}
}
