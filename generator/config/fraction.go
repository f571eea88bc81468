package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Fraction is a key whose value is a fraction of 1: a budget's threshold,
// triage.large_change, a significance level. It is written as a number
// (0.10) or as a percentage in a string ("10%", "2.5 %"). A number above 1
// is an error that shows both ways of writing what was probably meant
// (see checkFraction): "threshold = 10" would otherwise read as 1000 %
// and never fire.
type Fraction float64

// UnmarshalTOML decodes a number, or a string holding a percentage or a
// number.
func (f *Fraction) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case float64:
		*f = Fraction(x)
	case int64:
		*f = Fraction(x)
	case string:
		p, err := ParseFraction(x)
		if err != nil {
			return err
		}
		*f = Fraction(p)
	default:
		return fmt.Errorf("%v: want a fraction such as 0.10 or a percentage such as \"10%%\"", v)
	}
	return nil
}

// ParseFraction reads a fraction written as a percentage ("10%", "2.5 %")
// or as a number ("0.10"). A percentage over 100 % is an error: every
// fraction perfpages takes is at most 1.
func ParseFraction(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, percent := strings.CutSuffix(t, "%")
	num = strings.TrimSpace(num)
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q: want a fraction such as 0.10 or a percentage such as \"10%%\"", s)
	}
	if !percent {
		return x, nil
	}
	if x > 100 {
		return 0, fmt.Errorf("%q: want a percentage of at most 100 %%", s)
	}
	return x / 100, nil
}

// checkFraction returns the error of a fraction key (where names its
// section, key the key) outside [0, 1], or nil. Above 1 it is most likely
// a percentage written as a number, and the error says how to write it.
func checkFraction(where, key string, f *Fraction) error {
	if f == nil {
		return nil
	}
	x := float64(*f)
	switch {
	case x > 1 && x <= 100 && !math.IsInf(x, 0):
		return fmt.Errorf("%s %s = %v reads as %s %%; write %s or \"%s%%\"", where, key, x, strconv.FormatFloat(x*100, 'g', 6, 64), fractionText(x/100), strconv.FormatFloat(x, 'f', -1, 64))
	case !(x >= 0 && x <= 1):
		return fmt.Errorf("%s %s = %v: want a fraction between 0 and 1, such as 0.10 or \"10%%\"", where, key, x)
	}
	return nil
}

// fractionText writes x with at least two decimals (0.10, 0.05, 0.025).
func fractionText(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i < 0 {
		s += ".00"
	} else if len(s)-i == 2 {
		s += "0"
	}
	return s
}

// ptrFloat is the value of an optional fraction key, nil when unset.
func (f *Fraction) ptrFloat() *float64 {
	if f == nil {
		return nil
	}
	x := float64(*f)
	return &x
}
