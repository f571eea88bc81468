package planted

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
)

// TestZZSteps is a scratch experiment: step detection scores for option variants.
func TestZZSteps(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	variants := map[string]func(*changepoint.Options){
		"default": func(o *changepoint.Options) {},
		"nm2.5":   func(o *changepoint.Options) { o.NoiseMultiple = 2.5 },
		"nm3":     func(o *changepoint.Options) { o.NoiseMultiple = 3 },
		"nm1.5":   func(o *changepoint.Options) { o.NoiseMultiple = 1.5 },
		"w100":    func(o *changepoint.Options) { o.Window = 100 },
		"a.0001":  func(o *changepoint.Options) { o.Alpha = 0.0001; o.Permutations = 9999 },
		"ms5":     func(o *changepoint.Options) { o.MinSegment = 5 },
		"wm3":     func(o *changepoint.Options) { o.WidthMultiple = 3 },
		"wm6":     func(o *changepoint.Options) { o.WidthMultiple = 6 },
		"hold6":   func(o *changepoint.Options) { o.Hold = 6 },
		"perm": func(o *changepoint.Options) {
			o.Test = changepoint.Permutation
			o.Alpha = 0.001
			o.NoiseMultiple = 2
			o.WidthMultiple = 0
		},
	}
	names := strings.Split(os.Getenv("ZZ"), ",")
	for _, shape := range []Shape{Values, Samples} {
		o := DefaultOptions
		o.Shape = shape
		s := suiteFor(t, o)
		cfg := parseConfig(t, "")
		d := inMemory(s, cfg)
		for _, name := range names {
			co := changepoint.DefaultOptions
			variants[name](&co)
			steps := analysis.Steps(d, co, nil)
			sc := ScoreSteps(s, d, steps, DefaultTolerance, nil)
			var b strings.Builder
			WriteSteps(&b, fmt.Sprintf("%s %s", shape, name), sc)
			t.Log(b.String())
		}
	}
}

func seriesWidth(vals []float64) float64 {
	var l []float64
	for _, v := range vals {
		if v > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			l = append(l, math.Log(v))
		}
	}
	return madDiffSigma(l)
}

// levelWander: robust SD of the differences of adjacent block medians (blocks
// of b values, log space), over √2, skipping block pairs that straddle a step.
func levelWander(vals []float64, b int, stepAt []int) float64 {
	var l []float64
	var pos []int
	for i, v := range vals {
		if v > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			l = append(l, math.Log(v))
			pos = append(pos, i)
		}
	}
	var meds []float64
	var spans [][2]int
	for i := 0; i+b <= len(l); i += b {
		meds = append(meds, median(l[i:i+b]))
		spans = append(spans, [2]int{pos[i], pos[i+b-1]})
	}
	var d []float64
	for i := 0; i+1 < len(meds); i++ {
		straddle := false
		for _, s := range stepAt {
			if s > spans[i][0] && s <= spans[i+1][1] {
				straddle = true
			}
		}
		if !straddle {
			d = append(d, meds[i+1]-meds[i])
		}
	}
	if len(d) < 3 {
		return math.NaN()
	}
	m := median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - m)
	}
	return 1.4826 * median(d) / math.Sqrt2
}

func madDiffSigma(xs []float64) float64 {
	if len(xs) < 3 {
		return math.NaN()
	}
	d := make([]float64, len(xs)-1)
	for i := range d {
		d[i] = xs[i+1] - xs[i]
	}
	med := median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - med)
	}
	return 1.4826 * median(d) / math.Sqrt2
}

