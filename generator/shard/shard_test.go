package shard

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		ok   bool
	}{
		{"1/1", Spec{1, 1}, true},
		{"2/3", Spec{2, 3}, true},
		{"3/3", Spec{3, 3}, true},
		{"0/3", Spec{}, false},
		{"4/3", Spec{}, false},
		{"1/0", Spec{}, false},
		{"-1/3", Spec{}, false},
		{"1", Spec{}, false},
		{"a/b", Spec{}, false},
		{"", Spec{}, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("Parse(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

// TestOfStable pins the rule: a benchmark's pack is FNV-1a of its name
// mod 128 and its shard the pack mod n, so these never change (a change
// would move every benchmark of every sharded site at once), and adding
// benchmarks moves no other.
func TestOfStable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pack, n int
		want    int
	}{
		// FNV-1a 64 computed independently (Python, by hand): "compile"
		// is 0x1280caa05fbce71e, "runtime/json-decode" 0xdca8d9e53de4fb,
		// "a" 0xaf63dc4c8601ec8c, "" the offset basis 0xcbf29ce484222325.
		{"compile", 30, 3, 1},
		{"compile", 30, 7, 3},
		{"runtime/json-decode", 123, 3, 1},
		{"runtime/json-decode", 123, 7, 5},
		{"a", 12, 3, 1},
		{"a", 12, 7, 6},
		{"", 37, 1, 1},
	} {
		if got := Pack(tc.name); got != tc.pack {
			t.Errorf("Pack(%q) = %d, want %d", tc.name, got, tc.pack)
		}
		if got := Of(tc.name, tc.n); got != tc.want {
			t.Errorf("Of(%q, %d) = %d, want %d", tc.name, tc.n, got, tc.want)
		}
	}
	counts := map[int]int{}
	names := map[string]int{}
	for i := range 300 {
		name := fmt.Sprintf("bench-%d", i)
		names[name] = Of(name, 3)
		counts[names[name]]++
	}
	for i := 1; i <= 3; i++ {
		if counts[i] < 60 {
			t.Errorf("shard %d holds %d of 300 benchmarks: the hash does not spread", i, counts[i])
		}
	}
	for name, s := range names {
		if s < 1 || s > 3 || !(Spec{s, 3}).Holds(name) {
			t.Errorf("%s: shard %d", name, s)
		}
	}
}
