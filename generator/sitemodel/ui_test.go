package sitemodel

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/route"
)

// contextDataset is two commits benchmarked under python=2.7 and 3.4:
// parse size=small in both (series that differ only by context), a
// benchmark only under 3.4, and 3.4's allocations going from 0 to 5.
func contextDataset(t testing.TB) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	m := model.Machine{Name: "linux-x64", OS: "linux", Arch: "amd64"}
	res := func(bench, metric, unit string, v float64) model.Result {
		return model.Result{Case: model.TestCase{Benchmark: bench, Params: model.Params{{Key: "size", Value: "small"}}},
			Metric: metric, Unit: unit, Samples: []float64{v}}
	}
	for i, id := range []string{sha1, sha2} {
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Branch: "main"}
		if i > 0 {
			a.Parents = []string{sha1}
		}
		for _, py := range []string{"2.7", "3.4"} {
			run := model.Run{Artifact: a, Machine: m, Context: model.Params{{Key: "python", Value: py}},
				Results: []model.Result{res("parse", "wall-time", "ns", 1000*float64(1+i))}}
			if py == "3.4" {
				run.Results = append(run.Results, res("alone", "wall-time", "ns", 100*float64(1+i)), res("parse", "allocs", "count", 5*float64(i)))
			}
			b.Add(id+"-"+py+".json", run)
		}
	}
	return b.Dataset()
}

// Series that differ only by context show the context values that tell
// them apart, in every view that lists series; a series alone in its test
// case shows none.
func TestContextShown(t *testing.T) {
	_, outs := planModel(t, contextDataset(t), smallOptions(), analysis.ModelRustcPerf)
	py := func(v string) model.Params { return model.Params{{Key: "python", Value: v}} }
	got := map[string]model.Params{}
	var bars []Bar
	for _, o := range outs {
		switch v := o.Data.(type) {
		case SeriesIndex:
			for _, r := range v.Series {
				got["index "+r.Benchmark+" "+r.Metric+" "+r.Context.String()] = r.ContextShown
			}
		case Comparison:
			if o.Path != "commit/"+sha2+"/" {
				continue
			}
			for _, m := range v.Metrics {
				for _, r := range m.Primary {
					got["row "+r.Benchmark+" "+r.Metric+" "+r.Context.String()] = r.ContextShown
				}
				if m.Chart != nil {
					bars = append(bars, m.Chart.Bars...)
				}
			}
		case Bench:
			for _, s := range v.Series {
				got["bench "+v.Name+" "+s.Metric+" "+s.Context.String()] = s.ContextShown
			}
		}
	}
	want := map[string]model.Params{
		"index parse wall-time python=2.7": py("2.7"), "index parse wall-time python=3.4": py("3.4"),
		"index parse allocs python=3.4": nil, "index alone wall-time python=3.4": nil,
		"row parse wall-time python=2.7": py("2.7"), "row parse wall-time python=3.4": py("3.4"),
		"row parse allocs python=3.4": nil, "row alone wall-time python=3.4": nil,
		"bench parse wall-time python=2.7": py("2.7"), "bench parse wall-time python=3.4": py("3.4"),
		"bench parse allocs python=3.4": nil, "bench alone wall-time python=3.4": nil,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("context shown (-want +got):\n%s", d)
	}
	var labels []string
	for _, b := range bars {
		labels = append(labels, b.Label)
		if b.Label == "parse size=small · linux-x64" && !b.New {
			t.Errorf("the change from 0 of allocs is not marked new: %+v", b)
		}
		if b.New && (b.Percent != 1 || !strings.Contains(b.Text, "∞")) {
			t.Errorf("new bar %+v: want percent 1 (its sign) and the text +∞%%", b)
		}
		if math.Abs(b.Percent) > 1e300 {
			t.Errorf("bar %+v stretches the scale", b)
		}
	}
	slices.Sort(labels)
	wantLabels := []string{"alone size=small · linux-x64", "parse size=small · linux-x64", "parse size=small [python=2.7] · linux-x64", "parse size=small [python=3.4] · linux-x64"}
	slices.Sort(wantLabels)
	if d := cmp.Diff(wantLabels, labels); d != "" {
		t.Errorf("bar labels (-want +got):\n%s", d)
	}
}

