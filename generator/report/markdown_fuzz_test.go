package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/inert"
	"github.com/perfpages/perfpages/internal/mdtext"
	"github.com/perfpages/perfpages/internal/mdtext/mdtest"
)

// hostile are the strings of the data the Markdown writers print.
type hostile struct {
	Bench, ParamKey, ParamValue, Metric, Machine, Title, Error, BaseID string
}

// placeholders stand for each string in the clean document: plain words
// no writer prints on its own and that mdtext leaves alone.
var placeholders = hostile{
	Bench: "QCASEQ", Metric: "QMETRICQ", Machine: "QMACHINEQ", Title: "QTITLEQ", Error: "QERRORQ", BaseID: "QBASEQ",
}

var fuzzLinks = Links{Site: "https://x.github.io/bench/", Repository: "https://github.com/o/p"}

const headID = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// fuzzDataset is two main-line commits on one machine: "steady" regresses
// by 50 % in the metric (so every writer prints its tables), and the
// hostile test case fails in the head (so the failures are listed). Its
// five equal samples a side make the verdict the same whatever the
// metric's name: the samples' test decides (not the noise class a name
// such as "instructions" implies), and best and median are one value.
func fuzzDataset(h hostile) (*model.Dataset, model.TestCase) {
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 8, 3, 0, 0, 0, time.UTC) // a Tuesday
	tc := model.TestCase{Benchmark: h.Bench}
	if h.ParamKey != "" || h.ParamValue != "" {
		tc.Params = model.Params{{Key: h.ParamKey, Value: h.ParamValue}}
	}
	steady := model.TestCase{Benchmark: "steady"}
	b.Add("base", model.Run{
		Artifact: model.Artifact{ID: h.BaseID, Kind: model.KindCommit, Date: day, Branch: "main", Title: "base"},
		Machine:  model.Machine{Name: h.Machine},
		Results: []model.Result{
			{Case: steady, Metric: h.Metric, Unit: "ns", Direction: model.LowerIsBetter, Samples: []float64{100, 100, 100, 100, 100}},
			{Case: tc, Metric: h.Metric, Unit: "ns", Direction: model.LowerIsBetter, Samples: []float64{100}},
		},
	})
	b.Add("head", model.Run{
		Artifact: model.Artifact{ID: headID, Kind: model.KindCommit, Date: day.Add(time.Hour), Branch: "main", Parents: []string{h.BaseID}, PR: 7, Title: h.Title},
		Machine:  model.Machine{Name: h.Machine},
		Results: []model.Result{
			{Case: steady, Metric: h.Metric, Unit: "ns", Direction: model.LowerIsBetter, Samples: []float64{150, 150, 150, 150, 150}},
			{Case: tc, Metric: h.Metric, Unit: "ns", Direction: model.LowerIsBetter, Error: h.Error},
		},
	})
	return b.Dataset(), tc
}

// writeAll writes the PR comment and the triage report of the dataset of h.
func writeAll(t *testing.T, h hostile) (comment, triage []byte) {
	t.Helper()
	d, tc := fuzzDataset(h)
	base, ok1 := d.Index(h.BaseID)
	head, ok2 := d.Index(headID)
	if !ok1 || !ok2 {
		t.Fatalf("artifacts missing from %v", d.Artifacts)
	}
	c := analysis.Compare(d, base, head, analysis.DefaultOptions)
	var cm, tr bytes.Buffer
	if err := WriteMarkdown(&cm, d, c, "", fuzzLinks); err != nil {
		t.Fatal(err)
	}
	monday := analysis.WeekStart(d.Artifacts[head].Date)
	r := analysis.TriageWatch(d, analysis.NewComparer(d, analysis.DefaultOptions), analysis.WeekOf(d, monday), analysis.DefinitelyRelevantFilter, "", analysis.DefaultWatchOptions)
	// A step of the hostile test case at the head, so that the report's
	// "Steps" section prints its names too.
	for i, s := range d.Series {
		if s.Case.String() == tc.String() && d.MainPos(head) == 1 {
			r.Steps = []analysis.Step{{Series: i, Step: changepoint.Step{Index: 1, Prev: 0, Before: 100, After: 150, Change: 0.5, P: 0.001},
				Artifact: head, Last: base, Regression: true}}
			break
		}
	}
	if err := WriteTriageMarkdown(&tr, d, r, fuzzLinks, ""); err != nil {
		t.Fatal(err)
	}
	return cm.Bytes(), tr.Bytes()
}

