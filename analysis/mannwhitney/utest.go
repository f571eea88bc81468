package mannwhitney

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/perf/benchmath"
)

// A site compares every commit's samples with its parent's for thousands of
// test cases, and benchmath's U test is costly at that rate (the exact U
// distribution is rebuilt for every pair, with maps when samples tie;
// BenchmarkTest measures Test against Compare). Yet its outcome depends on
// little: go-moremath's MannWhitneyUTest computes the p-value from the
// sample sizes, the tie vector (how many values share each rank of the
// merged samples) and the rank sum of the first sample, and benchmath's
// warnings from the p-value, the sizes and alpha. With a handful of samples
// per side few such keys exist, so the outcomes are memoized by key: each
// is computed once by benchmath itself, which keeps every p-value bit for
// bit benchmath's, ties and normal approximation included, with no second
// implementation of the U distribution.

// uResult is what Compare takes from the U test of two samples.
type uResult struct {
	p           float64  // benchmath's p-value, 1 when it is outside [0, 1]
	warnings    []string // benchmath's warnings (not to be modified)
	significant bool
	// reason is the clause Compare's Reason gets from the test: the
	// warnings, or the p-value against alpha, when not significant.
	reason string
}

// memoLimit bounds the memo: beyond it outcomes are computed and not kept
// (samples of 50 values without ties give up to 1,250 keys per pair of
// sizes; small samples with ties a few thousand).
const memoLimit = 1 << 17

var memo = struct {
	sync.RWMutex
	m map[string]*uResult
}{m: map[string]*uResult{}}

// exactLimit is go-moremath's MannWhitneyExactLimit: samples up to this
// size without ties have the exact U distribution, a p-value that depends
// on the sizes and U alone.
const exactLimit = 50

// exact holds the outcomes of samples without ties, per sizes (indexed
// n1·(exactLimit+1) + n2) and U, for the first alpha that asked: the memo
// without its key and lock.
var exact [(exactLimit + 1) * (exactLimit + 1)]atomic.Pointer[exactTable]

type exactTable struct {
	alpha float64
	byU   []atomic.Pointer[uResult] // index U, 0 … n1·n2
}

// uTest is benchmath's U test of two sorted non-empty samples of finite
// values at level alpha.
func uTest(bs, hs []float64, alpha float64) *uResult {
	n1, n2 := len(bs), len(hs)
	if n1 <= exactLimit && n2 <= exactLimit {
		if u, ok := untiedU(bs, hs); ok {
			slot := &exact[n1*(exactLimit+1)+n2]
			t := slot.Load()
			if t == nil {
				slot.CompareAndSwap(nil, &exactTable{alpha: alpha, byU: make([]atomic.Pointer[uResult], n1*n2+1)})
				t = slot.Load()
			}
			if math.Float64bits(t.alpha) == math.Float64bits(alpha) {
				if r := t.byU[u].Load(); r != nil {
					return r
				}
				r := runUTest(slices.Clone(bs), slices.Clone(hs), alpha)
				t.byU[u].Store(r)
				return r
			}
		}
	}
	var buf [96]byte
	key := uKey(buf[:0], bs, hs, alpha)
	memo.RLock()
	r := memo.m[string(key)]
	memo.RUnlock()
	if r != nil {
		return r
	}
	r = runUTest(slices.Clone(bs), slices.Clone(hs), alpha)
	memo.Lock()
	if len(memo.m) < memoLimit {
		memo.m[string(key)] = r
	}
	memo.Unlock()
	return r
}

// uKey encodes what the test's outcome depends on: alpha, the sizes, the
// tie vector and twice the first sample's rank sum, each tie group ranked
// by the mean of its ranks as MannWhitneyUTest does. Equal values are one
// group whatever their sign (−0 == 0), as there.
func uKey(dst []byte, bs, hs []float64, alpha float64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(alpha))
	dst = binary.AppendUvarint(dst, uint64(len(bs)))
	dst = binary.AppendUvarint(dst, uint64(len(hs)))
	i, j, pos, twoR1 := 0, 0, 0, 0
	for i < len(bs) || j < len(hs) {
		v := 0.0
		if j == len(hs) || i < len(bs) && bs[i] < hs[j] {
			v = bs[i]
		} else {
			v = hs[j]
		}
		start, n1 := pos, 0
		for ; i < len(bs) && bs[i] == v; i++ {
			n1++
		}
		for ; j < len(hs) && hs[j] == v; j++ {
		}
		pos = i + j
		twoR1 += (start + 1 + pos) * n1
		dst = binary.AppendUvarint(dst, uint64(pos-start))
	}
	return binary.AppendUvarint(dst, uint64(twoR1))
}

// untiedU returns the U statistic of sorted samples (the number of pairs
// whose first value is the larger) when no two values are equal, within
// or across the samples.
func untiedU(bs, hs []float64) (u int, ok bool) {
	for i := 1; i < len(bs); i++ {
		if bs[i] == bs[i-1] {
			return 0, false
		}
	}
	for j := 1; j < len(hs); j++ {
		if hs[j] == hs[j-1] {
			return 0, false
		}
	}
	j := 0
	for _, x := range bs {
		for j < len(hs) && hs[j] < x {
			j++
		}
		if j < len(hs) && hs[j] == x {
			return 0, false
		}
		u += j
	}
	return u, true
}

// runUTest runs benchmath's test (which sorts the samples in place).
func runUTest(bs, hs []float64, alpha float64) *uResult {
	thresholds := benchmath.Thresholds{CompareAlpha: alpha}
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(bs, &thresholds), benchmath.NewSample(hs, &thresholds))
	r := &uResult{p: 1, warnings: errorStrings(c.Warnings)}
	if p := c.P; p >= 0 && p <= 1 {
		r.p = p
	}
	// The only way the U-test fails on non-empty samples is that every
	// value is the same ("all samples are equal"): then P is 1 and
	// nothing can be significant, whatever alpha is.
	allEqual := bs[0] == bs[len(bs)-1] && hs[0] == hs[len(hs)-1] && bs[0] == hs[0]
	r.significant = !allEqual && r.p <= alpha
	switch {
	case r.significant:
	case len(r.warnings) > 0:
		r.reason = strings.Join(r.warnings, "; ")
	default:
		r.reason = fmt.Sprintf("no significant difference: p=%.3f > alpha %v", r.p, alpha)
	}
	return r
}
