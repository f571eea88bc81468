package demo

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"

	"github.com/perfpages/perfpages/analysis/budget"
)

// threshold is rustc-perf's significance threshold
// (site/src/comparison.rs): Q3 + 3·IQR of the percent changes of the 30
// values before the base, newest first, quartiles by median of halves;
// 0.002 without a full history. The analysis package owns the real
// implementation; this copy checks that the planted changes exercise it as
// intended.
func threshold(history []float64) float64 {
	if len(history) < 30 {
		return 0.002
	}
	var pcs []float64
	for i := 0; i+1 < len(history); i++ {
		pcs = append(pcs, math.Abs(history[i]-history[i+1])/history[i])
	}
	slices.Sort(pcs)
	q1, q3 := quartiles(pcs)
	return q3 + 3*(q3-q1)
}

func quartiles(p []float64) (q1, q3 float64) {
	n := len(p)
	switch {
	case n <= 2:
		return budget.MedianF64(p[:1]), budget.MedianF64(p[min(n, 1):])
	case n%2 == 1:
		return budget.MedianF64(p[:n/2]), budget.MedianF64(p[n/2+1:])
	default:
		return budget.MedianF64(p[:n/2-1]), budget.MedianF64(p[n/2+1:])
	}
}

// The derived vectors of analysis/rustcperf_test.go.
func TestThresholdHelper(t *testing.T) {
	quarts := []struct {
		name   string
		in     []float64
		q1, q3 float64
	}{
		{"four", []float64{0.1, 0.2, 0.3, 0.4}, 0.1, 0.4},
		{"six", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, 0.15, 0.55},
		{"five", []float64{1, 2, 3, 4, 5}, 1.5, 4.5},
		{"two", []float64{0.5, 0.7}, 0.5, 0.7},
	}
	for _, tt := range quarts {
		t.Run("quartiles of "+tt.name, func(t *testing.T) {
			q1, q3 := quartiles(tt.in)
			if math.Abs(q1-tt.q1) > 1e-12 || math.Abs(q3-tt.q3) > 1e-12 {
				t.Errorf("quartiles(%v) = %v, %v; want %v, %v", tt.in, q1, q3, tt.q1, tt.q3)
			}
		})
	}
	// A history whose sorted percent changes are 0.0001 … 0.0029: each
	// value is the next one times (1 + p), newest first.
	hist := []float64{1000}
	for i := 1; i < 30; i++ {
		p := float64(i) / 10000
		hist = append(hist, hist[i-1]*(1-p))
	}
	alternating := make([]float64, 30)
	for i := range alternating {
		alternating[i] = 1000 + float64(i%2)
	}
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"linear percent changes", hist, 0.00675},
		{"alternating 1000 and 1001", alternating, 0.001002997},
		{"short history", hist[:29], 0.002},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := threshold(tt.in); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("threshold = %v, want %v", got, tt.want)
			}
		})
	}
}

// world of a collected dataset, for the event checks.
type data struct {
	d      *model.Dataset
	events []Event
}

func (x data) pos(id string) (art, pos int, ok bool) {
	a, ok := x.d.Index(id)
	if !ok {
		return -1, -1, false
	}
	return a, x.d.MainPos(a), true
}

func (x data) value(s *model.Series, art int) (float64, bool) {
	p := s.At(art)
	if p == nil || !p.OK() {
		return 0, false
	}
	return p.Value, true
}

// at is the value of s at main-line position pos.
func (x data) at(s *model.Series, pos int) (float64, bool) {
	if pos < 0 || pos >= len(x.d.MainLine) {
		return 0, false
	}
	return x.value(s, x.d.MainLine[pos])
}

// history is the values of the 30 nearest main-line ancestors of the
// commit at base that have one, newest first, looking back at most 90
// commits: perfpages skips failed and missing results where rustc-perf
// gives up on the test case.
func (x data) history(s *model.Series, base int) []float64 {
	var h []float64
	for p := base - 1; p >= max(0, base-90) && len(h) < 30; p-- {
		if v, ok := x.at(s, p); ok {
			h = append(h, v)
		}
	}
	return h
}

func (x data) matching(e Event) []*model.Series {
	var out []*model.Series
	for _, s := range x.d.Series {
		if e.Matches(s.Key.Machine, s.Case, s.Key.Metric) {
			out = append(out, s)
		}
	}
	return out
}

