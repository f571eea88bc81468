package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// Event is a change planted in the data, for documentation and tests.
//
// Benchmark, Params, Metric and Machine select the series it touches; each
// is "*" for all. Params is "*" or a set of pairs "k=v k2=v2" that a test
// case's parameters must all include (so "scenario=full" selects every
// compile test case of that scenario).
type Event struct {
	// Artifact is the id of the commit or try run that carries the change
	// (empty for a property of the whole history, such as a bimodal series).
	Artifact string
	// Date, PR and Title are the artifact's.
	Date  time.Time
	PR    int
	Title string
	// Kind is one of the Kind… constants.
	Kind string
	// Benchmark, Params, Metric and Machine select the series touched.
	Benchmark string
	Params    string
	Metric    string
	Machine   string
	// Size is the planted relative change of the metric's value,
	// (after − before) / before: positive means the value goes up, which is
	// a regression for lower-is-better metrics and an improvement for
	// throughput. For a spike it is the jump at the artifact, for a bimodal
	// series the distance between its two levels; 0 for the rest.
	Size float64
	// Significant says that the change was planted large enough for
	// rustc-perf's significance test (threshold Q3 + 3·IQR of the percent
	// changes of the 30 ancestors of the base) to flag it on every series
	// it touches. Changes that are not marked may or may not be flagged;
	// KindNoise changes are planted to stay below the threshold.
	Significant bool
	Note        string
}

// Event kinds.
const (
	KindRegression  = "regression"  // a step change in the bad direction
	KindImprovement = "improvement" // a step change in the good direction
	KindMixed       = "mixed"       // a PR whose changes go both ways
	KindNoise       = "noise"       // a real but tiny step change, below significance
	KindSpike       = "spike"       // a one-commit outlier; the next commit is back to normal
	KindFailure     = "failure"     // the benchmark failed: results with Error and no samples
	KindBimodal     = "bimodal"     // each run lands on one of two levels
	KindAdded       = "added"       // a benchmark's first commit
	KindRemoved     = "removed"     // the first commit without a benchmark
	KindNone        = "none"        // a try run planted with no change at all
)

// Matches reports whether the event touches the series of test case tc,
// metric and machine.
func (e Event) Matches(machine string, tc model.TestCase, metric string) bool {
	m, err := parseMatcher(effect{bench: e.Benchmark, params: e.Params, metric: e.Metric, machine: e.Machine})
	return err == nil && m.match(machine, tc, metric)
}

// effect is one planted change of a plant.
type effect struct {
	bench, params, metric, machine string // "*" or "" for all
	size                           float64
	sig                            bool
}

type matcher struct {
	bench, metric, machine string
	params                 model.Params
}

func parseMatcher(e effect) (matcher, error) {
	m := matcher{bench: e.bench, metric: e.metric, machine: e.machine}
	if e.params != "" && e.params != "*" {
		for _, f := range strings.Fields(e.params) {
			k, val, ok := strings.Cut(f, "=")
			if !ok || k == "" {
				return m, fmt.Errorf("bad parameter selector %q (want k=v pairs)", e.params)
			}
			m.params = append(m.params, model.Param{Key: k, Value: val})
		}
	}
	return m, nil
}

func wild(s string) bool { return s == "" || s == "*" }

func (m matcher) match(machine string, tc model.TestCase, metric string) bool {
	if !wild(m.bench) && m.bench != tc.Benchmark || !wild(m.metric) && m.metric != metric || !wild(m.machine) && m.machine != machine {
		return false
	}
	for _, p := range m.params {
		if got, ok := tc.Params.Get(p.Key); !ok || got != p.Value {
			return false
		}
	}
	return true
}

// when places a plant on the main line: at a fraction of the history
// (synthetic suite), or at the first commit at or after a time of a week
// of the calendar (demo suite), which must fall in that week.
type when struct {
	frac            float64
	week, day, hour int
}

// plant is a planted change: one commit (or a few, for failures), its
// title and its effects.
type plant struct {
	at    when
	kind  string
	title string // the commit's title; "" keeps the generated one
	note  string
	// span is the number of consecutive failing commits (failures only).
	span int
	// fixTitle names the commit after a failure, which fixes it.
	fixTitle string
	effects  []effect
}

