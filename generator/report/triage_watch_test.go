package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// TestNeedsLookCapped: with a limit of 1, what the cap leaves out is
// counted and linked, in the Markdown ("and 2 more on its page", "And 1
// more: 1 on #138") and in the JSON (total, large_total, more).
func TestNeedsLookCapped(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	start := time.Date(2026, 8, 3, 12, 0, 0, 0, time.UTC)
	prev := ""
	for i := range 40 {
		id := fmt.Sprintf("%040x", i+1)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 100 + i, Title: fmt.Sprintf("Change %d", i)}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		var results []model.Result
		for k, name := range []string{"a", "b", "c1", "c2", "c3", "d"} {
			// A noisy history (±4 %), so that a 30 % jump is only medium
			// and its comparison not definitely relevant.
			v := 1000 * (1 + 0.04*float64((i*7+k)%3-1))
			if (i >= 36 && name == "b") || (i >= 38 && name == "d") {
				v *= 1.3
			}
			r := model.Result{Case: model.TestCase{Benchmark: name}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}}
			if strings.HasPrefix(name, "c") && i == 37 {
				r.Samples, r.Error = nil, "exit status 2"
			}
			results = append(results, r)
		}
		b.Add("test", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: results})
	}
	d := b.Dataset()
	c := analysis.NewComparer(d, rustcPerf) // a pair decides: no need of later values
	w := analysis.WeekOf(d, time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC))
	r := analysis.TriageWatch(d, c, w, analysis.DefinitelyRelevantFilter, "", analysis.WatchOptions{LargeChange: 0.05, Limit: 1})
	if kept := len(r.Regressions) + len(r.Improvements) + len(r.Mixed); kept != 0 {
		t.Fatalf("%d comparisons kept, want none", kept)
	}
	var buf bytes.Buffer
	if err := WriteTriageMarkdown(&buf, d, r, Links{}, ""); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"**New failures** (3):",
		"/commit/" + d.Artifacts[d.MainLine[37]].ID + "/): 3 started failing\n  - `c1` wall-time on m: `exit status 2`\n  - and 2 more on [its page](/commit/" + d.Artifacts[d.MainLine[37]].ID + "/)\n",
		"**Fixed** (3):",
		"**Large changes** (2):",
		"| +35.42% | [`b`](/commit/" + d.Artifacts[d.MainLine[36]].ID + "/#row-",
		"\nAnd 1 more: 1 on [#138](/commit/" + d.Artifacts[d.MainLine[38]].ID + "/).\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	j := NewTriageJSON(d, r, Links{})
	n := j.NeedsLook
	if n == nil || len(n.NewFailures) != 1 || n.NewFailures[0].Total != 3 || len(n.NewFailures[0].Results) != 1 ||
		n.LargeTotal != 2 || len(n.LargeChanges) != 1 || len(n.More) != 1 || n.Limit != 1 {
		t.Errorf("JSON needs a look = %+v, want 3 failures (1 listed), 2 large changes (1 listed, 1 more)", n)
	}
}