// TestZZGrid: step detection over a grid of detector options (ZZG=1).
func TestZZGrid(t *testing.T) {
	if os.Getenv("ZZG") == "" {
		t.Skip()
	}
	type v struct {
		name string
		f    func(*changepoint.Options)
	}
	var grid []v
	for _, test := range []changepoint.Test{changepoint.Permutation, changepoint.Rank} {
		for _, nm := range []float64{1} {
			for _, wm := range []float64{3, 3.5, 4, 5} {
				for _, hold := range []int{9} {
					for _, alpha := range []float64{0.001, 0.0001} {
						if test == changepoint.Permutation {
							continue
						}
						test, nm, wm, hold, alpha := test, nm, wm, hold, alpha
						grid = append(grid, v{fmt.Sprintf("test=%q nm=%g wm=%g hold=%d a=%g", test, nm, wm, hold, alpha), func(o *changepoint.Options) {
							o.Test, o.NoiseMultiple, o.WidthMultiple, o.Hold, o.Alpha = test, nm, wm, hold, alpha
						}})
					}
				}
			}
		}
	}
	for _, shape := range []Shape{Values, Samples} {
		o := DefaultOptions
		o.Shape = shape
		s := suiteFor(t, o)
		cfg := parseConfig(t, "")
		d := inMemory(s, cfg)
		for _, g := range grid {
			if f := os.Getenv("ZZG"); f != "1" && !strings.Contains(g.name, f) {
				continue
			}
			co := changepoint.DefaultOptions
			g.f(&co)
			sc := ScoreSteps(s, d, analysis.Steps(d, co, nil), DefaultTolerance, nil)
			rk := func(k float64) float64 { return float64(sc.Found[k]) / float64(sc.Planted[k]) }
			t.Logf("%-7s %-50s P %.3f R4+ %.3f  k1 %.2f k2 %.2f k4 %.2f k8 %.2f k16 %.2f  false %d/%d exact %d", shape, g.name, sc.Precision(), sc.RecallAtLeast(4), rk(1), rk(2), rk(4), rk(8), rk(16), sc.False, sc.Detections, sc.Exact)
		}
	}
}

func TestZZOffsets(t *testing.T) {
	if os.Getenv("ZZO") == "" {
		t.Skip()
	}
	for _, shape := range []Shape{Values, Samples} {
		o := DefaultOptions
		o.Shape = shape
		s := suiteFor(t, o)
		cfg := parseConfig(t, "")
		d := inMemory(s, cfg)
		steps := analysis.Steps(d, changepoint.DefaultOptions, nil)
		tt := s.truth()
		hist := map[int]int{}
		for _, st := range steps {
			ps := tt.of(d, d.Series[st.Series])
			if ps == nil {
				continue
			}
			for _, e := range ps.Events {
				if e.Kind == Step && abs(e.At-st.Index) <= 2 {
					hist[st.Index-e.At]++
					if st.Index != e.At && os.Getenv("ZZO") == "v" {
						vals := d.MainLineValues(d.Series[st.Series])
						var b strings.Builder
						for i := max(0, e.At-6); i < min(len(vals), e.At+6); i++ {
							if i == e.At {
								b.WriteString("| ")
							}
							fmt.Fprintf(&b, "%.1f ", math.Log(vals[i]/ps.Level)/ps.Width)
						}
						t.Logf("k=%g off %d: %s", e.K, st.Index-e.At, b.String())
					}
				}
			}
		}
		t.Logf("%s offsets %v", shape, hist)
	}
}

// TestZZMissed lists missed steps k>=ZZM (values shape) with context.
func TestZZMissed(t *testing.T) {
	if os.Getenv("ZZM") == "" {
		t.Skip()
	}
	var kmin float64
	fmt.Sscan(os.Getenv("ZZM"), &kmin)
	for _, shape := range []Shape{Values, Samples} {
		o := DefaultOptions
		o.Shape = shape
		s := suiteFor(t, o)
		cfg := parseConfig(t, "")
		d := inMemory(s, cfg)
		steps := analysis.Steps(d, changepoint.DefaultOptions, nil)
		tt := s.truth()
		det := map[*Series][]int{}
		for _, st := range steps {
			ps := tt.of(d, d.Series[st.Series])
			if ps == nil {
				continue
			}
			det[ps] = append(det[ps], tt.pos[d.Artifacts[st.Artifact].ID])
		}
		for _, ps := range s.Series {
			for i, e := range ps.Events {
				if e.Kind != Step || e.K < kmin {
					continue
				}
				found := false
				for _, p := range det[ps] {
					if abs(p-e.At) <= 2 {
						found = true
					}
				}
				if found {
					continue
				}
				prev, next := -1, -1
				if i > 0 {
					prev = e.At - ps.Events[i-1].End
				}
				if i+1 < len(ps.Events) {
					next = ps.Events[i+1].At - e.At
				}
				var b strings.Builder
				for q := max(ps.Start, e.At-10); q < min(len(ps.Values), e.At+10); q++ {
					if q == e.At {
						b.WriteString("| ")
					}
					fmt.Fprintf(&b, "%.1f ", math.Log(ps.Values[q]/ps.Level)/ps.Width)
				}
				t.Logf("%s %s k=%g up=%v at=%d prev=%d next=%d det=%v\n   %s", shape, ps.Noise.Source, e.K, e.Up, e.At, prev, next, det[ps], b.String())
			}
		}
	}
}

