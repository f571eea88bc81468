package model

import (
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"weak"
)

// Samples that stay in files: the checkpoint's, and while a cold build
// adds its archives, a spill file of the store's (BuildOptions.Spill).
//
// A resumed dataset's samples are what a nightly build asks for least:
// its new comparisons and headlines read the samples of a few points per
// series, the newest, and the rest only a build that computes the old
// comparisons again (one whose site is gone, or whose checkpoint is
// written again) reads. Kept in memory as read they were the largest
// part of a resumed dataset after its points (at L 0.8 GB of the 2 GB a
// nightly build held). So a chunk whose floats part the caller can read
// again (ChunkParts.At, the store's file, kept open) is not kept: its
// columns say where each point's samples are (chunkcols.go), its points
// refer to segments of about lazySegment bytes of it, and a segment is
// read, whole, the first time a point's samples in it are asked for, and
// kept while the segments read since are within segmentBudget. The part
// is read at resume only when the caller reads it (to check its segments'
// sums); the store does not read one whose identity on disk it trusts
// (at L, 0.84 GB a nightly build no longer reads).
// A nightly build reads one or two segments per series. A builder that
// writes its state (a cold build's checkpoint, written before its
// analysis) leaves its points' samples in the files it wrote the same way
// (Builder.WriteStateLeaving), so that a cold build holds at most the
// budget of them too while its analysis reads every one.
//
// A builder with a spill file encodes each series' samples into a block
// of its own and moves a full block (lazySegment bytes) to the file, where
// it is a segment like a checkpoint's (Builder.spill): a cold build holds
// a block per series rather than every sample (at L, 40 MB against 0.8
// GB) until its checkpoint, written series by series from the blocks,
// takes over.
//
// Each segment's CRC-32C is listed in the chunk's head (taken when the
// block is written, for a spill file) and checked when the segment is
// read: the file is the store's, open since, and
// only a process that writes into the store's files in place while a build
// runs could change it. Then Point.Samples, which must not fail, panics
// with a message saying so (the store's own writes replace a file by a
// rename: the open file is the one that was checked).

// lazySegment is the size a chunk's floats part is cut at into segments:
// a segment begins at the first point's samples past it from the last.
var lazySegment = 4 << 10

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ChunkParts are a checkpoint chunk's parts as read (ResumeBuilderFrom):
// its columns and its floats. At, when not nil, is where the floats part
// stays, beginning at Off: the resumed points then read their samples
// from At when they are asked for, and Floats is the caller's memory
// again once the chunk is resumed. Without At the points refer to Floats,
// which the caller must not reuse. With At, Floats may be nil: the
// caller did not read the part (it vouches for the file, as the store
// does for one whose identity on disk is the one it checked), which is
// FloatsLen bytes long, and each segment is checked against the sum the
// chunk lists when it is first read.
type ChunkParts struct {
	Cols, Floats []byte
	At           io.ReaderAt
	Off          int64
	FloatsLen    int
}

// segment is a stretch of a floats part left in its file (ChunkParts.At).
type segment struct {
	at   io.ReaderAt
	off  int64
	size int
	sum  uint32 // CRC-32C of its bytes when the chunk was read
	data atomic.Pointer[[]byte]
}

// segmentBudget is how many bytes of segments a process keeps read: past
// it, the segments read longest ago are dropped, to be read again if
// asked for. A nightly build reads the newest segment or two of every
// series (at L, 10,000 series: 40 to 80 MB); a build that reads every
// point's samples (a cold one, one that computes every comparison again)
// reads them series by series along the main line, a few segments per
// series at a time; at L they were 0.8 GB.
var segmentBudget = 128 << 20

// loaded are the segments whose bytes are kept, oldest first (from head
// on), and the number of those bytes. It does not keep a segment alive:
// a dataset no longer used (perfpages serve builds again and again) is
// collected with its segments, whose bytes count here until their turn
// to be dropped comes.
var loaded struct {
	sync.Mutex
	q     []loadedSegment
	head  int
	bytes int
}

type loadedSegment struct {
	s weak.Pointer[segment]
	n int
}

// seal ends the segment: b are its bytes as read.
func (s *segment) seal(b []byte) {
	s.size, s.sum = len(b), crc32.Checksum(b, castagnoli)
}

