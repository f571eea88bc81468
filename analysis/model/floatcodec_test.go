package model

import (
	"math"
	"testing"
)

// TestFloatCodec: every group comes back bit for bit, in as few bytes as
// its decimals allow, and a group no scale fits is written raw.
func TestFloatCodec(t *testing.T) {
	groups := []struct {
		name  string
		xs    []float64
		scale int // the scale written, rawScale for 8-byte floats
		max   int // at most this many bytes, 0 for any
	}{
		{"counts", []float64{2507352869, 2507541253, 2507008076, 2507404563, 2507850672}, 0, 1 + 5 + 4*3},
		{"two decimals", []float64{185.54, 178.68, 187.21, 181.5, 174.64}, 2, 1 + 3 + 4*2},
		{"seconds", []float64{0.000123456789, 0.000123456, 0.0001234}, 12, 0},
		{"zero", []float64{0, 0, 0}, 0, 4},
		{"negative", []float64{-1.5, -2.25, 3.125}, 3, 0},
		{"largest exact", []float64{1 << 53, -(1 << 53)}, 0, 0},
		{"beyond 2^53", []float64{1<<53 + 2}, rawScale, 9},
		{"sixteen digits", []float64{1.0 / 3, 2.0 / 3}, 16, 0},
		{"seventeen digits", []float64{1.0000000000000002, 2.0000000000000004}, rawScale, 17},
		{"negative zero", []float64{1, math.Copysign(0, -1)}, rawScale, 0},
		{"NaN", []float64{math.NaN(), 1}, rawScale, 0},
		{"infinity", []float64{math.Inf(1), math.Inf(-1)}, rawScale, 0},
		{"subnormal", []float64{5e-324}, rawScale, 0},
		{"tiny decimal", []float64{1.5e-20}, 21, 0},
		{"huge", []float64{1e300}, rawScale, 0},
		{"one", []float64{42}, 0, 2},
	}
	for _, g := range groups {
		hint := 0
		b := appendFloats([]byte{7}, g.xs, &hint)
		if b[0] != 7 {
			t.Fatalf("%s: the bytes before were changed", g.name)
		}
		b = b[1:]
		if int(b[0]) != g.scale || hint != g.scale {
			t.Errorf("%s: scale %d (hint %d), want %d", g.name, b[0], hint, g.scale)
		}
		if g.max > 0 && len(b) > g.max {
			t.Errorf("%s: %d bytes, want at most %d", g.name, len(b), g.max)
		}
		out := make([]float64, len(g.xs))
		rest, ok := readFloats(append(b, 9), out)
		if !ok || len(rest) != 1 || rest[0] != 9 {
			t.Fatalf("%s: read %t, %d bytes left", g.name, ok, len(rest))
		}
		for i := range out {
			if math.Float64bits(out[i]) != math.Float64bits(g.xs[i]) {
				t.Errorf("%s: value %d read back as %v (%#x), was %v (%#x)", g.name, i, out[i], math.Float64bits(out[i]), g.xs[i], math.Float64bits(g.xs[i]))
			}
		}
		// Cut short anywhere, the group does not read.
		for n := range len(b) {
			if _, ok := readFloats(b[:n], make([]float64, len(g.xs))); ok {
				t.Errorf("%s: the first %d of %d bytes read as a group", g.name, n, len(b))
			}
		}
	}
	// An empty group is nothing; a series of floats of 17 digits is
	// written raw from its second group on without a search.
	hint := 0
	if b := appendFloats(nil, nil, &hint); len(b) != 0 || hint != 0 {
		t.Errorf("an empty group is %d bytes, hint %d", len(b), hint)
	}
	appendFloats(nil, []float64{1.0000000000000002}, &hint)
	if hint != rawScale {
		t.Fatalf("hint after 1 + 2⁻⁵²: %d", hint)
	}
	if b := appendFloats(nil, []float64{2}, &hint); b[0] != rawScale {
		t.Errorf("after a raw group, 2 was written at scale %d", b[0])
	}
}

// FuzzReadFloats: any bytes read as a group of any length, or fail; they
// never panic, and what reads is what appendFloats writes again at the
// same scale.
func FuzzReadFloats(f *testing.F) {
	hint := 0
	f.Add(appendFloats(nil, []float64{185.54, 178.68}, &hint), 2)
	f.Add([]byte{rawScale, 1, 2, 3, 4, 5, 6, 7, 8}, 1)
	f.Add([]byte{3, 0x80, 0x80, 0x80}, 3)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		out := make([]float64, n)
		rest, ok := readFloats(b, out)
		// skipFloats accepts exactly the groups readFloats reads, and
		// ends where it does: a point's encoded samples it passed must
		// decode (Point.Samples).
		if skipped, sok := skipFloats(b, n); sok != ok || ok && len(skipped) != len(rest) {
			t.Fatalf("readFloats: %t, %d bytes left; skipFloats: %t, %d", ok, len(rest), sok, len(skipped))
		}
		if !ok || n == 0 {
			return
		}
		if b[0] == rawScale {
			return
		}
		for _, x := range out {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("a scaled group read as %v", x)
			}
		}
		h := int(b[0])
		again := appendFloats(nil, out, &h)
		back := make([]float64, n)
		if _, ok := readFloats(again, back); !ok {
			t.Fatal("written again, it does not read")
		}
		for i := range back {
			if math.Float64bits(back[i]) != math.Float64bits(out[i]) {
				t.Fatalf("value %d: %v, then %v", i, out[i], back[i])
			}
		}
	})
}
