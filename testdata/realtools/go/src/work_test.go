// Package gowork holds the Go benchmarks of perfpages' agreement suite
// (see ../../README.md). SIDE=base or SIDE=head picks the amount of work;
// each benchmark's name says how the head differs from the base.
package gowork

import (
	"os"
	"testing"
)

// size returns base on the base side and head on the head side.
func size(base, head int) int {
	if os.Getenv("SIDE") == "head" {
		return head
	}
	return base
}

var sink uint64
var bufSink []byte

// work runs n steps of a 64-bit LCG, which no compiler folds away.
func work(n int) uint64 {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}

func bench(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		sink = work(n)
	}
}

func BenchmarkSame(b *testing.B)        { bench(b, size(2000, 2000)) }
func BenchmarkSmall(b *testing.B)       { bench(b, size(2000, 2040)) }
func BenchmarkSmallFaster(b *testing.B) { bench(b, size(2000, 1960)) }
func BenchmarkLarge(b *testing.B)       { bench(b, size(2000, 2600)) }
func BenchmarkLargeFaster(b *testing.B) { bench(b, size(2000, 1500)) }

// BenchmarkAllocFromZero allocates nothing on the base side and one
// 64-byte buffer per op on the head side (0 → 1 allocs/op, 0 → 64 B/op).
func BenchmarkAllocFromZero(b *testing.B) {
	allocs := size(0, 1)
	for i := 0; i < b.N; i++ {
		for j := 0; j < allocs; j++ {
			bufSink = make([]byte, 64)
		}
		sink = work(2000)
	}
}

// BenchmarkAllocDouble allocates one 64-byte buffer per op on the base
// side and two on the head side (1 → 2 allocs/op, 64 → 128 B/op).
func BenchmarkAllocDouble(b *testing.B) {
	allocs := size(1, 2)
	for i := 0; i < b.N; i++ {
		for j := 0; j < allocs; j++ {
			bufSink = make([]byte, 64)
		}
		sink = work(2000)
	}
}
