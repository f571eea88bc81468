package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/perfpages/perfpages/generator"
)

// cmdMerge is perfpages merge: the final job of a sharded build.
func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", stderr)
	site := addSiteFlags(fs, true)
	out := fs.String("out", "", "output folder of the site (default: site.output of the config, public/)")
	strict := fs.Bool("strict", false, "fail on any warning the shards found")
	cold := fs.Bool("cold", false, "write every file anew, ignoring the store of the last merge")
	timings := fs.Bool("timings", false, "print the wall and CPU time of each stage on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("merge: give the output folder of every shard (perfpages build -shard i/n -out DIR)")
	}
	s, err := site.open(stderr)
	if err != nil {
		return err
	}
	mo := generator.MergeOptions{Out: *out, Shards: fs.Args(), Strict: *strict, Cold: *cold}
	if *timings {
		mo.Timings = stderr
	}
	start := time.Now()
	rep, err := s.Merge(ctx, mo)
	_, err = reportBuild(rep, err, start, fmt.Sprintf("merged %d shards:", fs.NArg()), *strict, stdout, stderr)
	return err
}
