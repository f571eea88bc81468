package planted

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator"
)

// TestHeadVerdicts reports, for real histories, what the headline said of
// each main-line commit when it was the newest — what the dashboard, the
// commit page and the PR comment showed that day — against what it says
// with the whole history (scripts/verdicts.sh runs it beside
// TestVerdicts):
//
//	PLANTED_VERDICTS=/path/to/perfpages.toml[:…] go test -run TestHeadVerdicts -v ./generator/planted
//
// For each cut (every main-line position from 30 on, at most 150 of them
// evenly spread) the dataset is cut after that commit (later main-line
// commits and everything off the main line dropped) and the commit is
// compared with its parent. A row the headline counted then is "kept"
// when the whole history still counts it, else "withdrawn" (a spike that
// came back, a change that did not stay).
func TestHeadVerdicts(t *testing.T) {
	var b strings.Builder
	forVerdictSites(t, func(path string, site *generator.Site, d *model.Dataset, _ []error) {
		opts := site.Config.CompareOptions()
		largeFromEnv(t, &opts)
		final := analysis.NewComparer(d, opts).Consecutive(0, len(d.MainLine))
		finalAt := map[int]*analysis.Comparison{}
		for _, c := range final {
			finalAt[d.MainPos(c.Head)] = c
		}
		var cuts, headFlagged, finalFlagged, headRows, kept, largeRows int
		n := len(d.MainLine)
		step := max(1, (n-30)/150)
		for k := 30; k < n; k += step {
			head := analysis.NewComparer(cut(d, k), opts).Consecutive(k, k+1)
			if len(head) != 1 {
				continue
			}
			cuts++
			fc := finalAt[k]
			if flaggedCommit(fc) {
				finalFlagged++
			}
			if !flaggedCommit(head[0]) {
				continue
			}
			headFlagged++
			for i := range head[0].Rows {
				r := &head[0].Rows[i]
				if !r.OK || !r.Relevant {
					continue
				}
				headRows++
				if r.Headline.Large {
					largeRows++
				}
				if fr := rowOf(fc, r.Series.Key); fr != nil && fr.Relevant {
					kept++
				} else if os.Getenv("PLANTED_HEAD_DETAIL") != "" {
					state := "no row"
					if fr != nil {
						state = fmt.Sprintf("%q %+.3f", fr.Headline.State, fr.Change)
					}
					fmt.Fprintf(&b, "  withdrawn: %s at %d: %+.3f (%.1f widths), with the whole history %s\n", r.Series.Key, k, r.Change, r.Headline.Widths, state)
				}
			}
		}
		fmt.Fprintf(&b, "%s: %d commits seen as the newest: %d (%.0f %%) flagged then, %d (%.0f %%) flagged with the whole history; "+
			"%d rows counted then (%d large), %d (%.0f %%) still counted with the whole history, %d withdrawn\n",
			path, cuts, headFlagged, pct(headFlagged, cuts), finalFlagged, pct(finalFlagged, cuts),
			headRows, largeRows, kept, pct(kept, headRows), headRows-kept)
	})
	t.Log("\n" + b.String())
}

// cut is d as it was when main-line position k was the newest: the main
// line up to k, each series' points of those commits only.
func cut(d *model.Dataset, k int) *model.Dataset {
	c := *d
	c.MainLine = d.MainLine[:k+1]
	c.Series = make([]*model.Series, 0, len(d.Series))
	for _, s := range d.Series {
		cs := *s
		cs.Points = nil
		for _, p := range s.Points {
			if pos := d.MainPos(int(p.Artifact)); pos >= 0 && pos <= k {
				cs.Points = append(cs.Points, p)
			}
		}
		if len(cs.Points) > 0 {
			c.Series = append(c.Series, &cs)
		}
	}
	return model.Assemble(c, d.Origins())
}

// flaggedCommit says the comparison has a row the headline counts.
func flaggedCommit(c *analysis.Comparison) bool {
	if c == nil {
		return false
	}
	for i := range c.Rows {
		if c.Rows[i].OK && c.Rows[i].Relevant {
			return true
		}
	}
	return false
}

// rowOf is c's row of the series with key k, or nil.
func rowOf(c *analysis.Comparison, k model.SeriesKey) *analysis.Row {
	if c == nil {
		return nil
	}
	for i := range c.Rows {
		if c.Rows[i].Series.Key == k {
			return &c.Rows[i]
		}
	}
	return nil
}

// largeFromEnv sets the headline's Large thresholds from PLANTED_LARGE
// ("widths,change", such as "20,0.5"), to measure others than the
// defaults.
func largeFromEnv(t *testing.T, o *analysis.Options) {
	v := os.Getenv("PLANTED_LARGE")
	if v == "" {
		return
	}
	z, c, ok := strings.Cut(v, ",")
	zf, err1 := strconv.ParseFloat(z, 64)
	cf, err2 := strconv.ParseFloat(c, 64)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("PLANTED_LARGE=%q: want widths,change", v)
	}
	o.Headline.LargeZ, o.Headline.LargeChange = zf, cf
}

// TestHeadPlanted scores the headline of each main-line commit of the
// planted suites as it was when the commit was the newest (cut), against
// the truth: what the dashboard and the commit page said that day. A
// flag is right at a planted step's commit in its direction; recall is
// of the planted steps at their commit, by size. Run with PLANTED_REPORT
// set (PLANTED_LARGE to try other Large thresholds).
func TestHeadPlanted(t *testing.T) {
	if os.Getenv("PLANTED_REPORT") == "" {
		t.Skip("set PLANTED_REPORT=1 to score the newest commits' headline on the planted suites")
	}
	o := DefaultOptions
	var b strings.Builder
	for _, shape := range []Shape{Values, Samples} {
		o.Shape = shape
		s := suiteFor(t, o)
		cfg := parseConfig(t, "")
		d := inMemory(s, cfg)
		opts := cfg.CompareOptions()
		largeFromEnv(t, &opts)
		tr := s.truth()
		var flagged, right, spikes, unchanged, unchangedFlagged int
		steps, found := map[float64]int{}, map[float64]int{}
		for k := 10; k < len(d.MainLine); k++ {
			head := analysis.NewComparer(cut(d, k), opts).Consecutive(k, k+1)
			if len(head) != 1 {
				continue
			}
			p := tr.pos[d.Artifacts[head[0].Head].ID]
			for i := range head[0].Rows {
				r := &head[0].Rows[i]
				ps := tr.of(d, r.Series)
				if ps == nil || !r.OK {
					continue
				}
				class, e := ps.ClassAt(p)
				ok := class == StepRow && (r.Change > 0) == e.Up
				if class == StepRow {
					steps[e.K]++
					if r.Relevant && ok {
						found[e.K]++
					}
				}
				if class == Unchanged {
					unchanged++
				}
				if !r.Relevant {
					continue
				}
				flagged++
				switch {
				case ok:
					right++
				case class == SpikeRow:
					spikes++
				case class == Unchanged:
					unchangedFlagged++
				}
			}
		}
		fmt.Fprintf(&b, "%s: %d rows flagged as the newest commit's, %d right (precision %.2f), %d at a spike, %d unchanged (%.1f per 1,000 unchanged rows); steps flagged at once by size:",
			shape, flagged, right, ratio(right, flagged), spikes, unchangedFlagged, 1000*ratio(unchangedFlagged, unchanged))
		for _, k := range ks(steps) {
			fmt.Fprintf(&b, " %g: %d/%d", k, found[k], steps[k])
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
}
