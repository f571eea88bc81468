package generator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/foreign"
)

// realToolsDir holds the real tools' outputs of the agreement suite; its
// README says how they were made.
var realToolsDir = filepath.Join("..", "testdata", "realtools")

// agreementPair is one entry of testdata/realtools/expectations.json: a
// test case × metric measured by a tool on a base and a head, with the
// tool's own verdict.
type agreementPair struct {
	Tool      string `json:"tool"`
	Format    string `json:"format"`
	Base      string `json:"base"`
	Head      string `json:"head"`
	Benchmark string `json:"benchmark"`
	Metric    string `json:"metric"`
	Design    string `json:"design"`
	ToolSays  string `json:"tool_says"`
	// Direction is "regression", "improvement" or "none".
	Direction   string `json:"direction"`
	Significant bool   `json:"significant"`
}

// The two artifacts of every pair: the base is the head's only ancestor,
// so the history is short (fewer than 30 values) and rustc-perf's
// threshold is the default one.
var (
	agreementBase = model.Artifact{ID: strings.Repeat("a", 40), Kind: model.KindCommit, Branch: "main",
		Date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	agreementHead = model.Artifact{ID: strings.Repeat("b", 40), Kind: model.KindCommit, Branch: "main",
		Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Parents: []string{strings.Repeat("a", 40)}}
)

// TestAgreementWithRealTools checks perfpages' samples test (the row's
// Mann–Whitney or Criterion column) against the tools' own verdicts on
// real runs of Go (benchstat), Criterion.rs, Google Benchmark,
// pytest-benchmark and hyperfine (testdata/realtools):
// every pair's base and head are read with the foreign readers, built into
// a dataset with the default configuration where the base is the head's
// only ancestor, and compared with the default options. perfpages'
// direction is the row's when its test is significant, else none; it must
// match the tool's direction, and the test's significance the tool's.
//
// The headline of such a pair is "not enough history": the tools judge
// by the samples of one run each, which cannot see the run-to-run noise
// (hyperfine's "same" program is 52 % faster, p < 0.001, on the second
// run), and model perfpages does not let them decide. Run with -v for the
// agreement table.
func TestAgreementWithRealTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(realToolsDir, "expectations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp struct{ Pairs []agreementPair }
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatalf("expectations.json: %v", err)
	}
	if len(exp.Pairs) < 20 {
		t.Fatalf("expectations.json has %d pairs, want at least 20", len(exp.Pairs))
	}

	cfg := config.Default()
	comparisons := map[[3]string]map[[2]string]*analysis.Row{}
	var tab strings.Builder
	w := tabwriter.NewWriter(&tab, 0, 0, 1, ' ', 0)
	fmt.Fprintln(w, "tool\tbenchmark\tmetric\tdesign\ttool says\ttool\tperfpages\tchange\tthreshold\ttest p\trelevant\tagree")
	var disagree []string
	for _, p := range exp.Pairs {
		k := [3]string{p.Format, p.Base, p.Head}
		rows, ok := comparisons[k]
		if !ok {
			rows = compareRealPair(t, cfg, p.Format, p.Base, p.Head)
			comparisons[k] = rows
		}
		want := verdictString(p.Direction, p.Significant)
		r := rows[[2]string{p.Benchmark, p.Metric}]
		got, change, threshold, testP, relevant := "missing", "", "", "", ""
		if r != nil {
			if r.OK && (r.Significant || r.Relevant || r.Headline.State != analysis.StateYoung) {
				t.Errorf("%s %s %s: headline %q significant %v, want not enough history", p.Tool, p.Benchmark, p.Metric, r.Headline.State, r.Significant)
			}
			got = verdictString(rowDirection(r), r.Test.Significant)
			change, threshold, relevant = "n/a", "n/a", fmt.Sprint(r.Relevant)
			if r.OK {
				change = fmt.Sprintf("%+.2f%%", 100*r.Change)
				threshold = fmt.Sprintf("%.2f%%", 100*r.Threshold)
			} else if r.Note != "" {
				change = r.Note
			}
			if r.Test.OK {
				testP = fmt.Sprintf("%.3f %s", r.Test.P, r.Test.Method)
			}
		}
		agree := got == want
		if !agree {
			disagree = append(disagree, fmt.Sprintf("%s %s %s: tool %s, perfpages %s", p.Tool, p.Benchmark, p.Metric, want, got))
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Tool, p.Benchmark, p.Metric, p.Design, p.ToolSays,
			want, got, change, threshold, testP, relevant, yesNo(agree))
	}
	w.Flush()
	t.Logf("agreement with the tools' own verdicts, %d of %d pairs:\n%s", len(exp.Pairs)-len(disagree), len(exp.Pairs), tab.String())
	if len(disagree) == 0 {
		return
	}
	for _, d := range disagree {
		t.Error(d)
	}
}

