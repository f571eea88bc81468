// Package shard is the rule that splits a build by benchmark across
// machines (build -shard i/n): which shard each benchmark belongs to.
//
// A benchmark's pack is the FNV-1a 64-bit hash of its name (the benchmark
// name of the results, not its URL segment) modulo [Packs]; its shard is
// its pack modulo n, plus one. Both depend on the name alone: adding or
// removing a benchmark never moves another, and every shard and the merge
// agree on them without seeing each other's results. Benchmarks of few
// series share their series data files with the others of their pack
// (sitemodel's data layout), so a pack must never span shards: that is why
// the shard is the pack's. The hash spreads names evenly but not exactly:
// with few benchmarks a shard may hold none (it then writes a partial
// site model with no series, which the merge accepts), and shards past
// the Packs-th hold none.
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

// Packs is the number of packs benchmarks are hashed into.
const Packs = 128

// Pack is the pack (0 to Packs−1) of the benchmark named name.
func Pack(name string) int {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int(h.Sum64() % Packs)
}

// Of is the shard (1 to n) of the benchmark named name: its pack's.
func Of(name string, n int) int { return Pack(name)%n + 1 }

// Holds reports whether benchmark name is in shard s.
func (s Spec) Holds(name string) bool { return Of(name, s.N) == s.I }

// Keep is a shard as the dataset's rule on benchmark names (model.Keep):
// its String names the rule as well as the shard, so that a checkpoint a
// shard wrote under an earlier rule (FNV-1a modulo n, before packs) is
// not resumed under this one.
type Keep struct{ Spec }

// String is "i/n by pack".
func (k Keep) String() string { return k.Spec.String() + " by pack" }
