// Package par runs loops on every core: the site model's pages and the
// build's hashing of its inputs share one worker loop.
package par

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Each runs f(i) for i in [0, n) on every core, stopping at the first
// error (or when ctx is done). A panic in f is returned as a *PanicError
// (see Recover), not left to kill the process from a worker goroutine.
func Each(ctx context.Context, n int, f func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		err  error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if err != nil || next >= n {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				if e := ctx.Err(); e != nil {
					mu.Lock()
					err = cmpErr(err, e)
					mu.Unlock()
					return
				}
				if e := call(f, i); e != nil {
					mu.Lock()
					err = cmpErr(err, e)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return err
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// call runs f(i), turning a panic into a *PanicError.
func call(f func(int) error, i int) (err error) {
	defer Recover(&err)
	return f(i)
}

// PanicError is a panic caught by Recover: a bug, reported as an error
// with its stack so that it fails the build, with a message that can be
// pasted into an issue, instead of crashing it.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error (a bug in perfpages: please report it with this message): panic: %v\n%s", e.Value, e.Stack)
}

// Recover, deferred, turns a panic of the calling function into a
// *PanicError in *err. It reports a panic, never hides one: the caller
// returns the error and the build fails.
func Recover(err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Value: v, Stack: debug.Stack()}
	}
}
