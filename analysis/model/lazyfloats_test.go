package model

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// memFile is a file in memory for ChunkParts.At, counting its reads.
type memFile struct {
	b     []byte
	reads *atomic.Int64
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.reads.Add(1)
	if off > int64(len(f.b)) {
		return 0, io.EOF
	}
	if n := copy(p, f.b[off:]); n < len(p) {
		return n, io.EOF
	}
	return len(p), nil
}

// lazyChunks reads chunk's parts as the store reads a build's checkpoint:
// the floats part into the scratch given (which the next chunk read
// overwrites: the points must not keep it) and, as At, a file holding it
// after a header, counting reads into reads. files are the files made.
type lazyChunks struct {
	chunk func(int, []byte) ([]byte, []byte, bool)
	// unread: the floats part is not read, as the store does not read one
	// it trusts (ChunkParts.FloatsLen).
	unread bool
	reads  atomic.Int64
	mu     sync.Mutex
	files  []*memFile
}

func (l *lazyChunks) read(i int, cols, floats []byte) (ChunkParts, bool) {
	c, f, ok := l.chunk(i, cols)
	if !ok {
		return ChunkParts{}, false
	}
	const header = 37
	file := &memFile{b: append(make([]byte, header), f...), reads: &l.reads}
	l.mu.Lock()
	l.files = append(l.files, file)
	l.mu.Unlock()
	if l.unread {
		return ChunkParts{Cols: c, At: file, Off: header, FloatsLen: len(f)}, true
	}
	return ChunkParts{Cols: c, Floats: append(floats[:0], f...), At: file, Off: header}, true
}

// TestLazySamples: a builder resumed from chunks whose floats part stays
// in a file (read and checked, or not read: unread) reads none of it
// again until a point's samples are asked for, then
// the segment that holds them; it builds the dataset a full builder
// builds, although the memory it read the floats into is overwritten;
// its state, written again, is the same bytes; and a file changed under it
// panics with a message rather than giving other numbers.
func TestLazySamples(t *testing.T) {
	for _, unread := range []bool{false, true} {
		t.Run(fmt.Sprintf("unread=%t", unread), func(t *testing.T) { lazySamples(t, unread) })
	}
}

func lazySamples(t *testing.T, unread bool) {
	full, origins := historyBuilder(5, 3000)
	state, chunk := writeState(t, full, 0)
	var again []byte
	{
		b, _ := ResumeBuilder(BuildOptions{}, state, chunk, func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin })
		again, _ = writeState(t, b, 0)
	}
	want := full.Dataset()
	l := &lazyChunks{chunk: chunk, unread: unread}
	pos := func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin }
	b, err := ResumeBuilderFrom(BuildOptions{}, state, l.read, pos)
	if err != nil {
		t.Fatal(err)
	}
	if n := l.reads.Load(); n != 0 {
		t.Fatalf("%d reads of the floats on resume", n)
	}
	got := b.Dataset()
	// One point's samples: one segment read.
	var p *Point
	for _, s := range got.Series {
		for k := range s.Points {
			if s.Points[k].NumSamples() > 0 {
				p = &s.Points[len(s.Points)-1]
				break
			}
		}
		if p != nil {
			break
		}
	}
	if p == nil {
		t.Fatal("no point with samples")
	}
	p.Samples()
	p.Samples()
	if n := l.reads.Load(); n != 1 {
		t.Errorf("%d reads for one point's samples, twice", n)
	}
	if diff := sameDataset(want, got); diff != "" {
		t.Fatal(diff)
	}
	segs := map[*segment]bool{}
	for _, s := range got.Series {
		for k := range s.Points {
			if src := s.Points[k].src; src != nil && src.seg != nil {
				segs[src.seg] = true
			}
		}
	}
	if n := l.reads.Load(); n != int64(len(segs)) || len(segs) < 10 {
		t.Errorf("%d reads for every point's samples, %d segments", n, len(segs))
	}
	// Written again from another resumed builder, read lazily: the
	// same state (the groups copied as they are).
	l2 := &lazyChunks{chunk: chunk, unread: unread}
	b2, err := ResumeBuilderFrom(BuildOptions{}, state, l2.read, pos)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := writeState(t, b2, 0); !slices.Equal(st, again) {
		t.Error("the state written from a lazily resumed builder differs")
	}
	// A file changed under a resumed builder.
	l3 := &lazyChunks{chunk: chunk, unread: unread}
	b3, err := ResumeBuilderFrom(BuildOptions{}, state, l3.read, pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range l3.files {
		for k := range f.b {
			f.b[k] ^= 0x55
		}
	}
	d3 := b3.Dataset()
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "changed") {
			t.Errorf("a changed file: %q", msg)
		}
	}()
	for _, s := range d3.Series {
		for k := range s.Points {
			s.Points[k].Samples()
		}
	}
	t.Error("samples of a changed file read without a panic")
}