// compareRealPair reads a base and a head result of one tool, builds the
// dataset as a site with the default configuration would, and compares
// them; it returns the rows by benchmark and metric.
func compareRealPair(t *testing.T, cfg *config.Config, format, base, head string) map[[2]string]*analysis.Row {
	t.Helper()
	b := model.NewBuilder(cfg.BuildOptions())
	for _, side := range []struct {
		path string
		art  model.Artifact
	}{{base, agreementBase}, {head, agreementHead}} {
		for _, r := range readRealRuns(t, format, filepath.Join(realToolsDir, filepath.FromSlash(side.path))) {
			// Some files record an artifact of their own (pytest-benchmark
			// the repository's commit): the pair's artifacts win.
			r.Artifact = side.art
			b.Add(side.path, r)
		}
	}
	d := b.Dataset()
	for _, err := range d.Warnings {
		t.Logf("%s: dataset: %v", format, err)
	}
	bi, ok1 := d.Index(agreementBase.ID)
	hi, ok2 := d.Index(agreementHead.ID)
	if !ok1 || !ok2 {
		t.Fatalf("%s: %s and %s: the dataset lacks the base or the head", format, base, head)
	}
	c := analysis.Compare(d, bi, hi, cfg.CompareOptions())
	for _, err := range c.Warnings {
		t.Logf("%s: comparison: %v", format, err)
	}
	rows := map[[2]string]*analysis.Row{}
	for i := range c.Rows {
		r := &c.Rows[i]
		k := [2]string{r.Series.Case.Benchmark, r.Series.Key.Metric}
		if rows[k] != nil {
			t.Fatalf("%s: two rows for %s %s", format, k[0], k[1])
		}
		rows[k] = r
	}
	return rows
}

// readRealRuns reads one tool's output file or folder; a problem the
// reader reports is logged, a fatal one fails the test.
func readRealRuns(t *testing.T, format, path string) []model.Run {
	t.Helper()
	in, err := foreign.ReadPath(path)
	if err != nil {
		t.Fatal(err)
	}
	_, runs, problems := foreign.Read(format, in, foreign.Defaults{Machine: model.Machine{Name: "realtools"}})
	for _, p := range problems {
		if p.Fatal {
			t.Fatalf("%s: %s cannot be read: %v", format, path, p)
		}
		t.Logf("%s: %v", format, p)
	}
	if len(runs) != 1 {
		t.Fatalf("%s: %s gave %d runs, want 1", format, path, len(runs))
	}
	return runs
}

// rowDirection is the direction of a row's samples test: the change's when
// the test is significant, else none. It does not look at OK: a change from a zero
// base has no relative change, but may still be significant.
func rowDirection(r *analysis.Row) string {
	switch {
	case !r.Test.Significant:
		return "none"
	case r.Regression:
		return "regression"
	default:
		return "improvement"
	}
}

// verdictString is a verdict as the table shows it.
func verdictString(direction string, significant bool) string {
	if !significant {
		return "none"
	}
	return direction + " (significant)"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}
