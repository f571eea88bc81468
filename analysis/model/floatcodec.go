package model

import (
	"encoding/binary"
	"math"
)

// The checkpoint's numbers (checkpoint.go) are written compactly: a
// history's samples are most of what a build keeps between runs (at L,
// 2 GB of 3.3 as raw float64s), and almost every one of them was read
// from text — a tool's JSON, CSV or console output — with a few decimal
// digits, or counted (instructions, bytes, nanoseconds).
//
// A group of floats (a point's samples, its iteration counts, a value)
// is one scale byte s and then, when s ≤ maxScale, each value x as the
// integer m = x·10^s, the first zigzag-varint coded and each next as its
// difference from the one before (a run's samples are close to each
// other); when no scale fits every value of the group exactly, s is
// rawScale and the values follow as 8-byte little-endian floats. A value
// fits scale s when float64(m)/10^s gives back its very bits, with |m| ≤
// 2^53 (so float64(m) is m); −0, NaN, infinities and subnormals never do.
// The reader computes the same division: the values come back bit for bit.

const (
	maxScale = 22   // 10^22 is the largest power of ten a float64 holds exactly
	rawScale = 0xff // the values follow as 8-byte floats
	maxExact = 1 << 53
)

var pow10 = func() (p [maxScale + 1]float64) {
	p[0] = 1
	for i := 1; i <= maxScale; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// fits reports whether every value of xs is an integer over 10^s.
func fits(xs []float64, s int) bool {
	p := pow10[s]
	for _, x := range xs {
		m := math.Round(x * p)
		if !(math.Abs(m) <= maxExact) || math.Float64bits(float64(int64(m))/p) != math.Float64bits(x) {
			return false
		}
	}
	return true
}

// appendFloats appends the group xs (whose length the reader knows; an
// empty group is nothing) to dst. hint is the scale of the group written before it in the same
// column of the same series, tried first (series keep their precision):
// a group of full-precision floats after one costs no search.
func appendFloats(dst []byte, xs []float64, hint *int) []byte {
	if len(xs) == 0 {
		return dst
	}
	s := *hint
	if s != rawScale && !fits(xs, s) {
		s = rawScale
		for t := 0; t <= maxScale; t++ {
			if t != *hint && fits(xs, t) {
				s = t
				break
			}
		}
	}
	*hint = s
	dst = append(dst, byte(s))
	if s == rawScale {
		for _, x := range xs {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
		}
		return dst
	}
	p, prev := pow10[s], int64(0)
	for _, x := range xs {
		m := int64(math.Round(x * p))
		dst = binary.AppendVarint(dst, m-prev)
		prev = m
	}
	return dst
}

// readFloats reads a group of len(out) floats appendFloats wrote from the
// front of src into out and returns what follows; ok is false when src
// does not hold such a group.
func readFloats(src []byte, out []float64) (rest []byte, ok bool) {
	return scanFloats(src, len(out), out)
}

// skipFloats checks that src starts with a group of n floats appendFloats
// wrote, as readFloats would read it, and returns what follows without
// decoding them: a resumed dataset keeps its samples encoded and decodes
// a point's when they are asked for (Point.Samples), which must not fail.
func skipFloats(src []byte, n int) (rest []byte, ok bool) {
	return scanFloats(src, n, nil)
}

// scanFloats reads a group of n floats from the front of src, into out
// when it is not nil (then len(out) is n).
func scanFloats(src []byte, n int, out []float64) (rest []byte, ok bool) {
	if n == 0 {
		return src, true
	}
	if len(src) == 0 {
		return nil, false
	}
	s := int(src[0])
	src = src[1:]
	if s == rawScale {
		if len(src)/8 < n {
			return nil, false
		}
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
		}
		return src[8*n:], true
	}
	if s > maxScale {
		return nil, false
	}
	p, m := pow10[s], int64(0)
	for i := range n {
		d, k := binary.Varint(src)
		if k <= 0 {
			return nil, false
		}
		src = src[k:]
		if m += d; m > maxExact || m < -maxExact {
			return nil, false
		}
		if out != nil {
			out[i] = float64(m) / p
		}
	}
	return src, true
}

// appendSamples appends p's samples to dst as appendFloats does; samples
// held encoded are copied as they are (their scale becomes the hint), those
// left in the checkpoint's file read through peek.
func appendSamples(dst []byte, p *Point, hint *int, peek *segPeek) []byte {
	if r := p.samples(); r.n > 0 && r.src.encoded() {
		root, at := r.src.root()
		g := root.enc
		if root.seg != nil {
			g = peek.bytes(root.seg)
		}
		g = g[at+int(r.off):]
		rest, _ := skipFloats(g, int(r.n))
		*hint = int(g[0])
		return append(dst, g[:len(g)-len(rest)]...)
	}
	return appendFloats(dst, p.Samples(), hint)
}
