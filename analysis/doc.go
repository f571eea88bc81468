// Package analysis holds perfpages' domain model and every statistic it computes.
//
// It sits in the middle of the pipeline
//
//	sources → archive model → analysis → site model → rendering → files
//
// and knows nothing about files, HTML or git: it takes values and returns
// values. The generator packages decode archives into [Run] values, gather
// them into a [Dataset] (artifacts in main-line order, one [Series] per
// machine × context × test case × metric), and ask this package for
// comparisons.
//
// Invariants:
//   - all times are UTC;
//   - [Dataset.Artifacts] is sorted by (date, id), the order rustc-perf uses
//     for commits, and every [Point] of a [Series] refers to it by index;
//   - relative changes are fractions ((b − a) / a), never percentages;
//   - nothing here depends on map iteration order: same input, same output.
package analysis
