// Package analysis computes every statistic perfpages shows: comparisons
// and their significance, step changes, headline verdicts, summaries and
// the weekly triage.
//
// It is the analysis stage (see the architecture section of the README)
// and knows nothing about files, HTML or git: it takes values and returns
// values. Its input is package [model], the data model below it: the
// generator packages decode archives into [model.Run] values, fold the
// versions of a file a results branch rewrote ([model.FileVersions]) and
// gather the runs into a [model.Dataset] ([model.Builder]). This package
// finds the dataset's step changes ([Steps]) and compares its artifacts
// ([Analyze], [Results], [Compare]); the engines it runs are the packages
// beside it (budget, criterion, zscore, mannwhitney, changepoint), which
// import neither it nor the model.
//
// A comparison's verdict rests on three decisions, each in one place:
//   - the single value of a result ([model.ValueKind]; Auto by configuration:
//     the median of noisy metrics, as benchstat and Criterion report it,
//     the best value of reliable counts);
//   - significance ([SignificanceBasis], decided by classifyAt for
//     Compare, Consecutive and SeriesHistory alike): rustc-perf's IQR
//     threshold with 30 values of history; with fewer, model perfpages
//     asks the samples' test, or 1 % for a noisy metric without samples;
//     model rustc-perf is rustc-perf's alone;
//   - a change from 0 is infinite ([RelativeChange], [Row.FromZero]),
//     judged and summarized like any other; 0 → 0 is no change.
//
// Invariants (and the model's, see package [model]):
//   - relative changes are fractions ((b − a) / a), never percentages,
//     and ±Inf only for a change from 0;
//   - nothing here depends on map iteration order: same input, same output.
package analysis
