package zscore

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fuzzObservations decodes 10-byte records: 8 bytes of float64 bits (any
// value, NaN and ±Inf included), a byte choosing the commit (low 4 bits:
// the hour; bits 4–5: one of four commit ids, so commits can share a
// timestamp) and a byte whose low bit is BeginsChange.
func fuzzObservations(data []byte) []Observation {
	var obs []Observation
	for len(data) >= 10 {
		c := data[8]
		obs = append(obs, Observation{
			Commit:       string(rune('a' + c>>4&3)),
			Time:         t0.Add(time.Duration(c&15) * time.Hour),
			Value:        math.Float64frombits(binary.LittleEndian.Uint64(data)),
			BeginsChange: data[9]&1 == 1,
		})
		data = data[10:]
	}
	return obs
}

func fuzzEncode(obs []Observation) []byte {
	var out []byte
	for i, o := range obs {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(o.Value))
		var b byte
		if o.BeginsChange {
			b = 1
		}
		out = append(out, byte(i%16)|byte(i%3)<<4, b)
	}
	return out
}

func FuzzDistribution(f *testing.F) {
	step := series(10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 20.0, 20.1, 19.9, 20.0)
	step[8].BeginsChange = true
	f.Add(fuzzEncode(series(vector1...)), int8(0))
	f.Add(fuzzEncode(step), int8(3))
	f.Add(fuzzEncode(series(1, 2)), int8(1))
	f.Add(fuzzEncode(series(4, 4, 4, 4)), int8(-1))
	f.Add(fuzzEncode(series(1e308, -1e308, math.NaN(), math.Inf(1), 5e-324)), int8(2))
	f.Add([]byte{}, int8(0))
	f.Fuzz(func(t *testing.T, data []byte, window int8) {
		obs := fuzzObservations(data)
		d := Distribution(obs, int(window))
		if d.OK {
			if !isFinite(d.Mean) || !isFinite(d.Std) || !(d.Std > 0) {
				t.Fatalf("OK distribution with mean %v, std %v", d.Mean, d.Std)
			}
			if d.N < 2 || d.Commits < 1 || d.Reason != "" {
				t.Fatalf("OK distribution %+v", d)
			}
		} else if d.Reason == "" {
			t.Fatalf("distribution without z-score and without reason: %+v", d)
		}
		if math.IsNaN(d.Mean) || math.IsNaN(d.Std) || math.IsInf(d.Mean, 0) || math.IsInf(d.Std, 0) {
			t.Fatalf("non-finite statistics in %+v", d)
		}

		// A reused scratch gives the same answer, before and after other work.
		var s Scratch
		s.Distribution(fuzzObservations(append([]byte(nil), data[len(data)/2:]...)), 2)
		if diff := cmp.Diff(d, s.Distribution(obs, int(window))); diff != "" {
			t.Fatalf("reused scratch differs (-fresh +reused):\n%s", diff)
		}

		for _, inclusive := range []bool{true, false} {
			rows := Rolling(obs, int(window), inclusive)
			if len(rows) != len(obs) {
				t.Fatalf("Rolling returned %d rows for %d observations", len(rows), len(obs))
			}
			for i, r := range rows {
				if !isFinite(r.Mean) || !isFinite(r.Residual) || !isFinite(r.Std) {
					t.Fatalf("row %d: non-finite stats %+v", i, r)
				}
				if r.Outlier && (r.HasMean || r.HasStd) {
					t.Fatalf("row %d: outlier with stats %+v", i, r)
				}
			}
		}

		for _, c := range []float64{0, 1, -1, d.Mean, math.MaxFloat64, math.NaN()} {
			for _, less := range []bool{true, false} {
				z := Score(c, d, less, float64(window))
				if z.OK != (d.OK && z.Reason == "") {
					t.Fatalf("Score(%v) = %+v for %+v", c, z, d)
				}
				if z.OK && (!isFinite(z.Z) || !isFinite(z.Mean) || !isFinite(z.Std) || !isFinite(z.Threshold) || math.Signbit(z.Z) && z.Z == 0) {
					t.Fatalf("Score(%v) = %+v", c, z)
				}
				if !z.OK && z.Reason == "" {
					t.Fatalf("Score(%v) not OK without reason", c)
				}
			}
		}
	})
}
