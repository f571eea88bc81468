// Package zscore is Conbench's lookback z-score, restated in Go number for
// number (conbench/entities/history.py at 3af4a55, tested against the
// expected values of Conbench's own test suite).
//
// It is one engine of the analysis stage (see the architecture section of
// the README) and works on abstract inputs only: commits ([Commit]) and
// observations ([Observation]). It knows nothing about perfpages' Dataset;
// the analysis package adapts a series to observations and calls it.
//
// Scoring a contender result against its baseline commit takes four steps:
//
//  1. [Ancestry] (or [Graph.Ancestry]) picks the baseline's last
//     [DefaultCommits] ancestor commits, the baseline included: branch
//     commits since the fork point, then default-branch commits up to the
//     fork point, newest first (Conbench's commit_ancestry_query).
//  2. The caller collects the results of one series (same machine, context,
//     test case and metric; errored results left out) on those commits, each
//     reduced to one number by [SVS], as observations stamped with their
//     commit's time.
//  3. [Distribution] drops spike outliers (a jump that immediately jumps
//     back, found with trimmed rolling estimators), restarts the rolling mean
//     at every annotated distribution change, and returns the mean of the
//     current segment over the last window of commits and the standard
//     deviation (Bessel's correction) of the one-step-ahead residuals over the
//     last window of commits, across segments.
//  4. [Score] turns the contender's value into z = (value − mean) / std,
//     signed so that a positive z is an improvement whatever the unit, and
//     compares |z| with the threshold (default 5).
//
// Rows are ordered by commit time; the rolling windows count distinct
// commits, not rows, and every result on a commit in the window counts
// (reruns included). Everything is deterministic and allocation-free in the
// steady state ([Scratch]).
//
// API (used by tests and library users, not by the build). A site scores
// through [Window] and [Scratch], which follow its own main line and
// annotations. [Ancestry], [NewGraph] and [Graph.Ancestry], [SVS] and the
// package-level [Distribution] are Conbench's steps as Conbench itself
// takes them, kept as the port's public API because they are checked
// against Conbench's own test suite (conbench_test.go:
// test_history.py's set_z_scores cases, test_compare.py and the
// gen_fake_data fixture).
package zscore
