package foreign

import (
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
)

// unitMetric names the metric of values that come with nothing but a
// unit, where a reader would otherwise name the metric after the unit: a
// github-action-benchmark custom record {"name": "cache misses", "unit":
// "%"}, a BMF measure called "ms". A metric called "%" or "MB" reads
// badly on a page ("% change" of metric "%"), so a unit of a known
// quantity names that quantity instead and stays the metric's unit:
//
//	time (ns, us, µs, ms, s, per op or iteration)  wall-time
//	a rate (…/s, …/sec, …/ms: model.IsRate)        throughput
//	%, percent                                     percent
//	bytes (B, kB, KB, MB, GB, TB, KiB … TiB)       size
//	x, ×                                           ratio
//
// ok is false for any other unit, which stays the metric's name ("B/op",
// "allocs/op", "widgets"). Go's units are not passed through here: there a
// unit is the metric's name by convention (benchstat's columns), and a
// custom "ms" beside ns/op is another metric than wall-time.
func unitMetric(unit string) (metric string, ok bool) {
	u := strings.TrimSpace(unit)
	t := u
	for _, suffix := range []string{"/op", "/iter"} {
		if s, ok := strings.CutSuffix(t, suffix); ok {
			t = s
			break
		}
	}
	switch strings.ToLower(gabMicro.Replace(t)) {
	case "ns", "us", "ms", "s", "sec", "secs", "second", "seconds", "nsec", "usec", "msec":
		return "wall-time", true
	}
	if model.IsRate(u) {
		return "throughput", true
	}
	switch strings.ToLower(u) {
	case "%", "percent":
		return "percent", true
	case "b", "byte", "bytes", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib":
		return "size", true
	case "x", "×":
		return "ratio", true
	}
	return "", false
}
