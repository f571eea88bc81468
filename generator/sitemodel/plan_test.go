package sitemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
	shaT = "7777777777777777777777777777777777777777"
)

// smallDataset is three main-line commits on one machine, a try run, a
// failure and a secondary benchmark: every kind of page and row.
func smallDataset(t testing.TB) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	m := model.Machine{Name: "linux-x64", OS: "linux", Arch: "amd64"}
	res := func(bench, size, metric, unit string, samples ...float64) model.Result {
		r := model.Result{Case: model.TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: samples}
		if size != "" {
			r.Case.Params = model.Params{{Key: "size", Value: size}}
		}
		return r
	}
	add := func(id, parent string, day time.Time, pr int, title string, results ...model.Result) {
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day, Branch: "main", PR: pr, Title: title}
		if parent != "" {
			a.Parents = []string{parent}
		}
		b.Add(id+".json", model.Run{Artifact: a, Machine: m, Results: results})
	}
	stress := func(v float64) model.Result {
		r := res("stress", "", "max-rss", "bytes", v)
		r.Case.Category = model.Secondary
		return r
	}
	add(sha1, "", day, 11, "Add the parser (#11)",
		res("json-decode", "large", "wall-time", "ns", 1000, 1010, 1020),
		res("json-decode", "small", "wall-time", "ns", 100, 101), stress(4096000))
	add(sha2, sha1, day.AddDate(0, 0, 1), 12, "Speed up decoding (#12)",
		res("json-decode", "large", "wall-time", "ns", 900, 905),
		res("json-decode", "small", "wall-time", "ns", 110, 111), stress(4096000))
	failed := res("json-decode", "small", "wall-time", "ns")
	failed.Error = "exit status 2"
	add(sha3, sha2, day.AddDate(0, 0, 8), 13, "Break the small case (#13)",
		res("json-decode", "large", "wall-time", "ns", 901, 903), failed)
	b.Add("try.json", model.Run{
		Artifact: model.Artifact{ID: shaT, Kind: model.KindTry, Date: day.AddDate(0, 0, 9), PR: 14, Title: "Try a new allocator", Baseline: sha3, Branch: "feature/alloc"},
		Machine:  m, Results: []model.Result{res("json-decode", "large", "wall-time", "ns", 850)}})
	return b.Dataset()
}

// planAll runs a plan and returns its outputs by path.
func planAll(t testing.TB, d *model.Dataset, opts Options) (*SiteView, []Output) {
	t.Helper()
	return planModel(t, d, opts, analysis.ModelPerfpages)
}

// planModel is planAll under a significance model: tests of how relevant
// rows are shown on datasets of two or three commits use rustc-perf's,
// which decides a pair at once (model perfpages has no noise model for
// them yet).
func planModel(t testing.TB, d *model.Dataset, opts Options, sigModel string) (*SiteView, []Output) {
	t.Helper()
	plan := NewPlan(analysis.Analyze(d, analysis.AnalyzeOptions{Compare: analysis.Options{Model: sigModel}}), opts)
	var mu sync.Mutex
	var outs []Output
	_, err := plan.Run(context.Background(), func(o Output) error {
		mu.Lock()
		outs = append(outs, o)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(outs, func(a, b Output) int { return strings.Compare(a.Path, b.Path) })
	return plan.SiteView(), outs
}

func smallOptions() Options {
	return Options{Title: "Test benchmarks", Repository: "https://github.com/example/project",
		Content: &Content{Pages: []ContentPage{{Source: "content/about.md", Slug: "about", Title: "About", Menu: true, Body: []byte("# About\n")}}}}
}

// TestPlanGolden pins the whole model of a small site: every page's view
// and every data file, as JSON. Run with -update and read the diff.
func TestPlanGolden(t *testing.T) {
	site, outs := planAll(t, smallDataset(t), smallOptions())
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"site": site, "outputs": outs}); err != nil {
		t.Fatal(err)
	}
	golden(t, "plan.golden.json", buf.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./generator/sitemodel -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got); run go test ./generator/sitemodel -update if intended:\n%s", path, d)
	}
}

// TestPlanDeterministic: the same input plans the same outputs, whatever
// the scheduling.
func TestPlanDeterministic(t *testing.T) {
	d := smallDataset(t)
	_, a := planAll(t, d, smallOptions())
	_, b := planAll(t, d, smallOptions())
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Error("two plans of the same dataset differ")
	}
}