// bytes are the segment's bytes, read when they are not kept (the first
// call, or after the budget dropped them) and kept.
func (s *segment) bytes() []byte {
	if p := s.data.Load(); p != nil {
		return *p
	}
	b := s.read(nil)
	if !s.data.CompareAndSwap(nil, &b) {
		return b // read by another goroutine at the same time: that one keeps it
	}
	loaded.Lock()
	defer loaded.Unlock()
	loaded.q = append(loaded.q, loadedSegment{weak.Make(s), len(b)})
	loaded.bytes += len(b)
	for loaded.bytes > segmentBudget && loaded.head < len(loaded.q) {
		old := loaded.q[loaded.head]
		loaded.q[loaded.head] = loadedSegment{}
		loaded.head++
		if s := old.s.Value(); s != nil {
			s.data.Store(nil)
		}
		loaded.bytes -= old.n
	}
	if loaded.head > 1024 && loaded.head > len(loaded.q)/2 {
		loaded.q = append(loaded.q[:0], loaded.q[loaded.head:]...)
		loaded.head = 0
	}
	return b
}

// read reads the segment into buf's memory when it is large enough (new
// memory when not), checked against the sum taken when it was resumed.
func (s *segment) read(buf []byte) []byte {
	b := slices.Grow(buf[:0], s.size)[:s.size]
	if _, err := s.at.ReadAt(b, s.off); err != nil {
		panic(fmt.Sprintf("model: reading the checkpoint's samples again: %v (was the store changed while a build ran?)", err))
	}
	if crc32.Checksum(b, castagnoli) != s.sum {
		panic("model: the checkpoint's samples changed on disk while a build ran (another process wrote into the store's files)")
	}
	return b
}

// segPeek reads segments for one pass over points in the order of their
// samples (a checkpoint written again), without keeping them: it holds
// the last segment it read.
type segPeek struct {
	seg  *segment
	data []byte
}

// bytes are s's bytes, read again unless s is the segment it read last.
func (p *segPeek) bytes(s *segment) []byte {
	if p.seg != s {
		p.seg, p.data = s, s.read(p.data)
	}
	return p.data
}

// sources cut a checkpoint chunk's floats part into the sources its
// points' samples refer to: in memory, sources of part's bytes from where
// each begins (at nil), or segments left in at, where part begins at off.
// In memory, a source begins at the first point's samples past maxOff
// bytes from the last (the most a point's offset holds, sampleRef); in
// at, at the first point's samples that would end past lazySegment, so
// that a segment read again is one allocation of at most lazySegment
// bytes (but for a point's iteration counts after the samples, or one
// point's samples longer than that): cut past it, segments of a little
// over 4 KiB took the 4,864-byte size class.
type sources struct {
	part   []byte // nil when it was not read (unread)
	at     io.ReaderAt
	off    int64
	src    *sampleSrc
	begin  int
	total  int      // the part's length
	seg    int      // the size segments in at are cut at (cutsSegment)
	sums   []uint32 // the segments' sums, when unread
	nseg   int      // the segments sealed
	unread bool
	bad    bool // more segments than sums
}

// ref is the reference of n samples at bytes o to end of the part, the
// group after the last one's.
func (ss *sources) ref(o, end, n int) sampleRef {
	cut := o-ss.begin > maxOff
	if ss.at != nil {
		cut = cutsSegment(ss.begin, o, end, ss.seg)
	}
	if ss.src == nil || cut {
		ss.seal(o)
		if ss.at == nil {
			ss.src = &sampleSrc{enc: ss.part[o:]}
		} else {
			ss.src = &sampleSrc{seg: &segment{at: ss.at, off: ss.off + int64(o)}}
		}
		ss.begin = o
	}
	return sampleRef{src: ss.src, off: uint32(o - ss.begin), n: uint32(n)}
}

// end ends the last source, at the part's end, and reports whether there
// were as many segments as sums (when the sums were given).
func (ss *sources) end() bool {
	ss.seal(ss.total)
	return !ss.bad && (!ss.unread || ss.nseg == len(ss.sums))
}

// seal ends the last source's segment, if it has one, at byte o: its
// bytes run from where it begins to the next one's beginning.
func (ss *sources) seal(o int) {
	if ss.src == nil || ss.src.seg == nil {
		return
	}
	seg := ss.src.seg
	if !ss.unread {
		seg.seal(ss.part[ss.begin:o])
		return
	}
	if ss.nseg >= len(ss.sums) {
		ss.bad = true
		return
	}
	seg.size, seg.sum = o-ss.begin, ss.sums[ss.nseg]
	ss.nseg++
}
