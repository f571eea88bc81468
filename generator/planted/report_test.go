package planted

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
)

// TestPlantedReport prints the planted-truth report: for both shapes and
// the models the site offers, the headline verdict of every main-line
// commit's rows against the truth and the step detection of
// /regressions/. It measures; it asserts nothing about the numbers (its
// README records them, before and after the verdicts' redesign). It is
// heavy, so it runs only when asked:
//
//	PLANTED_REPORT=1 go test -run TestPlantedReport -v ./generator/planted
//
// PLANTED_STEADY=1 lays the suites over the corpus with the noise's own
// level moves taken out (Corpus.Steady).
//
// PLANTED_REPORT=memory scores in-memory datasets (model.Builder)
// instead of whole sites loaded from archives (the default: the path
// `perfpages build` takes); PLANTED_SEED, PLANTED_SERIES and
// PLANTED_COMMITS change the suite.
func TestPlantedReport(t *testing.T) {
	mode := os.Getenv("PLANTED_REPORT")
	if mode == "" {
		t.Skip("set PLANTED_REPORT=1 (or =memory) to print the planted-truth report")
	}
	o := DefaultOptions
	envInt(t, "PLANTED_SEED", func(v int) { o.Seed = uint64(v) })
	envInt(t, "PLANTED_SERIES", func(v int) { o.Series = v })
	envInt(t, "PLANTED_COMMITS", func(v int) { o.Commits = v })
	o.Steady = os.Getenv("PLANTED_STEADY") != ""
	var b strings.Builder
	var heads []Labeled[*HeadlineScore]
	var stepRows []Labeled[*StepScore]
	fmt.Fprintf(&b, "planted-truth report (seed %d, %d series × %d commits, steps of %v noise widths, %s datasets%s)\n\n", o.Seed, o.Series, o.Commits, o.Ks, map[bool]string{true: "in-memory", false: "whole-site"}[mode == "memory"], map[bool]string{true: ", the noise's own level moves taken out"}[o.Steady])
	for _, shape := range []Shape{Values, Samples} {
		o.Shape = shape
		s := suiteFor(t, o)
		fmt.Fprintf(&b, "## shape %s: %s\n\n", shape, describe(s))
		var steps []analysis.Step
		for _, sigModel := range []string{"", analysis.ModelRustcPerf} {
			start := time.Now()
			var d *model.Dataset
			cfg := parseConfig(t, sigModel)
			if mode == "memory" {
				d = inMemory(s, cfg)
			} else {
				d, cfg = wholeSite(t, s, sigModel)
			}
			comps := consecutive(d, cfg)
			h := ScoreHeadline(s, d, comps, Headline, noiseSteps(s, d))
			used := comps[0].Options.Model // the model the comparisons used, defaults filled in
			WriteHeadline(&b, fmt.Sprintf("headline, model %s", used), h)
			heads = append(heads, Labeled[*HeadlineScore]{string(shape), used, h})
			if steps == nil {
				steps = detectSteps(d)
				sc := ScoreSteps(s, d, steps, DefaultTolerance, noiseSteps(s, d))
				WriteSteps(&b, "steps (/regressions/)", sc)
				stepRows = append(stepRows, Labeled[*StepScore]{string(shape), "", sc})
			}
			fmt.Fprintf(&b, "  (%v)\n", time.Since(start).Round(time.Millisecond))
		}
		b.WriteString("\n")
	}
	b.WriteString("## steps the detector finds in the corpus noise alone (no plants)\n\n")
	writeNoiseSteps(t, &b, o.Steady)
	b.WriteString("\n## headline (every main-line commit's rows against its parent)\n\n")
	WriteHeadlineTable(&b, heads, o.Ks)
	b.WriteString("\n## step detection (/regressions/, tolerance ±2 commits)\n\n")
	WriteStepsTable(&b, stepRows, o.Ks)
	t.Log("\n" + b.String())
}

// writeNoiseSteps runs the site's step detection over every corpus series
// as it is (values, then sample medians), nothing planted: what it finds
// is steps the corpus still holds (real ones corpus.py kept, or level
// shifts of two-level noise), each a false detection in a suite.
func writeNoiseSteps(t *testing.T, w io.Writer, steady bool) {
	c, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if steady {
		c = c.Steady()
	}
	type count struct{ series, runs, steps int }
	by := map[string]*count{}
	var names []string
	for _, n := range c.Series {
		devs := n.Values
		if by[n.Source] == nil {
			by[n.Source] = &count{}
			names = append(names, n.Source)
		}
		vals := make([]float64, len(devs))
		for i, x := range devs {
			vals[i] = 1000 * (1 + x)
		}
		found, _ := changepoint.Detect(changepoint.Series{Values: vals, Seed: criterion.Seed(n.Source + "/" + n.Name)}, changepoint.DefaultOptions, nil)
		ct := by[n.Source]
		ct.series++
		ct.runs += len(vals)
		ct.steps += len(found)
	}
	fmt.Fprintln(w, "| corpus file | series | runs | steps found | per 1,000 runs |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, name := range names {
		ct := by[name]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %.1f |\n", name, ct.series, ct.runs, ct.steps, 1000*ratio(ct.steps, ct.runs))
	}
}

// noiseSteps are, by benchmark, the main-line positions of the steps the
// site's detector finds in each series' values without the plants (with
// the seed the site would use for the series).
func noiseSteps(s *Suite, d *model.Dataset) map[string][]int {
	t := s.truth()
	out := map[string][]int{}
	for _, sr := range d.Series {
		ps := t.of(d, sr)
		if ps == nil {
			continue
		}
		found, _ := changepoint.Detect(changepoint.Series{Values: ps.Unplanted(), Seed: criterion.Seed(sr.Key.String())}, changepoint.DefaultOptions, nil)
		for _, st := range found {
			out[ps.Benchmark] = append(out[ps.Benchmark], st.Index)
		}
	}
	return out
}

// describe says what a suite holds.
func describe(s *Suite) string {
	srcs := map[string]int{}
	events := map[Kind]int{}
	for _, ps := range s.Series {
		srcs[ps.Noise.Source]++
		for _, e := range ps.Events {
			events[e.Kind]++
		}
	}
	return fmt.Sprintf("%d series (noise from %v), %d steps, %d spikes, %d drifts", len(s.Series), srcs, events[Step], events[Spike], events[Drift])
}

func envInt(t *testing.T, name string, set func(int)) {
	if v := os.Getenv(name); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err != nil {
			t.Fatalf("%s=%q: %v", name, v, err)
		}
		set(n)
	}
}
