package criterion

import (
	"encoding/binary"
	"math"
	"testing"
)

// floats decodes b as little-endian float64s (trailing bytes ignored).
func floats(b []byte) []float64 {
	xs := make([]float64, len(b)/8)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs
}

func encode(xs ...float64) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// sampleFrom splits the values into times and, when withIters, iteration
// counts (first half) — so that length mismatches and bad counts occur.
func sampleFrom(b []byte, withIters bool) Sample {
	xs := floats(b)
	if !withIters {
		return Sample{Times: xs}
	}
	h := (len(xs) + 1) / 2
	return Sample{Iters: xs[:h], Times: xs[h:]}
}

func finiteEstimate(e Estimate) bool {
	return finite(e.Point) && finite(e.Lower) && finite(e.Upper) && finite(e.StdErr) && finite(e.ConfidenceLevel)
}

func fuzzOptions() Options {
	o := DefaultOptions
	o.NResamples = 64
	return o
}

func FuzzAnalyze(f *testing.F) {
	f.Add(encode(1, 2, 3, 4, 100), false)
	f.Add(encode(1, 2, 3, 10, 20, 30), true)
	f.Add(encode(1, 1, 1e140, 1e-140), true)
	f.Add(encode(5, 5), false)
	f.Add(encode(math.NaN(), 1), false)
	f.Add(encode(2, 4, 6, 8, 0), true)
	f.Fuzz(func(t *testing.T, b []byte, withIters bool) {
		s := sampleFrom(b, withIters)
		e, err := Analyze(s, 1, fuzzOptions())
		if err != nil {
			return
		}
		for _, x := range []Estimate{e.Mean, e.Median, e.MedianAbsDev, e.StdDev} {
			if !finiteEstimate(x) {
				t.Fatalf("Analyze(%+v) = %+v: non-finite value", s, e)
			}
		}
		if e.Slope != nil && !finiteEstimate(*e.Slope) {
			t.Fatalf("Analyze(%+v) slope = %+v: non-finite value", s, *e.Slope)
		}
		if e.Slope != nil != Linear(s.Iters) {
			t.Fatalf("slope present = %v for iters %v", e.Slope != nil, s.Iters)
		}
	})
}

func FuzzCompare(f *testing.F) {
	f.Add(encode(1, 2, 3, 4, 5), encode(2, 3, 4, 5, 6), false, false)
	f.Add(encode(5, 5, 5), encode(5, 5), false, true)
	f.Add(encode(1, 2, 10, 20), encode(3, 3), true, false)
	f.Add(encode(1e-140, 1e140), encode(1e140, 1e-140), false, false)
	f.Add(encode(1, math.Inf(1)), encode(1, 2), false, false)
	f.Fuzz(func(t *testing.T, cb, bb []byte, withIters, verdictOnly bool) {
		cur, base := sampleFrom(cb, withIters), sampleFrom(bb, withIters)
		o := fuzzOptions()
		o.VerdictOnly = verdictOnly
		c, err := Compare(cur, base, 2, o)
		if err != nil {
			return
		}
		if math.IsNaN(c.T) || !finite(c.P) || c.P < 0 || c.P > 1 || !finiteEstimate(c.Mean) || !finiteEstimate(c.Median) {
			t.Fatalf("Compare(%+v, %+v) = %+v: NaN or out of range", cur, base, c)
		}
		if math.IsInf(c.T, 0) && c.P != 0 {
			t.Fatalf("infinite T with p = %v", c.P)
		}
		switch c.Verdict {
		case NoChange, Improved, Regressed, WithinNoise:
		default:
			t.Fatalf("verdict %q", c.Verdict)
		}
		if c.NResamples < 0 || c.NResamples > o.NResamples {
			t.Fatalf("NResamples = %d", c.NResamples)
		}
		_ = FormatChange(c)
	})
}
