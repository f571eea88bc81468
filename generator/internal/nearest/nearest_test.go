package nearest

import "testing"

func TestName(t *testing.T) {
	metrics := []string{"wall-time", "instructions:u", "max-rss", "B/op", "allocs/op", "cpu-ns/op", "throughput"}
	for _, tt := range []struct {
		name       string
		candidates []string
		want       string
		ok         bool
	}{
		{"walltime", metrics, "wall-time", true},          // a separator left out
		{"wall_time", metrics, "wall-time", true},         // separators differ
		{"Wall-Time", metrics, "wall-time", true},         // case differs
		{"wall-tme", metrics, "wall-time", true},          // a letter left out
		{"cpu-ns", metrics, "cpu-ns/op", true},            // the unit's prefix
		{"instructions", metrics, "instructions:u", true}, // a prefix
		{"maxrss", metrics, "max-rss", true},
		{"throughput", metrics, "throughput", true}, // itself
		{"rss", metrics, "", false},                 // too short and too far
		{"energy", metrics, "", false},
		{"x", []string{"y"}, "y", true}, // one edit of a one-letter name
		{"ab", []string{"cd"}, "", false},
		{"anything", nil, "", false},
		// A tie goes to the first in sorted order, whatever the order given.
		{"linux-b", []string{"linux-c", "linux-a"}, "linux-a", true},
		{"linux-b", []string{"linux-a", "linux-c"}, "linux-a", true},
	} {
		got, ok := Name(tt.name, tt.candidates)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Name(%q) = %q, %t; want %q, %t", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDistance(t *testing.T) {
	// Known answers: the textbook examples.
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"", "abc", 3},
		{"abc", "", 3},
		{"same", "same", 0},
		{"héllo", "hello", 1}, // runes, not bytes
	} {
		if got := distance([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