// TestZZOne: decisions and steps for one planted series (ZZ1=shape:benchprefix).
func TestZZOne(t *testing.T) {
	spec := os.Getenv("ZZ1")
	if spec == "" {
		t.Skip()
	}
	parts := strings.SplitN(spec, ":", 3)
	o := DefaultOptions
	o.Shape = Shape(parts[0])
	s := suiteFor(t, o)
	for _, ps := range s.Series {
		ok := false
		for _, e := range ps.Events {
			if e.Kind == Step && fmt.Sprint(e.At) == parts[2] && strings.Contains(ps.Benchmark, parts[1]) {
				ok = true
			}
		}
		if !ok {
			continue
		}
		steps, st := changepoint.Detect(changepoint.Series{Values: ps.Values, Seed: 1}, changepoint.DefaultOptions, nil)
		t.Logf("%s events %+v", ps.Benchmark, ps.Events)
		for _, d := range st.Decisions {
			t.Logf("decision at %d p=%.2g decided %d", d.Index, d.P, d.At)
		}
		for _, x := range steps {
			t.Logf("step %d prev %d %.4g→%.4g grad %v", x.Index, x.Prev, x.Before, x.After, x.Gradual)
		}
		var b strings.Builder
		for q := range ps.Values {
			if q%20 == 0 {
				fmt.Fprintf(&b, "\n%3d: ", q)
			}
			fmt.Fprintf(&b, "%.1f ", math.Log(ps.Values[q]/ps.Level)/ps.Width)
		}
		t.Log(b.String())
	}
}

// TestZZFalse lists false step detections (values shape) with context.
func TestZZFalse(t *testing.T) {
	if os.Getenv("ZZF") == "" {
		t.Skip()
	}
	o := DefaultOptions
	o.Shape = Shape(os.Getenv("ZZF"))
	s := suiteFor(t, o)
	cfg := parseConfig(t, "")
	d := inMemory(s, cfg)
	steps := analysis.Steps(d, changepoint.DefaultOptions, nil)
	tt := s.truth()
	for _, st := range steps {
		ps := tt.of(d, d.Series[st.Series])
		if ps == nil {
			continue
		}
		p := tt.pos[d.Artifacts[st.Artifact].ID]
		near := ""
		bad := true
		for _, e := range ps.Events {
			if e.Kind == Step && abs(e.At-p) <= 2 || e.Kind == Drift && p >= e.At-2 && p <= e.End+2 {
				bad = false
			}
			if abs(e.At-p) <= 12 {
				near += fmt.Sprintf(" %s%g@%d", e.Kind, e.K, e.At)
			}
		}
		if !bad {
			continue
		}
		var b strings.Builder
		for q := max(ps.Start, p-12); q < min(len(ps.Values), p+12); q++ {
			if q == p {
				b.WriteString("| ")
			}
			fmt.Fprintf(&b, "%.1f ", math.Log(ps.Values[q]/ps.Level)/ps.Width)
		}
		t.Logf("%s p=%d grad=%v P=%.1g change=%.3f near[%s]\n   %s", ps.Benchmark, p, st.Gradual, st.P, st.Change, near, b.String())
	}
}
