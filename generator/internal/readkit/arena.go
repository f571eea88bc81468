package readkit

// Arena lends [ParseJSON] the memory of a tree so that a caller parsing
// many documents one after another (the archives of a build: a thousand
// at M, ten thousand at L) reuses it instead of allocating a new tree's
// nodes, fields and lists for each one. Trees are short-lived there:
// the archive decoder turns each into a Run and drops it. Without an
// arena, the nodes alone were a sixth of the bytes a cold build at M
// allocated, and the garbage collector's work grows with them.
//
// The tree a parse builds in an arena is valid until the arena's Reset;
// strings are not in the arena (they are ordinary Go strings and stay
// valid). An arena is used by one parse at a time.
type Arena struct {
	nodes  block[Node]
	fields block[Field]
	items  block[*Node]
	nums   block[Num]
}

// Reset makes the arena's memory free for the next parse: every tree
// built in it before is invalid from now on.
func (a *Arena) Reset() {
	a.nodes.reset()
	a.fields.reset()
	a.items.reset()
	a.nums.reset()
}

// block is a bump allocator of T: it hands out slices of its current
// buffer, and on reset keeps one buffer big enough for everything handed
// out since the last reset, so that a parse of a document of the same
// size allocates nothing.
//
// Everything in buf past used is zero (make zeroes a new buffer, reset
// clears what was handed out), so take need not clear.
type block[T any] struct {
	buf  []T
	used int // elements handed out from buf
	// spilled counts the elements handed out of buffers given up since
	// the last reset (buf was too small); want is the size of the next
	// buffer to make.
	spilled, want int
}

// maxKept bounds the buffer an arena keeps between parses, in elements
// (about 15 MB of nodes): an archive at L fits, and a huge or hostile
// document's tree is not held on to after its parse.
const maxKept = 1 << 17

// take returns n zeroed elements, with length and capacity n. Until the
// arena knows the size a parse needs, buffers are made in chunks of
// chunkLen elements (not doubled: a hostile document's tree costs what
// it would without an arena), and a request of over a quarter chunk that
// does not fit gets a buffer of its own.
func (b *block[T]) take(n int) []T {
	if b.used+n > len(b.buf) {
		if n > chunkLen/4 && b.want == 0 {
			b.spilled += n
			return make([]T, n)
		}
		b.spilled += b.used
		b.buf, b.used, b.want = make([]T, max(n, chunkLen, b.want)), 0, 0
	}
	s := b.buf[b.used : b.used+n : b.used+n]
	b.used += n
	return s
}

// chunkLen is the length of an arena buffer made before the arena knows
// the size a parse needs.
const chunkLen = 256

func (b *block[T]) reset() {
	total := b.spilled + b.used
	switch {
	case total > maxKept:
		b.buf, b.want = nil, 0
	case b.spilled > 0:
		// Next time everything fits in one buffer.
		b.buf, b.want = nil, total
	default:
		clear(b.buf[:b.used]) // drop the pointers the old tree held
	}
	b.used, b.spilled = 0, 0
}