// tryPR is an open PR with its try runs.
type tryPR struct {
	title, branch, author string
	runs                  []tryRunSpec
}

type tryRunSpec struct {
	base    when          // baseline: a main-line commit
	after   time.Duration // after the baseline's date
	kind    string
	note    string
	effects []effect
}

const (
	epyc     = "linux-x64-epyc"
	graviton = "linux-arm64-graviton"
	all      = "*"
)

func fx(bench, params, metric string, size float64, sig bool) effect {
	return effect{bench: bench, params: params, metric: metric, machine: all, size: size, sig: sig}
}

func on(machine string, e effect) effect { e.machine = machine; return e }

const (
	instr = "instructions:u"
	wall  = "wall-time"
	rss   = "max-rss"
	tput  = "throughput"
)

// demoPlants is the demo's calendar (weeks from Monday 2026-08-31). Weeks
// 0 and 1 give the first changes 30 commits of history; week 3 is busy,
// week 5 is quiet. The new benchmark arrives in week 1: rustc-perf falls
// back to its default threshold for a test case without 30 values of
// history, which flags wall-time noise, and in weeks 0 and 1 that happens
// to every series anyway.
var demoPlants = []plant{
	{at: when{week: 1, day: 0, hour: 10}, kind: KindAdded, title: "Add YAML decoding benchmarks",
		effects: []effect{fx("yaml-decode", all, all, 0, false)}},
	{at: when{week: 2, day: 3, hour: 10}, kind: KindRegression, title: "Validate UTF-8 while decoding JSON strings",
		note: "every json-decode case pays for the validation; the wall-time part hides in the noise",
		effects: []effect{
			fx("json-decode", all, instr, 0.015, true),
			fx("json-decode", all, wall, 0.013, false),
			fx("json-decode", all, tput, 1/1.013-1, false),
		}},
	{at: when{week: 3, day: 0, hour: 14}, kind: KindImprovement, title: "Skip re-hashing unchanged packages in incremental builds",
		effects: []effect{
			fx("compile", "scenario=incr-unchanged", instr, -0.03, true),
			fx("compile", "scenario=incr-unchanged", wall, -0.028, false),
		}},
	{at: when{week: 3, day: 2, hour: 15}, kind: KindRegression, title: "Cache compiled route patterns in a sync.Map",
		note: "only the ARM machine regresses",
		effects: []effect{
			on(graviton, fx("http-router", "routes=1000", wall, 0.08, true)),
		}},
	{at: when{week: 3, day: 3, hour: 9}, kind: KindFailure, title: "Move the TLS benchmarks to the new certificate fixtures",
		note: "exit status 2", span: 2, fixTitle: "Restore the RSA certificate in the TLS benchmark fixtures",
		effects: []effect{fx("tls-handshake", "cipher=rsa-2048", all, 0, false)}},
	{at: when{week: 3, day: 4, hour: 10}, kind: KindNoise, title: "Tidy up the build cache's error messages",
		note: "a real slowdown far below the wall-time noise",
		effects: []effect{
			fx("compile", "profile=debug", wall, 0.002, false),
		}},
	{at: when{week: 4, day: 3, hour: 13}, kind: KindMixed, title: "Switch sort to pattern-defeating quicksort",
		note: "large inputs get faster, small ones slower",
		effects: []effect{
			fx("sort", "n=1000000", instr, -0.07, true),
			fx("sort", "n=1000000", wall, -0.06, false),
			fx("sort", "n=1000", instr, 0.03, true),
			fx("sort", "n=1000", wall, 0.025, false),
		}},
	{at: when{week: 6, day: 1, hour: 10}, kind: KindImprovement, title: "Release type-checker memory before code generation",
		effects: []effect{
			fx("compile", "profile=opt project=web-server scenario=full", rss, -0.20, true),
		}},
	{at: when{week: 6, day: 3, hour: 16}, kind: KindSpike,
		note: "a one-off outlier on one machine: the next commit is back to normal",
		effects: []effect{
			on(epyc, fx("gzip", "level=6", wall, 0.25, true)),
		}},
	{at: when{week: 7, day: 0, hour: 12}, kind: KindRegression, title: "Record allocation call sites in the runtime profiler",
		note: "only secondary benchmarks change",
		effects: []effect{
			fx("deep-nesting", all, instr, 0.06, true),
			fx("many-small-allocs", all, instr, 0.04, true),
			fx("many-small-allocs", all, rss, 0.10, true),
		}},
	{at: when{week: 7, day: 2, hour: 9}, kind: KindNoise, title: "Reuse decode buffers across JSON benchmark iterations",
		note: "a real change far below the max-rss noise",
		effects: []effect{
			fx("json-decode", "size=large", rss, 0.001, false),
		}},
	{at: when{week: 7, day: 4, hour: 11}, kind: KindFailure, title: "Enable the experimental inliner by default",
		note: "signal: killed", span: 1, fixTitle: `Revert "Enable the experimental inliner by default"`,
		effects: []effect{on(graviton, fx("compile", "profile=opt project=web-server scenario=full", all, 0, false))}},
	{at: when{week: 8, day: 1, hour: 11}, kind: KindRegression, title: "Rollup of 6 pull requests",
		note: "a regression hidden in a rollup",
		effects: []effect{
			fx("regex-compile", all, instr, 0.022, true),
			fx("regex-compile", all, wall, 0.02, false),
		}},
	{at: when{week: 8, day: 3, hour: 14}, kind: KindImprovement, title: "Write JSON numbers without intermediate strconv buffers",
		note: "throughput goes up as wall-time goes down",
		effects: []effect{
			fx("json-encode", "size=large", instr, -0.09, true),
			fx("json-encode", "size=large", wall, -0.10, true),
			fx("json-encode", "size=large", tput, 1/0.9-1, true),
		}},
	{at: when{week: 9, day: 0, hour: 10}, kind: KindRemoved, title: "Remove the template-render benchmarks",
		effects: []effect{fx("template-render", all, all, 0, false)}},
	{at: when{week: 9, day: 2, hour: 15}, kind: KindImprovement, title: "Use ARM64 CRC32 instructions in gzip",
		note: "only the ARM machine improves",
		effects: []effect{
			on(graviton, fx("gzip", all, instr, -0.18, true)),
			on(graviton, fx("gzip", all, wall, -0.15, true)),
			on(graviton, fx("gzip", all, tput, 1/0.85-1, true)),
		}},
	{kind: KindBimodal, note: "each run lands on one of two levels 4 % apart",
		effects: []effect{fx("http-router", "routes=100", wall, 0.04, false)}},
}

