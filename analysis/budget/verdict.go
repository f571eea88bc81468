package budget

import (
	"cmp"
	"slices"
)

// Counts counts metrics by status.
type Counts struct {
	Pass, Warn, Fail, Skip int
}

// Verdict is the outcome of a whole comparison.
type Verdict struct {
	Status Status
	Counts Counts
	// Reasons are stable tokens for tools, not prose: "<metric>_<status>"
	// for every metric that did not pass, in metric order, or
	// [ReasonNoBaseline].
	Reasons []string
}

// ReasonNoBaseline is the verdict reason when there was nothing to compare
// with.
const ReasonNoBaseline = "no_baseline"

// Reason is the verdict token of a metric's status, e.g. "wall_ms_warn".
func Reason(metric string, s Status) string { return metric + "_" + string(s) }

// Aggregate counts statuses and picks the worst: fail if any failed, else
// warn if any warned, else pass if any passed, else skip (nothing judged).
// Reasons are left empty.
func Aggregate(statuses []Status) Verdict {
	var v Verdict
	for _, s := range statuses {
		switch s {
		case Pass:
			v.Counts.Pass++
		case Warn:
			v.Counts.Warn++
		case Fail:
			v.Counts.Fail++
		case Skip:
			v.Counts.Skip++
		}
	}
	switch {
	case v.Counts.Fail > 0:
		v.Status = Fail
	case v.Counts.Warn > 0:
		v.Status = Warn
	case v.Counts.Pass > 0:
		v.Status = Pass
	default:
		v.Status = Skip
	}
	return v
}

// NoBaseline is the verdict of a check that found no baseline: warn, with
// one warning counted and the reason [ReasonNoBaseline]. No green by
// omission: nothing was compared, so the result is not a pass.
func NoBaseline() Verdict {
	return Verdict{Status: Warn, Counts: Counts{Warn: 1}, Reasons: []string{ReasonNoBaseline}}
}

// Input is one metric to compare: the values of the budget's statistic on
// both sides, plus what the noise policy and the significance test need.
type Input struct {
	Metric            string
	Baseline, Current float64
	// CurrentCV is the current run's coefficient of variation, nil when
	// unknown.
	CurrentCV *float64
	// BaselineSamples and CurrentSamples are the per-sample series for the
	// significance test; they may be nil.
	BaselineSamples, CurrentSamples []float64
}

// SignificancePolicy turns on Welch's t-test.
type SignificancePolicy struct {
	Alpha      float64 // significant when p ≤ Alpha
	MinSamples int     // fewer samples on either side: no test (perfgate default 8)
	// Require downgrades a warn or fail that is not significant (including
	// an untestable one) to pass.
	Require bool
	// FailOnlyDistinguishable downgrades a fail whose test finds no
	// difference (a testable one with p > Alpha) to warn: a budget fails
	// only on a change over it that is distinguishable from the runs'
	// noise. An untestable fail stands. perfpages' check does this by
	// default; perfgate does not (check -fail-within-noise).
	FailOnlyDistinguishable bool
	// Quiet runs the test for FailOnlyDistinguishable only: the delta
	// does not record it (perfgate's receipts have a significance block
	// only when asked for one).
	Quiet bool
}

// Result is a comparison of several metrics.
type Result struct {
	Deltas  map[string]Delta
	Verdict Verdict
}

// Compare judges every input that has a budget, in metric name order, as
// perfgate's compare does (its compare_runs): a baseline ≤ 0 gives a
// skip delta with no reason token; otherwise [Evaluate], then the noise
// policy on the current run's CV, then, with a policy, Welch's test and
// the require-significance downgrade. Every final status other than pass
// adds the reason "<metric>_<status>". Inputs without a budget are ignored.
func Compare(inputs []Input, budgets map[string]Budget, sig *SignificancePolicy) Result {
	in := slices.Clone(inputs)
	slices.SortStableFunc(in, func(a, b Input) int { return cmp.Compare(a.Metric, b.Metric) })
	res := Result{Deltas: map[string]Delta{}}
	var statuses []Status
	var reasons []string
	for _, m := range in {
		b, ok := budgets[m.Metric]
		if !ok {
			continue
		}
		if _, dup := res.Deltas[m.Metric]; dup {
			continue
		}
		d, err := Evaluate(m.Baseline, m.Current, b)
		if err != nil {
			d = SkipDelta(m.Baseline, m.Current, b)
			res.Deltas[m.Metric] = d
			statuses = append(statuses, Skip)
			continue
		}
		d = d.WithNoise(m.CurrentCV, b)
		if sig != nil {
			test := Welch(m.BaselineSamples, m.CurrentSamples, sig.Alpha, sig.MinSamples)
			if !sig.Quiet {
				d.Significance = test
			}
			if sig.Require && (d.Status == Warn || d.Status == Fail) && (test == nil || !test.Significant) {
				d.Status = Pass
			}
			if sig.FailOnlyDistinguishable && d.Status == Fail && test != nil && !test.Significant {
				d.Status = Warn
			}
		}
		res.Deltas[m.Metric] = d
		statuses = append(statuses, d.Status)
		if d.Status != Pass {
			reasons = append(reasons, Reason(m.Metric, d.Status))
		}
	}
	res.Verdict = Aggregate(statuses)
	res.Verdict.Reasons = reasons
	return res
}
