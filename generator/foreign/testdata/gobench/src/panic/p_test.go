package p

import "testing"

func BenchmarkOK(b *testing.B) {
	for b.Loop() {
	}
}

func BenchmarkPanic(b *testing.B) {
	b.Run("k=v", func(b *testing.B) {
		var m map[string]int
		for b.Loop() {
			m["x"]++
		}
	})
}
