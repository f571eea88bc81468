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
	// A build holds its whole dataset while it writes the site; collecting
	// at 50 % growth instead of Go's 100 % keeps the peak memory of a
	// thousand commits × two thousand series under 1 GiB for about a
	// tenth more CPU. GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
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
