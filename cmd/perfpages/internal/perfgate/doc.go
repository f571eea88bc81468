// Package perfgate is perfpages' implementation of perfgate's workflow:
// measure a command into a run receipt, compare two receipts (or two
// perfpages archives) under per-metric budgets, and turn the comparison
// into a report, a pull-request comment and CSV/JSONL exports; promote a
// receipt to a baseline.
//
// It lives with the command line, not with the site generator, because
// only the `perfpages run | check | export | promote` commands use it and
// it owns their outside world: child processes, their process groups and
// rusage, the files a check writes. The receipt format and the reading of
// inputs under the readers' caps are generator/receipt's (the site's
// reader of run receipts, generator/foreign, uses the same types); the
// arithmetic (medians, budgets, Welch's test, verdicts) is analysis/budget's.
// This package picks the values it compares and writes the results.
//
// The workflow, as the commands use it:
//
//  1. [Run] runs a command warm-up + repeat times, records each sample
//     (wall time, exit code, timeout, CPU time and max RSS from the
//     process's rusage, truncated output) and summarizes the measured
//     samples into a receipt.Run (schema perfgate.run.v1).
//  2. receipt.Load reads each side of a check (a run receipt or a
//     perfpages archive, told apart by content).
//  3. compareRuns and compareArchives build a receipt.Compare
//     (perfgate.compare.v1): which metrics get a budget, with what
//     thresholds and direction (config [budgets."metric"]), one delta per
//     metric and a verdict.
//  4. newReport (perfgate.report.v1) and markdown render it; [Check]
//     ties 2–4 together and writes compare.json, report.json and
//     comment.md.
//  5. [ExportRuns] / [ExportCompares] write CSV and JSONL columns;
//     [Promote] copies a receipt to a baseline, optionally normalized.
//
// JSON field names, field order and omission rules follow perfgate's
// receipts exactly; metric maps are written in alphabetical key order.
package perfgate
