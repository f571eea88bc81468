package main

import (
	"context"
	"fmt"
	"io"

	"github.com/perfpages/perfpages/generator"
)

func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", stderr)
	size := fs.String("size", "demo", "data set: demo (the embedded demo), S (100 artifacts × 200 series), M (1,000 × 2,000) or L (5,000 × 10,000)")
	out := fs.String("out", "", "folder to write results/ and perfpages.toml into (required)")
	format := fs.String("format", "", "archive format: json, yaml or toml (default: a mix, as the demo)")
	gz := fs.Bool("gzip", false, "gzip the archives (with -format)")
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
	n, err := generator.WriteDemo(*out, *size, *format, *gz)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d archives and perfpages.toml into %s; build with: perfpages build -config %s/perfpages.toml\n", n, *out, *out)
	return nil
}
