package archive

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// The schema's rules on values, written once: Decode applies them to what
// a file says (validate.go, after its type checks, at the line of the
// value), Encode to a run about to be written (encode.go), so that an
// importer never writes an archive that Decode would refuse or cut short.
// Each returns "" for a valid value, else the message both report.

// Messages of required fields.
const (
	missingArtifactID  = "missing artifact.id"
	missingMachineName = "missing machine.name"
	missingBenchmark   = "missing benchmark"
	missingMetric      = "missing metric"
	noSamples          = "no samples and no error"
)

// kindRule: an artifact kind is commit, try, tag or local (empty means
// commit).
func kindRule(k model.ArtifactKind) string {
	if k != "" && !k.Valid() {
		return fmt.Sprintf("artifact.kind: unknown kind %q (want commit, try, tag or local)", k)
	}
	return ""
}

// dateRule: a date is not the zero time, which means "no date" to the rest
// of perfpages, and its UTC year is 0001 to 9999, the years that survive
// the way back to RFC 3339. text is the date as the file or the run says
// it.
func dateRule(t time.Time, text string) string {
	if y := t.UTC().Year(); t.IsZero() || y < 1 || y > 9999 {
		return fmt.Sprintf("artifact.date: %s is out of range (years 0001 to 9999 in UTC)", text)
	}
	return ""
}

// nonNegative: counts (pr, cores, memory_bytes) are not negative.
func nonNegative(path string, n int64) string {
	if n < 0 {
		return fmt.Sprintf("%s: must not be negative (%d)", path, n)
	}
	return ""
}

// parentRule: a parent id is not empty.
func parentRule(i int, id string) string {
	if id == "" {
		return fmt.Sprintf("artifact.parents[%d]: empty id", i)
	}
	return ""
}

// categoryRule: a result's category is primary or secondary (empty means
// primary).
func categoryRule(c model.Category) string {
	if c != "" && c != model.Primary && c != model.Secondary {
		return fmt.Sprintf("unknown category %q (want primary or secondary)", c)
	}
	return ""
}

// directionRule: a result's direction is lower or higher, or empty (the
// metric's).
func directionRule(d model.Direction) string {
	if d != "" && d != model.LowerIsBetter && d != model.HigherIsBetter {
		return fmt.Sprintf("unknown direction %q (want lower or higher)", d)
	}
	return ""
}

// sampleRule: a sample is a finite number, not negative for a time or a
// size.
func sampleRule(j int, x float64, unit string) string {
	switch {
	case math.IsNaN(x):
		return fmt.Sprintf("samples[%d] is NaN", j)
	case math.IsInf(x, 0):
		return fmt.Sprintf("samples[%d] is %s", j, strconv.FormatFloat(x, 'g', -1, 64))
	case x < 0 && model.IsTimeOrSize(unit):
		return fmt.Sprintf("samples[%d] is negative (%s) for unit %q", j, strconv.FormatFloat(x, 'g', -1, 64), unit)
	}
	return ""
}

// iterRule: an iteration count is a positive finite number.
func iterRule(j int, x float64) string {
	if !(x > 0) || math.IsInf(x, 0) {
		return fmt.Sprintf("iters[%d] is not a positive number (%s)", j, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return ""
}

// countRule: iters, when given, has one count per sample.
func countRule(iters, samples int) string {
	if iters != samples {
		return fmt.Sprintf("%d iters for %d samples", iters, samples)
	}
	return ""
}

// summaryRule: a summary's mean is a finite number, its standard
// deviation a finite number not below 0, its count at least 1 (a tool
// that kept no samples kept at least the one its mean is of).
func summaryRule(s model.SampleSummary) string {
	switch {
	case math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0):
		return fmt.Sprintf("summary.mean is not a finite number (%s)", strconv.FormatFloat(s.Mean, 'g', -1, 64))
	case !(s.StdDev >= 0) || math.IsInf(s.StdDev, 0):
		return fmt.Sprintf("summary.stddev is not a finite number of at least 0 (%s)", strconv.FormatFloat(s.StdDev, 'g', -1, 64))
	case s.N < 1:
		return fmt.Sprintf("summary.n is not a count of at least 1 (%d)", s.N)
	}
	return ""
}

// duplicateRule: two results of a run never share benchmark, parameters
// and metric. first is the index of the earlier one.
func duplicateRule(first int) string { return fmt.Sprintf("duplicate of results[%d]", first) }
