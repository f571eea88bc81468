//go:build ignore

// mkedge writes edge.old.txt and edge.new.txt, the hand-made benchmark pair
// of the oracle test: each benchmark is one edge case of benchstat's
// statistics (see README.md). Run it from this folder: go run mkedge.go
package main

import (
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
)

func main() {
	const header = "goos: linux\ngoarch: amd64\npkg: example.com/edge\n"
	var old, new strings.Builder
	old.WriteString(header)
	new.WriteString(header)
	add := func(name, unit string, o, n []float64) {
		for _, v := range o {
			fmt.Fprintf(&old, "Benchmark%s \t1\t%s %s\n", name, strconv.FormatFloat(v, 'f', -1, 64), unit)
		}
		for _, v := range n {
			fmt.Fprintf(&new, "Benchmark%s \t1\t%s %s\n", name, strconv.FormatFloat(v, 'f', -1, 64), unit)
		}
	}
	repeat := func(x float64, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = x
		}
		return xs
	}
	series := func(n int, f func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		return xs
	}

	add("One", "ns/op", []float64{100}, []float64{120})
	add("Few", "ns/op", []float64{100, 101, 102}, []float64{110, 111, 112})
	add("Four", "ns/op", []float64{100, 101, 102, 103}, []float64{110, 111, 112, 113})
	add("Five", "ns/op", []float64{100, 102, 101, 104, 103}, []float64{90, 91, 93, 92, 94})
	add("Equal", "ns/op", repeat(50, 10), repeat(50, 10))
	add("NoChange", "ns/op",
		[]float64{200, 210, 190, 205, 195, 202, 198, 207, 193, 200},
		[]float64{201, 196, 209, 191, 204, 199, 206, 194, 203, 197})
	add("Uneven", "ns/op", []float64{300, 305, 298, 302, 301, 299}, []float64{320, 318, 325, 322, 319, 321, 324, 317})
	add("SameMedian", "ns/op", repeat(10, 8), []float64{9, 10, 10, 10, 10, 10, 10, 11})
	add("SameMedianShift", "ns/op", append(repeat(1, 5), repeat(5, 6)...), append(repeat(5, 6), repeat(10, 5)...))
	add("OnlyOld", "ns/op", []float64{400, 401, 402, 403, 404, 405}, nil)
	add("OnlyNew", "ns/op", nil, []float64{400, 401, 402, 403, 404, 405})
	add("ZeroBase", "errors/op", repeat(0, 8), []float64{1, 2, 1, 3, 2, 1, 2, 1})
	add("BothZero", "errors/op", repeat(0, 8), repeat(0, 8))
	add("ToZero", "errors/op", []float64{2, 1, 3, 2, 2, 1, 2, 3}, repeat(0, 8))
	add("ZeroMedian", "errors/op", []float64{0, 0, 0, 0, 0, 1, 1, 2}, []float64{0, 0, 0, 0, 0, 0, 0, 1})
	add("Negative", "score/op",
		[]float64{-2.5, -2.4, -2.6, -2.5, -2.45, -2.55, -2.52, -2.48},
		[]float64{-1.2, -1.1, -1.3, -1.25, -1.15, -1.22, -1.18, -1.21})
	add("MixedSign", "score/op", []float64{-1, 2, 3, 4, 5, 6, 7}, []float64{-2, 1, 2, 3, 4, 5, 6})
	// 30 tied integers per side: the U-test's normal approximation with
	// tie correction (exact only up to 25 with ties).
	add("Ties", "ns/op",
		series(30, func(i int) float64 { return float64(100 + i*7%5) }),
		series(30, func(i int) float64 { return float64(101 + i*3%5) }))
	// 60 distinct values per side: the normal approximation without ties
	// (exact up to 50) and for the median's interval (exact up to 30).
	add("Large", "ns/op",
		series(60, func(i int) float64 { return float64(1000+i*37%61) + 0.25 }),
		series(60, func(i int) float64 { return float64(1008+i*41%61) + 0.75 }))
	add("Throughput", "MB/s",
		[]float64{512.5, 510.25, 515, 509.75, 511, 513.5, 512, 514.25, 510.5, 511.75},
		[]float64{480.25, 478.5, 483, 481.75, 479, 482.5, 480, 484.25, 477.75, 481})

	if err := os.WriteFile("edge.old.txt", []byte(old.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("edge.new.txt", []byte(new.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
