package generator

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/demo"
	"github.com/perfpages/perfpages/generator/report"
)

// The analysis benchmarks run on the harness's data sets (demo.PlanFor's
// sizes, as `perfpages demo -size` writes them): S is 100 artifacts × 200
// series, M 1,000 × 2,000, 5 samples per result. The runs go straight into
// the dataset builder, so these measure analysis and reporting, not archive
// decoding (BenchmarkLoad measures that).
var (
	datasetsMu sync.Mutex
	datasets   = map[string]*model.Dataset{}
)

func dataset(b *testing.B, size string) *model.Dataset {
	return datasetWith(b, size, 0, nil)
}

// datasetWith is dataset with samples per result (0: the plan's 5) and the
// plan's Iters selectors.
func datasetWith(b *testing.B, size string, samples int, iters []string) *model.Dataset {
	b.Helper()
	datasetsMu.Lock()
	defer datasetsMu.Unlock()
	key := fmt.Sprint(size, samples, iters)
	if d, ok := datasets[key]; ok {
		return d
	}
	plan, err := demo.PlanFor(size)
	if err != nil {
		b.Fatal(err)
	}
	if samples > 0 {
		plan.Samples = samples
	}
	plan.Iters = iters
	builder := model.NewBuilder(model.BuildOptions{})
	if err := plan.Generate(func(r model.Run) error { builder.Add(size, r); return nil }); err != nil {
		b.Fatal(err)
	}
	d := builder.Dataset()
	datasets[key] = d
	return d
}

// BenchmarkCompare is `perfpages compare` on the newest main-line pair:
// one comparison with history lookups for every series.
func BenchmarkCompare(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			d := dataset(b, size)
			head := d.MainLine[len(d.MainLine)-1]
			base, _ := d.Previous(head)
			var buf bytes.Buffer
			b.ResetTimer()
			for b.Loop() {
				c := analysis.Compare(d, base, head, analysis.DefaultOptions)
				buf.Reset()
				if err := report.WriteJSON(&buf, report.NewCompareJSON(d, c, "")); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(d.Series)), "series")
		})
	}
}

// BenchmarkTriage is `perfpages triage` on the week of the dataset's
// median commit, Markdown included.
func BenchmarkTriage(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			d := dataset(b, size)
			monday := analysis.WeekStart(d.Artifacts[d.MainLine[len(d.MainLine)/2]].Date)
			var buf bytes.Buffer
			comparisons := 0
			b.ResetTimer()
			for b.Loop() {
				r := analysis.TriageWatch(d, analysis.NewComparer(d, analysis.DefaultOptions), analysis.WeekOf(d, monday), analysis.DefinitelyRelevantFilter, "", analysis.DefaultWatchOptions)
				comparisons = r.Compared
				buf.Reset()
				if err := report.WriteTriageMarkdown(&buf, d, r, report.Links{}, ""); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(comparisons), "comparisons")
		})
	}
}

// BenchmarkEveryCommit computes what the site needs: every main-line
// commit against its predecessor, on one core. The cost per comparison and
// series ("ns/series-cmp") must stay flat from S to M: O(series × history
// window), not growing with the length of the history.
//
// The variants separate the engines' costs: "summary" is rustc-perf's
// model alone (what triage reports and dashboard lists compute);
// "samples=1" adds the lookback z-score (no samples to test, no budget);
// "samples=5" adds the Mann–Whitney U test of the samples; "budget" adds a
// budget on every metric.
func BenchmarkEveryCommit(b *testing.B) {
	withBudgets := analysis.DefaultOptions
	withBudgets.Budgets = map[string]budget.Budget{}
	for _, m := range []string{"instructions:u", "wall-time", "max-rss", "throughput"} {
		withBudgets.Budgets[m] = budget.New(0.2, 0.9, "")
	}
	for _, size := range []string{"S", "M"} {
		for _, v := range []struct {
			name    string
			samples int
			summary bool
			opts    analysis.Options
		}{
			{"summary", 5, true, analysis.DefaultOptions},
			{"samples=1", 1, false, analysis.DefaultOptions},
			{"samples=5", 5, false, analysis.DefaultOptions},
			{"samples=5+budget", 5, false, withBudgets},
		} {
			b.Run(size+"/"+v.name, func(b *testing.B) {
				d := datasetWith(b, size, v.samples, nil)
				b.ResetTimer()
				start := time.Now()
				n := 0
				for b.Loop() {
					c := analysis.NewComparer(d, v.opts)
					for _, a := range d.MainLine {
						if prev, ok := d.Previous(a); ok {
							if v.summary {
								c.Summary(prev, a)
							} else {
								c.Compare(prev, a)
							}
							n++
						}
					}
				}
				elapsed := time.Since(start)
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n*len(d.Series)), "ns/series-cmp")
			})
		}
	}
}

