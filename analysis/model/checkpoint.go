package model

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Checkpoints. A nightly build adds a commit or two to a history of
// thousands; adding every run again means adding two million results at M
// for the sake of a few thousand. A build can save its builder's state after the runs
// it added (WriteStateLeaving) and the next build resume from it
// (ResumeBuilderFrom), adding only the runs it does not hold
// (AddAt). The dataset is then the same as a builder given every
// run in order would build: the test is TestResumeEqualsFull, on random
// histories with every kind of merge.
//
// The merge rules (merge.go) depend on the order of runs: the first of
// conflicting results wins, a series takes its unit and origin from its
// first run, machine descriptions merge field by field. Each run therefore
// has a position in the order of all runs, and a resumed builder settles
// what depends on order by position: warnings are listed in the order of
// the runs they came from, a new run placed before a series' first run
// becomes its origin, artifacts are listed in the order of their first
// runs. What cannot be settled without replaying the runs makes the
// resumed builder diverge (Diverged), and the caller builds from all runs
// instead:
//
//   - a new run of an artifact the checkpoint has (its claims and
//     duplicates would be settled against runs that came after it);
//   - a new run whose machine description contradicts the merged one;
//   - a new run placed before a series' first run whose result would
//     give the series another unit, direction, category or context.
//
// A nightly build of new commits meets none of these.

// resumeState is what a resumed builder knows of its checkpoint.
type resumeState struct {
	oldIDs   int // pending numbers below this are the checkpoint's artifacts
	diverged error
}

// movedFolder is the one change of folder that every renamed origin
// (old → new) shows, when there is one: the project moved whole from
// folder from to folder to. The warnings of a resumed state then name
// files where they are now. An origin renamed otherwise (not seen: a
// file's origin is its path on disk or in a git ref) leaves them as
// they are.
func movedFolder(renamed map[string]string) (from, to string, ok bool) {
	for old, origin := range renamed {
		// The common tail, cut at a separator: what follows the folder.
		n := 0
		for n < len(old) && n < len(origin) && old[len(old)-1-n] == origin[len(origin)-1-n] {
			n++
		}
		for n > 0 && old[len(old)-n] != '/' && old[len(old)-n] != '\\' {
			n--
		}
		f, t := old[:len(old)-n], origin[:len(origin)-n]
		if n == 0 || f == "" || ok && (f != from || t != to) {
			return "", "", false
		}
		from, to, ok = f, t, true
	}
	return from, to, ok
}

// Diverged reports why a resumed builder cannot build the dataset its
// runs make (see Checkpoints above); nil when it can, and always for a
// builder that was not resumed. The caller builds from all runs instead.
func (b *Builder) Diverged() error {
	if b.resumed == nil {
		return nil
	}
	return b.resumed.diverged
}

func (b *Builder) diverge(format string, args ...any) {
	if b.resumed.diverged == nil {
		b.resumed.diverged = fmt.Errorf(format, args...)
	}
}

// resumable reports whether a resumed builder can take the new run r (see
// Checkpoints above).
func (b *Builder) resumable(r *Run) bool {
	if b.resumed.diverged != nil {
		return false
	}
	if i, ok := b.ids[r.Artifact.ID]; ok && i < b.resumed.oldIDs {
		b.diverge("new results for artifact %s", r.Artifact.ID)
		return false
	}
	return true
}

// reorigin makes the run being added (from origin, context ctx) the first
// run of sb, whose series an older run made: it must make the same series.
func (b *Builder) reorigin(sb *seriesBuild, origin string, ctx Params, res *Result) bool {
	s, old := b.newSeries(sb.s.Key, origin, ctx, res), sb.s
	if s.Metric != old.Metric || s.Case.Benchmark != old.Case.Benchmark || s.Case.Category != old.Case.Category ||
		!slices.Equal(s.Case.Params, old.Case.Params) || !slices.Equal(s.Context, old.Context) {
		b.diverge("%s would make series %s differently", origin, old.Key)
		return false
	}
	old.Origin, sb.originPos = origin, b.pos
	return true
}

