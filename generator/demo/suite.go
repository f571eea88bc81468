package demo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
)

// metricKind is one of the four metrics the generator knows how to fake.
type metricKind int

const (
	mInstructions metricKind = iota
	mMaxRSS
	mThroughput
	mWallTime
)

// metrics by kind: name and unit as archives carry them. Directions follow
// from the units (model.DefaultMetric): MB/s is higher-is-better, the rest
// lower.
var metrics = [...]struct{ name, unit string }{
	mInstructions: {"instructions:u", "count"},
	mMaxRSS:       {"max-rss", "bytes"},
	mThroughput:   {"throughput", "MB/s"},
	mWallTime:     {"wall-time", "ns"},
}

// value is one value of a parameter with its multipliers of the
// benchmark's work (instructions and time), memory and data processed.
type value struct {
	name            string
	work, mem, data float64
}

func v(name string, work, mem, data float64) value { return value{name, work, mem, data} }

type axis struct {
	key    string
	values []value
}

// bench describes a benchmark: its test cases are the product of its axes,
// each measured in every metric listed.
type bench struct {
	name     string
	category model.Category
	axes     []axis
	metrics  []metricKind
	// Levels at multiplier 1 on the reference machine.
	instructions float64 // instructions:u
	nsPerInstr   float64 // wall-time per instruction
	rss          float64 // max-rss, bytes
	data         float64 // bytes processed, for throughput
	// wallSigma is the relative noise of one wall-time sample.
	wallSigma float64
}

const (
	mib = 1 << 20
)

