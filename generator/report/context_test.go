package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

func TestContextKeys(t *testing.T) {
	series := func(bench, machine string, ctx ...string) *model.Series {
		m := map[string]string{}
		for i := 0; i+1 < len(ctx); i += 2 {
			m[ctx[i]] = ctx[i+1]
		}
		c := model.NewParams(m)
		return &model.Series{Key: model.SeriesKey{Benchmark: bench, Machine: machine, Metric: "wall-time", Context: c.String()}, Context: c}
	}
	rows := func(ss ...*model.Series) []*analysis.Row {
		var out []*analysis.Row
		for _, s := range ss {
			out = append(out, &analysis.Row{Series: s})
		}
		return out
	}
	tests := []struct {
		name string
		rows []*analysis.Row
		want []string
	}{
		{"no context", rows(series("a", "m"), series("b", "m")), nil},
		{"a context every series shares", rows(series("a", "m", "suite", "s"), series("b", "m", "suite", "s")), nil},
		{"contexts of different benchmarks", rows(series("a", "m", "suite", "x"), series("b", "m", "suite", "y")), nil},
		{"same case on two machines", rows(series("a", "m1", "python", "2.7"), series("a", "m2", "python", "3.4")), nil},
		{
			"python versions (asv)",
			rows(series("a", "m", "env", "py2.7", "python", "2.7", "tool", "asv"), series("a", "m", "env", "py3.4", "python", "3.4", "tool", "asv"), series("b", "m", "tool", "asv")),
			[]string{"env", "python"},
		},
		{"a key one of them lacks", rows(series("a", "m"), series("a", "m", "suite", "s")), []string{"suite"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ContextKeys(tt.rows)); diff != "" {
				t.Errorf("ContextKeys (-want +got):\n%s", diff)
			}
		})
	}
	if got := ContextLabel(series("a", "m"), []string{"suite"}); got != " [suite=-]" {
		t.Errorf("label of a missing key = %q", got)
	}
}

// TestWriteContext: series that differ only by context (asv's Python
// versions) show it in the text table, the failed list and the Markdown
// comment; the suite every series shares does not clutter them.
func TestWriteContext(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	for i, scale := range []float64{1, 1.5} {
		art := model.Artifact{ID: strings.Repeat(string(rune('a'+i)), 40), Kind: model.KindCommit, Date: day.AddDate(0, 0, i)}
		for _, py := range []string{"2.7", "3.4"} {
			res := []model.Result{
				{Case: model.TestCase{Benchmark: "time_parse"}, Metric: "wall-time", Unit: "s", Samples: []float64{0.01 * scale}},
				{Case: model.TestCase{Benchmark: "time_other"}, Metric: "wall-time", Unit: "s", Samples: []float64{0.02}},
			}
			if i == 1 && py == "3.4" {
				res[1] = model.Result{Case: res[1].Case, Metric: "wall-time", Unit: "s", Error: "asv recorded no result"}
			}
			b.Add("t", model.Run{Artifact: art, Machine: model.Machine{Name: "cheetah"},
				Context: model.Params{{Key: "python", Value: py}, {Key: "suite", Value: "asv"}}, Results: res})
		}
	}
	d := b.Dataset()
	c := analysis.Compare(d, 0, 1, rustcPerf)
	var buf bytes.Buffer
	if err := WriteText(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"time_parse [python=2.7]", "time_parse [python=3.4]", "  time_other [python=3.4] wall-time on cheetah: asv recorded no result\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "suite=") {
		t.Errorf("text shows the context every series shares:\n%s", text)
	}
	buf.Reset()
	if err := WriteMarkdown(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	if md, want := buf.String(), "> - `time_other [python=3.4]` wall-time on cheetah: `asv recorded no result`\n"; !strings.Contains(md, want) {
		t.Errorf("Markdown lacks %q:\n%s", want, md)
	}
}
