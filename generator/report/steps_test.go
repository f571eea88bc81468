package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

func TestFormatStepChange(t *testing.T) {
	for _, tt := range []struct {
		c    float64
		want string
	}{{0.015, "+1.50%"}, {-0.2, "-20.00%"}, {math.Inf(1), "new"}, {math.Inf(-1), "new"}} {
		if got := FormatStepChange(tt.c); got != tt.want {
			t.Errorf("FormatStepChange(%v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// stepLinksDataset is four main-line commits; the series has no value at
// the third.
func stepLinksDataset(t *testing.T) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	ids := []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40)}
	for i, id := range ids {
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Branch: "main"}
		if i > 0 {
			a.Parents = []string{ids[i-1]}
		}
		r := model.Result{Case: model.TestCase{Benchmark: "alloc"}, Metric: "alloc", Unit: "B/op", Samples: []float64{0}}
		if i >= 3 {
			r.Samples = []float64{4096}
		}
		if i == 2 {
			r = model.Result{Case: model.TestCase{Benchmark: "alloc"}, Metric: "alloc", Unit: "B/op", Error: "exit status 2"}
		}
		b.Add(id, model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{r}})
	}
	return b.Dataset()
}

// A step's comparison is its artifact's commit page when the last value
// before it is the predecessor's, else the compare form with the pair;
// its JSON has no NaN or infinity: null, from_zero.
func TestStepLinksAndJSON(t *testing.T) {
	d := stepLinksDataset(t)
	links := Links{Site: "https://x.github.io/bench/", Repository: "https://github.com/o/p"}
	gap := analysis.Step{Step: changepoint.Step{Index: 3, Prev: 1, Before: 0, After: 4096, Change: math.Inf(1), P: math.NaN()},
		Artifact: d.MainLine[3], Last: d.MainLine[1], Regression: true}
	if got, want := links.StepCompare(d, gap), "https://x.github.io/bench/compare/?base="+strings.Repeat("b", 40)+"&head="+strings.Repeat("d", 40); got != want {
		t.Errorf("StepCompare across a gap = %s, want %s", got, want)
	}
	next := gap
	next.Prev, next.Last = 2, d.MainLine[2]
	if got, want := links.StepCompare(d, next), "https://x.github.io/bench/commit/"+strings.Repeat("d", 40)+"/"; got != want {
		t.Errorf("StepCompare of consecutive commits = %s, want %s", got, want)
	}
	b, err := json.Marshal(NewStepJSON(d, gap, links))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"before":0,`, `"after":4096,`, `"change":null,"from_zero":true,"regression":true,"p_value":null`,
		`"candidates":["` + strings.Repeat("c", 40) + `","` + strings.Repeat("d", 40) + `"]`,
		`"repository_url":"https://github.com/o/p/compare/` + strings.Repeat("b", 40) + `...` + strings.Repeat("d", 40) + `"`, `"acknowledged":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("step JSON lacks %s:\n%s", want, b)
		}
	}
}
