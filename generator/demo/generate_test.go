package demo

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// hashRuns is a digest of every field of every run, in emission order.
func hashRuns(t testing.TB, p Plan) string {
	t.Helper()
	h := sha256.New()
	str := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) }
	params := func(ps model.Params) {
		fmt.Fprintf(h, "%d", len(ps))
		for _, kv := range ps {
			str(kv.Key)
			str(kv.Value)
		}
	}
	floats := func(xs []float64) {
		fmt.Fprintf(h, "%d", len(xs))
		for _, x := range xs {
			binary.Write(h, binary.LittleEndian, math.Float64bits(x))
		}
	}
	err := p.Generate(func(r model.Run) error {
		a := r.Artifact
		for _, s := range append([]string{a.ID, string(a.Kind), a.Date.Format(time.RFC3339Nano), a.Branch, a.Title, a.Author, a.Baseline, fmt.Sprint(a.PR)}, a.Parents...) {
			str(s)
		}
		m := r.Machine
		for _, s := range []string{m.Name, m.OS, m.Arch, m.CPU, fmt.Sprint(m.Cores, m.MemoryBytes)} {
			str(s)
		}
		params(m.Labels)
		params(r.Context)
		for _, res := range r.Results {
			for _, s := range []string{res.Case.Benchmark, string(res.Case.Category), res.Metric, res.Unit, res.Error} {
				str(s)
			}
			params(res.Case.Params)
			floats(res.Samples)
			floats(res.Iters)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestDeterministic(t *testing.T) {
	for _, size := range []string{"demo", "S"} {
		t.Run(size, func(t *testing.T) {
			p, _ := PlanFor(size)
			first, second := hashRuns(t, p), hashRuns(t, p)
			if first != second {
				t.Errorf("two Generate calls differ: %s and %s", first, second)
			}
			p.Seed++
			if other := hashRuns(t, p); other == first {
				t.Errorf("another seed gives the same runs")
			}
		})
	}
}

// collect generates p into a dataset (values by rule Best, which the
// planted-event tests were written against), checking the invariants every run
// must keep on the way: emission order, sorted results, sample counts.
func collect(t *testing.T, p Plan) (*model.Dataset, []model.Run) {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	var runs []model.Run
	var prev model.Run
	err := p.Generate(func(r model.Run) error {
		if len(runs) > 0 {
			order := cmp.Or(prev.Artifact.Date.Compare(r.Artifact.Date), strings.Compare(prev.Artifact.ID, r.Artifact.ID), strings.Compare(prev.Machine.Name, r.Machine.Name))
			if order >= 0 {
				t.Errorf("run %s on %s is emitted after %s on %s", r.Artifact.Short(), r.Machine.Name, prev.Artifact.Short(), prev.Machine.Name)
			}
		}
		prev = r
		checkRun(t, p, r)
		runs = append(runs, r)
		b.Add(fmt.Sprintf("%s/%s", r.Artifact.ID, r.Machine.Name), r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	d := b.Dataset()
	if len(d.Warnings) > 0 {
		t.Errorf("the dataset has warnings: %v", d.Warnings)
	}
	return d, runs
}

func checkRun(t *testing.T, p Plan, r model.Run) {
	t.Helper()
	if !slices.IsSortedFunc(r.Results, func(a, b model.Result) int {
		return cmp.Or(strings.Compare(a.Case.Benchmark, b.Case.Benchmark), strings.Compare(a.Case.Params.String(), b.Case.Params.String()), strings.Compare(a.Metric, b.Metric))
	}) {
		t.Errorf("results of %s on %s are not sorted by benchmark, params, metric", r.Artifact.Short(), r.Machine.Name)
	}
	for _, res := range r.Results {
		where := fmt.Sprintf("%s on %s: %s %s", r.Artifact.Short(), r.Machine.Name, res.Case, res.Metric)
		if res.Error != "" {
			if len(res.Samples) != 0 {
				t.Errorf("%s failed with %q but has samples", where, res.Error)
			}
			continue
		}
		if len(res.Samples) != p.Samples {
			t.Errorf("%s has %d samples, want %d", where, len(res.Samples), p.Samples)
		}
		for _, x := range res.Samples {
			bad := !(x > 0) || math.IsInf(x, 0)
			switch res.Metric {
			case "instructions:u":
				bad = bad || x != math.Round(x) || res.Unit != "count"
			case "max-rss":
				bad = bad || math.Mod(x, 4096) != 0 || res.Unit != "bytes"
			case "wall-time":
				bad = bad || res.Unit != "ns"
			case "throughput":
				bad = bad || res.Unit != "MB/s"
			default:
				bad = true
			}
			if bad {
				t.Errorf("%s has sample %v in unit %q", where, x, res.Unit)
				break
			}
		}
	}
}

func mainLine(d *model.Dataset) []model.Artifact {
	var out []model.Artifact
	for _, i := range d.MainLine {
		out = append(out, d.Artifacts[i])
	}
	return out
}

func TestDemoMainLine(t *testing.T) {
	p, _ := PlanFor("demo")
	d, _ := collect(t, p)
	line := mainLine(d)
	if n := len(line); n < 120 || n > 160 || n != p.Commits {
		t.Fatalf("%d main-line commits, want %d (120–160)", n, p.Commits)
	}
	ids := map[string]bool{}
	for _, a := range d.Artifacts {
		ids[a.ID] = true
	}
	perDay := map[time.Time]int{}
	rollups := 0
	gaps := 0
	for i, a := range line {
		if !model.IsSHA(a.ID) || len(a.ID) != 40 {
			t.Errorf("commit %d has id %q, want 40 hex digits", i, a.ID)
		}
		if a.Kind != model.KindCommit || a.Branch != "main" || a.Title == "" || a.Author == "" || a.PR == 0 {
			t.Errorf("commit %d = %+v, want a titled, authored merge of a PR on main", i, a)
		}
		if len(a.Parents) != 2 || ids[a.Parents[1]] {
			t.Errorf("commit %d has parents %v, want the previous main-line commit and an unbenchmarked PR head", i, a.Parents)
		}
		if a.Date.Location() != time.UTC {
			t.Errorf("commit %d is dated %v, want UTC", i, a.Date)
		}
		if i == 0 {
			if ids[a.Parents[0]] {
				t.Errorf("the first commit's parent %s has results", a.Parents[0])
			}
			if !a.Date.Truncate(24*time.Hour).Equal(DemoStart) || DemoStart.Weekday() != time.Monday {
				t.Errorf("the history starts on %v, want Monday %v", a.Date, DemoStart)
			}
		} else {
			if a.Parents[0] != line[i-1].ID || !d.Contiguous(d.MainLine[i-1], d.MainLine[i]) {
				t.Errorf("commit %d's first parent is %s, want %s", i, a.Parents[0], line[i-1].ID)
			}
			if a.PR <= line[i-1].PR {
				t.Errorf("PR numbers decrease: #%d after #%d", a.PR, line[i-1].PR)
			}
			if a.PR > line[i-1].PR+1 {
				gaps++
			}
		}
		if strings.HasPrefix(a.Title, "Rollup of ") {
			rollups++
		}
		perDay[a.Date.Truncate(24*time.Hour)]++
	}
	if gaps == 0 || rollups < 3 {
		t.Errorf("%d gaps between PR numbers and %d rollups, want some of both", gaps, rollups)
	}
	weekday, weekend := 0, 0
	for day := DemoStart; day.Before(DemoStart.AddDate(0, 0, 7*p.Weeks)); day = day.AddDate(0, 0, 1) {
		n := perDay[day]
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			weekend += n
			if n > 2 {
				t.Errorf("%d merges on %s, want at most 2 at weekends", n, day.Format("Mon 2006-01-02"))
			}
		} else {
			weekday += n
			if n < 1 || n > 4 {
				t.Errorf("%d merges on %s, want 1 to 4 on weekdays", n, day.Format("Mon 2006-01-02"))
			}
		}
	}
	if weekend*10 > weekday {
		t.Errorf("%d merges at weekends and %d on weekdays, want weekends much quieter", weekend, weekday)
	}
	// At least 8 complete triage weeks (Monday to Sunday) with merges.
	for w := range 9 {
		start := DemoStart.AddDate(0, 0, 7*w)
		n := 0
		for _, a := range line {
			if !a.Date.Before(start) && a.Date.Before(start.AddDate(0, 0, 7)) {
				n++
			}
		}
		if n < 5 {
			t.Errorf("week of %s has %d merges, want a full week of them", start.Format("2006-01-02"), n)
		}
	}
}

func TestDemoMachinesAndSeries(t *testing.T) {
	p, _ := PlanFor("demo")
	d, runs := collect(t, p)
	if len(d.Machines) != 2 {
		t.Fatalf("%d machines, want 2", len(d.Machines))
	}
	for _, r := range runs {
		if r.Context.String() != "toolchain=go1.26.1" {
			t.Fatalf("run %s has context %q", r.Artifact.Short(), r.Context)
		}
	}
	cases := map[string]map[string]bool{}
	series := map[string]int{}
	metricsSeen := map[string]bool{}
	categories := map[model.Category]bool{}
	for _, s := range d.Series {
		m := s.Key.Machine
		if cases[m] == nil {
			cases[m] = map[string]bool{}
		}
		cases[m][s.Case.String()] = true
		series[m]++
		metricsSeen[s.Key.Metric] = true
		categories[s.Case.Category] = true
	}
	for _, m := range d.Machines {
		if n := len(cases[m.Name]); n < 40 || n > 60 {
			t.Errorf("%s has %d test cases, want 40–60", m.Name, n)
		}
		if series[m.Name] != p.SeriesPerMachine {
			t.Errorf("%s has %d series, want %d", m.Name, series[m.Name], p.SeriesPerMachine)
		}
	}
	if len(metricsSeen) != 4 || !categories[model.Primary] || !categories[model.Secondary] {
		t.Errorf("metrics %v and categories %v, want 4 metrics and both categories", metricsSeen, categories)
	}
	for name, want := range map[string]model.Direction{"instructions:u": model.LowerIsBetter, "wall-time": model.LowerIsBetter, "max-rss": model.LowerIsBetter, "throughput": model.HigherIsBetter} {
		for _, s := range d.Series {
			if s.Key.Metric == name && s.Metric.Direction != want {
				t.Errorf("%s: direction %s, want %s", name, s.Metric.Direction, want)
				break
			}
		}
	}
}

func TestDemoTryRuns(t *testing.T) {
	p, _ := PlanFor("demo")
	d, _ := collect(t, p)
	runsPerPR := map[int]int{}
	for i, a := range d.Artifacts {
		if a.Kind != model.KindTry {
			continue
		}
		runsPerPR[a.PR]++
		b, ok := d.Index(a.Baseline)
		if !ok || d.MainPos(b) < 0 {
			t.Errorf("try run %s has baseline %q, want a main-line commit", a.Short(), a.Baseline)
			continue
		}
		if !a.Date.After(d.Artifacts[b].Date) || !slices.Equal(a.Parents, []string{a.Baseline}) {
			t.Errorf("try run %s: date %v, parents %v; want after its baseline's %v, parents [baseline]", a.Short(), a.Date, a.Parents, d.Artifacts[b].Date)
		}
		if a.PR == 0 || a.Title == "" || a.Branch == "" || a.Branch == "main" || len(a.ID) != 40 {
			t.Errorf("try run %+v lacks a PR, title, branch or full id", a)
		}
		if d.MainPos(i) >= 0 {
			t.Errorf("try run %s is on the main line", a.Short())
		}
		if head, ok := d.PRHead(a.PR); !ok || d.Artifacts[head].Kind != model.KindTry {
			t.Errorf("PR #%d resolves to %v, want its latest try run", a.PR, head)
		}
	}
	if n := len(runsPerPR); n < 4 || n > 6 {
		t.Errorf("%d open PRs with try runs, want 4–6", n)
	}
	for pr, n := range runsPerPR {
		if n < 1 || n > 2 {
			t.Errorf("PR #%d has %d try runs, want 1 or 2", pr, n)
		}
	}
	kinds := map[string]bool{}
	for _, e := range p.Events() {
		if i, ok := d.Index(e.Artifact); ok && d.Artifacts[i].Kind == model.KindTry {
			kinds[e.Kind] = true
		}
	}
	for _, k := range []string{KindRegression, KindImprovement, KindNone} {
		if !kinds[k] {
			t.Errorf("no try run planted as %s", k)
		}
	}
}

func TestScaleS(t *testing.T) {
	p, _ := PlanFor("S")
	d, runs := collect(t, p)
	if len(d.Artifacts) != 100 || len(d.MainLine) != 100 {
		t.Errorf("%d artifacts, %d on the main line; want 100 and 100", len(d.Artifacts), len(d.MainLine))
	}
	if len(d.Series) != 200 {
		t.Errorf("%d series, want 200", len(d.Series))
	}
	if len(runs) != 200 {
		t.Errorf("%d runs, want 200", len(runs))
	}
	for _, r := range runs {
		if len(r.Results) != p.SeriesPerMachine {
			t.Fatalf("run %s on %s has %d results, want %d", r.Artifact.Short(), r.Machine.Name, len(r.Results), p.SeriesPerMachine)
		}
	}
	line := mainLine(d)
	for i := 1; i < len(line); i++ {
		gap := line[i].Date.Sub(line[i-1].Date)
		if gap < p.MinGap || gap > p.MaxGap {
			t.Errorf("commits %d and %d are %v apart, want %v to %v", i-1, i, gap, p.MinGap, p.MaxGap)
		}
	}
	hasSecondary := false
	for _, s := range d.Series {
		hasSecondary = hasSecondary || s.Case.Category == model.Secondary
	}
	if !hasSecondary {
		t.Errorf("no secondary benchmarks")
	}
}

// TestScaleM counts on the fly: M is too large to keep around in a test.
func TestScaleM(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: M takes a few seconds")
	}
	p, _ := PlanFor("M")
	type key struct{ machine, bench, params, metric string }
	series := map[key]bool{}
	artifacts := map[string]bool{}
	runs, failed := 0, 0
	var last time.Time
	err := p.Generate(func(r model.Run) error {
		runs++
		artifacts[r.Artifact.ID] = true
		if r.Artifact.Kind != model.KindCommit || r.Artifact.Date.Before(last) {
			t.Fatalf("run %d: %s %s at %v after %v", runs, r.Artifact.Kind, r.Artifact.Short(), r.Artifact.Date, last)
		}
		last = r.Artifact.Date
		if len(r.Results) != p.SeriesPerMachine {
			t.Fatalf("run %s on %s has %d results, want %d", r.Artifact.Short(), r.Machine.Name, len(r.Results), p.SeriesPerMachine)
		}
		for _, res := range r.Results {
			series[key{r.Machine.Name, res.Case.Benchmark, res.Case.Params.String(), res.Metric}] = true
			if res.Error != "" {
				failed++
			} else if len(res.Samples) != p.Samples {
				t.Fatalf("%s %s has %d samples", res.Case, res.Metric, len(res.Samples))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(artifacts) != 1_000 || runs != 2_000 || len(series) != 2_000 || failed == 0 {
		t.Errorf("%d artifacts, %d runs, %d series, %d failed results; want 1000, 2000, 2000 and some", len(artifacts), runs, len(series), failed)
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			p, _ := PlanFor(size)
			for b.Loop() {
				samples := 0
				err := p.Generate(func(r model.Run) error {
					for _, res := range r.Results {
						samples += len(res.Samples)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(samples), "samples/op")
			}
		})
	}
}

// The demo's large json-encode test case carries Criterion's linear iteration counts on
// its wall-time results, and only there.
func TestDemoIters(t *testing.T) {
	p, err := PlanFor("demo")
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	err = p.Generate(func(r model.Run) error {
		for _, res := range r.Results {
			want := res.Case.String() == "json-encode size=large" && res.Metric == "wall-time" && res.Error == ""
			if got := len(res.Iters) > 0; got != want {
				t.Fatalf("%s %s %s: iters %v", r.Artifact.ID, res.Case, res.Metric, res.Iters)
			}
			if !want {
				continue
			}
			with++
			if len(res.Iters) != len(res.Samples) {
				t.Fatalf("%d iters for %d samples", len(res.Iters), len(res.Samples))
			}
			for j, it := range res.Iters {
				if it != res.Iters[0]*float64(j+1) || it < 1 {
					t.Fatalf("iters %v are not linear", res.Iters)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if with == 0 {
		t.Error("no results with iteration counts")
	}
}
