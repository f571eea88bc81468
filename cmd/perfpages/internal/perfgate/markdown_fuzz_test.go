package perfgate

import (
	"testing"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/generator/receipt"
	"github.com/perfpages/perfpages/internal/mdtext"
	"github.com/perfpages/perfpages/internal/mdtext/mdtest"
)

// commentReceipt is a warn verdict on one key, with a budget and a unit
// for it: every part of the comment that shows data.
func commentReceipt(bench, key string) *receipt.Compare {
	return &receipt.Compare{
		Bench:   receipt.Bench{Name: bench},
		Budgets: map[string]receipt.Budget{key: {Threshold: 0.2, WarnThreshold: 0.18, Direction: budget.Lower}},
		Deltas:  map[string]receipt.Delta{key: {Baseline: 100, Current: 119, Pct: 0.19, Regression: 0.19, Status: budget.Warn}},
		Verdict: receipt.Verdict{Status: budget.Warn, Reasons: []string{key + "_warn", "no_baseline"}},
	}
}

// FuzzCommentMarkdown renders the comment.md of `check` (with and without
// a baseline) from a bench name, a result key, a unit and a warning that
// come from the fuzzer, reads it back with goldmark and GitHub's
// extensions, and checks it against the comment of plain names: the same
// structure, the strings shown as mdtext promises, no @mention.
func FuzzCommentMarkdown(f *testing.F) {
	f.Add("fixture-bench", "json-decode{size=large}/wall-time", "ns", "no baseline found for bench 'x' at missing.json, skipping comparison")
	f.Add("# Pwned [x](https://evil) @admin <img src=x onerror=alert(1)>", "a|b`c`/wall-time", "<b>ms</b> @me", "- [ ] www.evil.com\n# h")
	f.Add("`", "\\|", "|", "1. x")
	f.Fuzz(func(t *testing.T, bench, key, unit, warning string) {
		if mdtext.Line(bench) == "" || mdtext.Line(key) == "" || mdtext.Line(unit) == "" || mdtext.Line(warning) == "" {
			t.Skip()
		}
		if _, ok := receipt.MetricByName(key); ok {
			t.Skip() // perfgate's own metrics bring their own unit
		}
		want := map[string]string{
			"QBENCHQ":    mdtest.Shown(bench, true),
			"QKEYQ":      mdtest.Shown(key, true),
			"QKEYQ_warn": mdtest.Shown(key+"_warn", false),
			"QUNITQ":     mdtest.Shown(unit, false),
			"QWARNINGQ":  mdtest.Shown(warning, false),
		}
		clean := markdown(commentReceipt("QBENCHQ", "QKEYQ"), map[string]string{"QKEYQ": "QUNITQ"})
		got := markdown(commentReceipt(bench, key), map[string]string{key: unit})
		if p := mdtest.Check([]byte(got), []byte(clean), want, nil); p != "" {
			t.Errorf("comment:\n%s\nMarkdown:\n%s", p, got)
		}
		clean = noBaselineMarkdown("QBENCHQ", []valueRow{{Metric: "QKEYQ", Value: "5", Unit: "QUNITQ"}}, []string{"QWARNINGQ"})
		got = noBaselineMarkdown(bench, []valueRow{{Metric: key, Value: "5", Unit: unit}}, []string{warning})
		if p := mdtest.Check([]byte(got), []byte(clean), want, nil); p != "" {
			t.Errorf("no-baseline comment:\n%s\nMarkdown:\n%s", p, got)
		}
	})
}
