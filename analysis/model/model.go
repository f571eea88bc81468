package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// ArtifactKind says what an artifact is.
type ArtifactKind string

// The artifact kinds of the archive format (the README's Archives section).
const (
	KindCommit ArtifactKind = "commit" // a commit, usually on the main line
	KindTry    ArtifactKind = "try"    // a try run of an open PR against Baseline
	KindTag    ArtifactKind = "tag"    // a tag or release
	KindLocal  ArtifactKind = "local"  // a developer's local build
)

// Valid reports whether k is one of the known kinds.
func (k ArtifactKind) Valid() bool {
	switch k {
	case KindCommit, KindTry, KindTag, KindLocal:
		return true
	}
	return false
}

// Artifact is what was benchmarked: a commit (ID is the full sha), a try
// build, a tag or a local build.
type Artifact struct {
	ID       string
	Kind     ArtifactKind
	Date     time.Time // UTC
	Parents  []string
	Branch   string
	PR       int    // 0 when unknown
	Title    string // commit subject or PR title
	Author   string
	Baseline string // for try runs: the artifact the run is compared with
}

// Short is the first 7 characters of a commit id (the whole id otherwise),
// as rustc-perf and GitHub show commits.
func (a Artifact) Short() string {
	if (a.Kind == KindCommit || a.Kind == KindTry) && len(a.ID) > 7 && isHex(a.ID) {
		return a.ID[:7]
	}
	return a.ID
}

