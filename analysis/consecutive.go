package analysis

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// Consecutive returns, for each main-line position p in [from, to) with
// p ≥ 1, the comparison of MainLine[p−1] with MainLine[p], oldest first:
// exactly what c.Compare(MainLine[p−1], MainLine[p]) returns (the same
// Rows, Metrics, Warnings, Options and HistoryFrom), computed series by
// series. Positions outside the main line are left out, so the result
// has max(0, min(to, len(MainLine)) − max(from, 1)) entries.
//
// Compare walks every series' history windows for each pair. Here each
// series is swept along the positions once, in parallel over the series
// (GOMAXPROCS workers; the result does not depend on their number or
// timing): the lookback z-score's window slides (a zscore.Window gains the
// new base and loses the commit that left the window), the samples' test
// takes mannwhitney's memoized exact path, and the row rules are
// compareWith's own (newRow, engines.fill, classifyAt). Nothing is kept
// between calls: a site computes its commit pages chunk by chunk, paying
// the windows' setup (O(Lookback) per series) once per chunk.
func (c *Comparer) Consecutive(from, to int) []*Comparison {
	return c.consecutive(from, to, c.opts)
}

// seriesBatch is how many series a worker takes at a time.
const seriesBatch = 16

func (c *Comparer) consecutive(from, to int, o Options) []*Comparison {
	d := c.d
	from, to = max(from, 1), min(to, len(d.MainLine))
	if from >= to {
		return nil
	}
	opts, warning := o.resolve()
	np, ns := to-from, len(d.Series)
	out := make([]*Comparison, np)
	for k := range out {
		p := from + k
		out[k] = newComparison(d, d.MainLine[p-1], d.MainLine[p], opts, warning)
	}

	// slot[i·np + k] is the index of series i's row in out[k].Rows, or −1:
	// a series has a row where it has a point at the base or the head,
	// in series order, as compareWith appends them.
	slot := make([]int32, ns*np)
	counts := make([]int32, np)
	for i := range d.Series {
		row := slot[i*np : (i+1)*np]
		for k := range row {
			row[k] = -1
		}
		line := &c.lines[i]
		for j := line.search(int32(from-1), 0); j < line.len() && int(line.pos(j)) < to; j++ {
			q := int(line.pos(j)) // the head at position q, the base at q+1
			if q >= from {
				row[q-from] = 0
			}
			if q+1 < to {
				row[q+1-from] = 0
			}
		}
		for k, x := range row {
			if x == 0 {
				row[k] = counts[k]
				counts[k]++
			}
		}
	}
	for k, n := range counts {
		if n > 0 {
			out[k].Rows = make([]Row, n)
		}
	}

	workers := min(runtime.GOMAXPROCS(0), (ns+seriesBatch-1)/seriesBatch)
	warnings := make([][]rowWarning, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sw := c.newSweep(opts)
			for {
				i0 := int(next.Add(seriesBatch)) - seriesBatch
				if i0 >= ns {
					break
				}
				for i := i0; i < min(i0+seriesBatch, ns); i++ {
					sw.series(i, from, to, slot[i*np:(i+1)*np], out)
				}
			}
			warnings[w] = sw.warnings
		})
	}
	wg.Wait()

	// A comparison's warnings follow its rows, as compareWith adds them.
	all := slices.Concat(warnings...)
	slices.SortFunc(all, func(a, b rowWarning) int { return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.row, b.row)) })
	for _, w := range all {
		out[w.k].Warnings = append(out[w.k].Warnings, w.err)
	}

	var nextK atomic.Int64
	for range max(1, min(runtime.GOMAXPROCS(0), np)) {
		wg.Go(func() {
			for {
				k := int(nextK.Add(1)) - 1
				if k >= np {
					return
				}
				out[k].Metrics = summarizeMetrics(out[k].Rows, opts.Model)
			}
		})
	}
	wg.Wait()
	return out
}

