package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// main stops the command gracefully on SIGINT (Ctrl-C) and SIGTERM (what
// service managers, CI runners and kill send), so serve removes its
// temporary folder and a build its temporary site; a second signal kills
// at once.
func main() {
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
