package criterion

import "math/bits"

// Seed derives a bootstrap seed from a key such as a series key: the 64-bit
// FNV-1a hash of its bytes. Equal keys give equal seeds on every platform
// and Go version, so a rebuilt site shows the same intervals and p-values.
func Seed(key string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= prime
	}
	return h
}

// stream names one bootstrap of a call. Its blocks draw from generators of
// their own (see blockSource), so that skipping one bootstrap (the slope of
// a flat run) leaves the others' draws alone.
type stream uint64

const (
	streamAbsolute stream = iota + 1 // mean, std dev, median, MAD
	streamSlope                      // paired (iters, times) resamples
	streamT                          // mixed bootstrap of Welch's t
	streamChange                     // chunked two-sample bootstrap of the changes
)

// source draws uniform indices from PCG-DXSM, the generator of
// math/rand/v2's PCG: the same 128-bit LCG constants and output function,
// so a source and rand.NewPCG(hi, lo) produce the same numbers (a test
// checks). It is written out here so that the fill loops keep the state in
// registers; calling (*rand.PCG).Uint64 on a struct field stores and
// reloads it for every number, which made Compare measurably slower
// (BenchmarkCompare).
type source struct {
	hi, lo uint64
}

func newSource(seed uint64, s stream) *source {
	return &source{hi: splitmix(seed), lo: splitmix(seed ^ uint64(s)*0xd1b54a32d192ed03)}
}

// splitmix is SplitMix64's finaliser; it spreads nearby seeds (0, 1, 2, …)
// over the generator's state space.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// pcg advances the state (hi, lo) and returns the next output, exactly as
// math/rand/v2's (*PCG).Uint64.
func pcg(hi, lo uint64) (uint64, uint64, uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	// DXSM output
	const cheapMul = 0xda942042e4dd58b5
	x := h
	x ^= x >> 32
	x *= cheapMul
	x ^= x >> 48
	x *= l | 1
	return h, l, x
}

// Uint64 returns the next output of the generator.
func (r *source) Uint64() uint64 {
	var x uint64
	r.hi, r.lo, x = pcg(r.hi, r.lo)
	return x
}

// fill sets every dst[i] to an index drawn uniformly from [0, n), with
// 0 < n ≤ maxLen: one resample. Each index comes from Lemire's
// multiply-shift on a 16-bit (n ≤ 1024) or 32-bit lane of a 64-bit output,
// with his rejection step, so the draws are exactly uniform while one
// output yields four or two indices.
func (r *source) fill(dst []uint32, n int) {
	if n <= 1<<10 {
		r.fill16(dst, uint32(n))
	} else {
		r.fill32(dst, uint32(n))
	}
}

func (r *source) fill16(dst []uint32, n uint32) {
	// A lane x is accepted when the low half of x·n is at least
	// 2¹⁶ mod n; about n/2¹⁶ of the lanes (≤ 1.6 %) are drawn again.
	// Lanes 0 and 2 (then 1 and 3) are multiplied by n together, one in
	// each 32-bit half of a 64-bit product: x·n < 2²⁶ cannot carry into
	// the other half.
	const lanes = 0x0000ffff_0000ffff
	thresh := uint32(-uint16(n) % uint16(n))
	hi, lo := r.hi, r.lo
	var x uint64
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		hi, lo, x = pcg(hi, lo)
		even := (x & lanes) * uint64(n)
		odd := (x >> 16 & lanes) * uint64(n)
		m0, m1, m2, m3 := uint32(even), uint32(odd), uint32(even>>32), uint32(odd>>32)
		if m0&0xffff < thresh || m1&0xffff < thresh || m2&0xffff < thresh || m3&0xffff < thresh {
			r.hi, r.lo = hi, lo
			m0, m1, m2, m3 = r.redraw16(m0, n, thresh), r.redraw16(m1, n, thresh), r.redraw16(m2, n, thresh), r.redraw16(m3, n, thresh)
			hi, lo = r.hi, r.lo
		}
		d := dst[i : i+4 : i+4]
		d[0], d[1], d[2], d[3] = m0>>16, m1>>16, m2>>16, m3>>16
	}
	r.hi, r.lo = hi, lo
	for ; i < len(dst); i++ {
		m := uint32(r.Uint64()&0xffff) * n
		dst[i] = r.redraw16(m, n, thresh) >> 16
	}
}

// redraw16 returns m when it was accepted, else the product of a fresh
// lane that is.
func (r *source) redraw16(m, n, thresh uint32) uint32 {
	for m&0xffff < thresh {
		m = uint32(r.Uint64()&0xffff) * n
	}
	return m
}

func (r *source) fill32(dst []uint32, n uint32) {
	thresh := -n % n
	hi, lo := r.hi, r.lo
	var x uint64
	i := 0
	for ; i+2 <= len(dst); i += 2 {
		hi, lo, x = pcg(hi, lo)
		m0 := uint64(uint32(x)) * uint64(n)
		m1 := (x >> 32) * uint64(n)
		if uint32(m0) < thresh || uint32(m1) < thresh {
			r.hi, r.lo = hi, lo
			m0, m1 = r.redraw32(m0, n, thresh), r.redraw32(m1, n, thresh)
			hi, lo = r.hi, r.lo
		}
		d := dst[i : i+2 : i+2]
		d[0], d[1] = uint32(m0>>32), uint32(m1>>32)
	}
	r.hi, r.lo = hi, lo
	for ; i < len(dst); i++ {
		m := uint64(uint32(r.Uint64())) * uint64(n)
		dst[i] = uint32(r.redraw32(m, n, thresh) >> 32)
	}
}

func (r *source) redraw32(m uint64, n, thresh uint32) uint64 {
	for uint32(m) < thresh {
		m = uint64(uint32(r.Uint64())) * uint64(n)
	}
	return m
}
