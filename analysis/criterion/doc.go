// Package criterion is Criterion.rs's analysis of one benchmark, number for
// number where Criterion is deterministic: Tukey fences and outlier labels,
// the slope of a linear-sampling run, the mean, median, standard deviation
// and MAD point estimates with bootstrap confidence intervals, Welch's t with
// the mixed-bootstrap p-value, the relative-change estimates and the
// improved / regressed / within-noise / no-change verdict.
//
// It is one of the engines of the analysis stage (see the architecture
// section of the README) and, like the rest of that stage, takes values
// and returns values. Package analysis calls it with the samples of a
// result; this package knows nothing of the domain model (it imports only
// the standard library and the quantile family, analysis/quantile).
//
// The work happens in four steps, as in Criterion's analysis/mod.rs and
// analysis/compare.rs (and its statistics under src/stats/univariate):
//
//  1. Each [Sample] holds the measured totals and iteration counts of one run;
//     [Sample.Avg] divides them into the per-iteration values that every
//     univariate statistic is computed on.
//  2. [Classify] labels the per-iteration values with Tukey's fences
//     (outliers are reported, never dropped).
//  3. [Analyze] computes the point estimates on the sample and bootstraps
//     their confidence intervals; the slope only when the iteration counts
//     are Criterion's linear sampling (see [Linear]).
//  4. [Compare] tests the current sample against a baseline: Welch's t, its
//     null distribution from the mixed bootstrap, the p-value, the
//     relative-change estimates from the chunked two-sample bootstrap and the
//     verdict ([VerdictOf]).
//
// Bit-exactness. Sums are naive left-to-right additions, variances are
// two-pass with Bessel's correction, percentiles interpolate linearly with
// rank p/100·(n−1), and the MAD constant is Criterion's f32 1.4826. Products
// that are added to something are written float64(x*y) so that the Go
// compiler cannot fuse them into FMA instructions (LLVM does not fuse them
// in Criterion either); this keeps point estimates and fences equal to
// Criterion's in every digit on every architecture.
//
// Randomness. Criterion seeds its bootstrap from the clock, so its confidence
// bounds and p-values cannot be reproduced. Here every bootstrap draws from
// PCG-DXSM (math/rand/v2's generator) seeded by the caller — the site passes
// [Seed] of the series key — so a rebuild gives the same numbers. The
// resampling schemes, the percentile intervals, the standard errors and the
// p-value rule are Criterion's; only the random draws differ, and the sums
// inside one resample, which add in four interleaved parts instead of left
// to right (a last-bit difference that lets the additions keep up with the
// draws). Each bootstrap (absolute statistics, slope, t statistics,
// relative change) splits its resamples into fixed blocks, each with its
// own generator derived from the seed, so switching one bootstrap off never
// changes another, and the blocks can run on several goroutines
// ([Options].Workers) with results that do not depend on how many. A call
// shares no state with another: concurrent calls give the same results as
// sequential ones.
//
// API (used by tests and library users, not by the build). A site calls
// [Compare] (with [VerdictOf], [Seed], [Sample] and the options); the rest
// of Criterion's analysis of one benchmark is kept as the port's public
// API because it is checked against Criterion's own output, the book's
// report fixtures under testdata/book (Fibonacci/Recursive, Criterion
// 0.2/0.3; see book_test.go):
//
//   - [Analyze], with [Slope] and [Linear] (when it fits a slope): every
//     point estimate of new/estimates.json (mean, median, standard
//     deviation, MAD, slope) in every digit, and the intervals within 0.3
//     standard errors of Criterion's;
//   - [Classify], [Tukey] and [Fences.Label]: the fences and outlier
//     counts of the fixture's tukey.json (its four fences are copied
//     into book_test.go: the file is not in testdata/book);
//   - [FormatChange]: the change lines of the book's HTML reports.
//
// The straightforward forms of the statistics (mean, variance, percentile,
// Welch's t, the p-value, the percentile interval) that the tests use as
// oracles live in naive_test.go.
package criterion
