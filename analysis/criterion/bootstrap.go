package criterion

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The four bootstraps. Each splits its resamples into blocks that draw
// from their own generator, seeded from (seed, stream, block number), and
// runs the blocks on up to Options.Workers goroutines. The blocks, not the
// goroutines, define the random draws, so the results never depend on the
// number of workers or on scheduling.

// blockSize is the number of resamples of one block in the one-sample,
// slope and t bootstraps. The change bootstrap's blocks are Criterion's
// chunks, chunksPerTask of them to a unit of work.
const (
	blockSize     = 4096
	chunksPerTask = 16
)

// blockSource is the generator of one block of one bootstrap.
func blockSource(seed uint64, s stream, block int) *source {
	return newSource(seed, s<<32|stream(block))
}

// workers is the number of goroutines a call may use.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// forBlocks calls fn(block, lo, hi) for the blocks [lo, hi) of [0, n), each
// size long (the last one shorter), on up to workers goroutines.
func forBlocks(n, size, workers int, fn func(block, lo, hi int)) {
	blocks := (n + size - 1) / size
	if workers = min(workers, blocks); workers <= 1 {
		for b := range blocks {
			fn(b, b*size, min(n, (b+1)*size))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks {
					return
				}
				fn(b, b*size, min(n, (b+1)*size))
			}
		})
	}
	wg.Wait()
}

// bootstrapAbsolute is Criterion's one-sample bootstrap of (mean, std dev,
// median, MAD): nresamples resamples of the sample whose sorted values are
// vals (padded, see counted). A resample is drawn as positions in the
// sorted values — drawing a position is drawing an index — so that the
// counts of the positions give its order statistics without sorting it.
func bootstrapAbsolute(w *workspace, vals []float64, seed uint64, o Options) (dMean, dStd, dMedian, dMAD []float64) {
	N := o.NResamples
	dMean, dStd, dMedian, dMAD = w.dist(0, N), w.dist(1, N), w.dist(2, N), w.dist(3, N)
	n := len(vals) - 2
	sorted := vals[1 : n+1]
	nf := float64(n)
	forBlocks(N, blockSize, o.workers(), func(block, lo, hi int) {
		src := blockSource(seed, streamAbsolute, block)
		c := newCounted(vals)
		idx := make([]uint32, n)
		for k := lo; k < hi; k++ {
			src.fill(idx, n)
			c.add(idx)
			m := sumAt(sorted, idx) / nf
			med, j := c.median()
			dMean[k] = m
			dStd[k] = math.Sqrt(sqDevAt(sorted, idx, m) / (nf - 1))
			dMedian[k] = med
			dMAD[k] = c.medianAbsDev(med, j) * MADScale
			c.reset()
		}
	})
	return dMean, dStd, dMedian, dMAD
}

// bootstrapSlope is Criterion's regression(): the slope of the sample and
// the interval of nresamples paired resamples of (iters, times).
func bootstrapSlope(w *workspace, s Sample, seed uint64, o Options) (Estimate, error) {
	n := len(s.Times)
	// Σ(x·y) and Σ(x²) of a resample add the same rounded products in the
	// same order as Slope would, so precomputing them changes no bit.
	xy, xx := make([]float64, n), make([]float64, n)
	for i := range n {
		xy[i] = float64(s.Iters[i] * s.Times[i])
		xx[i] = float64(s.Iters[i] * s.Iters[i])
	}
	dist := w.dist(0, o.NResamples)
	forBlocks(o.NResamples, blockSize, o.workers(), func(block, lo, hi int) {
		src := blockSource(seed, streamSlope, block)
		idx := make([]uint32, n)
		for k := lo; k < hi; k++ {
			src.fill(idx, n)
			sxy, sxx := 0.0, 0.0
			for _, j := range idx {
				sxy += xy[j]
				sxx += xx[j]
			}
			dist[k] = sxy / sxx
		}
	})
	return estimate(Slope(s.Iters, s.Times), dist, o.ConfidenceLevel)
}

// bootstrapT is Criterion's t_test: Welch's t of nresamples mixed
// resamples — both samples pooled, a resample of the pool's size drawn
// from it, its first len(a) values taken as the new sample and the rest as
// the base — non-finite values dropped, then the p-value of t. The t values
// are counted as they are drawn instead of being stored.
func bootstrapT(a, b []float64, t float64, seed uint64, o Options) (p float64, n int) {
	pool := append(slices.Clip(a), b...)
	na, nb := len(a), len(b)
	fa, fb := float64(na), float64(nb)
	N := o.NResamples
	blocks := (N + blockSize - 1) / blockSize
	hits, valid := make([]int, blocks), make([]int, blocks)
	forBlocks(N, blockSize, o.workers(), func(block, lo, hi int) {
		src := blockSource(seed, streamT, block)
		idx := make([]uint32, na+nb)
		ix, iy := idx[:na], idx[na:]
		h, f := 0, 0
		for range hi - lo {
			src.fill(idx, na+nb)
			mx, my := sumAt(pool, ix)/fa, sumAt(pool, iy)/fb
			vx, vy := sqDevAt(pool, ix, mx)/(fa-1), sqDevAt(pool, iy, my)/(fb-1)
			tk := (mx - my) / math.Sqrt(vx/fa+vy/fb)
			if math.IsNaN(tk) || math.IsInf(tk, 0) {
				continue
			}
			f++
			if tk < t {
				h++
			}
		}
		hits[block], valid[block] = h, f
	})
	h := 0
	for i := range blocks {
		h += hits[i]
		n += valid[i]
	}
	return pValue(h, n), n
}

