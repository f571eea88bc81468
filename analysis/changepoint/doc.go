// Package changepoint finds step changes along a series' history: where
// the level of a benchmark's results moved for good, whichever pair of
// commits anyone compared.
//
// It is one of the engines of the analysis stage (see the architecture
// section of the README) and takes values and returns values: a series'
// values along the main line ([Series]), and the [Step]s found in them.
// Package analysis maps a dataset's series onto it (analysis.Steps) and
// names each step's artifacts; this package imports only the standard
// library and analysis/quantile.
//
// # The method
//
// [Detect] runs E-divisive means (Matteson & James 2014, "A Nonparametric
// Approach for Multiple Change Point Analysis of Multivariate Data", JASA
// 109(505), α = 1) with a rank test (Test Rank, the default; Test
// Permutation keeps MongoDB's permutation test), sequentially along the
// series:
//
//  1. When value j arrives, the window is the open segment's newest values
//     up to j, at most Window of them (the open segment starts at the last
//     step, or break, or the first value).
//  2. A step is looked for only when the newest MinSegment values stand
//     apart from the rest of the window, or from its first MinSegment
//     values, by the smallest step reported (step 4's rule on those
//     sides). Nearly every value of a steady series stops here.
//  3. The candidate is the split τ of the window with the largest Q̂, with
//     at least MinSegment values on each side; if a split later than τ,
//     with fewer values after it, has a larger Q̂ still, the step is
//     probably there and has to wait for its MinSegment values.
//  4. The candidate must be large enough: its sides' medians differ by at
//     least MinChange of the level before, by NoiseMultiple times the
//     noise (the interquartile range of the values about their side's
//     median, over 1.349), and by WidthMultiple run-to-run widths (1.4826
//     × the MAD of the differences of consecutive values' logs, over √2,
//     which neither a level shift nor a two-level runner's switches
//     inflate), weighed by the values either side: a step with many
//     values on both sides may be smaller (the standard error of the
//     difference of two levels, relative to a step with MinSegment values
//     after it and a full window before).
//  5. It must be significant: the Mann–Whitney U test of the split,
//     two-sided, by the normal approximation with the tie correction
//     (exact when a side has at most 12 values and U is far out, where the
//     approximation is far too cautious), times the window's number of
//     splits (Bonferroni, for taking the best of them): p ≤ Alpha. The
//     p-value is a number of the data — a clear step of 25 values a side
//     has p near 1e-9 — the same whatever the seed or the positions
//     between the values. (Test Permutation: shuffle the window
//     Permutations times, take each shuffle's largest Q̂; p = (1 +
//     shuffles reaching the observed Q̂)/(Permutations + 1), whose
//     smallest value is 1/(Permutations + 1) for every clear step.)
//  6. A confirmed step starts a new segment at τ, and the window left is
//     tested again at once. A break (an annotated distribution change)
//     starts a new segment without a step.
//
// Then the steps are measured against the values as they are now (up to
// Window values either side, within the neighbouring steps): one that has
// shrunk below the size rule is withdrawn, and so is an excursion, a
// level that held for fewer than Hold (3·MinSegment) values between two
// opposite steps (only one of the two may stay, if it passes without the
// other). A staircase (steps the same way, levels between them held for
// fewer than Hold values) and a step that a ramp fits better than a jump
// (RampGain) are one gradual change, reported over its range
// (Step.Gradual): a drift has no single culprit commit. A staircase that
// one of its steps fits better than the ramp does (by RampGain) is that
// step. The noise rule (step 4) measures the spread of the values' logs
// when all are positive, as the width rule does, and ramps and jumps are
// fitted to the logs then too (a drift is a steady relative change).
//
// The statistic and its permutation test are MongoDB's
// signal-processing-algorithms (e_divisive/e_divisive.py,
// EDivisive._compute_change_points; e_divisive/significance_test.py,
// QHatPermutationsSignificanceTester; the Q̂ profile of
// e_divisive/calculators/numpy_calculator.py, calculate_qhat_values, whose
// tests/test_perf_1635.py vectors energy_test.go reproduces). MongoDB and
// Apache Otava (ex Hunter, otava/analysis.py, compute_change_points with
// split and merge) run it over the whole history, Otava in windows of 30
// to 50 values with a Student t-test in place of the permutations. Here the
// windows run along the series in one pass, so that a decision depends
// only on the values before it (see "Incremental" below). asv's step
// detection (asv/step_detect.py: detect_steps, solve_potts_autogamma,
// solve_potts_approx, merge_pieces) is Method [Potts], for comparison.
//
// # Why E-divisive
//
// Both methods, measured (TestChangepointOnDemo in package generator on
// the planted changes content/about.md lists and on the benchmark
// datasets; TestRealHistories here); a detection counts when it is within
// two commits of the change:
//
//	                         E-divisive, windowed  asv's Potts     E-divisive, whole history
//	demo, 92 planted steps   P 1.00  R 0.90        P 1.00  R 0.98  —
//	S, 66 planted steps      P 1.00  R 1.00        P 1.00  R 1.00  —
//	TigerBeetle (Otava), 4   P 1.00  R 4/4         P 1.00  R 3/4   P 1.00  R 4/4
//	MongoDB PERF-1635, 3     P 1.00  R 3/3         P 1.00  R 0/3   P 1.00  R 3/3
//
// Both find every planted step the demo marks significant; the windowed
// rank test misses wall-time steps planted within the noise. On the real
// histories asv's penalty, chosen by its information criterion, is too
// high: it misses TigerBeetle's +3 % step at 61 and all three shifts of
// PERF-1635 (7–9 % in 1 % noise). E-divisive also has a significance test
// (asv has none) and can be made incremental exactly (asv's fit, whose
// penalty depends on the whole series, cannot).
//
// On real noise (generator/planted: steps of 1–16 run-to-run widths laid
// over the noise of Go, Criterion, Google Benchmark, pytest-benchmark and
// hyperfine runs under load and of four public histories; its README has
// the table) the defaults find 84–89 % of the steps of 4 widths and more
// at precision 0.82, 0.89–0.90 when the level shifts the real noise
// itself contains are not counted against it. With the permutation test
// at 0.001 and a size rule of 2 robust deviations (the earlier defaults)
// it found 81–84 % at precision 0.75–0.77.
//
// # Defaults
//
// Window 50, Otava's default window: 40, 60 and 100 found the same steps
// on the real histories, S and M, 100 one fewer on the demo, at more cost.
// MinSegment 3: a step needs three values after it, so a spike of one or
// two commits is never one. Test Rank with Alpha 0.0001: every value of
// every series is a test, and the Bonferroni factor of a window is about
// 45; a clear step is confirmed five values after it (all five beyond
// the 45 before: p = 45 · 2/C(50,5) ≈ 4e-5). MinChange 0.2 %, rustc-perf's
// threshold when it has no history, so that a 0.2 % step of an
// instruction count shows. NoiseMultiple 1 and WidthMultiple 4: on the
// planted suites (both shapes) the width rule, weighed by the evidence,
// decides for noisy metrics; 6 raised precision to 0.85–0.89 but lost
// 6–12 % of the steps of 4 widths and more, 3 found 1 % more of them for
// a fifth more false steps. Hold 3·MinSegment (9 values): 6 let through
// 40 % more false steps on the values shape (runs of outliers, a
// wandering level), 12 and 15 changed little.
//
// # Incremental
//
// A decision (a step confirmed when value j arrives) depends only on the
// values up to j, the breaks up to j, the segment start left by the
// decisions before it, the options, and the seed: the window ends at j,
// the rank test needs no random numbers (the permutations of Test
// Permutation are drawn from a PCG seeded by the series' seed and the
// window's first and last position, so no decision depends on how many
// random numbers an earlier one drew), and every quantity is computed from
// the window alone. A run is thus a fold over the values, and [State] is
// its accumulator: the decisions, the open segment's start, and a SHA-256
// chain over the values, breaks and decisions, with a checkpoint at each
// decision and at the end. Given a state, Detect verifies the chain and
// resumes after the last checkpoint that matches the series: after the
// last value seen when values were only appended (one window test for the
// nightly new commit), or after the last step confirmed before a value
// that changed. The steps it returns are therefore exactly a cold run's,
// and [Step]'s Before, After and Change are measured afresh from the
// decisions and values on every call. A state of other options, of
// another seed or version, or one that does not fit is not used.
//
// What it gives up for this: a decision is never revised by later values
// (a step confirmed on its first values stays where it was put, though it
// may be withdrawn when it shrinks or turn out part of a gradual change),
// and a step is reported at least five values after it happened. Two
// steps closer than the rank test can separate (three values between
// them) are found as one change, gradual over both.
//
// Determinism: the shuffles are Fisher–Yates with Lemire's bounded draws
// written out over math/rand/v2's PCG (a fixed algorithm), not
// rand.Shuffle, whose algorithm Go may change; products that are added
// are written float64(x*y) so that no architecture fuses them.
package changepoint
