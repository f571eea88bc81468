package model

import (
	"encoding/binary"
	"hash/crc32"
)

// A chunk's columns, series by series (checkpoint.go). A nightly build
// reads every point of the checkpoint (at L fifty million), so a point
// costs what its columns take to decode: when each point was its own
// four varints and a value's group, and its samples' group in the floats
// part had to be walked to find where the next began, resuming took 10 of
// an L nightly's 33 CPU-s. Within a series almost everything repeats — a
// point per artifact and per run of its machine, the same number of
// samples, no iteration counts — so each column is a run-length list of
// (value, count) pairs, its values a group of floatcodec.go's per block of
// valueBlock points, and the byte length of each point's samples' group a
// varint, so that a resumed chunk knows where every point's samples are
// without reading its floats part: a segment of it (lazyfloats.go) is
// read when a point in it is asked for, checked against the CRC-32C the
// chunk's head lists (chunkMeta.Sums).
//
// A series' columns, in order:
//
//   - arts, runs: the differences of its points' artifact and run indices
//     from the point's before (zigzag varints), run-length coded;
//   - counts: each point's number of samples times two plus its OK flag,
//     then its number of iteration counts (varints), each run-length coded;
//   - lens: for each point with samples, the byte length of their group in
//     the floats part (varint);
//   - values: the points' values, a group per valueBlock points;
//   - iters: the iteration counts of each point that has them, a group
//     each.

// valueBlock is the number of values in a group of a series' values
// column: a group takes one scale for all of them, and a value that no
// scale fits costs raw floats for its block only.
const valueBlock = 64

// rle writes a run-length coded column: (value, count − 1) pairs.
type rle struct {
	dst []byte
	v   uint64
	n   uint64
}

func (r *rle) add(v uint64) {
	if r.n > 0 && v == r.v {
		r.n++
		return
	}
	r.flush()
	r.v, r.n = v, 1
}

func (r *rle) flush() {
	if r.n > 0 {
		r.dst = binary.AppendUvarint(r.dst, r.v)
		r.dst = binary.AppendUvarint(r.dst, r.n-1)
	}
	r.n = 0
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// appendSeriesCols appends sb's columns (above) to dst: ri maps its run
// indices to the state's, lens are the byte lengths of the samples' groups
// in the floats part from sb's first point with samples on; it returns how
// many of them are sb's.
func appendSeriesCols(dst []byte, sb *seriesBuild, ri []int32, lens []int) ([]byte, int) {
	n := sb.held()
	col := func(f func(r *rle, p *Point, pt int32)) {
		r := rle{dst: dst}
		for pt := range n {
			f(&r, sb.point(pt), pt)
		}
		r.flush()
		dst = r.dst
	}
	var last int64
	col(func(r *rle, p *Point, _ int32) {
		r.add(zigzag(int64(p.Artifact) - last))
		last = int64(p.Artifact)
	})
	last = 0
	col(func(r *rle, _ *Point, pt int32) {
		run := int64(ri[sb.runs.at(pt)])
		r.add(zigzag(run - last))
		last = run
	})
	col(func(r *rle, p *Point, _ int32) {
		ok := uint64(0)
		if p.OK() {
			ok = 1
		}
		r.add(uint64(p.NumSamples())<<1 | ok)
	})
	col(func(r *rle, p *Point, _ int32) { r.add(uint64(len(p.Iters()))) })
	used := 0
	for pt := range n {
		if sb.point(pt).NumSamples() > 0 {
			dst = binary.AppendUvarint(dst, uint64(lens[used]))
			used++
		}
	}
	var block [valueBlock]float64
	hint := 0
	for lo := int32(0); lo < n; lo += valueBlock {
		b := block[:min(valueBlock, n-lo)]
		for k := range b {
			b[k] = sb.point(lo + int32(k)).Value
		}
		dst = appendFloats(dst, b, &hint)
	}
	hint = 0
	for pt := range n {
		dst = appendFloats(dst, sb.point(pt).Iters(), &hint)
	}
	return dst, used
}

// rleReader reads a run-length coded column of n values.
type rleReader struct {
	r    *varints
	left uint64 // values of the current pair still to read
	v    uint64
	n    int // values still to read in the column
}

// next is the column's next value; r.bad is set when the column does not
// hold another.
func (c *rleReader) next() uint64 {
	if c.left == 0 {
		if c.n <= 0 {
			c.r.bad, c.r.b = true, nil
			return 0
		}
		c.v = c.r.uvarint()
		count := c.r.uvarint()
		if c.r.bad || count >= uint64(c.n) {
			c.r.bad, c.r.b = true, nil
			return 0
		}
		c.left = count + 1
	}
	c.left--
	c.n--
	return c.v
}

// done reports whether the column was read to its end and no further.
func (c *rleReader) done() bool { return c.left == 0 && c.n == 0 && !c.r.bad }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// floatsPart is a chunk's floats part as a state writes it: every point's
// samples' group in order (writeFloats used to write them as it went; now
// the columns, written first, need their lengths and the segments' sums).
type floatsPart struct {
	part []byte
	lens []int    // the byte length of each group, in order
	sums []uint32 // the CRC-32C of each segment (eachSegment)
}

// encode encodes the floats part of a chunk of the series all into fp's
// memory.
func (fp *floatsPart) encode(all []*seriesBuild) {
	dst, lens := fp.part[:0], fp.lens[:0]
	var peek segPeek
	for _, sb := range all {
		hint := 0
		for pt := range sb.held() {
			p := sb.point(pt)
			if p.NumSamples() == 0 {
				continue
			}
			n := len(dst)
			dst = appendSamples(dst, p, &hint, &peek)
			lens = append(lens, len(dst)-n)
		}
	}
	fp.part, fp.lens, fp.sums = dst, lens, fp.sums[:0]
	eachSegment(lens, len(dst), lazySegment, func(begin, end int) {
		fp.sums = append(fp.sums, crc32.Checksum(dst[begin:end], castagnoli))
	})
}

// eachSegment calls f with the bounds of each segment of a floats part of
// total bytes whose groups are lens long, as sources.ref cuts them in a
// file: a segment begins at the first group that would end more than
// size bytes past its beginning (or at the first group).
func eachSegment(lens []int, total, size int, f func(begin, end int)) {
	begin, o := -1, 0
	for _, n := range lens {
		end := o + n
		if begin < 0 || cutsSegment(begin, o, end, size) {
			if begin >= 0 {
				f(begin, o)
			}
			begin = o
		}
		o = end
	}
	if begin >= 0 {
		f(begin, total)
	}
}

// cutsSegment reports whether the group at bytes o to end begins a new
// segment of those cut at size bytes, the current one beginning at begin:
// a segment ends before the first group that would end past size bytes from
// its beginning (but holds one group at least).
func cutsSegment(begin, o, end, size int) bool { return o > begin && end-begin > size }

// checkSegments reports whether the segments of part (eachSegment) have
// the sums listed.
func checkSegments(part []byte, lens []int, size int, sums []uint32) bool {
	k, ok := 0, true
	eachSegment(lens, len(part), size, func(begin, end int) {
		if k >= len(sums) || crc32.Checksum(part[begin:end], castagnoli) != sums[k] {
			ok = false
		}
		k++
	})
	return ok && k == len(sums)
}
