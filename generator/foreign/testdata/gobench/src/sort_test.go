package sortbench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func input(n int) []int {
	xs := make([]int, n)
	x := uint32(1)
	for i := range xs {
		x = x*1664525 + 1013904223
		xs[i] = int(x >> 8)
	}
	return xs
}

// BenchmarkSort has key=value sub-benchmarks, bytes per op and a custom metric.
func BenchmarkSort(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			src := input(n)
			buf := make([]int, n)
			b.SetBytes(int64(8 * n))
			var cmps int
			for b.Loop() {
				copy(buf, src)
				slices.SortFunc(buf, func(a, c int) int { cmps++; return a - c })
			}
			b.ReportMetric(float64(cmps)/float64(b.N), "compares/op")
		})
	}
}

// BenchmarkJoin has positional sub-benchmarks and allocates.
func BenchmarkJoin(b *testing.B) {
	for _, sep := range []string{"comma", "space"} {
		b.Run(sep, func(b *testing.B) {
			parts := []string{"a", "bb", "ccc", "dddd"}
			s := map[string]string{"comma": ",", "space": " "}[sep]
			for b.Loop() {
				_ = strings.Join(parts, s)
			}
		})
	}
}

// BenchmarkFormat reports a rate of its own.
func BenchmarkFormat(b *testing.B) {
	for b.Loop() {
		_ = fmt.Sprintf("%d-%s", 42, "x")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
}
