package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/shard"
	"github.com/perfpages/perfpages/generator/sitemodel"
)

func cmdBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", stderr)
	site := addSiteFlags(fs, true)
	out := fs.String("out", "", "output folder (default: site.output of the config, public/)")
	strict := fs.Bool("strict", false, "fail the build on any warning (bad archive, unknown field, …)")
	cold := fs.Bool("cold", false, "ignore what earlier builds stored beside the output: compute everything again")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the build to this file (for go tool pprof)")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end of the build to this file")
	timings := fs.Bool("timings", false, "print the wall and CPU time of each stage of the build on stderr")
	shardFlag := fs.String("shard", "", "build shard `i/n` alone: its benchmarks' files and its partial site model, for perfpages merge")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	var sp shard.Spec
	if *shardFlag != "" {
		var err error
		if sp, err = shard.Parse(*shardFlag); err != nil {
			return err
		}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		defer func() {
			if f, err := os.Create(*memProfile); err == nil {
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}()
	}
	s, err := site.open(stderr)
	if err != nil {
		return err
	}
	bo := generator.BuildOptions{Out: *out, Strict: *strict, Cold: *cold, Shard: sp}
	if *timings {
		bo.Timings = stderr
	}
	_, err = build(ctx, s, bo, stdout, stderr)
	return err
}

// build runs one build and reports it: notes and warnings on stderr, one
// line each, and a summary line on stdout.
// shownPerKind is how many problems of one kind a build prints verbatim;
// the rest are counted (a history of a thousand versions of a file can
// say the same thing a thousand times).
const shownPerKind = 5

// printGrouped prints problems grouped by kind (sitemodel.GroupWarnings):
// the first few of each verbatim, then how many more there were.
func printGrouped(w io.Writer, prefix string, problems []error) {
	for _, g := range sitemodel.GroupWarnings(problems, shownPerKind) {
		for _, m := range g.First {
			say(w, prefix, m)
		}
		if n := g.Count - len(g.First); n > 0 {
			say(w, prefix, fmt.Sprintf("… and %d more like these (%s)", n, g.Kind))
		}
	}
}

func build(ctx context.Context, s *generator.Site, opts generator.BuildOptions, stdout, stderr io.Writer) (*generator.Report, error) {
	start := time.Now()
	rep, err := s.Build(ctx, opts)
	what := "built"
	if opts.Shard.On() {
		what = "built shard " + opts.Shard.String() + ":"
	}
	return reportBuild(rep, err, start, what, opts.Strict, stdout, stderr)
}

// reportBuild reports a build or merge that began at start and returned
// rep and err: notes and warnings on stderr, one line each, and a summary
// line on stdout that begins with what ("built").
func reportBuild(rep *generator.Report, err error, start time.Time, what string, strict bool, stdout, stderr io.Writer) (*generator.Report, error) {
	prefix := "perfpages: warning: "
	if strict {
		prefix = "perfpages: "
	}
	// Which ref and commit each git source read, whether or not the
	// build went on: a stale remote-tracking branch shows here.
	for _, r := range rep.Git {
		say(stderr, "perfpages: git: ", r)
	}
	var notes []error
	for _, n := range rep.Notes {
		notes = append(notes, errors.New(n))
	}
	printGrouped(stderr, "perfpages: note: ", notes)
	printGrouped(stderr, prefix, rep.Warnings)
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
	if rep.UpToDate {
		fmt.Fprintf(stdout, "%s is up to date: nothing changed since its last build (%d pages, %d files from %d artifacts and %d series; checked in %s)",
			where, rep.Pages, rep.Files, rep.Artifact, rep.Series, time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(stdout, "%s %d pages (%d files) from %d artifacts and %d series into %s in %s",
			what, rep.Pages, rep.Files, rep.Artifact, rep.Series, where, time.Since(start).Round(time.Millisecond))
		if rep.Kept > 0 {
			fmt.Fprintf(stdout, "; %d comparisons computed, %d files kept from the last build", rep.Comparisons, rep.Kept)
		}
	}
	switch n := len(rep.Warnings); {
	case n == 1:
		fmt.Fprint(stdout, "; 1 warning")
	case n > 1:
		fmt.Fprintf(stdout, "; %d warnings", n)
	}
	fmt.Fprintln(stdout)
	return rep, nil
}