// The state's layout. A state is in parts, each a file of its own to the
// caller: the dataset-wide part (runs, claims, artifacts' order and
// origins, machines, warnings: what every run's merge reads) and one part
// per chunk of up to StateChunk series, in key order, with the series'
// definitions and their points as columns. A chunk is read, checked and
// decoded on its own, on every core at once, and a corrupt chunk costs
// that chunk's check, not a guess.
//
// A chunk is two parts: its columns, which a resumed builder decodes into
// the points and then drops (so that a build reads them into the same
// memory chunk after chunk), and its floats, every point's samples, which
// the points refer to where they are (lazyfloats.go). The dataset-wide
// part and a chunk's columns part are two little-endian uint64s, the
// length of a gob (stateMeta or chunkMeta) and the number of zero bytes
// after it, the gob, the zero bytes; the columns part then has its series'
// columns, series after series (chunkcols.go: run-length coded
// differences of artifact and run indices, counts of samples and
// iteration counts, the byte length of each point's samples' group, the
// values and the iteration counts), under a CRC-32C its head lists with
// the length of the floats part and the sums of its segments. Values,
// samples and iteration counts are groups of floatcodec.go's: most are
// integers, or decimals of a few digits, and take 2 to 4 bytes instead of
// 8. The few points with an error, a summary or a range are listed in the
// chunk's gob, by point, in order.

// stateVersion changes with the layout or the meaning of the state.
const stateVersion = 6

// StateChunk is the number of series in each chunk of a state.
var StateChunk = 256

type stateMeta struct {
	Version  int
	Options  string // optionsKey of the builder
	Runs     []stateRun
	Claims   []stateClaims
	Order    []string // pending number → artifact id
	Origins  []string // pending number → origin of its first run
	FirstPos []int
	Machines []Machine
	Warnings []stateWarning
	// Pooled are the machines pooled by a rule and their runners'
	// duplicate results (Builder.pooled); nil in a state of an older
	// build, which had no rule (the rules are part of Options).
	Pooled map[string]int
	// Chunks are the series' chunks: how many series and points each
	// holds.
	Chunks []stateChunk
}

type stateChunk struct {
	Series, Points int
}

// chunkMeta heads a chunk of the state.
type chunkMeta struct {
	Version   int
	Index     int // the chunk's number
	Series    []stateSeries
	Points    int
	Samples   int
	Iters     int
	Errors    []stateError // by point, in order
	Summaries []stateSummary
	Ranges    []stateError // the points' ranges (Result.Range)
	// Sum is the CRC-32C of the columns after the head; Floats the
	// length of the floats part, Segment the size it is cut into
	// segments at (lazySegment when it was written) and Sums their
	// CRC-32Cs (eachSegment): a resumed chunk need not read its floats
	// part (chunkcols.go).
	Sum     uint32
	Floats  int
	Segment int
	Sums    []uint32
}

type stateRun struct {
	Origin string
	Pos    int
}

type stateClaims struct {
	ID     string
	Claims []stateClaim
}

type stateClaim struct {
	Run int32
	A   Artifact
}

type stateWarning struct {
	Pos int
	Msg string
}

type stateSeries struct {
	Key       SeriesKey
	Case      TestCase
	Context   Params
	Metric    Metric
	Origin    string
	OriginPos int
	Value     ValueKind
	N         int
	MaxArt    int
	// Skeleton is set for a series without points (see
	// BuildOptions.Keep); Arts is then the set of the artifacts of its
	// results, a bitmap by pending number: all a resumed builder needs of
	// them.
	Skeleton bool
	Arts     []byte
}

type stateError struct {
	Point int
	Msg   string
}

type stateSummary struct {
	Point int
	S     SampleSummary
}