// A benchmark's series index lists exactly the chunks that have a data
// file of it, in a cold plan and in one that keeps the previous plan's
// files: its pages fetch no file that does not exist.
func TestSeriesIndexChunks(t *testing.T) {
	// Three commits; "early" runs at the first only.
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	for i, id := range []string{sha1, sha2, sha3} {
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Branch: "main"}
		if i > 0 {
			a.Parents = []string{[]string{sha1, sha2}[i-1]}
		}
		rs := []model.Result{{Case: model.TestCase{Benchmark: "always"}, Metric: "wall-time", Unit: "ns", Samples: []float64{100}}}
		if i == 0 {
			rs = append(rs, model.Result{Case: model.TestCase{Benchmark: "early"}, Metric: "wall-time", Unit: "ns", Samples: []float64{100}})
		}
		b.Add(id+".json", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: rs})
	}
	d := b.Dataset()
	opts := smallOptions()
	opts.Chunk = 1
	opts.SiteKey = "test"
	for i := range d.MainLine {
		opts.Chain = append(opts.Chain, "chain-"+d.Artifacts[d.MainLine[i]].ID)
	}
	for _, a := range d.Artifacts {
		opts.ArtifactKeys = append(opts.ArtifactKeys, "art-"+a.ID)
	}
	mem := &memBriefs{m: map[string]Brief{}}
	opts.Briefs = mem
	// The indexes by path, as the last plan computed them: a plan keeps
	// an index whose data did not change (outByData).
	last := map[string]SeriesIndex{}
	check := func(name string, outs []Output) {
		t.Helper()
		// The data files by group ("series/<seg>", or "packs/<n>" for
		// the benchmarks of one series, which share their pack's), and
		// each benchmark's index's chunks beside its group's files.
		files := map[string][]int{}
		groupOf := map[string]string{}
		indexes := map[string][]int{}
		for _, o := range outs {
			var group string
			var chunk int
			if n, _ := fmtSscan(o.Path, &group, &chunk); n == 2 {
				files[group] = append(files[group], chunk)
			}
			v, ok := o.Data.(SeriesIndex)
			if o.Keep && strings.HasPrefix(o.Path, "data/index/") {
				v, ok = last[o.Path]
				if !ok {
					t.Fatalf("%s: %s kept, not planned before", name, o.Path)
				}
			}
			if ok {
				last[o.Path] = v
				seg := strings.TrimSuffix(strings.TrimPrefix(o.Path, "data/index/"), ".json.gz")
				indexes[seg] = v.Chunks
				groupOf[seg] = "series/" + seg
				if v.Pack != nil {
					groupOf[seg] = "packs/" + strconv.Itoa(*v.Pack)
				}
			}
		}
		want := map[string][]int{}
		for seg, g := range groupOf {
			slices.Sort(files[g])
			want[seg] = files[g]
		}
		if d := cmp.Diff(want, indexes); d != "" {
			t.Errorf("%s: data files (-) and the indexes' chunks (+):\n%s", name, d)
		}
		if groupOf["early"] == groupOf["always"] || !strings.HasPrefix(groupOf["early"], "packs/") {
			t.Errorf("%s: early and always (one series each) in packs %q and %q, want two packs", name, groupOf["early"], groupOf["always"])
		}
		if len(files[groupOf["early"]]) == len(d.MainLine) {
			t.Errorf("%s: early (run at the first commit only) has a file per chunk: the test shows nothing", name)
		}
	}
	_, cold := planAll(t, d, opts)
	check("cold", cold)
	opts.Known = map[string]string{}
	for _, o := range cold {
		if o.Key != "" {
			opts.Known[route.File(o.Path)] = o.Key
		}
	}
	_, kept := planAll(t, d, opts)
	n := 0
	for _, o := range kept {
		if o.Keep && (strings.HasPrefix(o.Path, "data/series/") || strings.HasPrefix(o.Path, "data/packs/")) {
			n++
		}
	}
	if n == 0 {
		t.Fatal("the second plan kept no series data file")
	}
	check("kept", kept)
}

// fmtSscan reads "data/series/<seg>/<chunk>.json.gz" and
// "data/packs/<n>/<chunk>.json.gz" into group "series/<seg>" or
// "packs/<n>" and the chunk.
func fmtSscan(path string, group *string, chunk *int) (int, error) {
	rest, ok := strings.CutPrefix(path, "data/")
	if !ok || !strings.HasPrefix(rest, "series/") && !strings.HasPrefix(rest, "packs/") {
		return 0, nil
	}
	dir, file := rest[:strings.LastIndexByte(rest, '/')], rest[strings.LastIndexByte(rest, '/')+1:]
	num, ok := strings.CutSuffix(file, ".json.gz")
	if !ok || num == "index" {
		return 0, nil
	}
	c, err := strconv.Atoi(num)
	if err != nil {
		return 0, nil
	}
	*group, *chunk = dir, c
	return 2, nil
}

type memBriefs struct {
	mu sync.Mutex
	m  map[string]Brief
}

func (b *memBriefs) Brief(key string) (Brief, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	x, ok := b.m[key]
	return x, ok
}

func (b *memBriefs) PutBrief(key string, x Brief) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[key] = x
}