// TestPlanCounts: the counts a comparison shows come from one
// computation: the page's, each metric's and the rows it lists agree.
func TestPlanCounts(t *testing.T) {
	_, outs := planAll(t, smallDataset(t), smallOptions())
	for _, o := range outs {
		c, ok := o.Data.(Comparison)
		if !ok {
			continue
		}
		var sum Counts
		relevant := 0
		for _, m := range c.Metrics {
			sum.Regressions += m.Counts.Regressions
			sum.Improvements += m.Counts.Improvements
			sum.Other += m.Counts.Other
			sum.Failed += m.Counts.Failed
			sum.StillFailing += m.Counts.StillFailing
			// Listed: the relevant rows, and those shown without being
			// counted (each without a class); the rest are folded.
			listed, shown := 0, 0
			for _, r := range append(slices.Clone(m.Primary), m.Secondary...) {
				if r.Class != "" {
					listed++
				} else {
					shown++
				}
			}
			relevant += listed
			if listed != m.Counts.Relevant() || shown+m.Folded != m.Counts.Other {
				t.Errorf("%s %s: %d relevant rows listed and %d shown, %d folded; counts say %d relevant, %d other", o.Path, m.Name, listed, shown, m.Folded, m.Counts.Relevant(), m.Counts.Other)
			}
		}
		if sum.Regressions != c.Counts.Regressions || sum.Improvements != c.Counts.Improvements || sum.Other != c.Counts.Other || sum.Failed != c.Counts.Failed || sum.StillFailing != c.Counts.StillFailing {
			t.Errorf("%s: metric counts %+v do not add up to the page's %+v", o.Path, sum, c.Counts)
		}
		if len(c.Failures) != c.Counts.Failed+c.Counts.StillFailing {
			t.Errorf("%s: %d failures listed, counts say %d", o.Path, len(c.Failures), c.Counts.Failed+c.Counts.StillFailing)
		}
	}
}

