// Package noisebench holds tiny benchmarks whose only purpose is to be run
// over and over on a shared machine, so that their run-to-run noise can be
// collected (scripts/noise/produce.sh). Nothing in them is meant to change.
package noisebench

import (
	"crypto/sha256"
	"encoding/json"
	"sort"
	"strconv"
	"testing"
)

var sink int

func BenchmarkSHA256(b *testing.B) {
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(i)
	}
	for b.Loop() {
		s := sha256.Sum256(buf)
		sink += int(s[0])
	}
}

func BenchmarkSortInts(b *testing.B) {
	src := make([]int, 2000)
	x := uint32(1)
	for i := range src {
		x = x*1664525 + 1013904223
		src[i] = int(x >> 8)
	}
	dst := make([]int, len(src))
	for b.Loop() {
		copy(dst, src)
		sort.Ints(dst)
	}
}

func BenchmarkJSONMarshal(b *testing.B) {
	m := map[string][]string{}
	for i := 0; i < 50; i++ {
		m["key"+strconv.Itoa(i)] = []string{"a", "bb", strconv.Itoa(i)}
	}
	for b.Loop() {
		out, _ := json.Marshal(m)
		sink += len(out)
	}
}

func BenchmarkMapAlloc(b *testing.B) {
	for b.Loop() {
		m := make(map[int]int)
		for i := 0; i < 200; i++ {
			m[i] = i
		}
		sink += len(m)
	}
}