// demoTries are the open PRs of the demo, with their try runs.
var demoTries = []tryPR{
	{title: "Inline the small-string fast path in the JSON tokenizer", branch: "feature/json-small-strings", author: "Chen Wei",
		runs: []tryRunSpec{{base: when{week: 8, day: 0, hour: 12}, after: 5 * time.Hour, kind: KindImprovement,
			effects: []effect{
				fx("json-decode", all, instr, -0.04, true),
				fx("json-decode", "size=large", wall, -0.05, false),
				fx("json-decode", "size=large", tput, 1/0.95-1, false),
			}}}},
	{title: "Switch the HTTP router to a radix tree", branch: "feature/radix-router", author: "Liam O'Connor",
		runs: []tryRunSpec{
			{base: when{week: 8, day: 2, hour: 10}, after: 3 * time.Hour, kind: KindRegression,
				effects: []effect{
					fx("http-router", all, instr, 0.09, true),
					fx("http-router", all, wall, 0.07, false),
				}},
			{base: when{week: 9, day: 1, hour: 9}, after: 4 * time.Hour, kind: KindNone,
				note: "the second try run, after the fix: no change"},
		}},
	{title: "Update the contributor guide", branch: "docs/contributing", author: "Inès Moreau",
		runs: []tryRunSpec{{base: when{week: 9, day: 0, hour: 15}, after: 2 * time.Hour, kind: KindNone,
			note: "a documentation change: nothing moves"}}},
	{title: "Experiment: parallel code generation", branch: "feature/parallel-codegen", author: "Hana Kobayashi",
		runs: []tryRunSpec{
			{base: when{week: 8, day: 4, hour: 10}, after: 6 * time.Hour, kind: KindMixed,
				note: "faster full builds for more instructions and memory",
				effects: []effect{
					fx("compile", "scenario=full", wall, -0.15, true),
					fx("compile", "scenario=full", instr, 0.04, true),
					fx("compile", "scenario=full", rss, 0.12, true),
				}},
			{base: when{week: 9, day: 3, hour: 10}, after: 5 * time.Hour, kind: KindMixed,
				note: "the overhead is smaller in the second attempt",
				effects: []effect{
					fx("compile", "scenario=full", wall, -0.14, true),
					fx("compile", "scenario=full", instr, 0.012, true),
					fx("compile", "scenario=full", rss, 0.05, true),
				}},
		}},
	{title: "Use arena allocation in the deep-nesting parser", branch: "feature/arena-nesting", author: "Emeka Eze",
		runs: []tryRunSpec{{base: when{week: 9, day: 2, hour: 18}, after: 3 * time.Hour, kind: KindImprovement,
			note: "only a secondary benchmark changes",
			effects: []effect{
				fx("deep-nesting", all, instr, -0.11, true),
				fx("deep-nesting", all, rss, -0.25, true),
			}}}},
}

