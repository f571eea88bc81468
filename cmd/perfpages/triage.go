package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/report"
)

func cmdTriage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("triage", stderr)
	site := addSiteFlags(fs, false)
	week := fs.String("week", "", "the week's Monday, yyyy-mm-dd (required)")
	format := fs.String("format", "markdown", "output format: markdown or json")
	filter := fs.String("filter", "", "keep comparisons that are definitely-relevant, probably-relevant or deserves-attention (default: the config's triage.filter)")
	metric := fs.String("metric", "", "only this metric (default: every metric)")
	model := fs.String("model", "", "significance model: perfpages, rustc-perf or rustc-perf-2021 (default: the config's)")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	if *week == "" {
		return fmt.Errorf("triage: -week is required (a Monday, e.g. -week 2026-09-14)")
	}
	monday, err := analysis.ParseWeek(*week)
	if err != nil {
		return fmt.Errorf("triage: %w", err)
	}
	if *format != "markdown" && *format != "json" {
		return fmt.Errorf("triage: -format %q: want markdown or json", *format)
	}
	env, err := load(ctx, site, *model, stderr)
	if err != nil {
		return err
	}
	f := analysis.TriageFilter(env.site.Config.Triage.Filter).OrDefault()
	if *filter != "" {
		f = analysis.TriageFilter(*filter)
		if !f.Valid() {
			return fmt.Errorf("triage: -filter %q: want definitely-relevant, probably-relevant or deserves-attention", *filter)
		}
	}
	w := analysis.WeekOf(env.d, monday)
	r := analysis.TriageWatch(env.d, env.res, w, f, *metric, env.site.Config.Triage.Watch())
	// The week's steps, detected over the whole history as a build does.
	steps := env.res.Steps()
	if *metric != "" {
		steps = slices.DeleteFunc(steps, func(st analysis.Step) bool { return env.d.Series[st.Series].Key.Metric != *metric })
	}
	r.Steps = analysis.WeekSteps(env.d, w, steps)
	if *format == "json" {
		return report.WriteJSON(stdout, report.NewTriageJSON(env.d, r, env.links))
	}
	return report.WriteTriageMarkdown(stdout, env.d, r, env.links, env.site.TriageNotes(*week))
}
