// Package demo generates realistic benchmark runs, deterministically: the
// data behind the demo site that `perfpages build` shows without a
// configuration, and the S, M and L datasets of the benchmark harness.
//
// It stands in for the sources stage of the build (see the architecture
// section of the README) and produces what a source would: [model.Run]
// values, one per artifact and machine, which the caller encodes as
// archives or feeds straight to an [model.Builder]. It knows nothing about
// files.
//
// A [Plan] says what to generate. Generation works in three steps:
//
//  1. the plan is compiled into a schedule of main-line merge commits
//     (dates, shas, PR numbers and titles are pure functions of the seed and
//     the commit's position, so nothing is held per commit), the list of
//     series (test case × metric × machine, sorted as results are sorted in
//     a run), and the planted changes resolved to main-line positions;
//  2. [Plan.Generate] walks the main line in date order, interleaving the
//     try runs of open PRs, and builds each run's results from the series'
//     true level at that commit (base level × every step change planted at
//     or before it) plus seeded noise shaped like the metric's (nearly exact
//     instruction counts, noisy and heavy-tailed wall times, page-quantised
//     memory, higher-is-better throughput);
//  3. [Plan.Events] lists the planted changes so that documentation and
//     tests can say what the pages should show.
//
// Every random choice derives from the plan's seed: commit metadata from
// hashes of the seed and the commit's position, the calendar of a
// working-week plan from one PCG, and each result's samples from a PCG
// seeded by the series and the artifact. A value therefore depends neither
// on the order of generation nor on the other series: the same plan gives
// the same runs byte for byte, and adding a benchmark leaves the others'
// values unchanged. Nothing reads the clock.
//
// API (used by tests and library users, not by the build): [Plan.Events]
// and [Event.Matches], the planted ground truth. A build only generates
// runs; generator's changepoint_eval_test.go scores step detection against
// the events (the precision and recall content/about.md quotes), and this
// package's tests check that the generated data shows them.
package demo