// demoBenchmarks is the demo site's suite: 46 test cases, 140 series per
// machine. template-render is removed and yaml-decode added by plants.
var demoBenchmarks = []bench{
	{
		name: "compile", category: model.Primary,
		axes: []axis{
			{"project", []value{v("cli-tool", 1, 1, 1), v("web-server", 3.4, 2.3, 1)}},
			{"profile", []value{v("debug", 1, 1, 1), v("opt", 2.6, 1.35, 1)}},
			{"scenario", []value{v("full", 1, 1, 1), v("incr-full", 1.12, 1.1, 1), v("incr-unchanged", 0.11, 0.55, 1)}},
		},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 1.8e10, nsPerInstr: 0.28, rss: 380 * mib, wallSigma: 0.005,
	},
	{
		name: "deep-nesting", category: model.Secondary,
		axes:         []axis{{"depth", []value{v("100", 1, 1, 1), v("10000", 140, 60, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 3.9e6, nsPerInstr: 0.34, rss: 12 * mib, wallSigma: 0.015,
	},
	{
		name: "gzip", category: model.Primary,
		axes:         []axis{{"level", []value{v("1", 1, 1, 1), v("6", 2.3, 1.5, 1), v("9", 5.2, 1.9, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS, mThroughput},
		instructions: 1.9e8, nsPerInstr: 0.24, rss: 14 * mib, data: 16 * mib, wallSigma: 0.007,
	},
	{
		name: "http-router", category: model.Primary,
		axes:         []axis{{"routes", []value{v("10", 1, 1, 1), v("100", 1.8, 2.5, 1), v("1000", 4.3, 14, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 2.2e8, nsPerInstr: 0.3, rss: 9 * mib, wallSigma: 0.01,
	},
	{
		name: "json-decode", category: model.Primary,
		axes:         []axis{{"size", []value{v("small", 1, 1, 1), v("medium", 24, 3, 25), v("large", 610, 38, 660)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS, mThroughput},
		instructions: 3.1e7, nsPerInstr: 0.26, rss: 10 * mib, data: 2 * mib, wallSigma: 0.008,
	},
	{
		name: "json-encode", category: model.Primary,
		axes:         []axis{{"size", []value{v("small", 1, 1, 1), v("large", 610, 30, 650)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS, mThroughput},
		instructions: 1.9e7, nsPerInstr: 0.22, rss: 9.5 * mib, data: 2 * mib, wallSigma: 0.008,
	},
	{
		name: "many-small-allocs", category: model.Secondary,
		axes:         []axis{{"size", []value{v("16", 1, 1, 1), v("256", 1.4, 9, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 6.2e7, nsPerInstr: 0.41, rss: 48 * mib, wallSigma: 0.025,
	},
	{
		name: "regex-compile", category: model.Primary,
		axes:         []axis{{"pattern", []value{v("alternation", 6.5, 4, 1), v("literal", 1, 1, 1), v("unicode-class", 22, 9, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 1.4e7, nsPerInstr: 0.3, rss: 9 * mib, wallSigma: 0.01,
	},
	{
		name: "regex-match", category: model.Primary,
		axes: []axis{
			{"input", []value{v("1KiB", 1, 1, 1), v("1MiB", 1024, 1.6, 1100)}},
			{"pattern", []value{v("alternation", 3.2, 1.2, 1), v("literal", 1, 1, 1)}},
		},
		metrics:      []metricKind{mInstructions, mWallTime, mThroughput},
		instructions: 2.6e6, nsPerInstr: 0.18, data: 1 * mib, wallSigma: 0.009,
	},
	{
		name: "sort", category: model.Primary,
		axes: []axis{
			{"n", []value{v("1000", 1, 1, 1), v("1000000", 1900, 1, 1)}},
			{"type", []value{v("ints", 1, 1, 1), v("strings", 3.4, 1, 1)}},
		},
		metrics:      []metricKind{mInstructions, mWallTime},
		instructions: 4.6e7, nsPerInstr: 0.31, wallSigma: 0.01,
	},
	{
		name: "template-render", category: model.Primary,
		axes:         []axis{{"cache", []value{v("cold", 1, 1, 1), v("warm", 0.18, 0.7, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 3.3e7, nsPerInstr: 0.29, rss: 12 * mib, wallSigma: 0.012,
	},
	{
		name: "tls-handshake", category: model.Primary,
		axes:         []axis{{"cipher", []value{v("ecdsa-p256", 1, 1, 1), v("rsa-2048", 2.7, 1, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime},
		instructions: 1.15e8, nsPerInstr: 0.27, wallSigma: 0.007,
	},
	{
		name: "unicode-normalize", category: model.Secondary,
		axes:         []axis{{"form", []value{v("nfc", 1, 1, 1), v("nfkd", 1.3, 1, 1)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mThroughput},
		instructions: 8.8e7, nsPerInstr: 0.25, data: 64 * mib, wallSigma: 0.008,
	},
	{
		name: "yaml-decode", category: model.Primary,
		axes:         []axis{{"size", []value{v("small", 1, 1, 1), v("large", 500, 30, 520)}}},
		metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS},
		instructions: 9.0e7, nsPerInstr: 0.29, rss: 11 * mib, wallSigma: 0.005,
	},
}

func demoSeriesPerMachine() int {
	return len(expand(demoBenchmarks, 0))
}

// slot is one test case × metric: a column of every run's results.
type slot struct {
	tc     model.TestCase
	params string // tc.Params.String()
	metric metricKind
	level  float64 // on the reference machine, before per-series jitter
	sigma  float64 // relative noise of one sample, before jitter
	// from and to bound the main-line positions with a result: [from, to).
	from, to int
}

// variant is one test case of a benchmark with its multipliers.
type variant struct {
	params          model.Params
	work, mem, data float64
}

// variants is the product of a benchmark's axes.
func (b *bench) variants() []variant {
	var out []variant
	var walk func(i int, ps model.Params, work, mem, data float64)
	walk = func(i int, ps model.Params, work, mem, data float64) {
		if i == len(b.axes) {
			p := slices.Clone(ps)
			slices.SortFunc(p, func(x, y model.Param) int { return strings.Compare(x.Key, y.Key) })
			out = append(out, variant{p, work, mem, data})
			return
		}
		for _, val := range b.axes[i].values {
			walk(i+1, append(ps, model.Param{Key: b.axes[i].key, Value: val.name}), work*val.work, mem*val.mem, data*val.data)
		}
	}
	walk(0, nil, 1, 1, 1)
	return out
}

// expand expands benchmarks into their slots, sorted as results are sorted
// in a run: by benchmark, parameter string, metric name. limit caps the
// count (0: no cap).
func expand(benches []bench, limit int) []slot {
	var out []slot
	for _, b := range benches {
		for _, c := range b.variants() {
			tc := model.TestCase{Benchmark: b.name, Params: c.params, Category: b.category}
			for _, m := range b.metrics {
				s := slot{tc: tc, params: c.params.String(), metric: m, to: math.MaxInt}
				wallLevel := b.instructions * c.work * b.nsPerInstr
				switch m {
				case mInstructions:
					s.level = b.instructions * c.work
				case mWallTime:
					s.level, s.sigma = wallLevel, b.wallSigma
				case mMaxRSS:
					s.level, s.sigma = b.rss*c.mem, 0.002
				case mThroughput:
					// bytes per ns is GB/s; MB/s is a thousand times that.
					s.level, s.sigma = b.data*c.data/wallLevel*1000, b.wallSigma*1.3+0.002
				}
				out = append(out, s)
				if limit > 0 && len(out) == limit {
					return sortSlots(out)
				}
			}
		}
	}
	return sortSlots(out)
}

func sortSlots(s []slot) []slot {
	slices.SortStableFunc(s, func(a, b slot) int {
		return cmp.Or(
			strings.Compare(a.tc.Benchmark, b.tc.Benchmark),
			strings.Compare(a.params, b.params),
			strings.Compare(metrics[a.metric].name, metrics[b.metric].name),
		)
	})
	return s
}

// syntheticBenchmarks generates enough benchmarks for n series:
// bench-NNNN with 4 to 6 variants a, b, …; every fourth lacks throughput,
// every fifth is secondary. Levels span five orders of magnitude.
func syntheticBenchmarks(n int, seed uint64) []bench {
	var out []bench
	for i, total := 0, 0; total < n; i++ {
		h := hashAt(seed, saltLevel, i)
		b := bench{
			name:         fmt.Sprintf("bench-%04d", i),
			category:     model.Primary,
			metrics:      []metricKind{mInstructions, mWallTime, mMaxRSS, mThroughput},
			instructions: math.Round(math.Pow(10, 6+4*unit(h))),
			nsPerInstr:   0.18 + 0.3*unit(mix(h^1)),
			rss:          math.Round(math.Pow(2, 23+6*unit(mix(h^2)))),
			wallSigma:    0.004 + 0.016*unit(mix(h^3)),
		}
		b.data = b.instructions / (4 + 16*unit(mix(h^4)))
		if i%5 == 4 {
			b.category = model.Secondary
		}
		if i%4 == 2 {
			b.metrics = b.metrics[:3]
		}
		var vals []value
		for k := range 4 + i%3 {
			f := math.Pow(1.6, float64(k))
			vals = append(vals, v(string(rune('a'+k)), f, math.Sqrt(f), f))
		}
		b.axes = []axis{{"variant", vals}}
		out = append(out, b)
		total += len(vals) * len(b.metrics)
	}
	return out
}