// FuzzMarkdownWriters renders the PR comment (compare -format markdown)
// and the triage report of data whose names, title and error come from
// the fuzzer, reads them back with goldmark and GitHub's extensions, and
// checks that they have exactly the structure (headings, links, HTML,
// code spans, tables…) they have with plain names, show each string as
// mdtext promises, link only where the writer links and mention no one.
func FuzzMarkdownWriters(f *testing.F) {
	f.Add("json-decode", "size", "large", "wall-time", "linux-x64-1", "Speed up the parser (#1234)", "exit status 2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	pwned := "# Pwned [x](https://evil) ![i](https://evil/i.png) @admin <img src=x onerror=alert(1)>"
	f.Add(pwned, "p|[q](http://e)", "www.evil.com", "evil](https://evil) @team", "m @root <b>x</b>", "# Title [x](https://evil) @admin <script>", "boom <img src=x>\n# head @admin `tick`", "v1 [x](y) <b>")
	f.Add("- [ ] task", "1.", "`", "| a | b |", "    indented", "---", "a\\|b``", "@")
	f.Add("", "", "", "instructions:u", "\x00", "", "", "www.a.b")
	f.Add(bidiSeed.Bench, bidiSeed.ParamKey, bidiSeed.ParamValue, bidiSeed.Metric, bidiSeed.Machine, bidiSeed.Title, bidiSeed.Error, bidiSeed.BaseID)
	f.Fuzz(func(t *testing.T, bench, pkey, pval, metric, machine, title, errText, baseID string) {
		h := hostile{bench, pkey, pval, metric, machine, title, errText, baseID}
		if mdtext.Line(bench) == "" || mdtext.Line(metric) == "" || mdtext.Line(machine) == "" || mdtext.Line(errText) == "" ||
			mdtext.Line(baseID) == "" || baseID == headID {
			// Names the archive readers reject (an empty name or error).
			t.Skip()
		}
		d, tc := fuzzDataset(h)
		if len(d.Artifacts) != 2 {
			t.Skip()
		}
		base, _ := d.Index(baseID)
		short := d.Artifacts[base].Short()
		cm, tr := writeAll(t, h)
		clean := placeholders
		cleanCm, cleanTr := writeAll(t, clean)
		shownTitle := mdtest.Shown(title, false)
		if mdtext.Line(title) == "" {
			shownTitle = "<Unknown Change>"
		}
		want := map[string]string{
			"QCASEQ":    mdtest.Shown(tc.String(), true),
			"QMETRICQ":  mdtest.Shown(metric, false),
			"QMACHINEQ": mdtest.Shown(machine, false),
			"QTITLEQ":   shownTitle,
			"QERRORQ":   mdtest.Shown(errText, true),
		}
		prefixes := []string{fuzzLinks.Site, fuzzLinks.Repository + "/"}
		want["QBASEQ"] = mdtest.Shown(short, false)
		if p := mdtest.Check(cm, cleanCm, want, prefixes); p != "" {
			t.Errorf("compare -format markdown:\n%s\nMarkdown:\n%s", p, cm)
		}
		want["QBASEQ"] = mdtest.Shown(short8(baseID), false)
		if p := mdtest.Check(tr, cleanTr, want, prefixes); p != "" {
			t.Errorf("triage:\n%s\nMarkdown:\n%s", p, tr)
		}
	})
}

// TestMarkdownHostileNames pins what the PR comment makes of a hostile
// benchmark: escaped text, code spans, and links only to the site.
func TestMarkdownHostileNames(t *testing.T) {
	h := hostile{
		Bench:  "# Pwned [x](https://evil) ![i](https://evil/i.png) @admin <img src=x onerror=alert(1)>",
		Metric: "wall-time", Machine: "m @root", Title: "# Title [x](https://evil) @admin <script>",
		Error: "boom\n# head `tick`", BaseID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	}
	cm, tr := writeAll(t, h)
	for _, want := range []string{
		"> - `# Pwned [x](https://evil) ![i](https://evil/i.png) @admin <img src=x onerror=alert(1)>` wall-time on m @\u200Broot: `` boom\\n# head `tick` ``\n",
	} {
		if !strings.Contains(string(cm), want) {
			t.Errorf("missing %q in\n%s", want, cm)
		}
	}
	if want := "\\# Title \\[x\\](https\\://evil) @\u200Badmin \\<script\\> [#7](https://github.com/o/p/pull/7) [(Comparison Link)]"; !strings.Contains(string(tr), want) {
		t.Errorf("missing %q in\n%s", want, tr)
	}
}

// bidiSeed holds terminal escapes, forged log lines and bidirectional
// overrides in every string the writers print.
var bidiSeed = hostile{
	Bench: "evil\u202etxt.exe", ParamKey: "k\x1b[31m", ParamValue: "v\u2066x\u2069", Metric: "wall\u200f-time",
	Machine: "m\nperfpages: note: forged", Title: "t\x1b]0;pwned\x07\u202e", Error: "boom\r\n\u061c", BaseID: "a\u202eaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
}

// FuzzTextWriter: whatever the names, `compare -format text` prints lines
// with no control character (but the newline ending each line) and no
// bidirectional formatting character, and as many lines as with plain
// names: no name can forge a line or act on the terminal.
func FuzzTextWriter(f *testing.F) {
	f.Add("json-decode", "size", "large", "wall-time", "linux-x64-1", "Speed up the parser (#1234)", "exit status 2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
	f.Add(bidiSeed.Bench, bidiSeed.ParamKey, bidiSeed.ParamValue, bidiSeed.Metric, bidiSeed.Machine, bidiSeed.Title, bidiSeed.Error, bidiSeed.BaseID)
	f.Fuzz(func(t *testing.T, bench, pkey, pval, metric, machine, title, errText, baseID string) {
		if bench == "" || metric == "" || machine == "" || errText == "" || baseID == "" || baseID == headID {
			t.Skip() // names the archive readers reject
		}
		text := func(h hostile) string {
			d, _ := fuzzDataset(h)
			base, ok1 := d.Index(h.BaseID)
			head, ok2 := d.Index(headID)
			if !ok1 || !ok2 {
				t.Skip()
			}
			var b bytes.Buffer
			if err := WriteText(&b, d, analysis.Compare(d, base, head, analysis.DefaultOptions), "", fuzzLinks); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		out := text(hostile{bench, pkey, pval, metric, machine, title, errText, baseID})
		for i, r := range out {
			if r != '\n' && inert.Escaped(r) {
				t.Fatalf("%U at byte %d of\n%s", r, i, out)
			}
		}
		plain := text(hostile{"bench", pkey, pval, "metric", "machine", "title", "error", "cccccccccccccccccccccccccccccccccccccccc"})
		if pkey != "" || pval != "" {
			plain = text(hostile{"bench", "k", "v", "metric", "machine", "title", "error", "cccccccccccccccccccccccccccccccccccccccc"})
		}
		if got, want := strings.Count(out, "\n"), strings.Count(plain, "\n"); got != want {
			t.Fatalf("%d lines, %d with plain names:\n%s", got, want, out)
		}
	})
}
