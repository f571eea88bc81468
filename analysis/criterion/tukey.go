package criterion

// Fences are Criterion's modified Tukey fences, in the order of tukey.json:
// low severe (q1 − 3·iqr), low mild (q1 − 1.5·iqr), high mild (q3 + 1.5·iqr)
// and high severe (q3 + 3·iqr), where q1 and q3 are the 25th and 75th
// percentiles.
type Fences [4]float64

// Tukey computes the fences of the per-iteration values avg. It is the zero
// Fences when avg is empty.
func Tukey(avg []float64) Fences {
	if len(avg) == 0 {
		return Fences{}
	}
	s := sortedCopy(avg)
	q1, q3 := at(s, 25), at(s, 75)
	iqr := q3 - q1
	const mild, severe = 1.5, 3
	return Fences{
		q1 - float64(severe*iqr),
		q1 - float64(mild*iqr),
		q3 + float64(mild*iqr),
		q3 + float64(severe*iqr),
	}
}

// Label is the class Tukey's method gives one value.
type Label int

// The labels, as Criterion names them.
const (
	NotOutlier Label = iota
	LowSevere
	LowMild
	HighMild
	HighSevere
)

// Label classifies x. The tests are Criterion's, in its order and all
// strict: below the low severe fence, above the high severe fence, below
// the low mild fence, above the high mild fence; a value on a fence is
// therefore in the milder class.
func (f Fences) Label(x float64) Label {
	switch {
	case x < f[0]:
		return LowSevere
	case x > f[3]:
		return HighSevere
	case x < f[1]:
		return LowMild
	case x > f[2]:
		return HighMild
	}
	return NotOutlier
}

// Outliers counts the values of a sample per label.
type Outliers struct {
	LowSevere, LowMild, NotOutlier, HighMild, HighSevere int
}

// Classify computes the fences of avg and counts its values per label.
// Outliers are only counted: Criterion never drops them.
func Classify(avg []float64) (Fences, Outliers) {
	f := Tukey(avg)
	var o Outliers
	for _, x := range avg {
		switch f.Label(x) {
		case LowSevere:
			o.LowSevere++
		case LowMild:
			o.LowMild++
		case HighMild:
			o.HighMild++
		case HighSevere:
			o.HighSevere++
		default:
			o.NotOutlier++
		}
	}
	return f, o
}