// changesAt lists the main-line positions where series s has a planted
// change of its level, a spike or a failure.
func (x data) changesAt(s *model.Series) (steps, outliers map[int]bool) {
	steps, outliers = map[int]bool{}, map[int]bool{}
	for _, e := range x.events {
		_, p, ok := x.pos(e.Artifact)
		if !ok || p < 0 || !e.Matches(s.Key.Machine, s.Case, s.Key.Metric) {
			continue
		}
		switch e.Kind {
		case KindRegression, KindImprovement, KindMixed, KindNoise:
			steps[p] = true
		case KindSpike:
			outliers[p] = true
		}
	}
	return steps, outliers
}

func (x data) bimodal(s *model.Series) bool {
	for _, e := range x.events {
		if e.Kind == KindBimodal && e.Matches(s.Key.Machine, s.Case, s.Key.Metric) {
			return true
		}
	}
	return false
}

func meanSD(xs []float64) (mean, sd float64) {
	mean = model.MeanOf(xs)
	for _, v := range xs {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

const window = 15 // commits on each side of a step change

// checkStep checks that a step change is there: the mean level after the
// commit is (1 + size) times the mean before, within the noise.
func (x data) checkStep(t *testing.T, e Event, s *model.Series, p int) {
	t.Helper()
	steps, outliers := x.changesAt(s)
	var before, after []float64
	// Stop at the neighbouring changes of the level: the value at an
	// earlier change belongs to the level before p.
	for q := p - 1; q >= 0 && q >= p-window; q-- {
		if v, ok := x.at(s, q); ok && !outliers[q] {
			before = append(before, v)
		}
		if steps[q] {
			break
		}
	}
	for q := p; q < len(x.d.MainLine) && q < p+window; q++ {
		if q > p && steps[q] {
			break
		}
		if v, ok := x.at(s, q); ok && !outliers[q] {
			after = append(after, v)
		}
	}
	if len(before) < 5 || len(after) < 5 {
		t.Errorf("%s %s on %s: only %d values before and %d after the change", s.Case, s.Key.Metric, s.Key.Machine, len(before), len(after))
		return
	}
	mb, sb := meanSD(before)
	ma, sa := meanSD(after)
	ratio := ma / mb
	se := math.Sqrt(sb*sb/float64(len(before))+sa*sa/float64(len(after))) / mb
	if math.Abs(ratio-(1+e.Size)) > 0.1*math.Abs(e.Size)+4*se {
		t.Errorf("%s %s on %s: level changes ×%.5f at %q, want ×%.5f (±%.5f)", s.Case, s.Key.Metric, s.Key.Machine, ratio, e.Title, 1+e.Size, 0.1*math.Abs(e.Size)+4*se)
	}
}

// checkSignificance checks a planted change against rustc-perf's threshold
// for the comparison of head with base (main-line position basePos).
func (x data) checkSignificance(t *testing.T, e Event, s *model.Series, base, head, basePos int) {
	t.Helper()
	a, okA := x.value(s, base)
	b, okB := x.value(s, head)
	if e.Kind == KindNone && (!okA || !okB) {
		return // a series the try run does not have
	}
	if !okA || !okB {
		t.Errorf("%s %s on %s: no values to compare for %q", s.Case, s.Key.Metric, s.Key.Machine, e.Title)
		return
	}
	change := (b - a) / a
	thr := threshold(x.history(s, basePos))
	switch {
	case e.Kind == KindNoise && math.Abs(change) >= thr:
		t.Errorf("%s %s on %s: tiny change %q shows as %+.4f%%, at or above the threshold %.4f%%", s.Case, s.Key.Metric, s.Key.Machine, e.Title, 100*change, 100*thr)
	case e.Significant && (math.Abs(change) < thr || change*e.Size < 0):
		t.Errorf("%s %s on %s: planted %+.2f%% in %q shows as %+.4f%%, below the threshold %.4f%% or in the wrong direction", s.Case, s.Key.Metric, s.Key.Machine, 100*e.Size, e.Title, 100*change, 100*thr)
	case e.Kind == KindNone && s.Key.Metric == "instructions:u" && math.Abs(change) > 0.002:
		t.Errorf("%s %s on %s: try run %q planted with no change shows %+.4f%%", s.Case, s.Key.Metric, s.Key.Machine, e.Title, 100*change)
	}
}

func checkEvents(t *testing.T, p Plan) {
	d, _ := collect(t, p)
	x := data{d: d, events: p.Events()}
	if len(x.events) == 0 {
		t.Fatal("no events")
	}
	for _, e := range x.events {
		series := x.matching(e)
		if len(series) == 0 {
			t.Errorf("event %+v touches no series", e)
			continue
		}
		if e.Kind == KindBimodal {
			checkBimodal(t, x, e, series)
			continue
		}
		art, p, ok := x.pos(e.Artifact)
		if !ok {
			t.Errorf("event %q: artifact %q is not in the data", e.Title, e.Artifact)
			continue
		}
		a := d.Artifacts[art]
		if a.PR != e.PR || a.Title != e.Title || !a.Date.Equal(e.Date) {
			t.Errorf("event says #%d %q at %v, artifact says #%d %q at %v", e.PR, e.Title, e.Date, a.PR, a.Title, a.Date)
		}
		if a.Kind == model.KindTry {
			base, basePos, _ := x.pos(a.Baseline)
			for _, s := range series {
				x.checkSignificance(t, e, s, base, art, basePos)
			}
			continue
		}
		for _, s := range series {
			switch e.Kind {
			case KindRegression, KindImprovement, KindMixed, KindNoise:
				if !x.bimodal(s) {
					x.checkStep(t, e, s, p)
				}
				x.checkSignificance(t, e, s, d.MainLine[p-1], art, p-1)
			case KindSpike:
				prev, _ := x.at(s, p-1)
				spike, _ := x.at(s, p)
				next, _ := x.at(s, p+1)
				if math.Abs(spike/prev-(1+e.Size)) > 0.25*e.Size || math.Abs(next/prev-1) > 0.25*e.Size {
					t.Errorf("%s %s on %s: %v, %v, %v around the spike, want a jump of %+.0f%% and back", s.Case, s.Key.Metric, s.Key.Machine, prev, spike, next, 100*e.Size)
				}
				x.checkSignificance(t, e, s, d.MainLine[p-1], art, p-1)
			case KindFailure:
				pt := s.At(art)
				if pt == nil || pt.Failure() != e.Note || pt.NumSamples() != 0 || pt.OK() {
					t.Errorf("%s %s on %s at %s: %+v, want a failure %q without samples", s.Case, s.Key.Metric, s.Key.Machine, a.Short(), pt, e.Note)
				}
			case KindAdded:
				if first := d.Artifacts[s.Points[0].Artifact]; first.ID != a.ID {
					t.Errorf("%s %s on %s starts at %s, want %s", s.Case, s.Key.Metric, s.Key.Machine, first.Short(), a.Short())
				}
			case KindRemoved:
				last := -1
				for _, pt := range s.Points {
					last = max(last, d.MainPos(int(pt.Artifact)))
				}
				if last != p-1 {
					t.Errorf("%s %s on %s ends at main-line position %d, want %d", s.Case, s.Key.Metric, s.Key.Machine, last, p-1)
				}
			default:
				t.Errorf("event of unknown kind %q", e.Kind)
			}
		}
	}
}

func checkBimodal(t *testing.T, x data, e Event, series []*model.Series) {
	for _, s := range series {
		var vs []float64
		for _, pt := range s.Points {
			if pt.OK() && x.d.MainPos(int(pt.Artifact)) >= 0 {
				vs = append(vs, pt.Value)
			}
		}
		sorted := slices.Sorted(slices.Values(vs))
		low, high := sorted[len(vs)/10], sorted[len(vs)*9/10]
		upper := 0
		for _, v := range vs {
			if v > (low+high)/2 {
				upper++
			}
		}
		f, gap := float64(upper)/float64(len(vs)), high/low-1
		if f < 0.25 || f > 0.75 || gap < 0.6*e.Size || gap > 1.5*e.Size {
			t.Errorf("%s %s on %s: %.0f%% of the values on the upper level, %.1f%% above the lower; want two levels %.0f%% apart",
				s.Case, s.Key.Metric, s.Key.Machine, 100*f, 100*gap, 100*e.Size)
		}
	}
}

func TestEventsVisible(t *testing.T) {
	for _, size := range []string{"demo", "S"} {
		t.Run(size, func(t *testing.T) {
			p, _ := PlanFor(size)
			checkEvents(t, p)
		})
	}
}

func TestEventDirections(t *testing.T) {
	for _, size := range []string{"demo", "S"} {
		p, _ := PlanFor(size)
		for _, e := range p.Events() {
			if e.Metric == "*" || e.Kind != KindRegression && e.Kind != KindImprovement {
				continue
			}
			unit := map[string]string{"instructions:u": "count", "wall-time": "ns", "max-rss": "bytes", "throughput": "MB/s"}[e.Metric]
			m := model.DefaultMetric(e.Metric, unit)
			if analysis.IsRegression(e.Size, m.Direction) != (e.Kind == KindRegression) {
				t.Errorf("%s: %s %q changes %s by %+.3f, which is not a %s for a %s-is-better metric", size, e.Kind, e.Title, e.Metric, e.Size, e.Kind, m.Direction)
			}
			if e.Metric == "throughput" && e.Kind == KindImprovement && e.Size <= 0 {
				t.Errorf("%s: throughput improvement %q does not raise the values", size, e.Title)
			}
		}
	}
}

// TestDemoCalendar pins what the demo's pages promise: each change has 30
// clean ancestors, the changes fall in different triage weeks, one week
// is busy and one in the middle is quiet.
func TestDemoCalendar(t *testing.T) {
	p, _ := PlanFor("demo")
	d, _ := collect(t, p)
	x := data{d: d, events: p.Events()}
	perWeek := map[int]int{}
	titles := map[string]string{}
	for _, e := range x.events {
		_, pos, ok := x.pos(e.Artifact)
		if !ok || pos < 0 {
			continue
		}
		if t0, dup := titles[e.Artifact]; dup && t0 != e.Kind+e.Title {
			t.Errorf("two planted changes share commit %s", e.Artifact)
		}
		titles[e.Artifact] = e.Kind + e.Title
		switch e.Kind {
		case KindRegression, KindImprovement, KindMixed, KindSpike:
			if pos < 31 {
				t.Errorf("%q is main-line commit %d: its base has fewer than 30 ancestors", e.Title, pos)
			}
			perWeek[int(e.Date.Sub(DemoStart)/(7*24*time.Hour))]++
		}
	}
	busiest, quiet := 0, false
	for w := range p.Weeks {
		busiest = max(busiest, perWeek[w])
		quiet = quiet || w >= 3 && w <= 7 && perWeek[w] == 0
	}
	if busiest < 3 || !quiet || len(perWeek) < 5 {
		t.Errorf("changes per week %v: want them spread over weeks, one busy week and a quiet one mid-history", perWeek)
	}
}

// magnitude is rustc-perf's combined magnitude rank
// (site/src/comparison.rs): 1 very small … 5 very large.
func magnitude(c, thr float64, metric string) int {
	if c < 0.0001 {
		return 1
	}
	rank := func(x float64, cuts []float64) int {
		for i, k := range cuts {
			if x < k {
				return i + 1
			}
		}
		return 5
	}
	over := rank(c, []float64{1.5 * thr, 3 * thr, 6 * thr, 12 * thr})
	nf := 2.0
	if metric == "instructions:u" {
		nf = 1
	}
	abs := rank(c*100/nf, []float64{0.2, 1, 2, 5})
	return (over + abs) / 2
}

// TestDemoTriageShowsOnlyPlantedChanges pins what the weekly reports show:
// once every series has 30 values of history (the new benchmark of week 1
// has been run 30 times, early in week 3), the only
// main-line comparisons that rustc-perf's rules put in a triage report —
// "deserves attention" or high relevance (analysis.RelevanceOf) — are the
// planted step changes, the spike and the return from it.
func TestDemoTriageShowsOnlyPlantedChanges(t *testing.T) {
	p, _ := PlanFor("demo")
	d, _ := collect(t, p)
	x := data{d: d, events: p.Events()}
	shown := map[int]bool{}
	from := 31
	for _, e := range x.events {
		_, pos, ok := x.pos(e.Artifact)
		if !ok || pos < 0 {
			continue
		}
		switch e.Kind {
		case KindRegression, KindImprovement, KindMixed:
			shown[pos] = true
		case KindSpike:
			shown[pos], shown[pos+1] = true, true
		case KindAdded:
			from = max(from, pos+31)
		}
	}
	if from > 45 {
		t.Errorf("the history is clean only from main-line commit %d on", from)
	}
	for pos := from; pos < len(d.MainLine); pos++ {
		var count [2]int // relevant changes: primary, secondary
		var largest [2]int
		var medium, small int
		for _, s := range d.Series {
			a, okA := x.at(s, pos-1)
			b, okB := x.at(s, pos)
			if !okA || !okB {
				continue
			}
			c := math.Abs(b-a) / a
			thr := threshold(x.history(s, pos-1))
			if c < thr {
				continue
			}
			m := magnitude(c, thr, s.Key.Metric)
			switch {
			case m >= 3:
				medium++
			default:
				small++
			}
			if m < 2 {
				continue
			}
			k := 0
			if s.Case.Category == model.Secondary {
				k = 1
			}
			count[k]++
			largest[k] = max(largest[k], m)
		}
		attention := largest[0] >= 3 || largest[1] >= 4 || 3*count[0]+count[1] >= 9
		high := max(largest[0], largest[1]) >= 4 || medium >= 2 || small >= 20
		if (attention || high) != shown[pos] {
			a := d.Artifacts[d.MainLine[pos]]
			t.Errorf("commit %d (%s %q): deserves attention %v, high relevance %v; want %v", pos, a.Date.Format("2006-01-02"), a.Title, attention, high, shown[pos])
		}
	}
}

// TestDemoGolden pins the demo's first commit and its calendar of planted
// changes, which the demo site's pages describe: a change here needs the
// content/ pages reviewed too.
func TestDemoGolden(t *testing.T) {
	p, _ := PlanFor("demo")
	w, err := p.compile()
	if err != nil {
		t.Fatal(err)
	}
	first := model.Artifact{
		ID:      "d93998b1471e87e19386947bf4f208e67448bca9",
		Kind:    model.KindCommit,
		Date:    time.Date(2026, time.August, 31, 5, 13, 23, 0, time.UTC),
		Parents: []string{"116194220f808044683214d3657b9089ca024f89", "ac5aad501c743cd71cb74589a4473c3d8f937005"},
		Branch:  "main",
		PR:      1200,
		Title:   "Remove dead code from the gzip writer",
		Author:  "Hana Kobayashi",
	}
	if diff := cmp.Diff(first, w.sched.artifact(0)); diff != "" {
		t.Errorf("first commit (-want +got):\n%s", diff)
	}
	type entry struct {
		Week  int
		Kind  string
		PR    int
		Title string
	}
	want := []entry{
		{-1, "bimodal", 0, ""},
		{1, "added", 1242, "Add YAML decoding benchmarks"},
		{2, "regression", 1318, "Validate UTF-8 while decoding JSON strings"},
		{3, "improvement", 1331, "Skip re-hashing unchanged packages in incremental builds"},
		{3, "regression", 1347, "Cache compiled route patterns in a sync.Map"},
		{3, "failure", 1350, "Move the TLS benchmarks to the new certificate fixtures"},
		{3, "failure", 1355, "Refactor the package loader"},
		{3, "noise", 1361, "Tidy up the build cache's error messages"},
		{4, "mixed", 1384, "Switch sort to pattern-defeating quicksort"},
		{6, "improvement", 1456, "Release type-checker memory before code generation"},
		{6, "spike", 1471, "Bump golang.org/x/mod to v0.39.2"},
		{7, "regression", 1481, "Record allocation call sites in the runtime profiler"},
		{7, "noise", 1502, "Reuse decode buffers across JSON benchmark iterations"},
		{7, "failure", 1516, "Enable the experimental inliner by default"},
		{8, "improvement", 1538, "Inline the small-string fast path in the JSON tokenizer"},
		{8, "regression", 1540, "Rollup of 6 pull requests"},
		{8, "regression", 1546, "Switch the HTTP router to a radix tree"},
		{8, "improvement", 1556, "Write JSON numbers without intermediate strconv buffers"},
		{8, "mixed", 1567, "Experiment: parallel code generation"},
		{9, "removed", 1582, "Remove the template-render benchmarks"},
		{9, "none", 1586, "Update the contributor guide"},
		{9, "none", 1546, "Switch the HTTP router to a radix tree"},
		{9, "improvement", 1596, "Use ARM64 CRC32 instructions in gzip"},
		{9, "improvement", 1600, "Use arena allocation in the deep-nesting parser"},
		{9, "mixed", 1567, "Experiment: parallel code generation"},
	}
	var got []entry
	for _, e := range w.events {
		week := -1
		if !e.Date.IsZero() {
			week = int(e.Date.Sub(DemoStart) / (7 * 24 * time.Hour))
		}
		x := entry{week, e.Kind, e.PR, e.Title}
		if len(got) == 0 || got[len(got)-1] != x {
			got = append(got, x)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("demo calendar (-want +got):\n%s", diff)
	}
}