// syntheticPlants are the scale datasets' changes, at fractions of the
// history so that every size has them; they touch only bench-0000 to
// bench-0004, which every size has.
var syntheticPlants = []plant{
	{at: when{frac: 0.32}, kind: KindRegression, title: "Validate input lengths in the decoder fast path",
		effects: []effect{
			fx("bench-0001", all, instr, 0.02, true),
			fx("bench-0001", all, wall, 0.018, false),
		}},
	{at: when{frac: 0.40}, kind: KindFailure, note: "exit status 2", span: 2,
		title: "Move benchmark fixtures to testdata", fixTitle: "Restore the missing benchmark fixture",
		effects: []effect{fx("bench-0002", "variant=a", all, 0, false)}},
	{at: when{frac: 0.45}, kind: KindImprovement, title: "Avoid a copy in the variant b code path",
		effects: []effect{
			fx("bench-0003", "variant=b", instr, -0.05, true),
			fx("bench-0003", "variant=b", wall, -0.05, false),
		}},
	{at: when{frac: 0.50}, kind: KindSpike, note: "a one-off outlier: the next commit is back to normal",
		effects: []effect{fx("bench-0000", "variant=a", wall, 0.25, true)}},
	{at: when{frac: 0.58}, kind: KindMixed, title: "Specialise the hot loop for small inputs",
		effects: []effect{
			fx("bench-0000", "variant=b", instr, -0.04, true),
			fx("bench-0000", "variant=c", instr, 0.03, true),
		}},
	{at: when{frac: 0.62}, kind: KindFailure, note: "signal: killed", span: 1,
		title: "Preallocate result buffers", fixTitle: `Revert "Preallocate result buffers"`,
		effects: []effect{fx("bench-0003", "variant=a", all, 0, false)}},
	{at: when{frac: 0.66}, kind: KindImprovement, title: "Free intermediate buffers early",
		effects: []effect{fx("bench-0002", all, rss, -0.20, true)}},
	{at: when{frac: 0.74}, kind: KindRegression, title: "Track allocation sites in secondary benchmarks",
		note:    "only a secondary benchmark changes",
		effects: []effect{fx("bench-0004", all, instr, 0.05, true)}},
	{at: when{frac: 0.82}, kind: KindNoise, title: "Reuse scratch buffers across iterations",
		effects: []effect{fx("bench-0001", "variant=c", instr, 0.00002, false)}},
	{at: when{frac: 0.90}, kind: KindImprovement, title: "Vectorise the inner loop",
		effects: []effect{
			fx("bench-0003", all, wall, -0.10, true),
			fx("bench-0003", all, tput, 1/0.9-1, true),
		}},
	{kind: KindBimodal, note: "each run lands on one of two levels 4 % apart",
		effects: []effect{fx("bench-0000", "variant=d", wall, 0.04, false)}},
}
