// Package benchprog is the benchmark program whose real output is the
// oracle fixture of package mannwhitney (see ../README.md). It lives under
// testdata so the perfpages module never builds or runs it.
//
// BENCH_VARIANT=slow makes some benchmarks slower or allocate more, so that
// running it once without and once with the variable gives an "old" and a
// "new" file with significant and insignificant changes in several units.
package benchprog

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"
)

var slow = os.Getenv("BENCH_VARIANT") == "slow"

var sink uint64

// checksum is FNV-1a; the slow variant mixes every byte twice.
func checksum(data []byte, twice bool) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range data {
		h ^= uint64(c)
		h *= 1099511628211
		if twice {
			h ^= h >> 29
			h *= 1099511628211
		}
	}
	return h
}

// BenchmarkChecksum reports throughput (B/s after benchstat tidies MB/s).
// Only the large size gets the slow variant.
func BenchmarkChecksum(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16} {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(i * 7)
			}
			twice := slow && n == 1<<16
			b.SetBytes(int64(n))
			for b.Loop() {
				sink = checksum(data, twice)
			}
		})
	}
}

// BenchmarkSort reports B/op and allocs/op; the slow variant uses
// sort.Slice, which allocates more and is slower than slices.Sort.
func BenchmarkSort(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, uint64(n)))
			in := make([]int, n)
			for i := range in {
				in[i] = r.IntN(1 << 20)
			}
			b.ReportAllocs()
			for b.Loop() {
				s := slices.Clone(in)
				if slow {
					sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
				} else {
					slices.Sort(s)
				}
				sink = uint64(s[0])
			}
		})
	}
}

var fields = []string{"1.5", "2.25", "1e3", "-0.125", "3.14159", "42", "6.02e23", "0.001"}

// BenchmarkParse is the same in both variants and reports a constant
// custom metric (fields/op), so its values are all equal.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		for _, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				b.Fatal(err)
			}
			sink += uint64(v)
		}
	}
	b.ReportMetric(float64(len(fields)), "fields/op")
}

// BenchmarkLookup reports a varying custom metric (probes/op): the average
// number of slots a linear-probing hash table inspects per lookup, with
// keys drawn from a generator seeded by b.N. The slow variant fills the
// table fuller, so it probes more.
func BenchmarkLookup(b *testing.B) {
	const size = 1 << 12
	load := 0.5
	if slow {
		load = 0.8
	}
	table := make([]uint64, size)
	r := rand.New(rand.NewPCG(7, 7))
	for range int(load * size) {
		k := r.Uint64() | 1
		i := k % size
		for table[i] != 0 {
			i = (i + 1) % size
		}
		table[i] = k
	}
	q := rand.New(rand.NewPCG(uint64(b.N), 3))
	probes := 0
	for b.Loop() {
		k := q.Uint64() | 1
		i := k % size
		for table[i] != 0 && table[i] != k {
			i = (i + 1) % size
			probes++
		}
		probes++
	}
	b.ReportMetric(float64(probes)/float64(b.N), "probes/op")
}
