// Package perfgate is perfpages' implementation of perfgate's workflow
// (seed 002, reference/stats.md part C): measure a command into a run
// receipt, compare two receipts (or two perfpages archives) under
// per-metric budgets, and turn the comparison into a report, a pull-request
// comment and CSV/JSONL exports; promote a receipt to a baseline.
//
// It belongs to the generator side of the pipeline
//
//	sources → archive model → analysis → site model → rendering → files
//
// because it owns the outside world: child processes, receipt files,
// artifacts. The arithmetic (medians, budgets, Welch's test, verdicts) is
// analysis/budget's; this package picks the values it compares and writes
// the results.
//
// The workflow, as the `perfpages run | check | export | promote`
// commands use it:
//
//  1. [Run] runs a command warm-up + repeat times, records each sample
//     (wall time, exit code, timeout, CPU time and max RSS from the
//     process's rusage, truncated output) and summarizes the measured
//     samples into a [RunReceipt] (schema perfgate.run.v1).
//  2. [Load] reads a check input (a regular file only, size-capped) and
//     tells a run receipt from a perfpages archive by content; [ReadRun]
//     validates a receipt and names the file in every error, and
//     [RunReceipt.VerifyStats] makes its statistics those of its samples.
//  3. [CompareRuns] and [CompareArchives] build a [CompareReceipt]
//     (perfgate.compare.v1): which metrics get a budget, with what
//     thresholds and direction (config [budgets."metric"]), one delta per
//     metric and a verdict.
//  4. [NewReport] (perfgate.report.v1) and [Markdown] render it; [Check]
//     ties 2–4 together and writes compare.json, report.json and
//     comment.md.
//  5. [ExportRuns] / [ExportCompares] write the seed's CSV and JSONL
//     columns; [Promote] copies a receipt to a baseline, optionally
//     normalized.
//
// JSON field names, field order and omission rules follow perfgate's
// receipts exactly; metric maps are written in alphabetical key order.
package perfgate