// optionsKey is what of the options the state depends on: the rules that
// make series (and pool machines) and single values. History, Other and MainBranch are used
// only by Dataset, SeriesSizes only for capacities.
func (b *Builder) optionsKey() string {
	var keep string
	if b.opts.Keep != nil {
		keep = b.opts.Keep.String()
	}
	k, _ := json.Marshal(struct {
		Value       ValueKind
		Metrics     map[string]Metric
		UnitMetrics []Metric      `json:",omitempty"`
		Keep        string        `json:",omitempty"`
		Machines    []MachineRule `json:",omitempty"`
	}{b.opts.Value, b.opts.Metrics, b.opts.UnitMetrics, keep, b.opts.Machines})
	return string(k)
}

// StatePart writes one part of a state at offset in its file (for
// alignment).
type StatePart func(w io.Writer, offset int) error

// WriteStateLeaving writes the builder's state for ResumeBuilderFrom: the
// dataset-wide part to w, at offset in its file, and each chunk of series
// through chunk(i, cols, floats), which writes chunk i's two parts, each
// in a file of its own. It must be called before Dataset. A chunk is
// written as it is made, a megabyte at a time.
//
// chunk may return where chunk i's floats part stays once written (at,
// where it begins at off, as ChunkParts.At): the builder's points of that
// chunk then read their samples from there when asked for
// (lazyfloats.go), as a builder resumed from the state does, and the
// memory or spill file they were in is dropped. A build writes its
// checkpoint before it analyses: at L the samples were 0.8 GB of what a
// cold build held through its analysis.
func (b *Builder) WriteStateLeaving(w io.Writer, offset int, chunk func(i int, cols, floats StatePart) (at io.ReaderAt, off int64, err error)) error {
	if b.resumed != nil && b.resumed.diverged != nil {
		return errors.New("model: state of a diverged builder")
	}
	m := stateMeta{Version: stateVersion, Options: b.optionsKey(), Order: b.order, FirstPos: b.firstPos}
	// Runs are written in position order (a resumed builder holds its new
	// runs after the old ones); ri maps a run index to its place there.
	byPos := make([]int32, len(b.runs))
	for i := range byPos {
		byPos[i] = int32(i)
	}
	slices.SortFunc(byPos, func(x, y int32) int { return cmp.Compare(b.runs[x].pos, b.runs[y].pos) })
	ri := make([]int32, len(b.runs))
	for i, r := range byPos {
		ri[r] = int32(i)
		src := b.runs[r]
		m.Runs = append(m.Runs, stateRun{src.origin, src.pos})
	}
	for _, id := range slices.Sorted(maps.Keys(b.claims)) {
		c := stateClaims{ID: id}
		for _, cl := range b.claims[id] {
			c.Claims = append(c.Claims, stateClaim{ri[cl.run], cl.a})
		}
		m.Claims = append(m.Claims, c)
	}
	for _, id := range b.order {
		m.Origins = append(m.Origins, b.origin[id])
	}
	for _, name := range slices.Sorted(maps.Keys(b.machines)) {
		m.Machines = append(m.Machines, b.machines[name])
	}
	b.flushDuplicates()
	for _, w := range b.warnings {
		m.Warnings = append(m.Warnings, stateWarning{w.pos, w.err.Error()})
	}
	m.Pooled = b.pooled
	keys := slices.SortedFunc(maps.Keys(b.series), func(x, y SeriesKey) int { return x.Compare(y) })
	all := make([]*seriesBuild, len(keys))
	for i, k := range keys {
		all[i] = b.series[k]
	}
	size := max(1, StateChunk)
	var chunks [][]*seriesBuild
	for lo := 0; lo < len(all); lo += size {
		c := all[lo:min(lo+size, len(all))]
		chunks = append(chunks, c)
		n := 0
		for _, sb := range c {
			n += int(sb.held())
		}
		m.Chunks = append(m.Chunks, stateChunk{len(c), n})
	}
	if err := writeHead(w, offset, &m); err != nil {
		return err
	}
	var fp floatsPart
	var cols, scratch []byte
	for i, c := range chunks {
		// The floats part first: the columns list its groups' lengths
		// and its segments' sums.
		fp.encode(c)
		cols = appendChunkCols(cols[:0], c, ri, fp.lens)
		colsPart := func(w io.Writer, offset int) error { return writeChunk(w, offset, i, c, cols, &fp) }
		floats := func(w io.Writer, _ int) error {
			_, err := w.Write(fp.part)
			return err
		}
		at, off, err := chunk(i, colsPart, floats)
		if err != nil {
			return err
		}
		if at != nil {
			scratch = leave(c, at, off, &fp, scratch)
		}
	}
	return nil
}

