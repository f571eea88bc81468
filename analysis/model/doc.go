// Package model is perfpages' data model: what was benchmarked where, what
// it measured, and the dataset a site is built from. It is the model stage,
// between the sources and package analysis (see the architecture section of
// the README), which computes every statistic over these types; the readers
// (generator/archive, foreign, source, store, demo) produce them and import
// nothing else of analysis.
//
// What lives here:
//   - a [Run]: one [Artifact] benchmarked on one [Machine] in one context
//     ([Params]), with the [Result]s of its [TestCase]s (samples, or a
//     tool's [SampleSummary]);
//   - a [Metric]'s [Direction] and [Noise], and the [ValueKind] that
//     reduces a result's samples to its single value ([SingleValue]);
//   - [FileVersions], the fold of the versions of one file a results
//     branch rewrote into what its newest version says;
//   - the [Builder], which gathers runs into a [Dataset] (artifacts in
//     main-line order, one [Series] of [Point]s per [SeriesKey]: machine ×
//     context × test case × metric), settles duplicate results and
//     conflicting metadata (merge.go) and saves and resumes its state
//     (checkpoint.go); for a shard of a sharded build it holds the points
//     of some benchmarks alone ([BuildOptions.Keep]);
//   - [Annotations], the entries of annotations.yaml resolved against a
//     dataset.
//
// It imports the standard library and analysis/quantile (the median of a
// single value) only: no statistics engine.
//
// Invariants:
//   - all times are UTC;
//   - [Dataset.Artifacts] is sorted by (date, id), the order rustc-perf uses
//     for commits, and every [Point] of a [Series] refers to it by index;
//   - nothing here depends on map iteration order: same input, same output.
package model
