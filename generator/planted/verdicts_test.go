package planted

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator"
)

// TestVerdicts reports, for real histories, how often the headline flags a
// main-line commit (scripts/verdicts.sh runs it):
//
//	PLANTED_VERDICTS=/path/to/perfpages.toml[:…] go test -run TestVerdicts -v ./generator/planted
//
// Each site is loaded as `perfpages build` loads it and every main-line
// commit is compared with its parent (the /commit/ pages), under the
// site's model and under model rustc-perf. It reports the share of commits
// with a relevant row, and with a definitely relevant metric (what the
// triage report keeps by default), the relevant rows by significance
// basis, the share of relevant rows whose series has fewer than
// Options.History values of history, and the share of relevant rows
// cancelled at the next commit: the series' row there is relevant too and
// goes the other way (a spike, or a two-level runner switching back).
func TestVerdicts(t *testing.T) {
	var b strings.Builder
	forVerdictSites(t, func(path string, site *generator.Site, d *model.Dataset, warnings []error) {
		fmt.Fprintf(&b, "## %s: %d main-line commits, %d series, %d warnings\n", path, len(d.MainLine), len(d.Series), len(warnings))
		for _, w := range warnings[:min(len(warnings), 3)] {
			fmt.Fprintf(&b, "  warning: %.300s\n", w)
		}
		for _, model := range []string{site.Config.Analysis.Model, analysis.ModelRustcPerf} {
			cfg := *site.Config
			cfg.Analysis.Model = model
			comps := analysis.NewComparer(d, cfg.CompareOptions()).Consecutive(0, len(d.MainLine))
			v := verdictsOf(d, comps)
			fmt.Fprintf(&b, "model %s: %s\n", comps[0].Options.Model, v)
		}
		b.WriteString("\n")
	})
	t.Log("\n" + b.String())
}

// forVerdictSites loads each site PLANTED_VERDICTS names (perfpages.toml
// paths, colon-separated) as `perfpages build` does and calls f with it;
// without the variable the test is skipped.
func forVerdictSites(t *testing.T, f func(path string, site *generator.Site, d *model.Dataset, warnings []error)) {
	paths := os.Getenv("PLANTED_VERDICTS")
	if paths == "" {
		t.Skip("set PLANTED_VERDICTS to perfpages.toml paths (colon-separated) to report their verdicts")
	}
	for _, path := range filepath.SplitList(paths) {
		site, err := generator.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		d, warnings, err := site.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		f(path, site, d, warnings)
	}
}

// verdictCounts are the counts TestVerdicts reports.
type verdictCounts struct {
	commits, flagged, definitely int
	rows, relevant, young        int
	youngRows                    int
	cancelled                    int
	byBasis                      map[string]int
}

func verdictsOf(d *model.Dataset, comps []*analysis.Comparison) verdictCounts {
	v := verdictCounts{byBasis: map[string]int{}}
	// last[series] is the previous comparison's relevant row of the series:
	// its position in comps and whether it went up.
	type flag struct {
		k  int
		up bool
	}
	last := map[*model.Series]flag{}
	for k, c := range comps {
		v.commits++
		any := false
		for _, m := range c.Metrics {
			if m.DefinitelyRelevant && m.Direction != analysis.DirectionNone {
				v.definitely++
				break
			}
		}
		for i := range c.Rows {
			r := &c.Rows[i]
			if !r.OK {
				continue
			}
			v.rows++
			young := r.History < c.Options.History
			if young {
				v.youngRows++
			}
			if !r.Relevant {
				continue
			}
			any = true
			v.relevant++
			v.byBasis[string(r.Basis)]++
			if young {
				v.young++
			}
			up := r.Change > 0
			if f, ok := last[r.Series]; ok && f.k == k-1 && f.up != up {
				v.cancelled++ // the previous commit's flag is undone by this one
			}
			last[r.Series] = flag{k, up}
		}
		if any {
			v.flagged++
		}
	}
	return v
}

func (v verdictCounts) String() string {
	var bases []string
	for b, n := range v.byBasis {
		bases = append(bases, fmt.Sprintf("%s %d", b, n))
	}
	slices.Sort(bases)
	return fmt.Sprintf("%d of %d commits (%.0f %%) have a relevant row, %d (%.0f %%) a definitely relevant metric; "+
		"%d of %d rows relevant (%.1f %%); %d of the relevant rows (%.0f %%) on young series (%.0f %% of all rows are young); "+
		"%d relevant rows (%.0f %%) are undone by an opposite relevant row of their series at the next commit; by basis: %s",
		v.flagged, v.commits, pct(v.flagged, v.commits), v.definitely, pct(v.definitely, v.commits),
		v.relevant, v.rows, pct(v.relevant, v.rows), v.young, pct(v.young, v.relevant), pct(v.youngRows, v.rows),
		v.cancelled, pct(v.cancelled, v.relevant), strings.Join(bases, ", "))
}

func pct(a, b int) float64 { return 100 * ratio(a, b) }
