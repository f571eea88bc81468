package generator

import (
	"runtime/debug"
	"sync"
)

// gcHold stops the collector while a build resumes its checkpoint
// (resumeArchives). A resumed dataset is what a nightly build holds from
// then on (at L, 1.2 GB of points) and resuming it makes almost nothing
// else: a collection while it grows marks every point made so far and
// frees nothing. At L the collector ran ten times as the points grew,
// marking up to 1.2 GB each time: four of the nightly's 30 CPU-s. Holds
// nest, across goroutines (builds of the tests, of perfpages serve): the
// collector runs again, at the percent it had, when the last is released.
// A memory limit (GOMEMLIMIT, or main's) still makes it collect.
var gcHold struct {
	sync.Mutex
	n       int
	percent int
}

// holdGC stops the collector until release is called (once; more calls do
// nothing).
func holdGC() (release func()) {
	gcHold.Lock()
	if gcHold.n == 0 {
		gcHold.percent = debug.SetGCPercent(-1)
	}
	gcHold.n++
	gcHold.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			gcHold.Lock()
			defer gcHold.Unlock()
			if gcHold.n--; gcHold.n == 0 {
				debug.SetGCPercent(gcHold.percent)
			}
		})
	}
}
