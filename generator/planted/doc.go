// Package planted makes planted-truth benchmark histories over real noise:
// the measuring instrument for perfpages' verdicts (its README has the
// numbers). It comes after the readers and analysis (it produces model.Run
// values and archives, and scores what analysis says of them), and nothing
// in the build imports it: tests and reports do.
//
// The pipeline it feeds is the product's own:
//
//  1. [LoadCorpus] reads the noise corpus embedded from corpus/: real
//     benchmark histories (tools run on a loaded shared machine, and public
//     github-action-benchmark and asv histories) as relative deviations
//     from each series' level, with within-run samples where the source
//     kept them. corpus/README.md says where each comes from and how real
//     steps were taken out of it (scripts/noise/corpus.py).
//  2. [Generate] lays known changes over windows of that noise — steps of
//     k noise widths in both directions, spikes that return, gradual
//     drifts — deterministically from a seed, in one of two shapes: one
//     value per commit ([Values]) or a few samples per run ([Samples]).
//  3. The [Suite] becomes model.Run values ([Suite.Runs]) for an
//     in-memory dataset, or perfpages.run.v1 archives ([Suite.WriteArchives])
//     for a whole site built through the generator's load path.
//  4. [ScoreHeadline] and [ScoreSteps] score what the site says on the
//     planted truth: the headline verdict of each main-line commit's row
//     against its parent ([Headline], the one function a new verdict
//     replaces) and the step detection of /regressions/.
//
// # Noise width
//
// One definition everywhere (corpus, planting, scoring): the noise width of
// a series is
//
//	w = 1.4826 · MAD(ln v[i+1] − ln v[i]) / √2
//
// over the per-run single values v the site compares (the value in shape
// Values, the median of the run's samples in shape Samples, perfpages'
// Auto rule for a noisy metric). It is a robust run-to-run standard
// deviation of ln v, about the relative σ of one run: consecutive
// differences cancel the level, so a step or a slow drift costs one or no
// outlying difference; the MAD ignores the two outlying differences of a
// spike and the rare switch of a two-level runner, so w is the spread of a
// run around its neighbours, not around a long-term mean; √2 undoes the
// difference of two independent values; 1.4826 makes the MAD a standard
// deviation for normal noise. A step of k widths multiplies the level by
// exp(±k·w), so steps up and down are symmetric and values stay positive.
package planted