// TestFixed pins the integer form of formatted numbers in data files.
func TestFixed(t *testing.T) {
	tests := []struct {
		text, suffix string
		decimals     int
		want         string
	}{
		{"+1.23%", "%", 2, "123"},
		{"-1.23%", "%", 2, "-123"},
		{"-0.00%", "%", 2, "-0"},
		{"+0.00%", "%", 2, "0"},
		{"0.45%", "%", 2, "45"},
		{"2.50x", "x", 2, "250"},
		{"0.548", "", 3, "548"},
		{"+12350.00", "", 2, "1235000"},
		{"+1.00e+310%", "%", 2, `"+1.00e+310%"`},
		{"n/a", "%", 2, `"n/a"`},
		{"-", "%", 2, "null"},
		{"", "%", 2, "null"},
		{"1.2345%", "%", 2, `"1.2345%"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(fixedOf(tt.text, tt.decimals, tt.suffix))
		if err != nil || string(b) != tt.want {
			t.Errorf("fixedOf(%q) = %s, %v; want %s", tt.text, b, err, tt.want)
		}
	}
}

// TestNumbers pins how data files write numbers: exact values in their
// shortest form, statistics with StatDigits digits, the shorter notation.
func TestNumbers(t *testing.T) {
	third := 1.0
	third /= 3
	tests := []struct {
		v    any
		want string
	}{
		{Exact(1203.5), "1203.5"},
		{Exact(290263040), "290263040"},
		{Exact(1e21), "1e+21"},
		{Exact(third), "0.3333333333333333"},
		{Rounded(RoundMean(290102345.6)), "2.901e+08"},
		{Rounded(RoundMean(29010234.56)), "29010000"},
		{Rounded(RoundMean(0.000123456)), "0.00012346"},
		{Rounded(RoundStd(1.23456e-9)), "1.23e-09"},
		{Rounded(math.NaN()), "null"},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(tt.v)
		if string(b) != tt.want {
			t.Errorf("%T(%v) = %s, want %s", tt.v, tt.v, b, tt.want)
		}
	}
}

// The hand-written encoder of data files writes what encoding/json would
// from the struct tags.
func TestSeriesDataJSON(t *testing.T) {
	_, outs := planAll(t, smallDataset(t), smallOptions())
	n := 0
	for _, o := range outs {
		d, ok := o.Data.(SeriesData)
		if !ok {
			continue
		}
		type plain SeriesData // the same fields, no MarshalJSON
		want, err := json.Marshal(plain(d))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", o.Path, got, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no data file in the plan")
	}
	// Every column of indices, set: a column the encoder forgets (or
	// writes out of the struct's order) fails here whatever the plan has.
	var d SeriesData
	cols := reflect.ValueOf(&d.Columns).Elem()
	for i := range cols.NumField() {
		if f := cols.Field(i); f.Type() == reflect.TypeFor[[]int]() {
			f.Set(reflect.ValueOf([]int{i + 1}))
		}
	}
	type plain SeriesData
	want, _ := json.Marshal(plain(d))
	if got, _ := json.Marshal(d); !bytes.Equal(got, want) {
		t.Errorf("every column set:\n got %s\nwant %s", got, want)
	}
}

// TestFailingOnce: a benchmark that fails at every commit (asv records a
// null result for it in every results file) is one failure: the dashboard
// lists it once, failing since the first commit, and the comparisons after
// that count it as still failing, not as failed.
func TestFailingOnce(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	prev := ""
	var ids []string
	for i := range 5 {
		id := strings.Repeat(strconv.Itoa(i+1), 40)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day.Add(time.Duration(i) * time.Hour), Branch: "main"}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		ids = append(ids, id)
		b.Add(id, model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{
			{Case: model.TestCase{Benchmark: "broken"}, Metric: "wall-time", Unit: "ns", Error: "asv recorded no result"},
			{Case: model.TestCase{Benchmark: "fine"}, Metric: "wall-time", Unit: "ns", Samples: []float64{100}},
		}})
	}
	_, outs := planAll(t, b.Dataset(), smallOptions())
	for _, o := range outs {
		switch v := o.Data.(type) {
		case Dashboard:
			if len(v.Failing) != 1 || v.Failing[0].Since.ID != ids[0] || v.Failing[0].New {
				t.Errorf("dashboard failing: %+v, want broken since %s", v.Failing, ids[0])
			}
			for _, r := range v.Recent {
				if r.Base.ID == "" {
					continue // the first commit: nothing to compare it with
				}
				if r.Counts.Failed != 0 || r.Counts.StillFailing != 1 {
					t.Errorf("dashboard lists %s with %+v: want 0 failed, 1 still failing", r.Commit.ID, r.Counts)
				}
			}
		case Comparison:
			if v.Base == nil {
				continue // the first commit: its failure is new
			}
			if v.Counts.Failed != 0 || v.Counts.StillFailing != 1 {
				t.Errorf("%s: %+v, want 0 failed, 1 still failing", o.Path, v.Counts)
			}
		}
	}
}

// TestHardware: a machine's hardware line shows what is known, then its
// labels (a pool of runners shows its pattern); a
// github-action-benchmark machine, known by its name alone, shows nothing
// (the page says "not recorded"), never "/".
func TestHardware(t *testing.T) {
	for _, tt := range []struct {
		m    model.Machine
		want string
	}{
		{model.Machine{Name: "default"}, ""},
		{model.Machine{Name: "m", OS: "linux"}, "linux"},
		{model.Machine{Name: "m", Arch: "arm64"}, "arm64"},
		{model.Machine{Name: "m", OS: "linux", Arch: "amd64", CPU: "AMD EPYC", Cores: 16, MemoryBytes: 64 << 30}, "linux/amd64, AMD EPYC, 16 cores, 64 GiB RAM"},
		{model.Machine{Name: "m", CPU: "Apple M2"}, "Apple M2"},
		{model.Machine{Name: "m", CPU: "Graviton3", Labels: model.Params{{Key: "instance", Value: "c7g.2xlarge"}, {Key: "pool", Value: "cloud"}}}, "Graviton3, instance: c7g.2xlarge, pool: cloud"},
		{model.Machine{Name: "github-hosted", Labels: model.Params{{Key: "runners", Value: "fv-az*"}}}, "runners: fv-az*"},
	} {
		if got := hardware(tt.m); got != tt.want {
			t.Errorf("hardware(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}
