package report

import (
	"math"
	"strconv"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// FormatChange shows a relative change (a fraction) as a signed percent
// with two decimals, as rustc-perf's compare page does; from 1 000 000 %
// on in exponent form ("+1.00e+310%"), "n/a" for NaN
// (analysis.FormatPercent). A change from 0 (analysis.Row.FromZero) is
// infinite and shows as such, "+∞%" (or "-∞%" for a negative value):
// the base was 0, so no percentage describes it, and every reader knows
// the sign.
func FormatChange(c float64) string {
	switch {
	case math.IsInf(c, 1):
		return "+∞%"
	case math.IsInf(c, -1):
		return "-∞%"
	}
	return analysis.FormatPercentSigned(c, 2)
}

// FormatThreshold shows a significance threshold as rustc-perf does: a
// percent with two decimals, "-" when it is 0.
func FormatThreshold(t float64) string {
	if t == 0 {
		return "-"
	}
	return analysis.FormatPercent(t, 2)
}

// FormatFactor shows a significance factor ("2.50x", "-" when 0).
func FormatFactor(f float64) string {
	if f == 0 {
		return "-"
	}
	return analysis.FormatFixed(f, 2) + "x"
}

// FormatP shows a p-value with three decimals, as benchstat does.
func FormatP(p float64) string {
	if p < 0.001 && p > 0 {
		return "<0.001"
	}
	return analysis.FormatFixed(p, 3)
}

// FormatPercent1 shows a fraction as a percent with one decimal, as
// rustc-perf's summary tables do ("1.5%").
func FormatPercent1(x float64) string { return analysis.FormatPercent(x, 1) }

// ZShown is the largest |z| FormatZ prints as a number: twice Conbench's
// threshold of 5. Beyond it a z-score says only that the change is far
// outside the series' run-to-run noise, and the number grows with how
// small that noise is, not with the change: a metric with next to no
// noise (an instruction count, a "reliable" metric) turns a 0.5 % change
// into z = −791.9, which reads as an alarm next to a wall time's −6 for a
// 7 % change. So it is shown as "> +10" or "< -10", with ZCapped as its
// explanation (the cell's title, the text format's note); the exact value
// stays in the JSON (z_score). Hiding the z-score of reliable metrics
// altogether was the other choice; the cap keeps what it tells (beyond the
// threshold, and which way) for every metric.
const ZShown = 10

// ZCapped explains a z-score shown capped (FormatZ); site.js says the
// same in the title of the rows it builds.
const ZCapped = "beyond ±10 a z-score only says that the change is far outside the series' run-to-run noise, which a metric with tiny noise (an instruction count) makes of any change: the % change says how large it is"

// FormatZ shows a z-score with a sign and Conbench's four significant
// figures, but no more than two decimals: "+4.95", "-2.19", "+10.00";
// beyond ±ZShown capped: "> +10", "< -10" (see ZShown); "n/a" for NaN.
func FormatZ(z float64) string {
	r := zscore.Round4(z)
	switch {
	case r > ZShown:
		return "> +" + strconv.Itoa(ZShown)
	case r < -ZShown:
		return "< -" + strconv.Itoa(ZShown)
	}
	return analysis.FormatSigned(r, 2)
}

// ZIsCapped says FormatZ shows z capped.
func ZIsCapped(z float64) bool { return math.Abs(zscore.Round4(z)) > ZShown }
