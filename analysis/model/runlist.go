package model

import "sort"

// runList is a series' run indices, one per point or result (at(i) is
// the run of point i), as a builder needs them to tell which run claimed
// an artifact (seriesBuild.find) and to write its checkpoint.
//
// A series' runs nearly always come in arithmetic progressions: a point
// per run of its machine, in the order the runs were added (a
// checkpoint numbers them in the order of files, a machine's folder
// after another's), and a nightly build's new run after all of them. So
// the list is kept as pieces, each a first run, a stride and a count,
// and becomes a plain list only where the pieces would not be smaller
// (a benchmark missing from every other run). A resumed dataset held an
// int32 per point: at L, 200 MB of a nightly build's 1.5 GB live heap.
type runList struct {
	pieces []runPiece // while list is nil
	list   []int32    // every run, once the pieces were not smaller
	n      int32
}

// runPiece is the runs of points start, start+1, … start+count−1:
// first, first+stride, ….
type runPiece struct {
	start, first, stride, count int32
}

// add appends the run of the next point.
func (l *runList) add(ri int32) {
	n := l.n // the new point's index
	l.n++
	if l.list != nil {
		l.list = append(l.list, ri)
		return
	}
	if k := len(l.pieces) - 1; k >= 0 {
		p := &l.pieces[k]
		switch {
		case p.count == 1:
			p.stride, p.count = ri-p.first, 2
			return
		case ri == p.first+p.stride*p.count:
			p.count++
			return
		}
	}
	// A piece is 16 bytes, a list entry 4: past a quarter of the
	// points' number of pieces, the list.
	if len(l.pieces) >= 4 && 4*(len(l.pieces)+1) > int(n) {
		list := make([]int32, n, int(n)+int(n)/64+8)
		for i := range n {
			list[i] = l.at(i)
		}
		l.pieces, l.list = nil, append(list, ri)
		return
	}
	l.pieces = append(l.pieces, runPiece{start: n, first: ri, count: 1})
}

// at is the run of point i (0 ≤ i < len).
func (l *runList) at(i int32) int32 {
	if l.list != nil {
		return l.list[i]
	}
	k := sort.Search(len(l.pieces), func(k int) bool { return l.pieces[k].start > i }) - 1
	p := &l.pieces[k]
	return p.first + p.stride*(i-p.start)
}
