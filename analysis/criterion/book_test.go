package criterion

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The Criterion book's report fixtures (testdata/book, see its README):
// real output of Criterion 0.2/0.3 in the legacy file layout, whose point
// estimates are deterministic and must come out in every digit.

type bookEstimate struct {
	ConfidenceInterval struct {
		ConfidenceLevel float64 `json:"confidence_level"`
		LowerBound      float64 `json:"lower_bound"`
		UpperBound      float64 `json:"upper_bound"`
	} `json:"confidence_interval"`
	PointEstimate float64 `json:"point_estimate"`
	StandardError float64 `json:"standard_error"`
}

func readBookJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "book", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// readBookSample reads a legacy sample.json: [[iters…], [times…]].
func readBookSample(t *testing.T, path string) Sample {
	var d [2][]float64
	readBookJSON(t, path, &d)
	return Sample{Iters: d[0], Times: d[1]}
}

func TestBookRecursivePointEstimates(t *testing.T) {
	s := readBookSample(t, "Fibonacci/Recursive/new/sample.json")
	var want map[string]bookEstimate
	readBookJSON(t, "Fibonacci/Recursive/new/estimates.json", &want)

	e, err := Analyze(s, Seed("Fibonacci/Recursive"), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if e.Slope == nil {
		t.Fatal("Slope = nil; the fixture is linear sampling")
	}
	avg := s.Avg()
	got := map[string]struct{ analyze, direct float64 }{
		"Mean":         {e.Mean.Point, Mean(avg)},
		"Median":       {e.Median.Point, Median(avg)},
		"MedianAbsDev": {e.MedianAbsDev.Point, MedianAbsDev(avg)},
		"StdDev":       {e.StdDev.Point, StdDev(avg)},
		"Slope":        {e.Slope.Point, Slope(s.Iters, s.Times)},
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("estimates.json has %s, which Analyze does not compute", name)
			continue
		}
		if g.analyze != w.PointEstimate || g.direct != w.PointEstimate {
			t.Errorf("%s point = %v (Analyze), %v (direct); estimates.json has %v", name, g.analyze, g.direct, w.PointEstimate)
		}
	}
	// The same values, pinned here too in case the fixture is ever edited.
	if e.MedianAbsDev.Point != 300.31279213429315 || e.Slope.Point != 19310.74450671244 {
		t.Errorf("MAD, slope = %v, %v; want 300.31279213429315, 19310.74450671244", e.MedianAbsDev.Point, e.Slope.Point)
	}
}

// Our bootstrap draws differ from Criterion's (its RNG is seeded from the
// clock), but both estimate the same intervals: with 100 000 resamples the
// bounds of two runs differ by a small fraction of the standard error (at
// most 0.1 of it and 0.8 % in the standard error over seeds 0–29). A bound
// further than 0.3 standard errors from Criterion's, or a standard error
// 3 % off, would mean a different resampling scheme.
func TestBookRecursiveIntervalsAgreeWithCriterion(t *testing.T) {
	s := readBookSample(t, "Fibonacci/Recursive/new/sample.json")
	var want map[string]bookEstimate
	readBookJSON(t, "Fibonacci/Recursive/new/estimates.json", &want)
	e, err := Analyze(s, Seed("Fibonacci/Recursive"), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Estimate{"Mean": e.Mean, "Median": e.Median, "MedianAbsDev": e.MedianAbsDev, "StdDev": e.StdDev, "Slope": *e.Slope}
	for name, w := range want {
		g := got[name]
		se := w.StandardError
		if math.Abs(g.Lower-w.ConfidenceInterval.LowerBound) > 0.3*se || math.Abs(g.Upper-w.ConfidenceInterval.UpperBound) > 0.3*se {
			t.Errorf("%s interval = [%v, %v], Criterion's [%v, %v] (standard error %v)", name, g.Lower, g.Upper, w.ConfidenceInterval.LowerBound, w.ConfidenceInterval.UpperBound, se)
		}
		if math.Abs(g.StdErr-se) > 0.03*se {
			t.Errorf("%s standard error = %v, Criterion's %v", name, g.StdErr, se)
		}
		if g.ConfidenceLevel != w.ConfidenceInterval.ConfidenceLevel {
			t.Errorf("%s confidence level = %v, want %v", name, g.ConfidenceLevel, w.ConfidenceInterval.ConfidenceLevel)
		}
	}
}

func TestBookRecursiveTukey(t *testing.T) {
	s := readBookSample(t, "Fibonacci/Recursive/new/sample.json")
	f, o := Classify(s.Avg())
	// The four fences of the fixture's tukey.json in Criterion's book (the
	// file is not in testdata/book; its values are copied here).
	wantF := Fences{17650.693357726508, 18316.23397119015, 20091.008940426538, 20756.549553890185}
	if f != wantF {
		t.Errorf("fences = %v, want %v", f, wantF)
	}
	if diff := cmp.Diff(Outliers{NotOutlier: 92, HighMild: 4, HighSevere: 4}, o); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// The change lines and verdicts of the book's HTML reports
// (Fibonacci/{Iterative,Recursive}/report/index.html): Criterion stores no
// p-value, so the p's are those printed there, and the intervals are the
// change/estimates.json values.
func TestBookChangeLines(t *testing.T) {
	var rec map[string]bookEstimate
	readBookJSON(t, "Fibonacci/Recursive/change/estimates.json", &rec)
	m := rec["Mean"]
	tests := []struct {
		name        string
		p           float64
		mean        Estimate
		wantLine    string
		wantVerdict Verdict
		wantText    string
	}{
		{
			"Iterative: not significant",
			0.65,
			Estimate{Point: 0.002615814736259159, Lower: -0.008476297386567844, Upper: 0.013287745367767459},
			"change: [-0.8476% +0.2616% +1.3288%] (p = 0.65 > 0.05)",
			NoChange, "No change in performance detected.",
		},
		{
			"Recursive: significant, upper bound inside the noise",
			0.02,
			Estimate{Point: m.PointEstimate, Lower: m.ConfidenceInterval.LowerBound, Upper: m.ConfidenceInterval.UpperBound},
			"change: [-2.2760% -1.2259% -0.2236%] (p = 0.02 < 0.05)",
			WithinNoise, "Change within noise threshold.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := VerdictOf(tt.p, tt.mean.Lower, tt.mean.Upper, DefaultOptions)
			if v != tt.wantVerdict || v.Text() != tt.wantText {
				t.Errorf("verdict = %v (%q), want %v (%q)", v, v.Text(), tt.wantVerdict, tt.wantText)
			}
			c := Change{P: tt.p, Mean: tt.mean, Verdict: v, SignificanceLevel: 0.05}
			if got := FormatChange(c); got != tt.wantLine {
				t.Errorf("FormatChange = %q, want %q", got, tt.wantLine)
			}
		})
	}
}
