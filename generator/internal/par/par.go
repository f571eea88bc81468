// Package par runs loops on every core: the site model's pages and the
// build's hashing of its inputs share one worker loop.
package par

import (
	"context"
	"runtime"
	"sync"
)

// Each runs f(i) for i in [0, n) on every core, stopping at the first
// error (or when ctx is done).
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
				if e := f(i); e != nil {
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
