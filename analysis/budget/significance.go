package budget

import "math"

// Significance is the result of Welch's t-test on the two sample series
// of a metric, as a compare receipt records it.
type Significance struct {
	Test        string // always "welch_t"
	PValue      float64
	Alpha       float64
	Significant bool // PValue ≤ Alpha
	// BaselineSamples and CurrentSamples are the series' lengths.
	BaselineSamples, CurrentSamples int
	// CILower and CIUpper are filled only by perfgate's paired mode; a
	// Welch test leaves them nil.
	CILower, CIUpper *float64
}

// WelchTestName is the name of the test in [Significance.Test].
const WelchTestName = "welch_t"

// WelchT computes Welch's unequal-variances t-test of baseline against
// current: t = (mean_b − mean_c) / √(var_b/n_b + var_c/n_c) (baseline
// minus current, perfgate's sign), the Welch–Satterthwaite degrees of
// freedom and the two-sided p-value 2·(1 − F_t(|t|; df)), clamped to [0, 1].
// Variances are Welford's, divided by n−1.
//
// When both variances are zero the test degenerates: p is 1 when the means
// are equal (closer than float64 epsilon) and 0 otherwise, with t and df
// reported as 0. ok is false when either side has fewer than 2 values or
// the degrees of freedom are not a positive finite number (values so large
// that their squares overflow, for instance).
func WelchT(baseline, current []float64) (t, df, p float64, ok bool) {
	nb, nc := float64(len(baseline)), float64(len(current))
	if len(baseline) < 2 || len(current) < 2 {
		return 0, 0, 0, false
	}
	mb, vb, _ := MeanVar(baseline)
	mc, vc, _ := MeanVar(current)
	se2 := vb/nb + vc/nc
	if math.IsNaN(se2) {
		return 0, 0, 0, false
	}
	if se2 <= 0 {
		if math.Abs(mb-mc) < epsilon {
			return 0, 0, 1, true
		}
		return 0, 0, 0, true
	}
	t = (mb - mc) / math.Sqrt(se2)
	df = se2 * se2 / (vb*vb/(nb*nb*(nb-1)) + vc*vc/(nc*nc*(nc-1)))
	if math.IsNaN(df) || math.IsInf(df, 0) || df <= 0 || math.IsNaN(t) {
		return 0, 0, 0, false
	}
	p = min(max(StudentTTwoSided(t, df), 0), 1)
	return t, df, p, true
}

// epsilon is Rust's f64::EPSILON, the tolerance perfgate uses to call two
// means equal when both series have zero variance.
const epsilon = 2.220446049250313e-16

// Welch runs [WelchT] and wraps the result for a compare receipt. It
// returns nil, as perfgate does, when either series has fewer than
// minSamples values (or fewer than 2) or the test is undefined.
func Welch(baseline, current []float64, alpha float64, minSamples int) *Significance {
	if len(baseline) < minSamples || len(current) < minSamples {
		return nil
	}
	_, _, p, ok := WelchT(baseline, current)
	if !ok {
		return nil
	}
	return &Significance{
		Test:            WelchTestName,
		PValue:          p,
		Alpha:           alpha,
		Significant:     p <= alpha,
		BaselineSamples: len(baseline),
		CurrentSamples:  len(current),
	}
}

// StudentTTwoSided is the two-sided tail probability P(|T| ≥ |t|) of
// Student's t distribution with df > 0 degrees of freedom:
// I_x(df/2, 1/2) with x = df / (df + t²), the regularized incomplete beta
// function. Computing the tail directly, rather than 1 − CDF, keeps small
// p-values accurate.
func StudentTTwoSided(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		return 0
	}
	if t == 0 {
		return 1
	}
	// x = df/(df+t²) loses its digits when t² ≫ df; 1−x = t²/(df+t²) is
	// computed separately for the symmetric branch.
	t2 := t * t
	x := df / (df + t2)
	y := t2 / (df + t2)
	return regIncBeta(df/2, 0.5, x, y)
}

// regIncBeta is the regularized incomplete beta function I_x(a, b) for
// a, b > 0 and 0 ≤ x ≤ 1, with y = 1 − x supplied by the caller so that it
// keeps its precision. It evaluates the continued fraction (Numerical
// Recipes §6.4, modified Lentz) on whichever side of the mean a/(a+b) it
// converges fast, using I_x(a, b) = 1 − I_{1−x}(b, a).
func regIncBeta(a, b, x, y float64) float64 {
	switch {
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	// The prefactor x^a y^b / (a B(a, b)) in logs.
	lbeta := lgamma(a) + lgamma(b) - lgamma(a+b)
	front := math.Exp(a*math.Log(x) + b*math.Log(y) - lbeta)
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, y)/b
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method.
func betaCF(a, b, x float64) float64 {
	const (
		maxIter = 10000
		eps     = 1e-15
		tiny    = 1e-300
	)
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 - qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		m2 := 2 * fm
		// Even step.
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		// Odd step.
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