// bootstrapChange estimates the relative changes of the mean and the
// median with their intervals (see changeDists).
func bootstrapChange(w *workspace, a, b []float64, seed uint64, o Options) (mean, median Estimate, err error) {
	va, vb, dMean, dMedian := changeDists(w, a, b, seed, o)
	cl := o.ConfidenceLevel
	if mean, err = estimate(Mean(a)/Mean(b)-1, dMean, cl); err != nil {
		return Estimate{}, Estimate{}, err
	}
	n, m := len(va)-2, len(vb)-2
	pointMedian := at(va[1:n+1], 50)/at(vb[1:m+1], 50) - 1
	if o.VerdictOnly {
		if !finite(pointMedian) {
			return Estimate{}, Estimate{}, errOverflow
		}
		return mean, Estimate{Point: pointMedian, Lower: pointMedian, Upper: pointMedian}, nil
	}
	median, err = estimate(pointMedian, dMedian, cl)
	return mean, median, err
}

// changeDists is Criterion's relative-change bootstrap
// (univariate::bootstrap with the mean and median ratios): ⌈√N⌉ chunks of
// ⌈N / ⌈√N⌉⌉ resamples (the last ones cut so that there are exactly N);
// each chunk draws one resample of the current sample and pairs it with a
// fresh resample of the baseline for every one of its resamples. Each
// chunk has its own generator. Without the median (o.VerdictOnly) the same
// indices are drawn, so the mean change does not move, and dMedian is
// left as it was. va and vb are the padded sorted samples.
func changeDists(w *workspace, a, b []float64, seed uint64, o Options) (va, vb, dMean, dMedian []float64) {
	va, vb = padded(sortedCopy(a)), padded(sortedCopy(b))
	N := o.NResamples
	dMean, dMedian = w.dist(1, N), w.dist(2, N)
	chunks := int(math.Ceil(math.Sqrt(float64(N))))
	per := (N + chunks - 1) / chunks
	withMedian := !o.VerdictOnly
	forBlocks(chunks, chunksPerTask, o.workers(), func(_, first, last int) {
		ra := resampler{counted: newCounted(va), idx: make([]uint32, len(a)), median: withMedian}
		rb := resampler{counted: newCounted(vb), idx: make([]uint32, len(b)), median: withMedian}
		for c := first; c < last; c++ {
			start, end := c*per, min((c+1)*per, N)
			if start >= end {
				break
			}
			src := blockSource(seed, streamChange, c)
			meanA, medA := ra.draw(src)
			for k := start; k < end; k++ {
				meanB, medB := rb.draw(src)
				dMean[k] = meanA/meanB - 1
				if withMedian {
					dMedian[k] = medA/medB - 1
				}
			}
		}
	})
	return va, vb, dMean, dMedian
}

// estimate turns a point estimate and its bootstrap distribution into an
// Estimate, as Criterion's build_estimates: the standard error first (it
// depends on the order of dist), then the interval (which reorders dist).
func estimate(point float64, dist []float64, cl float64) (Estimate, error) {
	if !finite(point) {
		return Estimate{}, errOverflow
	}
	for _, x := range dist {
		if !finite(x) {
			return Estimate{}, errOverflow
		}
	}
	se := 0.0 // one resample has no spread (Criterion divides 0 by 0)
	if len(dist) > 1 {
		se = math.Sqrt(variance(dist, Mean(dist)))
	}
	if !finite(se) {
		return Estimate{}, errOverflow
	}
	lo, hi := confidenceInterval(dist, cl)
	return Estimate{Point: point, Lower: lo, Upper: hi, StdErr: se, ConfidenceLevel: cl}, nil
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// workspace holds the bootstrap distributions of one call; pooled, so that
// a site that runs thousands of comparisons does not allocate megabytes for
// each.
type workspace struct {
	dists [4][]float64
}

func (w *workspace) dist(i, n int) []float64 {
	if cap(w.dists[i]) < n {
		w.dists[i] = make([]float64, n)
	}
	w.dists[i] = w.dists[i][:n]
	return w.dists[i]
}

var workspaces sync.Pool

func getWorkspace() *workspace {
	if w, ok := workspaces.Get().(*workspace); ok {
		return w
	}
	return new(workspace)
}

func putWorkspace(w *workspace) {
	workspaces.Put(w)
}
