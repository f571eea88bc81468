// Package analysis holds perfpages' domain model and every statistic it computes.
//
// It sits in the middle of the pipeline
//
//	sources → archive model → analysis → site model → rendering → files
//
// and knows nothing about files, HTML or git: it takes values and returns
// values. The generator packages decode archives into [Run] values, fold
// the versions of a file a results branch rewrote into what its newest
// version says ([FileVersions]), gather the runs into a [Dataset]
// (artifacts in main-line order, one [Series] per machine × context ×
// test case × metric, [Builder]), and ask this package for comparisons.
//
// A comparison's verdict rests on three decisions, each in one place:
//   - the single value of a result ([ValueKind]; Auto by configuration:
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
// Invariants:
//   - all times are UTC;
//   - [Dataset.Artifacts] is sorted by (date, id), the order rustc-perf uses
//     for commits, and every [Point] of a [Series] refers to it by index;
//   - relative changes are fractions ((b − a) / a), never percentages,
//     and ±Inf only for a change from 0;
//   - nothing here depends on map iteration order: same input, same output.
package analysis
