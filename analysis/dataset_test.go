package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var day0 = time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)

func sha(c byte) string { return strings.Repeat(string(c), 40) }

func result(bench, metric, unit string, samples ...float64) Result {
	return Result{Case: TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: samples}
}

func TestBuilderMainLineAndOrder(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	m := Machine{Name: "m"}
	// Added out of order; a try run, a tag and a feature-branch commit.
	b.Add("c", Run{Artifact: Artifact{ID: sha('c'), Kind: KindCommit, Date: day0.Add(2 * time.Hour), Branch: "main", Parents: []string{sha('b')}}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 3)}})
	b.Add("a", Run{Artifact: Artifact{ID: sha('a'), Kind: KindCommit, Date: day0, Branch: "main"}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 1)}})
	b.Add("b", Run{Artifact: Artifact{ID: sha('b'), Kind: KindCommit, Date: day0.Add(time.Hour), Branch: "main", Parents: []string{sha('a')}, PR: 7}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 2, 1.5)}})
	b.Add("t", Run{Artifact: Artifact{ID: sha('d'), Kind: KindTry, Date: day0.Add(3 * time.Hour), Baseline: sha('c'), PR: 9}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 4)}})
	b.Add("f", Run{Artifact: Artifact{ID: sha('e'), Kind: KindCommit, Date: day0.Add(4 * time.Hour), Branch: "feature"}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 5)}})
	b.Add("v", Run{Artifact: Artifact{ID: "v1.0.0", Kind: KindTag, Date: day0.Add(5 * time.Hour)}, Machine: m, Results: []Result{result("x", "wall-time", "ns", 6)}})
	d := b.Dataset()

	var ids []string
	for _, a := range d.Artifacts {
		ids = append(ids, a.ID[:1])
	}
	if got := strings.Join(ids, ""); got != "abcdev" {
		t.Errorf("artifact order = %s, want abcdev (by date)", got)
	}
	var line []string
	for _, a := range d.MainLine {
		line = append(line, d.Artifacts[a].ID[:1])
	}
	if got := strings.Join(line, ""); got != "abc" {
		t.Errorf("main line = %s, want abc (commits of the most common branch)", got)
	}
	if len(d.Series) != 1 || len(d.Series[0].Points) != 6 {
		t.Fatalf("series = %+v", d.Series)
	}
	// Best of lower-is-better samples is the minimum.
	if p := d.Series[0].At(1); p == nil || p.Value != 1.5 || !p.OK {
		t.Errorf("point b = %+v, want best 1.5", p)
	}
	if prev, ok := d.Previous(2); !ok || prev != 1 || !d.Contiguous(1, 2) {
		t.Errorf("Previous/Contiguous of c wrong")
	}
	if _, ok := d.Previous(0); ok {
		t.Error("the first commit has a predecessor")
	}
	if head, ok := d.PRHead(9); !ok || d.Artifacts[head].ID != sha('d') {
		t.Errorf("PRHead(9) = %v", head)
	}
	if base, ok := d.PRBase(3); !ok || d.Artifacts[base].ID != sha('c') {
		t.Errorf("PRBase(try) = %v, want its baseline", base)
	}
	for ref, want := range map[string]string{sha('b'): sha('b'), "bbbb": sha('b'), "pr/7": sha('b'), "pr/9": sha('d'), "v1.0.0": "v1.0.0"} {
		i, err := d.Resolve(ref)
		if err != nil || d.Artifacts[i].ID != want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", ref, i, err, want)
		}
	}
	for ref, want := range map[string]string{"abc": "at least 4 characters", "ffff": "unknown artifact", "pr/x": "not a PR reference", "pr/07": "not a PR reference", "pr/8": "no results for PR #8"} {
		if _, err := d.Resolve(ref); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) error = %v, want %q", ref, err, want)
		}
	}
}

