package model

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"unsafe"
)

// Checkpoints. A nightly build adds a commit or two to a history of
// thousands; adding every run again means adding two million results at M
// for the sake of a few thousand. A build can save its builder's state after the runs
// it added (WriteState) and the next build resume from it
// (ResumeBuilder), adding only the runs it does not hold
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

// The state's layout: two little-endian uint64s, the length of a gob of
// stateMeta and the number of zero bytes after it (up to a multiple of 8
// of the offset in the state's file), the gob, the zero bytes, then the
// points' columns: values (float64), samples and iteration counts
// (float64, all points' in a row), artifacts and runs (int32), sample and
// iteration counts (uint32), OK flags (bytes). The float columns are used
// in place when the state is 8-byte aligned in memory on a little-endian
// machine, which a file read whole is.

// stateVersion changes with the layout or the meaning of the state.
const stateVersion = 2

type stateMeta struct {
	Version   int
	Options   string // optionsKey of the builder
	Runs      []stateRun
	Claims    []stateClaims
	Order     []string // pending number → artifact id
	Origins   []string // pending number → origin of its first run
	FirstPos  []int
	Machines  []Machine
	Warnings  []stateWarning
	Series    []stateSeries
	Points    int
	Samples   int
	Iters     int
	Errors    []stateError
	Summaries []stateSummary
	Ranges    []stateError // the points' ranges (Result.Range)
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
// make series and single values. History, Other and MainBranch are used
// only by Dataset, SeriesSizes only for capacities.
func (b *Builder) optionsKey() string {
	k, _ := json.Marshal(struct {
		Value   ValueKind
		Metrics map[string]Metric
	}{b.opts.Value, b.opts.Metrics})
	return string(k)
}

// WriteState writes the builder's state to w, for ResumeBuilder; offset
// is where in its file the state starts (for alignment). It must be
// called before Dataset. The state is written as it is made, a megabyte
// at a time: at L it is gigabytes.
func (b *Builder) WriteState(w io.Writer, offset int) error {
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
	for _, w := range b.warnings {
		m.Warnings = append(m.Warnings, stateWarning{w.pos, w.err.Error()})
	}
	keys := slices.SortedFunc(maps.Keys(b.series), func(x, y SeriesKey) int { return x.Compare(y) })
	all := make([]*seriesBuild, len(keys))
	for i, k := range keys {
		sb := b.series[k]
		all[i] = sb
		s := sb.s
		m.Series = append(m.Series, stateSeries{s.Key, s.Case, s.Context, s.Metric, s.Origin, sb.originPos, sb.value, int(sb.n), sb.maxArt})
		for pt := range sb.n {
			p := sb.point(pt)
			if p.Error != "" {
				m.Errors = append(m.Errors, stateError{m.Points, p.Error})
			}
			if p.Summary != nil {
				m.Summaries = append(m.Summaries, stateSummary{m.Points, *p.Summary})
			}
			if text, ok := sb.ranges[pt]; ok {
				m.Ranges = append(m.Ranges, stateError{m.Points, text})
			}
			m.Points++
			m.Samples += len(p.Samples)
			m.Iters += len(p.Iters)
		}
	}
	var meta bytes.Buffer
	if err := gob.NewEncoder(&meta).Encode(&m); err != nil {
		return fmt.Errorf("model: builder state: %w", err)
	}
	var werr error
	dst := make([]byte, 0, 1<<20+4096)
	flush := func() {
		if len(dst) >= 1<<20 && werr == nil {
			_, werr = w.Write(dst)
			dst = dst[:0]
		}
	}
	pad := (8 - (offset+16+meta.Len())%8) % 8
	dst = binary.LittleEndian.AppendUint64(dst, uint64(meta.Len()))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(pad))
	dst = append(dst, meta.Bytes()...)
	dst = append(dst, make([]byte, pad)...)
	// One pass per column.
	_, werr = w.Write(dst)
	dst = dst[:0]
	each := func(f func(p *Point, sb *seriesBuild, pt int32)) {
		for _, sb := range all {
			for pt := range sb.n {
				f(sb.point(pt), sb, pt)
				flush()
			}
		}
	}
	each(func(p *Point, _ *seriesBuild, _ int32) {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(p.Value))
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		for _, x := range p.Samples {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
		}
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		for _, x := range p.Iters {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
		}
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(p.Artifact))
	})
	each(func(_ *Point, sb *seriesBuild, pt int32) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(ri[sb.runs[pt]]))
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p.Samples)))
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p.Iters)))
	})
	each(func(p *Point, _ *seriesBuild, _ int32) {
		if p.OK {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
	})
	if werr == nil {
		_, werr = w.Write(dst)
	}
	return werr
}

// errState is returned for a state that does not decode.
var errState = errors.New("model: builder state is corrupt")