// leave makes the points of the series all, a chunk of the state, read
// their samples from its floats part fp as written, at off of at, rather
// than from where they are (WriteStateLeaving). It reads the part back
// into buf's memory (returned for the next chunk) and leaves the points
// as they are unless its segments have the sums of those written.
func leave(all []*seriesBuild, at io.ReaderAt, off int64, fp *floatsPart, buf []byte) []byte {
	n := len(fp.part)
	buf = slices.Grow(buf[:0], n)[:n]
	if _, err := at.ReadAt(buf, off); err != nil || !checkSegments(buf, fp.lens, lazySegment, fp.sums) {
		return buf
	}
	srcs := sources{at: at, off: off, sums: fp.sums, total: len(fp.part), seg: lazySegment, unread: true}
	o, li := 0, 0
	for _, sb := range all {
		for pt := range sb.held() {
			p := sb.point(pt)
			k := p.NumSamples()
			if k == 0 {
				continue
			}
			size := fp.lens[li]
			li++
			r := p.rare()
			p.setSamples(srcs.ref(o, o+size, k))
			p.setRareValue(r)
			o += size
		}
	}
	srcs.end()
	return buf
}

// writeHead writes the head of a part, v's gob, padded for the columns
// after it.
func writeHead(w io.Writer, offset int, v any) error {
	var meta bytes.Buffer
	if err := gob.NewEncoder(&meta).Encode(v); err != nil {
		return fmt.Errorf("model: builder state: %w", err)
	}
	pad := (8 - (offset+16+meta.Len())%8) % 8
	dst := binary.LittleEndian.AppendUint64(nil, uint64(meta.Len()))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(pad))
	dst = append(dst, meta.Bytes()...)
	dst = append(dst, make([]byte, pad)...)
	_, err := w.Write(dst)
	return err
}

// appendChunkCols appends the columns of the series all to dst
// (chunkcols.go), lens being the lengths of their samples' groups in order.
func appendChunkCols(dst []byte, all []*seriesBuild, ri []int32, lens []int) []byte {
	for _, sb := range all {
		var n int
		dst, n = appendSeriesCols(dst, sb, ri, lens)
		lens = lens[n:]
	}
	return dst
}

// writeChunk writes the columns part of chunk i of a state: the series
// all, their columns cols (appendChunkCols), fp their floats part.
func writeChunk(w io.Writer, offset, i int, all []*seriesBuild, cols []byte, fp *floatsPart) error {
	m := chunkMeta{Version: stateVersion, Index: i, Sum: crc32.Checksum(cols, castagnoli),
		Floats: len(fp.part), Segment: lazySegment, Sums: fp.sums}
	for _, sb := range all {
		s := sb.s
		ss := stateSeries{s.Key, s.Case, s.Context, s.Metric, s.Origin, sb.originPos, sb.value, int(sb.held()), sb.maxArt, false, nil}
		if sb.skeleton {
			ss.MaxArt, ss.Skeleton, ss.Arts = -1, true, sb.artifactSet()
		}
		m.Series = append(m.Series, ss)
		for pt := range sb.held() {
			p := sb.point(pt)
			if p.Failure() != "" {
				m.Errors = append(m.Errors, stateError{m.Points, p.Failure()})
			}
			if sum := p.Summary(); sum != nil {
				m.Summaries = append(m.Summaries, stateSummary{m.Points, *sum})
			}
			if text, ok := sb.ranges[pt]; ok {
				m.Ranges = append(m.Ranges, stateError{m.Points, text})
			}
			m.Points++
			m.Samples += p.NumSamples()
			m.Iters += len(p.Iters())
		}
	}
	if err := writeHead(w, offset, &m); err != nil {
		return err
	}
	_, err := w.Write(cols)
	return err
}