// BenchmarkEveryCommitConsecutive is BenchmarkEveryCommit through
// Comparer.Consecutive, 32 main-line positions per call as a site builds
// its commit pages, on one core (GOMAXPROCS 1: Consecutive is parallel
// over series otherwise). A site summarizes pairs one by one (Summary), so
// there is no "summary" variant here; analysis's own benchmarks compare
// the two ways.
func BenchmarkEveryCommitConsecutive(b *testing.B) {
	withBudgets := analysis.DefaultOptions
	withBudgets.Budgets = map[string]budget.Budget{}
	for _, m := range []string{"instructions:u", "wall-time", "max-rss", "throughput"} {
		withBudgets.Budgets[m] = budget.New(0.2, 0.9, "")
	}
	for _, size := range []string{"S", "M"} {
		for _, v := range []struct {
			name    string
			samples int
			opts    analysis.Options
		}{
			{"samples=1", 1, analysis.DefaultOptions},
			{"samples=5", 5, analysis.DefaultOptions},
			{"samples=5+budget", 5, withBudgets},
		} {
			b.Run(size+"/"+v.name, func(b *testing.B) {
				d := datasetWith(b, size, v.samples, nil)
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
				b.ResetTimer()
				start := time.Now()
				n := 0
				for b.Loop() {
					c := analysis.NewComparer(d, v.opts)
					for p := 1; p < len(d.MainLine); p += 32 {
						n += len(c.Consecutive(p, p+32))
					}
				}
				elapsed := time.Since(start)
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n*len(d.Series)), "ns/series-cmp")
			})
		}
	}
}

// BenchmarkCriterionTestCase is the cost of Criterion's comparison of one
// test case at the default 100 000 resamples, on one core: a commit page
// pays it for every series whose results carry iteration counts, once
// ever thanks to the analysis cache. The samples are the demo generator's,
// with Criterion's linear iteration counts on bench-0000's wall time; the
// comparison of the S data set's other series is included in ns/op, not in
// ms/criterion-case.
func BenchmarkCriterionTestCase(b *testing.B) {
	for _, samples := range []int{5, 10, 100} {
		b.Run(fmt.Sprintf("samples=%d", samples), func(b *testing.B) {
			d := datasetWith(b, "S", samples, []string{"bench-0000"})
			head := d.MainLine[len(d.MainLine)-1]
			base, _ := d.Previous(head)
			cases := 0
			start := time.Now()
			for b.Loop() {
				// A new comparer each time: no cached bootstrap.
				c := analysis.NewComparer(d, analysis.DefaultOptions)
				cases = 0
				for _, r := range c.Compare(base, head).Rows {
					if r.Test.Method == analysis.MethodCriterion {
						cases++
					}
				}
			}
			if cases == 0 {
				b.Fatal("no test case with iteration counts")
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N*cases), "ms/criterion-case")
			b.ReportMetric(float64(cases), "criterion-cases")
		})
	}
}

// BenchmarkLoad decodes the S data set's archives (JSON) and builds the
// dataset: the source side of a build.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	if _, err := writeDemo(dir, "S", "json", false); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dir + "/perfpages.toml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := s.Load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// writeDemo writes the predefined demo plan size under dir (WritePlan).
func writeDemo(dir, size, format string, gz bool) (int, error) {
	plan, err := demo.PlanFor(size)
	if err != nil {
		return 0, err
	}
	return WritePlan(dir, plan, format, gz)
}