// rowWarning is a warning of row row of comparison k.
type rowWarning struct {
	k   int
	row int32
	err error
}

// sweep is one worker's state: it computes the rows of one series after
// another.
type sweep struct {
	c        *Comparer
	opts     Options
	hist     []float64
	pbuf     []float64
	lw       lineWindow
	thr      thresholdWindow
	sebuf    []float64
	warnings []rowWarning
}

func (c *Comparer) newSweep(opts Options) *sweep {
	w := opts.historyWindow()
	return &sweep{c: c, opts: opts, hist: make([]float64, 0, w), pbuf: make([]float64, 0, w)}
}

// series computes the rows of series i at positions [from, to) into
// out[p−from].Rows[slot[p−from]].
//
// The z-score of position p scores the head against the series' values at
// positions (p−1−Lookback, p−1] (lineObservations), which lw holds. Under
// models perfpages and rustc-perf, thr holds the newest History values up
// to position p−2, where the base's history starts.
func (sw *sweep) series(i, from, to int, slot []int32, out []*Comparison) {
	c, opts := sw.c, sw.opts
	s, line := c.d.Series[i], &c.lines[i]
	engines := !opts.SummaryOnly
	window := opts.historyWindow()
	if engines {
		sw.lw.reset(line, from-1, opts.Lookback)
	}
	sliding := opts.Model == ModelRustcPerf
	th := line.search(int32(from-1), 0) // entries line[:th] are in thr
	if sliding {
		sw.thr.reset(opts.History)
		first, n := th, 0
		for first > 0 && n < opts.History {
			first--
			if line.at(first).ok() {
				n++
			}
		}
		for k := first; k < th; k++ {
			if lp := line.at(k); lp.ok() {
				sw.thr.push(lp.pos, lp.value(s.Points))
			}
		}
	}
	hi := th // the first entry after the base
	for p := from; p < to; p++ {
		if engines {
			sw.lw.moveTo(c, i, line, p-1, opts.Lookback)
		}
		for hi < line.len() && int(line.pos(hi)) <= p-1 {
			hi++
		}
		for ; sliding && th < line.len(); th++ {
			lp := line.at(th)
			if int(lp.pos) > p-2 {
				break
			}
			if lp.ok() {
				sw.thr.push(lp.pos, lp.value(s.Points))
			}
		}
		k := p - from
		if slot[k] < 0 {
			continue
		}
		var before, after *model.Point
		end := hi // entries before the base
		if hi > 0 && int(line.pos(hi-1)) == p-1 {
			before = &s.Points[line.point(hi-1)]
			end = hi - 1
		}
		if hi < line.len() && int(line.pos(hi)) == p {
			after = &s.Points[line.point(hi)]
		}
		r := &out[k].Rows[slot[k]]
		var classifiable bool
		var warning error
		*r, classifiable, warning = newRow(s, before, after)
		if warning != nil {
			sw.warnings = append(sw.warnings, rowWarning{k, slot[k], warning})
		}
		if engines && after != nil {
			var dist zscore.Dist
			if scored(r) {
				dist = sw.lw.win.Dist(opts.Lookback)
			}
			c.eng.fill(r, dist, opts)
		}
		switch {
		case !classifiable:
		case opts.Model == ModelPerfpages:
			applyVerdict(r, c.headlinesOf(i).at(p, standardError(r.After, &sw.sebuf)), BasisPersistence, opts)
		default:
			history, threshold, ok := 0, 0.0, false
			if sliding {
				history, threshold, ok = sw.thr.at(p - 2)
			}
			if ok {
				classifyAt(r, history, threshold, opts)
			} else {
				h := sw.hist[:0]
				if start := p - 2; start >= 0 {
					h = lineHistory(h, line, s.Points, end, start, window)
				}
				classify(r, h, opts, sw.pbuf, c.eng)
			}
		}
	}
}
