// Command perfpages builds a static site of benchmark comparisons, triage
// reports and history charts from benchmark result archives.
//
// Usage:
//
//	perfpages build [-config F] [-out DIR] [-strict]   build the site (no config: the demo)
//	perfpages serve [-config F] [-addr 127.0.0.1:8080] build, serve, rebuild on change
//	perfpages compare [-format text|json|markdown] [-metric M] BASE HEAD
//	perfpages triage -week YYYY-MM-DD [-format markdown|json]
//	perfpages demo  -size demo|S|M|L -out DIR          write generated archives and a config
//	perfpages import [-format F] -out DIR FILE…       other tools' results → archives
//	perfpages run -name N [-repeat 5] -- CMD…          measure a command into a perfgate run receipt
//	perfpages check -current F [-baseline F]           judge a run against its [budgets]
//	perfpages export -format csv|jsonl F…              print receipts as CSV or JSON Lines
//	perfpages promote [-normalize] F DEST              make a run receipt the baseline
//	perfpages version                                  print the version
//
// Errors go to standard error, one line each, prefixed "perfpages:"; the
// exit status is 1 on any error. check has perfgate's exit statuses: 0
// pass (or warn, skip, no baseline), 2 when a budget fails, 3 when one
// warns and -fail-on-warn is set, 1 on error.
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