// TestLeftSamples: a builder that writes its state leaving its samples in
// the floats parts written (WriteStateLeaving) builds the same dataset,
// its points reading their samples from there, within the budget of
// segments kept; a part that does not read back as written leaves them
// as they were.
func TestLeftSamples(t *testing.T) {
	defer func(n int) { segmentBudget = n }(segmentBudget)
	segmentBudget = 3 * lazySegment // segments dropped and read again
	full, _ := historyBuilder(5, 3000)
	want := full.Dataset()
	for _, broken := range []bool{false, true} {
		b, _ := historyBuilder(5, 3000)
		var reads atomic.Int64
		var files []*memFile
		err := b.WriteStateLeaving(io.Discard, 0, func(i int, cols, floats StatePart) (io.ReaderAt, int64, error) {
			if err := cols(io.Discard, 0); err != nil {
				return nil, 0, err
			}
			var buf bytes.Buffer
			buf.Write(make([]byte, 11))
			if err := floats(&buf, 11); err != nil {
				return nil, 0, err
			}
			f := &memFile{b: buf.Bytes(), reads: &reads}
			if broken {
				f.b = f.b[:len(f.b)-1]
			}
			files = append(files, f)
			return f, 11, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		reads.Store(0)
		got := b.Dataset()
		left := 0
		for _, s := range got.Series {
			for k := range s.Points {
				if src := s.Points[k].src; src != nil && src.seg != nil {
					left++
				}
			}
		}
		if broken != (left == 0) {
			t.Fatalf("broken %t: %d points left in the files", broken, left)
		}
		if diff := sameDataset(want, got); diff != "" {
			t.Fatalf("broken %t: %s", broken, diff)
		}
		if broken {
			continue
		}
		first := reads.Load()
		if diff := sameDataset(want, got); diff != "" { // again: dropped segments read again
			t.Fatal(diff)
		}
		if again := reads.Load() - first; again < first/2 {
			t.Errorf("%d reads, then %d: the budget kept more than it holds", first, again)
		}
		if loaded.bytes > segmentBudget+lazySegment*2 {
			t.Errorf("%d bytes of segments kept, budget %d", loaded.bytes, segmentBudget)
		}
	}
}

// spillFile is a SpillFile in memory.
type spillFile struct {
	memFile
	writes int
}

func (f *spillFile) WriteAt(p []byte, off int64) (int, error) {
	f.writes++
	if end := off + int64(len(p)); end > int64(len(f.b)) {
		f.b = append(f.b, make([]byte, end-int64(len(f.b)))...)
	}
	return copy(f.b[off:], p), nil
}

// TestSpill: a builder that moves its samples to a file as it adds them
// (BuildOptions.Spill) builds the dataset and writes the state a builder
// that keeps them builds and writes, on random histories with failures,
// iteration counts and summaries (points with sources of their own),
// with all but the newest block of each series in the file.
func TestSpill(t *testing.T) {
	defer func(n int) { lazySegment = n }(lazySegment)
	lazySegment = 200 // blocks of a few dozen points
	for seed := range 6 {
		rng := rand.New(rand.NewPCG(uint64(seed), 9))
		runs, origins := randomHistory(rng, 100+rng.IntN(3000), seed%2 == 0)
		var reads atomic.Int64
		f := &spillFile{memFile: memFile{reads: &reads}}
		kept, spilled := NewBuilder(BuildOptions{}), NewBuilder(BuildOptions{Spill: f})
		for i := range runs {
			kept.Add(origins[i], runs[i])
			spilled.Add(origins[i], runs[i])
		}
		sk, _ := writeState(t, kept, 0)
		ss, _ := writeState(t, spilled, 0)
		if !bytes.Equal(sk, ss) {
			t.Fatalf("seed %d: the states differ", seed)
		}
		inMemory := 0
		for _, sb := range spilled.series {
			for pt := range sb.held() {
				if root, _ := sb.point(pt).src.root(); root != nil && root.enc != nil && root != sb.block {
					inMemory++
				}
			}
		}
		want, got := kept.Dataset(), spilled.Dataset()
		if diff := sameDataset(want, got); diff != "" {
			t.Fatalf("seed %d: %s", seed, diff)
		}
		if inMemory > 0 || seed == 0 && f.writes == 0 {
			t.Errorf("seed %d: %d points' samples in memory outside their series' last block, %d blocks written", seed, inMemory, f.writes)
		}
	}
}
