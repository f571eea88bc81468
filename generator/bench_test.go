package generator

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/demo"
	"github.com/perfpages/perfpages/generator/report"
)

// The analysis benchmarks run on the harness's data sets (SPEC §9): S is
// 100 artifacts × 200 series, M 1,000 × 2,000, 5 samples per result. The
// runs go straight into the dataset builder, so these measure analysis and
// reporting, not archive decoding (BenchmarkLoad measures that).
var (
	datasetsMu sync.Mutex
	datasets   = map[string]*analysis.Dataset{}
)

func dataset(b *testing.B, size string) *analysis.Dataset {
	b.Helper()
	datasetsMu.Lock()
	defer datasetsMu.Unlock()
	if d, ok := datasets[size]; ok {
		return d
	}
	plan, err := demo.PlanFor(size)
	if err != nil {
		b.Fatal(err)
	}
	builder := analysis.NewBuilder(analysis.BuildOptions{})
	if err := plan.Generate(func(r analysis.Run) error { builder.Add(size, r); return nil }); err != nil {
		b.Fatal(err)
	}
	d := builder.Dataset()
	datasets[size] = d
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
				r := analysis.Triage(d, analysis.NewComparer(d, analysis.DefaultOptions), analysis.WeekOf(d, monday), analysis.DefinitelyRelevantFilter, "")
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
// commit against its predecessor. The cost per comparison and series
// ("ns/series-cmp") must stay flat from S to M: O(series × history window),
// not growing with the length of the history.
func BenchmarkEveryCommit(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			d := dataset(b, size)
			b.ResetTimer()
			start := time.Now()
			n := 0
			for b.Loop() {
				c := analysis.NewComparer(d, analysis.DefaultOptions)
				for _, a := range d.MainLine {
					if prev, ok := d.Previous(a); ok {
						c.Compare(prev, a)
						n++
					}
				}
			}
			elapsed := time.Since(start)
			b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n*len(d.Series)), "ns/series-cmp")
		})
	}
}

// BenchmarkLoad decodes the S data set's archives (JSON) and builds the
// dataset: the source side of a build.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	if _, err := WriteDemo(dir, "S", "json", false); err != nil {
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
