package readkit

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// arenaDoc is an archive-like document: objects, strings, a list of
// numbers per result, and a list of objects.
func arenaDoc(results int) []byte {
	var b strings.Builder
	b.WriteString(`{"schema": "x", "results": [`)
	for i := range results {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"benchmark": "b%d", "params": {"n": "%d"}, "samples": [%d, 2.5, 3], "tags": ["a", {"k": null}]}`, i, i, i)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// TestArenaSameTree checks that a tree built in an arena, fresh or
// reused after Reset (by a bigger and then a smaller document), is the
// tree built without one.
func TestArenaSameTree(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: parses large documents")
	}
	var a Arena
	for _, n := range []int{3, 2000, 10, 2000} {
		doc := arenaDoc(n)
		want, _, p := ParseJSON("f.json", doc, JSONOptions{})
		if p != nil {
			t.Fatal(p)
		}
		got, _, p := ParseJSON("f.json", doc, JSONOptions{Arena: &a})
		if p != nil {
			t.Fatal(p)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%d results: tree in the arena differs (-heap +arena):\n%s", n, diff)
		}
		a.Reset()
	}
}

// TestArenaReuses checks the point of an arena: once it has parsed a
// document, parsing one of the same size allocates only the strings.
func TestArenaReuses(t *testing.T) {
	doc := arenaDoc(1000)
	heap := allocatedBytes(func() { ParseJSON("f.json", doc, JSONOptions{}) })
	var a Arena
	ParseJSON("f.json", doc, JSONOptions{Arena: &a})
	a.Reset()
	reused := allocatedBytes(func() {
		ParseJSON("f.json", doc, JSONOptions{Arena: &a})
		a.Reset()
	})
	// Without an arena: ~10 nodes of 120 bytes per result, and the
	// lists; with one, only the keys and strings (~6 of 16 bytes).
	if reused > heap/4 {
		t.Errorf("a reused arena allocates %d bytes per parse, without one %d: want at most a quarter", reused, heap)
	}
	t.Logf("bytes allocated per parse: %d without an arena, %d with a reused one", heap, reused)
}

// allocatedBytes is the mean of the bytes f allocates, over 5 runs.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 5 {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / 5
}

// TestArenaDropsHugeTrees checks that an arena does not keep the memory
// of a tree over maxKept elements after Reset.
func TestArenaDropsHugeTrees(t *testing.T) {
	var a Arena
	doc := []byte("[" + strings.Repeat("[],", maxKept) + "[]]")
	if _, _, p := ParseJSON("f.json", doc, JSONOptions{Arena: &a}); p != nil {
		t.Fatal(p)
	}
	a.Reset()
	if a.nodes.buf != nil || a.nodes.want != 0 {
		t.Errorf("after a tree of %d nodes, the arena keeps %d and wants %d", maxKept+2, len(a.nodes.buf), a.nodes.want)
	}
}
