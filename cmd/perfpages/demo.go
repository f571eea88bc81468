package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/demo"
)

func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", stderr)
	size := fs.String("size", "demo", "data set: demo (the embedded demo), S (100 artifacts × 200 series), M (1,000 × 2,000) or L (5,000 × 10,000)")
	out := fs.String("out", "", "folder to write results/ and perfpages.toml into (required)")
	format := fs.String("format", "", "archive format: json, yaml or toml (default: a mix, as the demo)")
	gz := fs.Bool("gzip", false, "gzip the archives (with -format)")
	samples := fs.Int("samples", 0, "samples per result (default: the data set's, 5)")
	iters := fs.String("iters", "", "comma-separated benchmarks whose wall-time results get Criterion-style iteration counts, * for all (default: the data set's)")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("demo: -out is required")
	}
	switch *format {
	case "", "json", "yaml", "toml":
	default:
		return fmt.Errorf("demo: -format %q: want json, yaml or toml", *format)
	}
	plan, err := demo.PlanFor(*size)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if *samples != 0 {
		plan.Samples = *samples
	}
	if *iters != "" {
		plan.Iters = strings.Split(*iters, ",")
	}
	n, err := generator.WritePlan(*out, plan, *format, *gz)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d archives and perfpages.toml into %s; build with: perfpages build -config %s/perfpages.toml\n", n, *out, *out)
	return nil
}
