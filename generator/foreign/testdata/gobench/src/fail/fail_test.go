package fail

import (
	"strconv"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		_, _ = strconv.Atoi("12345")
	}
}

func BenchmarkBroken(b *testing.B) {
	b.Run("size=small", func(b *testing.B) {
		b.Fatal("cannot open fixture: no such file")
	})
}