// A changes chart writes beside each bar only what tells it from the
// others, and once above the chart what every bar has.
func TestShortenBars(t *testing.T) {
	bench := func(v string) BarPart { return BarPart{Value: v} }
	param := func(k, v string) BarPart { return BarPart{Key: k, Value: v} }
	common := func(k, v string) BarPart { return BarPart{Key: k, Value: v, Common: true} }
	ctx := func(k, v string) BarPart { return BarPart{Key: k, Value: v, Context: true} }
	bar := func(machine string, parts ...BarPart) Bar { return Bar{Parts: parts, Machine: machine} }
	for _, tc := range []struct {
		name       string
		bars, want []Bar
		shared     string
	}{{
		name:   "one bar keeps its name",
		bars:   []Bar{bar("m1", bench("compile"), param("profile", "opt"))},
		want:   []Bar{bar("m1", bench("compile"), param("profile", "opt"))},
		shared: "",
	}, {
		name: "shared benchmark, parameter and machine",
		bars: []Bar{
			bar("m1", bench("compile"), param("profile", "opt"), param("scenario", "full")),
			bar("m1", bench("compile"), param("profile", "debug"), param("scenario", "full")),
		},
		want: []Bar{
			bar("", common("profile", "opt")),
			bar("", common("profile", "debug")),
		},
		shared: "compile scenario=full · m1",
	}, {
		name: "machines differ, a key only some have",
		bars: []Bar{
			bar("graviton", bench("deep-nesting"), param("depth", "100")),
			bar("epyc", bench("deep-nesting"), param("depth", "100")),
			bar("epyc", bench("regex"), param("pattern", "literal")),
		},
		want: []Bar{
			bar("graviton", bench("deep-nesting"), param("depth", "100")),
			bar("epyc", bench("deep-nesting"), param("depth", "100")),
			bar("epyc", bench("regex"), param("pattern", "literal")),
		},
		shared: "",
	}, {
		name: "only the context differs",
		bars: []Bar{
			bar("m1", bench("parse"), param("size", "small"), ctx("python", "2.7")),
			bar("m1", bench("parse"), param("size", "small"), ctx("python", "3.4")),
		},
		want: []Bar{
			bar("", BarPart{Key: "python", Value: "2.7", Context: true, Common: true}),
			bar("", BarPart{Key: "python", Value: "3.4", Context: true, Common: true}),
		},
		shared: "parse size=small · m1",
	}, {
		name: "nothing written tells them apart",
		bars: []Bar{
			bar("m1", bench("parse"), param("size", "small")),
			bar("m1", bench("parse"), param("size", "small")),
		},
		want: []Bar{
			bar("m1", bench("parse"), param("size", "small")),
			bar("m1", bench("parse"), param("size", "small")),
		},
		shared: "parse size=small · m1",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			bars := slices.Clone(tc.bars)
			shared := shortenBars(bars)
			if shared != tc.shared {
				t.Errorf("shared %q, want %q", shared, tc.shared)
			}
			if d := cmp.Diff(tc.want, bars); d != "" {
				t.Errorf("bars (-want +got):\n%s", d)
			}
		})
	}
}

// ChunkLen: 32·2^j positions of at most 1,024 values, at most 256
// positions, the site's chunk for a benchmark of 32 series or more.
func TestChunkLen(t *testing.T) {
	for _, c := range []struct{ chunk, series, want int }{
		{32, 1, 256}, {32, 2, 256}, {32, 3, 256}, {32, 4, 256}, {32, 5, 128}, {32, 16, 64}, {32, 17, 32},
		{32, 32, 32}, {32, 33, 32}, {32, 500, 32}, {32, 0, 256}, {1, 36, 16}, {1, 1, 256}, {2048, 1, 2048},
	} {
		if got := ChunkLen(c.chunk, c.series); got != c.want {
			t.Errorf("ChunkLen(%d, %d) = %d, want %d", c.chunk, c.series, got, c.want)
		}
	}
}

// A data file gathered over several of the site's chunks (a benchmark of
// few series) holds the same data as one written in one pass: with
// chunks of 1 position, every benchmark of the small dataset has one
// file of its 3 positions, gathered over 3 chunks; with chunks of 1,024,
// the same file is written at once.
func TestGatheredSeriesData(t *testing.T) {
	d := smallDataset(t)
	files := func(chunk int) map[string]string {
		opts := smallOptions()
		opts.Chunk = chunk
		_, outs := planAll(t, d, opts)
		out := map[string]string{}
		for _, o := range outs {
			if sd, ok := o.Data.(SeriesData); ok && (strings.HasPrefix(o.Path, "data/series/") || strings.HasPrefix(o.Path, "data/packs/")) {
				b, err := json.Marshal(sd)
				if err != nil {
					t.Fatal(err)
				}
				out[o.Path] = string(b)
			}
		}
		return out
	}
	one, gathered := files(1024), files(1)
	if len(one) == 0 {
		t.Fatal("no series data files")
	}
	if d := cmp.Diff(one, gathered); d != "" {
		t.Errorf("files written at once (-) and gathered (+):\n%s", d)
	}
}
