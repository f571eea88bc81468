package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/perfpages/perfpages/generator"
)

func cmdBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", stderr)
	configPath := fs.String("config", "", "config file (default: perfpages.toml here, else the demo site)")
	out := fs.String("out", "", "output folder (default: site.output of the config, public/)")
	strict := fs.Bool("strict", false, "fail the build on any warning (bad archive, unknown field, …)")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	s, err := generator.Open(*configPath)
	if err != nil {
		return err
	}
	_, err = build(ctx, s, *out, *strict, stdout, stderr)
	return err
}

// build runs one build and reports it: notes and warnings on stderr, one
// line each, and a summary line on stdout.
func build(ctx context.Context, s *generator.Site, out string, strict bool, stdout, stderr io.Writer) (*generator.Report, error) {
	start := time.Now()
	rep, err := s.Build(ctx, generator.BuildOptions{Out: out, Strict: strict})
	prefix := "perfpages: warning: "
	if strict {
		prefix = "perfpages: "
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stderr, "perfpages: note: %s\n", n)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "%s%v\n", prefix, w)
	}
	if err != nil {
		if errors.Is(err, generator.ErrStrict) {
			fmt.Fprintf(stderr, "perfpages: build failed: %d problems in strict mode; the previous site is unchanged\n", len(rep.Warnings))
			return rep, errReported
		}
		return rep, err
	}
	where := rep.Out
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, rep.Out); err == nil && filepath.IsLocal(rel) {
			where = rel
		}
	}
	fmt.Fprintf(stdout, "built %d pages (%d files) from %d artifacts and %d series into %s in %s",
		rep.Pages, rep.Files, rep.Artifact, rep.Series, where, time.Since(start).Round(time.Millisecond))
	if n := len(rep.Warnings); n > 0 {
		fmt.Fprintf(stdout, "; %d warnings", n)
	}
	fmt.Fprintln(stdout)
	return rep, nil
}
