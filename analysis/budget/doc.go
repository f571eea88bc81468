// Package budget is perfgate's regression-budget engine (perfgate's
// docs/DESIGN.md and crates/perfgate/src/domain): per-metric thresholds,
// the pass / warn / fail / skip status of one metric, the noise policy,
// the optional Welch t-test and the verdict of a whole comparison.
//
// It is one of the engines of the analysis stage (see the architecture
// section of the README) and, like the rest of analysis/, it does no I/O:
// it takes numbers and returns numbers. The receipts and files that use it
// live in generator/receipt, the commands in
// cmd/perfpages/internal/perfgate. It imports only the standard library
// and analysis/quantile, so that perfgate's arithmetic can be checked in
// isolation against perfgate's own tests.
//
// A comparison goes in four steps, as perfgate's compare does:
//
//  1. the caller picks one value per side and metric: the median of the
//     samples (perfgate's u64 median floors the average of the two middle
//     values, [MedianU64]) or their 95th percentile ([PercentileLinear]);
//  2. [Evaluate] turns a baseline and a current value into a [Delta]: ratio,
//     pct = (current − baseline) / baseline, regression = the part of pct
//     in the metric's bad direction, and a status (fail if regression >
//     threshold, warn if regression ≥ warn threshold, else pass);
//  3. [Delta.WithNoise] applies the noise policy when the current run's
//     coefficient of variation exceeds the budget's noise threshold, and
//     [Welch] optionally tests the two sample series;
//  4. [Compare] does all of this for every metric with a budget, in metric
//     name order, and [Aggregate]s the statuses into a [Verdict] with
//     stable reason tokens such as "wall_ms_warn".
//
// Conventions, as in perfgate: thresholds and changes are fractions (0.20
// is 20 %), fail is strict (>), warn is inclusive (≥), significant means
// p ≤ alpha, noisy means cv > noise threshold.
package budget
