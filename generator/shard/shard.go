// Package shard is the rule that splits a build by benchmark across
// machines (build -shard i/n): which shard each benchmark belongs to.
//
// A benchmark's shard is the FNV-1a 64-bit hash of its name (the
// benchmark name of the results, not its URL segment), modulo n, plus
// one. It depends on the name alone: adding or removing a benchmark never
// moves another, and every shard and the merge agree on it without
// seeing each other's results. The hash spreads names evenly but not
// exactly: with few benchmarks a shard may hold none (it then writes a
// partial site model with no series, which the merge accepts).
//
// It sits beside the stages, a rule every stage may ask (see the
// architecture section of the README).
package shard

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Spec names shard I of N (1 ≤ I ≤ N). The zero Spec is no sharding.
type Spec struct{ I, N int }

// Parse reads "i/n" (1 ≤ i ≤ n).
func Parse(s string) (Spec, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Spec{}, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, like 2/3", s)
	}
	return Spec{I: i, N: n}, nil
}

// String is "i/n".
func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// On reports whether s is a shard (not the zero Spec).
func (s Spec) On() bool { return s.N > 0 }

// Of is the shard (1 to n) of the benchmark named name.
func Of(name string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int(h.Sum64()%uint64(n)) + 1
}

// Holds reports whether benchmark name is in shard s.
func (s Spec) Holds(name string) bool { return Of(name, s.N) == s.I }
