package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/report"
)

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	site := addSiteFlags(fs, false)
	format := fs.String("format", "text", "output format: text, json or markdown")
	metric := fs.String("metric", "", "only this metric (default: every metric)")
	model := fs.String("model", "", "significance model: perfpages, rustc-perf or rustc-perf-2021 (default: the config's)")
	if err := parse(fs, args, 2); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("compare: want BASE and HEAD, or HEAD")
	}
	if !slices.Contains([]string{"text", "json", "markdown"}, *format) {
		return fmt.Errorf("compare: -format %q: want text, json or markdown", *format)
	}
	env, err := load(ctx, site, *model, stderr)
	if err != nil {
		return err
	}
	d := env.d
	head, err := env.site.Resolve(ctx, d, fs.Arg(fs.NArg()-1))
	if err != nil {
		return fmt.Errorf("compare: head: %w", err)
	}
	var base int
	if fs.NArg() == 2 {
		if base, err = env.site.Resolve(ctx, d, fs.Arg(0)); err != nil {
			return fmt.Errorf("compare: base: %w", err)
		}
	} else if b, ok := d.PRBase(head); ok {
		base = b
	} else {
		return fmt.Errorf("compare: %s has no baseline with results; name one: perfpages compare BASE %s", fs.Arg(0), fs.Arg(0))
	}
	c := env.res.Compare(base, head)
	if *metric != "" {
		if _, ok := c.Metric(*metric); !ok {
			var names []string
			for _, m := range c.Metrics {
				names = append(names, m.Metric)
			}
			return fmt.Errorf("compare: no results for metric %q in this comparison (metrics: %s)", *metric, strings.Join(names, ", "))
		}
	}
	switch *format {
	case "json":
		return report.WriteJSON(stdout, report.NewCompareJSON(d, c, *metric))
	case "markdown":
		return report.WriteMarkdown(stdout, d, c, *metric, env.links)
	default:
		return report.WriteText(stdout, d, c, *metric, env.links)
	}
}

// env is what the analysis commands work on.
type env struct {
	site  *generator.Site
	d     *model.Dataset
	res   *analysis.Results // the analysis stage's value
	links report.Links
}

// load opens the site and loads its data, printing warnings to stderr.
func load(ctx context.Context, site *siteFlags, model string, stderr io.Writer) (*env, error) {
	s, err := site.open(stderr)
	if err != nil {
		return nil, err
	}
	if model != "" {
		// analysis's own rule, as for [analysis] model in the config.
		if err := (analysis.Options{Model: model}).Validate(); err != nil {
			return nil, fmt.Errorf("-model %q: want %s, %s or %s", model, analysis.ModelPerfpages, analysis.ModelRustcPerf, analysis.ModelRustcPerf2021)
		}
		s.Config.Analysis.Model = model
	}
	d, warnings, err := s.Load(ctx)
	for _, w := range warnings {
		say(stderr, "perfpages: warning: ", w)
	}
	if err != nil {
		return nil, err
	}
	return &env{site: s, d: d, res: s.Analyze(d), links: s.Links(d)}, nil
}
