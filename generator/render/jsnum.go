package render

import (
	"math"
	"strconv"
	"strings"
)

// JSNumber formats x the way JavaScript's Number.prototype.toString does
// (the shortest decimal that reads back as x, exponent form below 1e-6
// and from 1e21 on): attributes a page's script compares or writes itself
// (data-change, data-factor) then read the same whether the generator or
// the script wrote them.
func JSNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	k := len(digits)
	ex, _ := strconv.Atoi(exp)
	n := ex + 1 // the decimal point is after n digits
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	s := digits[:1]
	if k > 1 {
		s += "." + digits[1:]
	}
	es := strconv.Itoa(n - 1)
	if n-1 >= 0 {
		es = "+" + es
	}
	return sign + s + "e" + es
}
