package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// main stops the command gracefully on SIGINT (Ctrl-C) and SIGTERM (what
// service managers, CI runners and kill send), so serve removes its
// temporary folder and a build its temporary site; a second signal kills
// at once.
func main() {
	// A build holds its whole dataset while it writes the site, and its
	// peak RSS is about 1.1 × (1 + GOGC/100) of what it holds (the heap
	// goal, and the scavenger's tenth over it). Collecting at 40 % growth
	// instead of Go's 100 %: a cold build of the asv layout's M (1,000
	// commits × 2,000 benchmarks, about 155 MB live) peaks at 228–239 MB
	// max RSS instead of 267–276 at 50 %, for 0.4 CPU-s more of
	// collection (2.56 instead of 2.14 of 26; 30 % costs 3.63). GOGC in
	// the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(40)
	}
	// And it works harder still near the machine's memory (memlimit.go).
	// GOMEMLIMIT in the environment still decides.
	if os.Getenv("GOMEMLIMIT") == "" {
		if limit := memoryLimit(os.DirFS("/")); limit > 0 {
			debug.SetMemoryLimit(limit)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if code := exitCode(err); code != 0 {
		os.Exit(code)
	}
}