func TestBuilderWarnings(t *testing.T) {
	b := NewBuilder(BuildOptions{})
	b.Add("one.json", Run{Artifact: Artifact{ID: sha('a'), Date: day0, Title: "first"}, Machine: Machine{Name: "m", OS: "linux"}, Results: []Result{result("x", "wall-time", "ns", 1)}})
	// More detail for the machine is fine; a different date, title and
	// OS conflict; the same result twice is a duplicate; a different unit
	// for the same series is refused.
	b.Add("two.json", Run{Artifact: Artifact{ID: sha('a'), Date: day0.Add(time.Hour), Title: "second"}, Machine: Machine{Name: "m", OS: "linux", Cores: 8}, Results: []Result{result("x", "wall-time", "ns", 2)}})
	b.Add("three.json", Run{Artifact: Artifact{ID: sha('b'), Date: day0.Add(time.Hour)}, Machine: Machine{Name: "m", OS: "darwin"}, Results: []Result{result("x", "wall-time", "s", 2)}})
	b.Add("four.json", Run{Artifact: Artifact{ID: sha('c')}, Machine: Machine{Name: "m"}, Results: []Result{result("x", "wall-time", "ns", 2)}})
	d := b.Dataset()
	var got []string
	for _, w := range d.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"two.json: artifact " + sha('a') + " has date 2026-09-07T11:00:00Z, but one.json says 2026-09-07T10:00:00Z; keeping 2026-09-07T10:00:00Z",
		"two.json: artifact " + sha('a') + " has title second, but one.json says first; keeping first",
		"two.json: duplicate result for x wall-time on m at " + sha('a') + " (first in one.json); keeping the first",
		`three.json: machine "m" is described differently than in an earlier archive; keeping the first description`,
		`three.json: x wall-time has unit "s", but earlier archives say "ns"; skipping it`,
		"four.json: artifact " + sha('c') + " has no date and the project history does not know it; skipping its results",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if d.Machines[0].Cores != 8 {
		t.Errorf("machine details were not merged: %+v", d.Machines[0])
	}
}

func TestBuilderProjectHistory(t *testing.T) {
	// Archives carry only the sha; the project's history supplies the rest
	// and defines the main line (first-parent order, not dates).
	history := []Artifact{
		{ID: sha('a'), Kind: KindCommit, Date: day0, Title: "Initial", Branch: "main"},
		{ID: sha('b'), Kind: KindCommit, Date: day0.Add(-time.Hour), Parents: []string{sha('a'), sha('f')}, Title: "Speed up (#12)", PR: 12, Branch: "main"},
	}
	b := NewBuilder(BuildOptions{History: history, Metrics: map[string]Metric{"speed": {Direction: HigherIsBetter, Noise: Reliable}}})
	for _, id := range []string{sha('b'), sha('a')} {
		b.Add(id, Run{Artifact: Artifact{ID: id}, Machine: Machine{Name: "m"}, Results: []Result{result("x", "speed", "ops", 1, 3)}})
	}
	d := b.Dataset()
	if len(d.Warnings) != 0 {
		t.Fatalf("warnings: %v", d.Warnings)
	}
	if len(d.MainLine) != 2 || d.Artifacts[d.MainLine[1]].PR != 12 || d.Artifacts[d.MainLine[1]].Title != "Speed up (#12)" {
		t.Errorf("main line from history wrong: %+v", d.Artifacts)
	}
	s := d.Series[0]
	if s.Metric.Direction != HigherIsBetter || s.Metric.Noise != Reliable || s.Points[0].Value != 3 {
		t.Errorf("metric config not applied: %+v, best = %v", s.Metric, s.Points[0].Value)
	}
}

func TestSingleValue(t *testing.T) {
	xs := []float64{3, 1, 2, 10}
	for _, tt := range []struct {
		v    ValueKind
		d    Direction
		want float64
	}{{Best, LowerIsBetter, 1}, {Best, HigherIsBetter, 10}, {Median, LowerIsBetter, 2.5}, {Mean, LowerIsBetter, 4}} {
		if got, ok := SingleValue(xs, tt.v, tt.d); !ok || got != tt.want {
			t.Errorf("SingleValue(%s, %s) = %v, want %v", tt.v, tt.d, got, tt.want)
		}
	}
	if _, ok := SingleValue(nil, Best, LowerIsBetter); ok {
		t.Error("SingleValue of no samples is ok")
	}
	if m := DefaultMetric("throughput", "MB/s"); m.Direction != HigherIsBetter || m.Noise != Noisy {
		t.Errorf("DefaultMetric(MB/s) = %+v", m)
	}
	if m := DefaultMetric("instructions:u", "count"); m.Direction != LowerIsBetter || m.Noise != Reliable {
		t.Errorf("DefaultMetric(instructions) = %+v", m)
	}
}

func TestParamsString(t *testing.T) {
	p := NewParams(map[string]string{"size": "large", "b": "x y", "a": ""})
	if got := p.String(); got != `a="" b="x y" size=large` {
		t.Errorf("Params.String = %q", got)
	}
	if v, ok := p.Get("size"); !ok || v != "large" {
		t.Errorf("Get(size) = %q, %v", v, ok)
	}
}
