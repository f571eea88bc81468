package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Numbers in reports (Markdown, text, the site's tables, perfgate's
// comment) are printed with a fixed number of decimals, as rustc-perf and
// perfgate print them, up to FixedLimit. A change from 1 to 1e308 must not
// print as a 310-digit string, so from FixedLimit on the same number of
// decimals is kept in exponent form: "+1.00e+310%", "2.5e+07x". Exponent
// form was chosen over a capped form (">+999 %") because it still says
// how large the change is, keeps the sign and sorts. NaN and ±Inf print as
// "n/a": no finite number describes them.
const FixedLimit = 1e6

// FormatFixed formats x with the given decimals like fmt's %.Nf, in
// exponent form from |x| ≥ FixedLimit on, "n/a" when x is not finite.
// −0 prints as 0.
func FormatFixed(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if x == 0 {
		x = 0 // −0
	}
	if math.Abs(x) < FixedLimit {
		return strconv.FormatFloat(x, 'f', decimals, 64)
	}
	return strconv.FormatFloat(x, 'e', decimals, 64)
}

// FormatSigned is FormatFixed with a '+' before values ≥ 0 (rustc-perf's
// "+1.00%"; "+0.00" for zero).
func FormatSigned(x float64, decimals int) string {
	s := FormatFixed(x, decimals)
	if x >= 0 && !math.IsInf(x, 1) {
		return "+" + s
	}
	return s
}

// FormatPercent formats a fraction as a percent, FormatFixed(x×100)
// followed by "%" ("n/a" without one), computed so that x×100 does not
// overflow: 1e307 is "1.00e+309%", not "+Inf%".
func FormatPercent(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if math.Abs(x) < FixedLimit/100 {
		return FormatFixed(x*100, decimals) + "%"
	}
	// The decimal digits of x×100 are those of x; only the exponent moves.
	s := strconv.FormatFloat(x, 'e', decimals, 64)
	i := strings.LastIndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[i+1:])
	return fmt.Sprintf("%se%+03d%%", s[:i], exp+2)
}

// FormatPercentSigned is FormatPercent with a '+' before values ≥ 0.
func FormatPercentSigned(x float64, decimals int) string {
	s := FormatPercent(x, decimals)
	if x >= 0 && !math.IsInf(x, 1) {
		return "+" + s
	}
	return s
}