// Label is how a page names the artifact: "#PR" when it came from a PR,
// else the short id (rustc-perf shows "#PR", else the date, else the sha).
func (a Artifact) Label() string {
	if a.PR > 0 && a.Kind != KindTag {
		return fmt.Sprintf("#%d", a.PR)
	}
	return a.Short()
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// IsSHA reports whether s looks like a full or abbreviated git object id
// (4 to 64 lower-case hex digits).
func IsSHA(s string) bool { return len(s) >= 4 && len(s) <= 64 && isHex(s) }

// Machine is where a run happened. Series from different machines are
// never mixed.
type Machine struct {
	Name        string
	OS          string
	Arch        string
	CPU         string
	Cores       int
	MemoryBytes int64
	Labels      Params
}

// Param is one key/value pair of a test case's parameters or a context.
type Param struct {
	Key, Value string
}

// Params is a set of key/value pairs sorted by key, with unique keys. It is
// a slice rather than a map so that every walk over it is deterministic.
type Params []Param

// NewParams returns the pairs of m sorted by key.
func NewParams(m map[string]string) Params {
	if len(m) == 0 {
		return nil
	}
	p := make(Params, 0, len(m))
	for k, v := range m {
		p = append(p, Param{k, v})
	}
	slices.SortFunc(p, func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	return p
}

// Get returns the value of key and whether it is set.
func (p Params) Get(key string) (string, bool) {
	for _, kv := range p {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// String is the canonical form "k=v k2=v2"; it is the part of a series key
// that the parameters contribute. Keys and values are quoted when they hold
// a space, '=' or a quote, so distinct sets never share a string.
func (p Params) String() string {
	var b strings.Builder
	for i, kv := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteParam(kv.Key))
		b.WriteByte('=')
		b.WriteString(quoteParam(kv.Value))
	}
	return b.String()
}

func quoteParam(s string) string {
	if s == "" || strings.ContainsAny(s, " =\"\\\t\n\r") {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// Category splits test cases into primary (the ones that decide a
// comparison's direction) and secondary benchmarks, as rustc-perf does.
type Category string

// The two categories; an empty category in an archive means primary.
const (
	Primary   Category = "primary"
	Secondary Category = "secondary"
)

// TestCase is a benchmark with its parameters.
type TestCase struct {
	Benchmark string
	Params    Params
	Category  Category
}

// String is "benchmark" or "benchmark k=v …".
func (tc TestCase) String() string {
	if len(tc.Params) == 0 {
		return tc.Benchmark
	}
	return tc.Benchmark + " " + tc.Params.String()
}

// Direction says which way a metric improves.
type Direction string

// Directions.
const (
	LowerIsBetter  Direction = "lower"
	HigherIsBetter Direction = "higher"
)

// Noise is a metric's noise class; it sets the magnitude noise factor of
// rustc-perf's absolute buckets.
type Noise string

// Noise classes.
const (
	Reliable Noise = "reliable" // counts such as instructions: noise factor 1
	Noisy    Noise = "noisy"    // everything else: noise factor 2
)

// NoiseFactor is rustc-perf's divisor of the absolute magnitude buckets.
func (n Noise) NoiseFactor() float64 {
	if n == Reliable {
		return 1
	}
	return 2
}

// Metric describes what a value measures.
type Metric struct {
	Name      string
	Unit      string
	Direction Direction
	Noise     Noise
	// Guessed marks a Direction that nothing stated: not the result, not
	// the configuration, and its unit and name do not say (a "%", asv's
	// "speedup"). It is taken as lower is better, and the dataset warns
	// once per metric (see Dataset.Warnings).
	Guessed bool
}

// DefaultMetric fills in what the archive format leaves implicit: rates
// (IsRate: "MB/s", "ops/ms") are higher-is-better, everything else lower;
// counts of instructions are reliable, everything else noisy.
// Configuration overrides both. A direction the unit and the name do not
// tell is Guessed (see KnownDirection).
func DefaultMetric(name, unit string) Metric {
	m := Metric{Name: name, Unit: unit, Direction: LowerIsBetter, Noise: Noisy, Guessed: !KnownDirection(name, unit)}
	if higherByUnit(name, unit) {
		m.Direction = HigherIsBetter
	}
	if strings.HasPrefix(name, "instructions") {
		m.Noise = Reliable
	}
	return m
}

// KnownDirection reports whether a metric's unit or name tells which way
// is better: a rate ("/s", "/sec", "hz", "ops", a throughput) is higher
// is better; a time, a size, a count of work or of allocations ("/op",
// "/iter", "instructions", "cycles", "bytes", "ns"…) is lower. Anything
// else — a percentage, a ratio, a speedup, a score — could be either.
func KnownDirection(name, unit string) bool {
	u, n := strings.ToLower(unit), strings.ToLower(name)
	switch {
	case higherByUnit(name, unit):
		return true
	case IsTimeOrSize(u), strings.HasSuffix(u, "/op"), strings.HasSuffix(u, "/iter"),
		strings.HasSuffix(u, "/run"), strings.HasSuffix(u, "/call"):
		return true
	}
	switch u {
	case "count", "instructions", "cycles", "allocs", "allocations", "instr", "kb", "pages", "faults",
		"min", "minutes", "h", "hours", "day", "days", "kib", "mib", "gib", "tb", "tib", "bits":
		return true
	case "":
		for _, p := range []string{"wall", "time", "duration", "latency", "instructions", "cycles", "rss", "size", "alloc", "memory", "faults", "cpu-clock", "task-clock", "branch-misses", "cache-misses"} {
			if strings.Contains(n, p) {
				return true
			}
		}
	}
	return false
}

// higherByUnit reports whether a metric's unit or name says higher is
// better: a rate (IsRate), a frequency or a count per second written as
// one word ("Hz", "ops", "rps", "qps"), or a throughput by name. The one
// definition DefaultMetric and KnownDirection share: KnownDirection took
// these as telling while DefaultMetric made all but IsRate's lower is
// better, so a series in "rps" was lower is better without a warning.
func higherByUnit(name, unit string) bool {
	u := strings.ToLower(unit)
	return IsRate(u) || u == "hz" || u == "ops" || u == "rps" || u == "qps" ||
		strings.Contains(strings.ToLower(name), "throughput")
}

// IsRate reports whether unit is an amount per unit of time: "MB/s",
// "iter/sec", "req/second", and JMH's throughput in other time units
// ("ops/ms", "ops/us", "ops/min"), which a tool writes when a benchmark
// sets its output time unit. A time per time ("s/s") is a ratio, not a
// rate.
func IsRate(unit string) bool {
	amount, per, ok := strings.Cut(strings.ToLower(unit), "/")
	if !ok || amount == "" || strings.Contains(per, "/") || rateTimes[amount] {
		return false
	}
	return rateTimes[per]
}

// rateTimes are the time units a rate is per.
var rateTimes = map[string]bool{
	"ns": true, "us": true, "µs": true, "μs": true, "ms": true,
	"s": true, "sec": true, "second": true, "min": true, "minute": true,
	"h": true, "hr": true, "hour": true, "day": true,
}

// IsTimeOrSize reports whether samples of this unit are durations or sizes,
// for which a negative value is invalid.
func IsTimeOrSize(unit string) bool {
	switch strings.ToLower(unit) {
	case "ns", "us", "µs", "μs", "ms", "s", "sec", "seconds", "sec/op", "ns/op",
		"b", "byte", "bytes", "kb", "kib", "mb", "mib", "gb", "gib", "b/op":
		return true
	}
	return false
}

// Result is one measurement: samples of one metric of one test case in one
// run. A failed benchmark has Error set and is excluded from statistics.
type Result struct {
	Case    TestCase
	Metric  string
	Unit    string
	Samples []float64
	Iters   []float64 // optional per-sample iteration counts (Criterion's linear sampling)
	Error   string
	// Direction is the metric's direction when the source says so (a
	// tool's "bigger is better", a Go "Unit … better=higher" line); ""
	// leaves it to the metric's configuration or its unit.
	Direction Direction
	// Summary is the summary statistics a tool kept instead of the
	// samples (pytest-benchmark in data.js); nil for everything else, so
	// that a result without one costs a pointer.
	Summary *SampleSummary
	// Range is the spread the tool printed beside its value, as it wrote
	// it: cargo's "± 1,234" (max − min of its samples), benchmarkjs'
	// "±1.23%" (a relative margin of error). Pages show it beside the
	// value; no statistic uses it, since each tool means another thing.
	Range string
}

// SampleSummary is what a tool kept of a result's samples when it did not
// keep the samples: their mean, standard deviation (Bessel's, n − 1) and
// count. pytest-benchmark's records in github-action-benchmark's data.js
// carry one (the time per round: "mean: 1.23 msec", "rounds: 50",
// "stddev: 0.0012"), while the result's value is the tool's single number
// (ops/s). The summary's quantity need not be the value's: for pytest it
// is its reciprocal, so only the test of the two summaries, not the sign
// of their difference, is compared with the change (see
// analysis.BasisSummary). Mean and StdDev are in one unit for every result
// of a series (the reader's job: seconds for pytest).
type SampleSummary struct {
	Mean, StdDev float64
	N            int
}

// Pool is the summary of the union of the samples s and o summarize (a
// benchmark run twice for one commit): the counts add, the mean is the
// weighted mean and the variance the pooled one, exactly, from
// Σ(x − m)² = (n − 1)·sd² + n·(m − M)² on each side.
func (s SampleSummary) Pool(o SampleSummary) SampleSummary {
	n := s.N + o.N
	if n == 0 {
		return SampleSummary{}
	}
	ns, no := float64(s.N), float64(o.N)
	m := (ns*s.Mean + no*o.Mean) / float64(n)
	ss := func(x SampleSummary, k float64) float64 {
		if k == 0 {
			return 0
		}
		d := x.Mean - m
		return (k-1)*x.StdDev*x.StdDev + k*d*d
	}
	sd := 0.0
	if n > 1 {
		sd = math.Sqrt((ss(s, ns) + ss(o, no)) / float64(n-1))
	}
	return SampleSummary{Mean: m, StdDev: sd, N: n}
}

// Run is the content of one archive: one artifact benchmarked on one
// machine in one context.
type Run struct {
	Artifact Artifact
	Machine  Machine
	Context  Params
	Results  []Result
}

// ValueKind chooses the single value of a result (configuration key
// analysis.value).
type ValueKind string

// Single-value rules.
const (
	Best   ValueKind = "best"   // min for lower-is-better, max for higher (rustc-perf, Conbench)
	Median ValueKind = "median" // benchstat, Criterion (and perfgate's statistic)
	Mean   ValueKind = "mean"
	// Auto is the default: Best for reliable metrics (counts such as
	// instructions, whose minimum is the least disturbed run), Median for
	// noisy ones, so that a comparison's delta is the one benchstat and
	// Criterion print for the same samples. A result with one sample has
	// the same value under every rule, so the choice only matters where
	// there are samples. [ValueKind.For] resolves it per series.
	Auto ValueKind = "auto"
)

// Valid reports whether v is a known rule; empty is Auto.
func (v ValueKind) Valid() bool { return v == "" || v == Best || v == Median || v == Mean || v == Auto }

// For is the rule a series of metric m is reduced with: v itself, or for
// Auto (or empty, the default), Best when m is reliable and Median
// otherwise. It is decided per metric, not per result, so that a series
// never mixes rules.
func (v ValueKind) For(m Metric) ValueKind {
	if v != Auto && v != "" {
		return v
	}
	if m.Noise == Reliable {
		return Best
	}
	return Median
}

// SingleValue reduces samples to one number by rule v for a metric that
// improves in direction d. It returns false when there are no samples.
// Auto is resolved by the caller ([ValueKind.For]); given here it means
// Best.
//
// The median is the one benchstat and Criterion report: the middle value,
// or for an even count x[lo] + (x[hi] − x[lo])·½ of the two middle ones
// (benchmath's R8 quantile at ½ and Criterion's 50th percentile reduce to
// exactly this expression, bit for bit), which can differ in the last bit
// from (x[lo] + x[hi]) / 2, perfgate's (analysis.MedianOf): [quantile.Linear]
// at ½.
func SingleValue(samples []float64, v ValueKind, d Direction) (float64, bool) {
	if len(samples) == 0 {
		return 0, false
	}
	switch v {
	case Median:
		return quantile.LinearOf(samples, 0.5), true
	case Mean:
		return MeanOf(samples), true
	default:
		x := samples[0]
		for _, s := range samples[1:] {
			if d == HigherIsBetter && s > x || d != HigherIsBetter && s < x {
				x = s
			}
		}
		return x, true
	}
}

// MeanOf is the arithmetic mean of xs, 0 for an empty slice.
func MeanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}
