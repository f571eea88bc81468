package zscore

import (
	"math"
	"strconv"
)

// DefaultThreshold is the |z| above which a change is a regression or an
// improvement (Conbench's DEFAULT_Z_SCORE_THRESHOLD).
const DefaultThreshold = 5.0

// Kinds of single value summary accepted by [SVS].
const (
	SVSBest = "best" // min when less is better, max otherwise (Conbench's default)
	SVSMean = "mean" // arithmetic mean
)

// SVS is Conbench's single value summary of one result's repetitions.
// Kind "best" (also the empty kind) takes the minimum when less is better
// and the maximum otherwise; Conbench special-cases one sample (its mean)
// and two samples (the smaller or larger), which are the same numbers.
// Kind "mean" is the arithmetic mean. The result is false for no data, a
// NaN or infinite sample (a failed result), an unknown kind, or a mean
// that overflows.
func SVS(data []float64, lessIsBetter bool, kind string) (float64, bool) {
	if len(data) == 0 {
		return 0, false
	}
	for _, x := range data {
		if !isFinite(x) {
			return 0, false
		}
	}
	switch kind {
	case SVSBest, "":
		best := data[0]
		for _, x := range data[1:] {
			if lessIsBetter && x < best || !lessIsBetter && x > best {
				best = x
			}
		}
		return best, true
	case SVSMean:
		m := mean(data)
		return m, isFinite(m)
	}
	return 0, false
}

// mean is a compensated (Neumaier) mean, so that a result's mean comes out
// the same whatever the order of its samples; sums that overflow are
// retried on scaled samples.
func mean(data []float64) float64 {
	n := float64(len(data))
	if s := neumaier(data, 1); isFinite(s) {
		return s / n
	}
	return neumaier(data, n)
}

func neumaier(data []float64, div float64) float64 {
	var sum, c float64
	for _, x := range data {
		x /= div
		t := sum + x
		if math.Abs(sum) >= math.Abs(x) {
			c += (sum - t) + x
		} else {
			c += (x - t) + sum
		}
		sum = t
	}
	return sum + c
}

// Z is the lookback z-score of one contender value.
type Z struct {
	// Z is (contender − Mean) / Std, negated for less-is-better metrics so
	// that a positive z is always an improvement. Zero is never negative.
	Z  float64
	OK bool
	// Reason says why there is no z-score when OK is false.
	Reason string
	// Mean and Std are the distribution scored against. They are set
	// whenever that distribution is usable (OK, with a positive finite
	// std), also when the contender gets no z-score, and zero otherwise:
	// a history chart draws them as its band (see [Z.Band]).
	Mean, Std float64
	Threshold float64 // the threshold applied
	// Regression is −Z > Threshold; Improvement is Z > Threshold (strict,
	// as Conbench's regression_indicated and improvement_indicated).
	Regression, Improvement bool
}

// Score scores a contender's single value summary against a distribution.
// A threshold that is not a positive finite number means DefaultThreshold.
// There is no z-score (OK false, with a reason) for a NaN or infinite
// contender, a distribution that is not OK, or a z that overflows; an OK Z
// never holds NaN or ±Inf.
func Score(contender float64, d Dist, lessIsBetter bool, threshold float64) Z {
	if !(threshold > 0) || math.IsInf(threshold, 1) {
		threshold = DefaultThreshold
	}
	z := Z{Threshold: threshold}
	usable := d.OK && isFinite(d.Mean) && isFinite(d.Std) && d.Std > 0
	if usable {
		z.Mean, z.Std = d.Mean, d.Std
	}
	switch {
	case !isFinite(contender):
		z.Reason = "contender value is not a finite number"
		return z
	case !d.OK:
		z.Reason = d.Reason
		if z.Reason == "" {
			z.Reason = reasonNoHistory
		}
		return z
	case !usable:
		z.Reason = "distribution has no positive finite standard deviation"
		return z
	}
	v := (contender - d.Mean) / d.Std
	if !isFinite(v) {
		z.Reason = "z-score is not finite"
		return z
	}
	if lessIsBetter {
		v = -v
	}
	if v == 0 {
		v = 0 // no −0
	}
	z.Z, z.OK = v, true
	z.Regression = -v > threshold
	z.Improvement = v > threshold
	return z
}

// Band is the range of values that score within the threshold:
// Mean ∓ Threshold·Std. A value outside it is one whose |z| exceeds the
// threshold (up to the rounding of the last bit at the edges). ok is false
// when there is no usable distribution.
func (z Z) Band() (lower, upper float64, ok bool) {
	if !(z.Std > 0) {
		return 0, 0, false
	}
	return z.Mean - z.Threshold*z.Std, z.Mean + z.Threshold*z.Std, true
}

// Round4 rounds to 4 significant figures for display, as Conbench's API
// does with sigfig.round: the shortest decimal form of z is rounded half
// away from zero. NaN and ±Inf are returned unchanged and −0 becomes 0.
func Round4(z float64) float64 {
	if z == 0 {
		return 0
	}
	if !isFinite(z) {
		return z
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], math.Abs(z), 'e', -1, 64) // d.ddde±xx
	e := 0
	for e < len(b) && b[e] != 'e' {
		e++
	}
	exp, _ := strconv.Atoi(string(b[e+1:]))
	var m, digits int
	round := false
	for _, c := range b[:e] {
		if c == '.' {
			continue
		}
		if digits == 4 {
			round = c >= '5'
			break
		}
		m = m*10 + int(c-'0')
		digits++
	}
	if digits < 4 {
		return z // already short
	}
	if round {
		m++
	}
	out := strconv.AppendInt(buf[:0], int64(m), 10)
	out = append(out, 'e')
	out = strconv.AppendInt(out, int64(exp-3), 10)
	r, err := strconv.ParseFloat(string(out), 64)
	if err != nil {
		return z
	}
	return math.Copysign(r, z)
}