// errState is returned for a state that does not decode.
var errState = errors.New("model: builder state is corrupt")

// readHead decodes the head of a part into v and returns what follows it.
func readHead(part []byte, v any) ([]byte, error) {
	if len(part) < 16 {
		return nil, errState
	}
	n, pad := binary.LittleEndian.Uint64(part), binary.LittleEndian.Uint64(part[8:])
	if n > uint64(len(part)-16) || pad > 7 || pad > uint64(len(part)-16)-n {
		return nil, errState
	}
	if err := gob.NewDecoder(bytes.NewReader(part[16 : 16+n])).Decode(v); err != nil {
		return nil, fmt.Errorf("%w: %v", errState, err)
	}
	return part[16+n+pad:], nil
}

// ResumeBuilderFrom makes a builder from a state WriteStateLeaving wrote:
// state is its dataset-wide part, chunk(i, cols, floats) returns the two
// parts of its chunk i (false when it cannot: the state is then not
// resumed), read into cols' and floats' memory when large enough, called
// on several goroutines at once. The columns part is used only until the
// next call on the same goroutine, which passes it back as cols; nothing
// the builder holds refers to it. The floats part is passed back too when
// the chunk said where it stays (ChunkParts.At): its points then read
// their samples from there (lazyfloats.go); otherwise they refer to it.
// The builder holds the state's runs at new positions: pos(i, origin) is
// the position of the state's run i (from origin) in this build's order
// of runs and its origin in this build (another when the project was
// moved: every origin of the state, its series' and its warnings', is
// then renamed), false when this build does not have it; positions must
// increase with i. New runs are then added with AddAt; before Dataset,
// Diverged says whether the result can be used.
func ResumeBuilderFrom(opts BuildOptions, state []byte, chunk func(i int, cols, floats []byte) (ChunkParts, bool), pos func(run int, origin string) (int, string, bool)) (*Builder, error) {
	b := NewBuilder(opts)
	var m stateMeta
	if _, err := readHead(state, &m); err != nil {
		return nil, err
	}
	if m.Version != stateVersion {
		return nil, fmt.Errorf("model: builder state of version %d, not %d", m.Version, stateVersion)
	}
	if m.Options != b.optionsKey() {
		return nil, errors.New("model: builder state of other options")
	}
	b.resumed = &resumeState{oldIDs: len(m.Order)}
	if len(m.Origins) != len(m.Order) || len(m.FirstPos) != len(m.Order) {
		return nil, errState
	}
	// Positions in this build's order.
	remapPos := map[int]int{}
	renamed := map[string]string{} // origins that are others in this build
	last := -1
	for i, r := range m.Runs {
		p, origin, ok := pos(i, r.Origin)
		if !ok {
			return nil, fmt.Errorf("model: the run from %s is gone", r.Origin)
		}
		if p <= last {
			return nil, fmt.Errorf("model: the run from %s moved", r.Origin)
		}
		last, b.maxPos = p, p
		remapPos[r.Pos] = p
		if origin != r.Origin {
			renamed[r.Origin] = origin
		}
		b.runs = append(b.runs, runSource{origin: origin, pos: p})
	}
	rename := func(origin string) string {
		if o, ok := renamed[origin]; ok {
			return o
		}
		return origin
	}
	newPos := func(p int) int {
		if q, ok := remapPos[p]; ok {
			return q
		}
		return -1
	}
	run := func(r int32) bool { return r >= 0 && int(r) < len(b.runs) }
	for _, c := range m.Claims {
		var list []artifactClaim
		for _, cl := range c.Claims {
			if !run(cl.Run) {
				return nil, errState
			}
			list = append(list, artifactClaim{run: cl.Run, a: cl.A})
		}
		b.claims[c.ID] = list
	}
	b.order = m.Order
	for i, id := range m.Order {
		b.ids[id] = i
		b.origin[id] = rename(m.Origins[i])
		b.firstPos = append(b.firstPos, newPos(m.FirstPos[i]))
	}
	for _, mc := range m.Machines {
		b.machines[mc.Name] = mc
	}
	maps.Copy(b.pooled, m.Pooled)
	from, to, moved := movedFolder(renamed)
	for _, w := range m.Warnings {
		msg := w.Msg
		if moved {
			msg = strings.ReplaceAll(msg, from, to)
		}
		b.warnings = append(b.warnings, posWarning{newPos(w.Pos), errors.New(msg)})
	}

	// The chunks, on every core.
	got := make([][]*seriesBuild, len(m.Chunks))
	errs := make([]error, len(m.Chunks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(m.Chunks))) {
		wg.Go(func() {
			var cols, floats []byte
			for {
				i := int(next.Add(1)) - 1
				if i >= len(m.Chunks) {
					return
				}
				parts, ok := chunk(i, cols, floats)
				if !ok {
					errs[i] = fmt.Errorf("model: chunk %d of the builder state is missing", i)
					continue
				}
				got[i], errs[i] = resumeChunk(parts, i, m.Chunks[i], len(m.Order), len(b.runs), newPos, rename)
				cols = parts.Cols[:0]
				if parts.At != nil {
					floats = parts.Floats[:0] // the points refer to At
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, c := range got {
		for _, sb := range c {
			if _, dup := b.series[sb.s.Key]; dup {
				return nil, errState
			}
			b.series[sb.s.Key] = sb
		}
	}
	return b, nil
}

// resumeChunk decodes chunk i of a state (its columns and floats parts),
// which the dataset-wide part says holds want: arts artifacts and runs
// runs are the state's, newPos maps its positions to this build's.
// Nothing it returns refers to the columns; its points' samples refer to
// the floats part (which the caller must not reuse), or, when parts.At is
// set, to segments of it read again from there. With parts.At, the floats
// part need not have been read (parts.Floats nil, parts.FloatsLen its
// length): the columns say where each point's samples are, and the
// chunk's head the sums its segments are checked against when read.
func resumeChunk(parts ChunkParts, i int, want stateChunk, arts, runs int, newPos func(int) int, rename func(string) string) ([]*seriesBuild, error) {
	var m chunkMeta
	cols, err := readHead(parts.Cols, &m)
	if err != nil {
		return nil, err
	}
	if m.Version != stateVersion || m.Index != i || len(m.Series) != want.Series || m.Points != want.Points ||
		crc32.Checksum(cols, castagnoli) != m.Sum {
		return nil, errState
	}
	floats := parts.Floats
	unread := parts.At != nil && floats == nil
	switch {
	case m.Floats < 0 || m.Floats > math.MaxUint32: // a sample's offset is 32 bits
		return nil, errState
	case !unread && len(floats) != m.Floats, unread && parts.FloatsLen != m.Floats:
		return nil, errState
	case m.Segment <= 0:
		return nil, errState
	}
	np, ns, ni := m.Points, m.Samples, m.Iters
	// Every point takes at least a byte of the columns (its value's),
	// every sample a byte of the floats part and every iteration count one
	// of the columns: the counts are bounded by what was read before
	// anything is allocated.
	if np < 0 || ns < 0 || ni < 0 || np > len(cols) || ns > m.Floats || ni > len(cols) {
		return nil, errState
	}
	srcs := sources{part: floats, at: parts.At, off: parts.Off, total: m.Floats, seg: m.Segment}
	if unread {
		srcs.sums, srcs.unread = m.Sums, true
	}
	iters := make([]float64, ni)
	// Each series' points get room for a few more (a nightly build adds
	// one to every series): without it, adding one copied every series'
	// points (their run indices were copied at L for 1.2 CPU-s and
	// 200 MB when they had no room; they are pieces now, runList).
	roomFor := func(n int) int { return n + n/64 + 8 }
	room := 0
	for _, ss := range m.Series {
		if ss.N < 0 || ss.N > np {
			return nil, errState
		}
		room += roomFor(ss.N)
	}
	rb := 0 // where the next series' points start in slab
	// The chunk's points in one array, every series' with its room.
	slab := make([]Point, room)
	adviseHuge(slab)
	// The sparse lists, by point in order: a cursor each.
	sorted := func(n int, at func(int) int) bool {
		for k := range n {
			if p := at(k); p < 0 || p >= np || k > 0 && p <= at(k-1) {
				return false
			}
		}
		return true
	}
	if !sorted(len(m.Errors), func(k int) int { return m.Errors[k].Point }) ||
		!sorted(len(m.Summaries), func(k int) int { return m.Summaries[k].Point }) ||
		!sorted(len(m.Ranges), func(k int) int { return m.Ranges[k].Point }) {
		return nil, errState
	}
	ei, si, ri := 0, 0, 0
	out := make([]*seriesBuild, 0, len(m.Series))
	r := varints{b: cols}
	var counts, nIters []uint32 // by point of a series
	var sizes []int             // of a series' samples' groups
	var lens []int              // of the chunk's, to check them when read
	if !unread {
		lens = make([]int, 0, np)
	}
	var block [valueBlock]float64
	at, so, io, fo := 0, 0, 0, 0
	for _, ss := range m.Series {
		if ss.N < 0 || ss.N > np-at {
			return nil, errState
		}
		s := &Series{Key: ss.Key, Case: ss.Case, Context: ss.Context, Metric: ss.Metric, Origin: rename(ss.Origin)}
		if ss.Skeleton {
			// A skeleton: its results' artifacts, no points.
			if ss.N != 0 || ss.MaxArt != -1 || len(ss.Arts) > (arts+7)/8 || !bitsBelow(ss.Arts, arts) {
				return nil, errState
			}
			out = append(out, &seriesBuild{s: s, skeleton: true, value: ss.Value, maxArt: -1, old: ss.Arts, originPos: newPos(ss.OriginPos)})
			continue
		}
		n := ss.N
		pts := slab[rb : rb+n : rb+roomFor(n)]
		rb += roomFor(n)
		sb := &seriesBuild{s: s, pts: [][]Point{pts}, flat: true, value: ss.Value, n: int32(n),
			maxArt: ss.MaxArt, originPos: newPos(ss.OriginPos)}
		// The columns, one after the other (chunkcols.go).
		col := rleReader{r: &r, n: n}
		var art int64
		for j := range pts {
			art += unzigzag(col.next())
			if art < 0 || art >= int64(arts) {
				return nil, errState
			}
			pts[j].Artifact = int32(art)
		}
		if !col.done() {
			return nil, errState
		}
		col = rleReader{r: &r, n: n}
		var run int64
		for range pts {
			run += unzigzag(col.next())
			if run < 0 || run >= int64(runs) {
				return nil, errState
			}
			sb.runs.add(int32(run))
		}
		if !col.done() {
			return nil, errState
		}
		counts, nIters = counts[:0], nIters[:0]
		withSamples := 0
		col = rleReader{r: &r, n: n}
		for range pts {
			k := col.next()
			if k>>1 > uint64(ns-so) {
				return nil, errState
			}
			counts = append(counts, uint32(k))
			so += int(k >> 1)
			if k>>1 > 0 {
				withSamples++
			}
		}
		if !col.done() {
			return nil, errState
		}
		io0 := io
		col = rleReader{r: &r, n: n}
		for range pts {
			l := col.next()
			if l > uint64(ni-io) {
				return nil, errState
			}
			nIters = append(nIters, uint32(l))
			io += int(l)
		}
		if !col.done() {
			return nil, errState
		}
		o := fo // where the series' first group begins
		sizes = sizes[:0]
		for range withSamples {
			l := r.uvarint()
			if l == 0 || l > uint64(m.Floats-fo) {
				return nil, errState
			}
			sizes = append(sizes, int(l))
			fo += int(l)
		}
		if r.bad {
			return nil, errState
		}
		if !unread {
			lens = append(lens, sizes...)
		}
		for b := 0; b < n; b += valueBlock {
			vals := block[:min(valueBlock, n-b)]
			var ok bool
			if r.b, ok = readFloats(r.b, vals); !ok {
				return nil, errState
			}
			for k, v := range vals {
				pts[b+k].SetValue(v, counts[b+k]&1 == 1)
			}
		}
		io = io0
		next := 0 // in sizes
		for j := range pts {
			p := &pts[j]
			g := at + j
			if k := int(counts[j] >> 1); k > 0 {
				// A group is a scale byte and a byte or more per sample.
				size := sizes[next]
				next++
				if size <= k {
					return nil, errState
				}
				p.setSamples(srcs.ref(o, o+size, k))
				o += size
			}
			var its []float64
			if l := int(nIters[j]); l > 0 {
				its = iters[io : io+l : io+l]
				var ok bool
				if r.b, ok = readFloats(r.b, its); !ok {
					return nil, errState
				}
				io += l
			}
			if ei < len(m.Errors) && m.Errors[ei].Point == g {
				p.SetFailure(m.Errors[ei].Msg)
				ei++
			}
			var sum *SampleSummary
			if si < len(m.Summaries) && m.Summaries[si].Point == g {
				sum = &m.Summaries[si].S
				si++
			}
			p.setRare(its, sum)
			if ri < len(m.Ranges) && m.Ranges[ri].Point == g {
				if sb.ranges == nil {
					sb.ranges = map[int32]string{}
				}
				sb.ranges[int32(j)] = m.Ranges[ri].Msg
				ri++
			}
		}
		out = append(out, sb)
		at += n
	}
	if at != np || so != ns || io != ni || fo != m.Floats || len(r.b) != 0 || r.bad {
		return nil, errState
	}
	if !unread && !checkSegments(floats, lens, m.Segment, m.Sums) {
		return nil, errState
	}
	if !srcs.end() {
		return nil, errState
	}
	return out, nil
}

// varints reads varints from the front of b; bad is set, and the rest
// reads as 0, once one does not decode.
type varints struct {
	b   []byte
	bad bool
}

func (r *varints) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// artifactSet is the set of the artifacts of a skeleton's results (its
// claims' and its checkpoint's), a bitmap by pending number.
func (sb *seriesBuild) artifactSet() []byte {
	n := 8 * len(sb.old)
	for _, a := range sb.arts {
		n = max(n, int(a)+1)
	}
	bits := make([]byte, (n+7)/8)
	copy(bits, sb.old)
	for _, a := range sb.arts {
		bits[a/8] |= 1 << (a % 8)
	}
	return bits
}

// hasBit reports whether bit i of bits is set.
func hasBit(bits []byte, i int) bool { return i/8 < len(bits) && bits[i/8]&(1<<(i%8)) != 0 }

// bitsBelow reports whether bits has no bit set at n or beyond.
func bitsBelow(bits []byte, n int) bool {
	for i := n; i < 8*len(bits); i++ {
		if hasBit(bits, i) {
			return false
		}
	}
	return true
}
