package criterion

import (
	"fmt"
	"math"
	"strings"
)

// Verdict is Criterion's conclusion about a change.
type Verdict string

// The verdicts, as Criterion's report.rs decides them (see [VerdictOf]).
const (
	NoChange    Verdict = "no change"    // p ≥ α
	Improved    Verdict = "improved"     // significant, whole mean-change interval below −noise
	Regressed   Verdict = "regressed"    // significant, whole mean-change interval above +noise
	WithinNoise Verdict = "within noise" // significant, interval not beyond the noise threshold
)

// String is the verdict's short name ("improved", …).
func (v Verdict) String() string { return string(v) }

// Text is the sentence Criterion prints under the change line and in its
// HTML report.
func (v Verdict) Text() string {
	switch v {
	case NoChange:
		return "No change in performance detected."
	case Improved:
		return "Performance has improved."
	case Regressed:
		return "Performance has regressed."
	case WithinNoise:
		return "Change within noise threshold."
	}
	return string(v)
}

// VerdictOf is Criterion's decision: no change unless p < α (strictly);
// otherwise improved when both bounds of the mean-change interval [lo, hi]
// are below −noise, regressed when both are above +noise, and within noise
// else. The point estimate and the median change play no part. Like
// Criterion it reads the change as a change of a cost (time): for a metric
// where higher is better, improved and regressed swap.
func VerdictOf(p, lo, hi float64, o Options) Verdict {
	if !(p < o.SignificanceLevel) {
		return NoChange
	}
	noise := o.NoiseThreshold
	switch {
	case lo < -noise && hi < -noise:
		return Improved
	case lo > noise && hi > noise:
		return Regressed
	}
	return WithinNoise
}

// Change is Criterion's comparison of a sample with its baseline
// (change/estimates.json plus the t-test and the verdict).
type Change struct {
	// T is Welch's t of the current per-iteration values against the
	// baseline's (positive when the current run is slower). It is 0 when
	// both samples are constant and equal (Criterion gets 0/0 there) and
	// ±Inf when both are constant and differ.
	T float64
	// P is the two-tailed p-value of T in its mixed-bootstrap null
	// distribution: 2·min(hits, N − hits)/N with hits the bootstrap t values
	// strictly below T. When both samples are constant no bootstrap is run:
	// P is 1 when their values are equal and 0 when they differ.
	P float64
	// Mean and Median are the relative changes mean(cur)/mean(base) − 1
	// and median(cur)/median(base) − 1 (fractions; positive = slower),
	// with their chunked-bootstrap intervals.
	Mean, Median Estimate
	Verdict      Verdict
	// NResamples is N, the number of finite bootstrap t values behind P
	// (Options.NResamples minus the non-finite ones Criterion drops; 0 when
	// no bootstrap was needed).
	NResamples int
	// SignificanceLevel and NoiseThreshold are the options the verdict was
	// reached with, kept for FormatChange and for pages that explain it.
	SignificanceLevel, NoiseThreshold float64
}

// Compare is Criterion's comparison of cur with base: Welch's t of their
// per-iteration values, its mixed-bootstrap p-value, the relative changes
// of the mean and the median with the intervals of Criterion's chunked
// two-sample bootstrap, and the verdict. Every bootstrap draws o.NResamples
// resamples from seed (see [Seed]).
func Compare(cur, base Sample, seed uint64, o Options) (Change, error) {
	if err := o.Validate(); err != nil {
		return Change{}, err
	}
	if err := cur.Validate(); err != nil {
		return Change{}, fmt.Errorf("current sample: %w", err)
	}
	if err := base.Validate(); err != nil {
		return Change{}, fmt.Errorf("baseline sample: %w", err)
	}
	w := getWorkspace()
	defer putWorkspace(w)

	a, b := cur.Avg(), base.Avg()
	ch := Change{SignificanceLevel: o.SignificanceLevel, NoiseThreshold: o.NoiseThreshold}
	ma, mb := Mean(a), Mean(b)
	va, vb := variance(a, ma), variance(b, mb)
	se := math.Sqrt(va/float64(len(a)) + vb/float64(len(b)))
	switch {
	case !finite(se) || !finite(ma) || !finite(mb):
		return Change{}, errOverflow
	case constant(a) && constant(b) || se == 0:
		// Criterion divides by a standard error that is 0, or a rounding
		// residue of the naive mean (0.1 three times has a variance of
		// 1e-34), and gets NaN, ±Inf or an arbitrary t. Without spread,
		// equal values are no change and different values are as
		// significant as can be.
		switch {
		case a[0] == b[0]:
			ch.T, ch.P = 0, 1
		case a[0] > b[0]:
			ch.T, ch.P = math.Inf(1), 0
		default:
			ch.T, ch.P = math.Inf(-1), 0
		}
	default:
		ch.T = (ma - mb) / se
		ch.P, ch.NResamples = bootstrapT(a, b, ch.T, seed, o)
	}

	var err error
	if ch.Mean, ch.Median, err = bootstrapChange(w, a, b, seed, o); err != nil {
		return Change{}, err
	}
	ch.Verdict = VerdictOf(ch.P, ch.Mean.Lower, ch.Mean.Upper, o)
	return ch, nil
}

// constant reports whether all xs are equal.
func constant(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// pValue is Criterion's two-tailed Distribution::p_value; with no finite
// bootstrap t it is 1 (no evidence of a change), where Criterion gets 0/0.
func pValue(hits, n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(min(hits, n-hits)) / float64(n) * 2
}

// FormatChange is Criterion's change line (without the indentation it
// prints before it), e.g.
//
//	change: [-0.8476% +0.2616% +1.3288%] (p = 0.65 > 0.05)
//
// The bounds and the point are of the mean change, as percentages with 4,
// 3, 2, 1 or 0 decimals for magnitudes below 10, 100, 1000, 10000 and above,
// signed and right-aligned to 6 characters; "<" when p < α, else ">".
// Criterion formats through Rust's {:+.4}, whose minus sign is the ASCII
// hyphen-minus (its HTML report shows the same), and so does FormatChange.
func FormatChange(c Change) string {
	rel := ">"
	if c.P < c.SignificanceLevel {
		rel = "<"
	}
	return fmt.Sprintf("change: [%s %s %s] (p = %.2f %s %.2f)",
		formatPercent(c.Mean.Lower), formatPercent(c.Mean.Point), formatPercent(c.Mean.Upper),
		c.P, rel, c.SignificanceLevel)
}

// formatPercent is Criterion's format::change(x, true).
func formatPercent(x float64) string {
	n := x * 1e2
	var s string
	switch a := math.Abs(n); {
	case a < 10:
		s = fmt.Sprintf("%+.4f", n)
	case a < 100:
		s = fmt.Sprintf("%+.3f", n)
	case a < 1000:
		s = fmt.Sprintf("%+.2f", n)
	case a < 10000:
		s = fmt.Sprintf("%+.1f", n)
	default:
		s = fmt.Sprintf("%+.0f", n)
	}
	if pad := 6 - len(s); pad > 0 {
		s = strings.Repeat(" ", pad) + s
	}
	return s + "%"
}