// ResumeBuilder makes a builder from a state WriteState wrote,
// holding its runs at new positions: pos(i, origin) is the position of
// the state's run i (from origin) in this build's order of runs, false
// when this build does not have it; positions must increase with i. New
// runs are then added with AddAt; before Dataset, Diverged says whether
// the result can be used. The points' samples may share state's memory,
// which must not change afterwards.
func ResumeBuilder(opts BuildOptions, state []byte, pos func(run int, origin string) (int, bool)) (*Builder, error) {
	b := NewBuilder(opts)
	if len(state) < 16 {
		return nil, errState
	}
	n, pad := binary.LittleEndian.Uint64(state), binary.LittleEndian.Uint64(state[8:])
	if n > uint64(len(state)-16) || pad > 7 || pad > uint64(len(state)-16)-n {
		return nil, errState
	}
	var m stateMeta
	if err := gob.NewDecoder(bytes.NewReader(state[16 : 16+n])).Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", errState, err)
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
	last := -1
	for i, r := range m.Runs {
		p, ok := pos(i, r.Origin)
		if !ok {
			return nil, fmt.Errorf("model: the run from %s is gone", r.Origin)
		}
		if p <= last {
			return nil, fmt.Errorf("model: the run from %s moved", r.Origin)
		}
		last, b.maxPos = p, p
		remapPos[r.Pos] = p
		b.runs = append(b.runs, runSource{origin: r.Origin, pos: p})
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
		b.origin[id] = m.Origins[i]
		b.firstPos = append(b.firstPos, newPos(m.FirstPos[i]))
	}
	for _, mc := range m.Machines {
		b.machines[mc.Name] = mc
	}
	for _, w := range m.Warnings {
		b.warnings = append(b.warnings, posWarning{newPos(w.Pos), errors.New(w.Msg)})
	}

	// The columns.
	cols := state[16+n+pad:]
	np, ns, ni := m.Points, m.Samples, m.Iters
	if np < 0 || ns < 0 || ni < 0 || uint64(len(cols)) != uint64(np)*(8+4+4+4+4+1)+8*uint64(ns)+8*uint64(ni) {
		return nil, errState
	}
	values := floatsAt(cols, np)
	samples := floatsAt(cols[8*np:], ns)
	iters := floatsAt(cols[8*(np+ns):], ni)
	ints := cols[8*(np+ns+ni):]
	u32 := func(col, i int) uint32 { return binary.LittleEndian.Uint32(ints[4*(col*np+i):]) }
	ok := ints[16*np:]
	runs := make([]int32, np)
	for i := range runs {
		runs[i] = int32(u32(1, i))
		if !run(runs[i]) {
			return nil, errState
		}
	}
	errs := map[int]string{}
	for _, e := range m.Errors {
		errs[e.Point] = e.Msg
	}
	sums := map[int]*SampleSummary{}
	for _, s := range m.Summaries {
		sums[s.Point] = &s.S
	}
	ranges := map[int]string{}
	for _, r := range m.Ranges {
		ranges[r.Point] = r.Msg
	}
	at, so, io := 0, 0, 0
	for _, ss := range m.Series {
		if ss.N < 0 || at+ss.N > np {
			return nil, errState
		}
		s := &Series{Key: ss.Key, Case: ss.Case, Context: ss.Context, Metric: ss.Metric, Origin: ss.Origin}
		pts := make([]Point, ss.N, ss.N+ss.N/64+8)
		for j := range pts {
			g := at + j
			p := &pts[j]
			art := u32(0, g)
			if int(art) >= len(m.Order) {
				return nil, errState
			}
			p.Artifact, p.Value, p.OK = int(art), values[g], ok[g] == 1
			k, l := int(u32(2, g)), int(u32(3, g))
			if so+k > ns || io+l > ni {
				return nil, errState
			}
			if k > 0 {
				p.Samples = samples[so : so+k : so+k]
			}
			if l > 0 {
				p.Iters = iters[io : io+l : io+l]
			}
			so, io = so+k, io+l
			p.Error, p.Summary = errs[g], sums[g]
		}
		sb := &seriesBuild{s: s, pts: [][]Point{pts}, flat: true, value: ss.Value, n: int32(ss.N),
			runs: runs[at : at+ss.N : at+ss.N], maxArt: ss.MaxArt, originPos: newPos(ss.OriginPos)}
		for j := range ss.N {
			if text, ok := ranges[at+j]; ok {
				if sb.ranges == nil {
					sb.ranges = map[int32]string{}
				}
				sb.ranges[int32(j)] = text
			}
		}
		b.series[ss.Key] = sb
		at += ss.N
	}
	if at != np || so != ns || io != ni {
		return nil, errState
	}
	return b, nil
}

// littleEndian is set on machines that keep numbers as the state does.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// floatsAt returns the n float64s at the front of b: in place when b is
// aligned for them on a little-endian machine, else copied.
func floatsAt(b []byte, n int) []float64 {
	if n == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0 {
		return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
