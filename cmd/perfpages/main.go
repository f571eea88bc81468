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
//	perfpages version                                  print the version
//
// Errors go to standard error, one line each, prefixed "perfpages:"; the
// exit status is 1 on any error.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		os.Exit(1)
	}
}
