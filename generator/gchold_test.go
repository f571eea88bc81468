package generator

import (
	"runtime/debug"
	"sync"
	"testing"
)

// TestHoldGC: holds nest across goroutines, and the collector's percent
// comes back when the last is released, whatever the order.
func TestHoldGC(t *testing.T) {
	was := debug.SetGCPercent(77)
	defer debug.SetGCPercent(was)
	var wg sync.WaitGroup
	releases := make(chan func(), 8)
	for range 8 {
		wg.Go(func() { releases <- holdGC() })
	}
	wg.Wait()
	close(releases)
	var all []func()
	for r := range releases {
		all = append(all, r)
	}
	for i, r := range all {
		if p := debug.SetGCPercent(-1); p != -1 {
			t.Fatalf("held by %d: percent %d", len(all)-i, p)
		}
		r()
		r() // a second call does nothing
	}
	if p := debug.SetGCPercent(77); p != 77 {
		t.Errorf("released: percent %d, not 77", p)
	}
}
