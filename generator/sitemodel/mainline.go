package sitemodel

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
)

// mainLine plans, chunk by chunk, the commit pages and the series and
// artifact data files of the main line: a chunk's comparisons are
// computed (prepareChunk), then its outputs are emitted (emitChunk), so
// that one chunk's rows are in memory at a time. (Preparing the next
// chunk while one is emitted kept two chunks' rows, 25 MB each at M, in
// memory for little: both stages already keep both cores busy.)
func (p *planner) mainLine(ctx context.Context) error {
	n := len(p.d.MainLine)
	for from := 0; from < n; from += p.chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.emitChunk(ctx, p.prepareChunk(from, min(from+p.chunk, n))); err != nil {
			return err
		}
	}
	return nil
}

// rowRef is a row of a chunk: the comparison at position index i, row k.
type rowRef struct{ i, k int32 }

// chainKey is the chain key of position pos, "" without chain keys.
func (p *planner) chainKey(pos int) string {
	if pos < 0 || pos >= len(p.opts.Chain) {
		return ""
	}
	return p.opts.Chain[pos]
}

// artifactKey is the key of artifact a's metadata and results, "-" for
// none, "" without keys.
func (p *planner) artifactKey(a int) string {
	if p.opts.ArtifactKeys == nil {
		return ""
	}
	if a < 0 || a >= len(p.opts.ArtifactKeys) {
		return "-"
	}
	return p.opts.ArtifactKeys[a]
}

// commitKey is the key of the commit page at pos: its comparison (the
// chain up to it) and the next commit it links to.
func (p *planner) commitKey(pos int) string {
	c := p.chainKey(pos)
	if c == "" {
		return ""
	}
	next := -1
	if pos+1 < len(p.d.MainLine) {
		next = p.d.MainLine[pos+1]
	}
	return "commit " + c + " " + p.artifactKey(next)
}

// keptChunk is a chunk the previous build wrote whole from the same
// inputs: its outputs, to emit as kept, the summaries of its positions,
// and the data groups with a series data file of it.
type keptChunk struct {
	outs   []Output
	briefs []*listEntry
	groups []string
	// old are the data groups whose data file being gathered takes the
	// chunk's rows from the previous build's (benchFile.old).
	old []string
}

// keepable returns the kept chunk [from, to) when the previous build
// wrote all of its outputs from the same inputs and remembers their
// summaries: nothing of the chunk is computed.
func (p *planner) keepable(from, to int) (*keptChunk, bool) {
	if p.opts.Part == PartShard || p.opts.Known == nil || p.opts.Briefs == nil || p.chainKey(to-1) == "" {
		return nil, false
	}
	k := &keptChunk{briefs: make([]*listEntry, to-from)}
	known := func(o Output) bool {
		k, ok := p.opts.Known[route.File(o.Path)]
		return ok && k == hashKey(p.opts.SiteKey, o.Path, o.Key)
	}
	for pos := from; pos < to; pos++ {
		o := Output{Path: p.routes.Commit(p.d.Artifacts[p.d.MainLine[pos]].ID), Key: p.commitKey(pos), Layout: "commit", Sitemap: true}
		if !known(o) {
			return nil, false
		}
		k.outs = append(k.outs, o)
		if pos > 0 {
			b, ok := p.opts.Briefs.Brief(p.chainKey(pos))
			if !ok {
				return nil, false
			}
			bb, ok := p.fromBrief(b)
			if !ok {
				return nil, false
			}
			k.briefs[pos-from] = bb
		}
	}
	chunk := from / p.chunk
	for _, g := range p.groups {
		if !p.hasRows(g, chunk) {
			continue
		}
		// The group's file of the chunk: kept only when the file is (a
		// file of longer chunks is emitted with its last chunk,
		// fileEnds).
		_, ffrom, fto, o := p.dataFile(g, from)
		k.groups = append(k.groups, g)
		switch {
		case p.lenOf(g) == p.chunk:
			if !known(o) {
				return nil, false
			}
			k.outs = append(k.outs, o)
		case !known(o):
			// A file of longer chunks that is rewritten (its last chunk
			// changed): the rows of this chunk are the previous file's.
			if !p.previousRows(g, o.Path, ffrom, fto, to) {
				return nil, false
			}
			k.old = append(k.old, g)
		}
	}
	a := Output{Path: route.ArtifactData(chunk), Key: p.chainKey(to - 1)}
	if !known(a) {
		return nil, false
	}
	k.outs = append(k.outs, a)
	return k, true
}

// emitKept emits the outputs of a kept chunk as kept and takes its
// summaries from the briefs.
func (p *planner) emitKept(from, to int, k *keptChunk) error {
	for _, g := range k.groups {
		p.noteSeriesData(g, from/p.lenOf(g))
	}
	for _, g := range k.old {
		p.files[g].addOld(from, to)
	}
	copy(p.summaries[from:], k.briefs)
	for _, o := range k.outs {
		if err := p.out(o, nil); err != nil {
			return err
		}
	}
	for _, g := range p.fileEnds(to) {
		if err := p.endFile(g, to); err != nil {
			return err
		}
	}
	return nil
}

// fileOf is the data file being gathered of data group g, of positions
// [from, to), made when there is none.
func (p *planner) fileOf(g string, from, to int) *benchFile {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil {
		p.files = map[string]*benchFile{}
	}
	f := p.files[g]
	if f == nil {
		f = newBenchFile(from, to)
		p.files[g] = f
	}
	return f
}

// previousRows reports whether the previous build's data file of data
// group g at path, which the file of positions [from, to) being gathered
// replaces, holds its rows up to position upTo: the same path of the
// same first position (the same chunk length, or the first file),
// covering them.
func (p *planner) previousRows(g, path string, from, to, upTo int) bool {
	if p.opts.Previous == nil {
		return false
	}
	f := p.fileOf(g, from, to)
	if !f.oldRead {
		f.oldRead = true
		if b := p.opts.Previous(path); b != nil {
			f.old = decodeSeriesData(b)
		}
	}
	return f.old != nil && f.old.From == from && f.old.From+f.old.N >= upTo
}

// decodeSeriesData reads a gzip-compressed series data file (nil when it
// is not one).
func decodeSeriesData(b []byte) *SeriesData {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	// The gzip trailer's size (modulo 2³²) sizes the buffer: read at
	// once, not grown by doubling. A wrong one only costs a growth.
	var buf bytes.Buffer
	if n := len(b); n >= 4 {
		buf.Grow(min(int(binary.LittleEndian.Uint32(b[n-4:])), 64<<20) + 1)
	}
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil
	}
	raw := buf.Bytes()
	var d SeriesData
	if err := unmarshalSeriesData(raw, &d); err != nil {
		return nil
	}
	n := 0
	for _, l := range d.Len {
		n += l
	}
	if len(d.IDs) != len(d.Len) || len(d.Pos) != n || len(d.V) != n || len(d.Samples) != n || len(d.K) != n {
		return nil
	}
	for _, c := range [][]int{d.Note, d.ZR, d.PT, d.BT, d.Ack, d.Ann, d.Err, d.Rng, d.CO, d.EV} {
		if c != nil && len(c) != n {
			return nil
		}
	}
	if !okLen(d.T, n) || !okLen(d.F, n) || !okLen(d.Z, n) || !okLen(d.P, n) || !okLen(d.Mean, n) || !okLen(d.Std, n) || !okLen(d.CV, n) {
		return nil
	}
	return &d
}

func okLen[T any](xs []T, n int) bool { return xs == nil || len(xs) == n }

// seriesByID is the series of data group g of id.
func (p *planner) seriesByID(g, id string) *model.Series {
	p.byIDOnce.Do(func() {
		p.byID = map[[2]string]*model.Series{}
		for _, s := range p.d.Series {
			p.byID[[2]string{p.groupOf[p.routes.BenchSegment(s.Case.Benchmark)], p.seriesIDOf(s)}] = s
		}
	})
	return p.byID[[2]string{g, id}]
}

// PackSeries is the most series a benchmark sharing its data files with
// the other benchmarks of its pack has. A site of benchmarks of one
// series each (asv's, github-action-benchmark's) had a data file per
// benchmark per 256 commits, so a new commit rewrote one file per
// benchmark (2,000 at the asv layout's M: 4.3–4.8 s of user CPU a
// nightly); in packs (shard.Pack: 128 of them, by name) it rewrites one
// per pack (2.4–2.9 s). The price is the readers': a page that shows one
// packed benchmark reads its pack's files, which hold the other
// members' series too (about 16 at the asv layout's M: 87–339 KB gzip
// where the benchmark's own files were 16 KB; with 64 packs, 2.4–2.7 s
// and 500 KB; with 256, 3.3–3.7 s and 110 KB). A benchmark of
// more series than this keeps files of its own: a pack of such would make
// its readers fetch far more than they show.
const PackSeries = 4

// packGroup is the data group of pack n: a key no benchmark segment
// can be (segments have no slash).
func packGroup(n int) string { return "/pack/" + strconv.Itoa(n) }

// packOf is the pack of data group g, false for a benchmark's own group.
func packOf(g string) (int, bool) {
	n, ok := strings.CutPrefix(g, "/pack/")
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(n)
	return k, err == nil
}

// dataPath is the path of data group g's series data file of chunk k.
func dataPath(g string, k int) string {
	if n, ok := packOf(g); ok {
		return route.PackData(n, k)
	}
	return route.SeriesData(g, k)
}

// dataLayout sets each benchmark's data group (a benchmark of at most
// PackSeries series joins its pack's), each group's chunk length
// (ChunkLen of its number of series) and the site's chunks at which it
// has rows: the comparison at main-line position q has a row of every
// series with a point at q (its head) or at q−1 (its base). A pack's
// members are in one shard (shard.Of is the pack's), so every shard
// writes the whole of the packs it writes.
func (p *planner) dataLayout() {
	d := p.d
	n := len(d.MainLine)
	nc := (n + p.chunk - 1) / p.chunk
	perBench := map[string]int{}
	segOf := map[string]string{}
	for _, s := range d.Series {
		seg, ok := segOf[s.Case.Benchmark]
		if !ok {
			seg = p.routes.BenchSegment(s.Case.Benchmark)
			segOf[s.Case.Benchmark] = seg
		}
		perBench[seg]++
	}
	p.groupOf = make(map[string]string, len(segOf))
	for name, seg := range segOf {
		g := seg
		if perBench[seg] <= PackSeries {
			g = packGroup(shard.Pack(name))
		}
		p.groupOf[seg] = g
	}
	count := map[string]int{}
	p.rowChunks = map[string][]bool{}
	for _, s := range d.Series {
		g := p.groupOf[segOf[s.Case.Benchmark]]
		count[g]++
		rows := p.rowChunks[g]
		if rows == nil {
			rows = make([]bool, nc)
			p.rowChunks[g] = rows
		}
		for _, pt := range s.Points {
			q := d.MainPos(int(pt.Artifact))
			if q < 0 {
				continue
			}
			rows[q/p.chunk] = true
			if q+1 < n {
				rows[(q+1)/p.chunk] = true
			}
		}
	}
	p.chunkLen = make(map[string]int, len(count))
	p.groups = make([]string, 0, len(count))
	for g, c := range count {
		p.chunkLen[g] = ChunkLen(p.chunk, c)
		p.groups = append(p.groups, g)
	}
	slices.Sort(p.groups)
}

// lenOf is data group g's chunk length.
func (p *planner) lenOf(g string) int {
	if l, ok := p.chunkLen[g]; ok {
		return l
	}
	return p.chunk
}

// hasRows reports whether data group g has rows in the site's chunk c.
func (p *planner) hasRows(g string, c int) bool {
	rows := p.rowChunks[g]
	return c >= 0 && c < len(rows) && rows[c]
}

// rowsIn reports whether data group g has rows at main-line positions
// [from, to) (a range of whole site chunks).
func (p *planner) rowsIn(g string, from, to int) bool {
	for c := from / p.chunk; c*p.chunk < to; c++ {
		if p.hasRows(g, c) {
			return true
		}
	}
	return false
}

// dataFile is data group g's series data file that holds main-line
// position pos: its chunk k, its positions [from, to) and its output.
// Its key is the chain key of its last position: the file changes
// whenever a row in it does (a file of a length other than the site's
// chunk says its length too).
func (p *planner) dataFile(g string, pos int) (k, from, to int, o Output) {
	l := p.lenOf(g)
	k = pos / l
	from, to = k*l, min((k+1)*l, len(p.d.MainLine))
	key := p.chainKey(to - 1)
	if key != "" && l != p.chunk {
		key += " chunk " + strconv.Itoa(l)
	}
	return k, from, to, Output{Path: dataPath(g, k), Key: key}
}

// keptOutput reports whether the previous build wrote o with the same key.
func (p *planner) keptOutput(o Output) bool {
	k, ok := p.opts.Known[route.File(o.Path)]
	return ok && o.Key != "" && k == hashKey(p.opts.SiteKey, o.Path, o.Key)
}

// fileEnds are the data groups of chunks longer than the site's whose
// data file with rows ends at main-line position to.
func (p *planner) fileEnds(to int) []string {
	var out []string
	for _, g := range p.groups {
		if p.lenOf(g) == p.chunk {
			continue
		}
		if _, from, end, _ := p.dataFile(g, to-1); end == to && p.rowsIn(g, from, end) {
			out = append(out, g)
		}
	}
	return out
}

// gather encodes the rows of data group g of a prepared chunk into the
// data file being gathered of it (none when the file is kept).
func (p *planner) gather(w *chunkWork, g string) {
	p.mu.Lock()
	f := p.files[g]
	p.mu.Unlock()
	if f == nil {
		return
	}
	refs := w.byGroup[g]
	row := func(j int) *analysis.Row { return &w.comps[refs[j].i].Rows[refs[j].k] }
	d := seriesData(f.from, f.to-f.from, len(refs),
		func(j int) (string, int) { return p.seriesIDOf(row(j).Series), w.from + int(refs[j].i) },
		func(j int) seriesPoint { return p.point(w.from+int(refs[j].i), row(j)) },
		nil)
	d.compact()
	f.addPart(&d, w.from, w.to)
}

// endFile emits data group g's data file that ends at main-line position
// to, from the rows gathered of it (or kept).
func (p *planner) endFile(g string, to int) error {
	_, from, _, o := p.dataFile(g, to-1)
	p.mu.Lock()
	f := p.files[g]
	delete(p.files, g)
	p.mu.Unlock()
	return p.out(o, func(o *Output) error {
		if f == nil || f.from != from {
			return fmt.Errorf("the rows of positions [%d, %d) were not gathered", from, to)
		}
		at := -1
		if from > 0 {
			at = p.d.MainLine[from-1]
		}
		o.Data = f.data(at, func(id string) *model.Series { return p.seriesByID(g, id) })
		return nil
	})
}

// noteSeriesData records that data group g has a series data file of
// chunk: a benchmark's series index lists its group's, so that its pages
// fetch no file that does not exist (a benchmark that stopped, or started
// late, has none for the chunks without its group's results).
func (p *planner) noteSeriesData(g string, chunk int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dataChunks == nil {
		p.dataChunks = map[string][]int{}
	}
	if !slices.Contains(p.dataChunks[g], chunk) {
		p.dataChunks[g] = append(p.dataChunks[g], chunk)
	}
}

// toBrief and fromBrief convert a comparison's summary to what the
// briefs remember and back.
func (p *planner) toBrief(b *listEntry) Brief {
	return Brief{Base: p.d.Artifacts[b.comp.Base].ID, Head: p.d.Artifacts[b.comp.Head].ID, Metrics: b.comp.Metrics, Counts: b.counts, Watch: b.watch}
}

func (p *planner) fromBrief(b Brief) (*listEntry, bool) {
	base, ok1 := p.d.Index(b.Base)
	head, ok2 := p.d.Index(b.Head)
	if !ok1 || !ok2 || b.Watch == nil || b.Watch.Options != p.opts.Watch {
		return nil, false
	}
	c := &analysis.Comparison{Base: base, Head: head, Metrics: b.Metrics, Options: p.res.Options(), HistoryFrom: -1}
	return &listEntry{comp: c, counts: b.Counts, watch: b.Watch}, true
}

// chunkWork is a chunk of the main line ready to emit: kept whole, or
// its comparisons and their rows sorted by benchmark.
type chunkWork struct {
	from, to int
	kept     *keptChunk
	comps    []*analysis.Comparison // per position; nil where nothing is compared
	computed int                    // comparisons computed
	// byGroup are the rows of each data group, groups the groups in
	// order, prev per group each series' value at from-1; benches are
	// the benchmarks (segments, sorted) with rows.
	byGroup map[string][]rowRef
	groups  []string
	prev    map[string]map[string]float64
	benches []string
}

// prepareChunk computes what chunk [from, to) needs before it is
// emitted: whether it is kept, else its comparisons (the analysis'
// Consecutive) and their rows by benchmark.
func (p *planner) prepareChunk(from, to int) *chunkWork {
	w := &chunkWork{from: from, to: to}
	if k, ok := p.keepable(from, to); ok {
		w.kept = k
		return w
	}
	w.comps = make([]*analysis.Comparison, to-from)
	first := from
	if from == 0 {
		w.comps[0] = p.firstComparison()
		first = 1
	}
	if first < to {
		start := time.Now()
		copy(w.comps[first-from:], p.res.Consecutive(first, to))
		p.mu.Lock()
		p.stats.Consecutive += time.Since(start)
		p.mu.Unlock()
	}
	w.computed = to - first
	if p.opts.Comparisons != nil {
		for _, c := range w.comps[first-from:] {
			p.opts.Comparisons(c, false)
		}
	}
	// Series data, one file per data group.
	w.byGroup = map[string][]rowRef{}
	w.prev = map[string]map[string]float64{} // group → series id → value at from-1
	benches := map[string]bool{}
	for i, cm := range w.comps {
		if cm == nil {
			continue
		}
		for k := range cm.Rows {
			r := &cm.Rows[k]
			seg := p.routes.BenchSegment(r.Series.Case.Benchmark)
			benches[seg] = true
			g := p.groupOf[seg]
			w.byGroup[g] = append(w.byGroup[g], rowRef{int32(i), int32(k)})
			if from > 0 && p.opts.Part != PartSiteWide { // for the data files
				if w.prev[g] == nil {
					w.prev[g] = map[string]float64{}
				}
				id := p.seriesIDOf(r.Series)
				if _, ok := w.prev[g][id]; !ok {
					w.prev[g][id] = math.NaN()
					if pt := r.Series.At(p.d.MainLine[from-1]); pt != nil && pt.OK() {
						w.prev[g][id] = pt.Value
					}
				}
			}
		}
	}
	for _, m := range w.prev {
		for id, v := range m {
			if math.IsNaN(v) {
				delete(m, id)
			}
		}
	}
	w.groups = slices.Sorted(maps.Keys(w.byGroup))
	w.benches = slices.Sorted(maps.Keys(benches))
	return w
}

// emitChunk emits the outputs of a prepared chunk: its commit pages, its
// series data files (one per data group) and its artifacts file, and
// notes the summaries of its positions. They are one pool of jobs on
// every core, the largest (the data files) first: a chunk's rows are
// formatted and encoded by one worker per data group at a time, so that
// they are never all in memory formatted.
func (p *planner) emitChunk(ctx context.Context, w *chunkWork) error {
	from, to := w.from, w.to
	if w.kept != nil {
		return p.emitKept(from, to, w.kept)
	}
	p.mu.Lock()
	p.stats.Comparisons += w.computed
	p.mu.Unlock()
	chunk := from / p.chunk
	for _, g := range w.groups {
		p.noteSeriesData(g, from/p.lenOf(g))
	}
	// The groups of longer chunks gather their rows in a file until its
	// last chunk (unless the file is kept), and emit it then.
	jobs := slices.Clone(w.groups)
	ends := map[string]bool{}
	for _, g := range p.fileEnds(to) {
		ends[g] = true
		if _, ok := w.byGroup[g]; !ok {
			jobs = append(jobs, g)
		}
	}
	for _, g := range w.groups {
		if p.lenOf(g) == p.chunk {
			continue
		}
		if _, ffrom, fto, o := p.dataFile(g, from); !p.keptOutput(o) {
			p.fileOf(g, ffrom, fto)
		}
	}
	benches, n := w.benches, to-from
	switch p.opts.Part {
	case PartShard:
		n = 0 // the data files alone
	case PartSiteWide:
		jobs = nil // the shards wrote the data files
	}
	return par.Each(ctx, len(jobs)+2*n+1, func(j int) error {
		switch {
		case j < len(jobs):
			g := jobs[j]
			if p.lenOf(g) == p.chunk {
				return p.seriesFile(w, g)
			}
			p.gather(w, g)
			if ends[g] {
				return p.endFile(g, to)
			}
			return nil
		case j < len(jobs)+n:
			i := j - len(jobs)
			return p.commitPage(from+i, w.comps[i])
		case j < len(jobs)+2*n:
			p.summarize(from+j-len(jobs)-n, w.comps[j-len(jobs)-n])
			return nil
		case p.opts.Part == PartShard:
			return nil
		}
		return p.out(Output{Path: route.ArtifactData(chunk), Key: p.chainKey(to - 1)}, func(o *Output) error {
			o.Data = p.artifactData(from, to, benches)
			return nil
		})
	})
}

// summarize notes the summary of the comparison c of the main-line
// commit at pos with its predecessor, for the lists of comparisons (and
// the briefs of later builds).
func (p *planner) summarize(pos int, c *analysis.Comparison) {
	if c == nil || pos == 0 {
		return
	}
	b := &listEntry{comp: summaryOf(c), watch: p.res.Watch(c, p.opts.Watch)}
	for k := range c.Rows {
		b.counts.add(&c.Rows[k])
	}
	p.summaries[pos] = b
	if key := p.chainKey(pos); key != "" && p.opts.Briefs != nil {
		p.opts.Briefs.PutBrief(key, p.toBrief(b))
	}
}

// seriesFile emits the series data file of data group g for a prepared
// chunk.
func (p *planner) seriesFile(w *chunkWork, g string) error {
	from, to := w.from, w.to
	return p.out(Output{Path: dataPath(g, from/p.chunk), Key: p.chainKey(to - 1)}, func(o *Output) error {
		refs := w.byGroup[g]
		row := func(j int) *analysis.Row { return &w.comps[refs[j].i].Rows[refs[j].k] }
		o.Data = seriesData(from, to-from, len(refs),
			func(j int) (string, int) { return p.seriesIDOf(row(j).Series), from + int(refs[j].i) },
			func(j int) seriesPoint { return p.point(from+int(refs[j].i), row(j)) },
			w.prev[g])
		return nil
	})
}

// firstComparison lists the results of the first main-line commit: rows
// with a head and no base (there is nothing to compare with yet).
func (p *planner) firstComparison() *analysis.Comparison {
	a := p.d.MainLine[0]
	c := &analysis.Comparison{Base: a, Head: a, HistoryFrom: -1}
	for _, s := range p.d.Series {
		if pt := s.At(a); pt != nil {
			r := analysis.Row{Series: s, After: pt}
			if pt.Failure() != "" {
				r.Note = "failed: " + pt.Failure()
			}
			c.Rows = append(c.Rows, r)
		}
	}
	return c
}

// summaryOf keeps what lists of comparisons need of one: its ends and
// per-metric summaries, not its rows.
func summaryOf(c *analysis.Comparison) *analysis.Comparison {
	s := *c
	s.Rows = nil
	return &s
}

// commitPage plans the page of the main-line commit at pos.
func (p *planner) commitPage(pos int, c *analysis.Comparison) error {
	d := p.d
	a := d.MainLine[pos]
	prev, next := -1, -1
	if pos >= 1 {
		prev = d.MainLine[pos-1]
	}
	if pos+1 < len(d.MainLine) {
		next = d.MainLine[pos+1]
	}
	head := d.Artifacts[a]
	o := Output{Path: p.routes.Commit(head.ID), Key: p.commitKey(pos), Layout: "commit", Sitemap: true, Charts: true,
		Title: "Commit " + head.Label() + ": " + head.Title}
	return p.out(o, func(o *Output) error {
		v := p.comparison(c, pos)
		if pos == 0 {
			v.Base = nil
		}
		if prev >= 0 {
			pv := p.artifact(prev)
			v.Prev = &pv
		}
		if next >= 0 {
			nv := p.artifact(next)
			v.Next = &nv
		}
		o.Data = v
		return nil
	})
}

// comparison builds the view of a comparison from its analysis, with the
// rows it pre-renders (the relevant ones and the failures) formatted. pos
// is the head's main-line position when the rows are in the series data
// files, else -1.
func (p *planner) comparison(c *analysis.Comparison, pos int) Comparison {
	d := p.d
	base, head := p.artifact(c.Base), p.artifact(c.Head)
	bid, hid := d.Artifacts[c.Base].ID, d.Artifacts[c.Head].ID
	v := Comparison{Base: &base, Head: head, Contiguous: d.Contiguous(c.Base, c.Head),
		URL: p.routes.Compare(bid, hid), Model: c.Options.Model, Rows: RowsSource{Position: pos}}
	if c.Options.Model == "" {
		v.Model = analysis.ModelRustcPerf
	}
	if c.Base != c.Head {
		v.Command = "perfpages compare -format json " + bid + " " + hid
		if model.IsSHA(bid) && model.IsSHA(hid) {
			v.CompareLink = p.links.RepoCompare(bid, hid)
		}
		var md strings.Builder
		if err := report.WriteMarkdown(&md, d, c, "", p.links); err == nil {
			v.Markdown = md.String()
		}
	}
	for _, w := range c.Warnings {
		v.Warnings = append(v.Warnings, w.Error())
	}
	byMetric := map[string]*Metric{}
	var names []string
	for i := range c.Rows {
		r := &c.Rows[i]
		m := r.Series.Metric
		mv := byMetric[m.Name]
		if mv == nil {
			mv = &Metric{Name: m.Name, Unit: m.Unit, Direction: string(m.Direction), Anchor: metricAnchor(m.Name)}
			if sum, ok := c.Metric(m.Name); ok {
				mv.Summary = summarize(sum)
			}
			byMetric[m.Name] = mv
			names = append(names, m.Name)
		}
		joinMetric(&mv.Unit, &mv.Direction, m)
		v.Counts.add(r)
		mv.Counts.add(r)
		switch {
		case r.After != nil && r.After.Failure() != "":
			v.Failures = append(v.Failures, p.row(r))
		case folded(r):
			// Within its noise: shown on demand (the data files).
			// Unconfirmed changes and spikes are shown with the relevant
			// ones, under their badge, and so are the changes of a series
			// too young to judge: a new site's first pages show what
			// moved (report.Changed, the rows the PR comment lists).
			mv.Folded++
		case r.Series.Case.Category == model.Secondary:
			mv.Secondary = append(mv.Secondary, p.row(r))
		default:
			mv.Primary = append(mv.Primary, p.row(r))
		}
	}
	slices.Sort(names)
	for _, n := range names {
		mv := byMetric[n]
		mv.Summary.Relevant, mv.Summary.TooSmall = mv.Counts.Relevant(), mv.Counts.TooSmall
		sortRows(mv.Primary)
		sortRows(mv.Secondary)
		mv.Chart = changesChart(n, append(slices.Clone(mv.Primary), mv.Secondary...))
		v.Metrics = append(v.Metrics, *mv)
	}
	return v
}

// folded reports whether a commit page folds row r: it is within its
// noise (report.Changed) and no failure. A folded row is counted, never
// rendered: the page's script reads it from the series data files. A
// shard's partial site model keeps of a folded row what the site-wide
// pages read of it, not its engines' columns (Collector.Add).
func folded(r *analysis.Row) bool {
	return (r.After == nil || r.After.Failure() == "") && !report.Changed(r)
}

// changesChart is the bar chart of a metric's relevant and unconfirmed
// changes, nil when there are none.
func changesChart(metric string, rows []Row) *Chart {
	var bars []Bar
	for _, r := range rows {
		if !r.HasChange || r.State == string(analysis.StateYoung) {
			continue
		}
		label := r.Benchmark
		parts := []BarPart{{Value: r.Benchmark}}
		for _, kv := range r.Params {
			label += " " + kv.Key + "=" + kv.Value
			parts = append(parts, BarPart{Key: kv.Key, Value: kv.Value})
		}
		if len(r.ContextShown) > 0 {
			label += " [" + r.ContextShown.String() + "]"
			for _, kv := range r.ContextShown {
				parts = append(parts, BarPart{Key: kv.Key, Value: kv.Value, Context: true})
			}
		}
		b := Bar{Label: label + " · " + r.Machine, Parts: parts, Machine: r.Machine, Percent: r.Change * 100, Text: r.ChangeText, Regression: r.Dir == "regression"}
		if math.Abs(r.Change) >= math.MaxFloat64/100 {
			// A change from 0 (formatRow stores it as the largest change
			// whose percent is finite): no length describes it, so the
			// chart draws it to the end of its axis, labelled "new".
			b.New, b.Percent = true, math.Copysign(1, r.Change)
		}
		bars = append(bars, b)
	}
	if len(bars) == 0 {
		return nil
	}
	c := &Chart{ID: ChartID("changes " + metric), Kind: ChartChanges, Bars: bars}
	c.Shared = shortenBars(c.Bars)
	return c
}

// shortenBars leaves in each bar's Parts and Machine only what tells it
// from the other bars: the parts every bar has (the same benchmark, a
// parameter of the same value, one machine) are taken out and returned,
// written once for the whole chart. On a phone a name is some 20
// characters wide, and "compile profile=debug project=web-server
// scenario=full · linux-x64-epyc" cut in the middle to fit could no
// longer be told from its neighbours. A chart of one bar keeps its name
// whole.
func shortenBars(bars []Bar) string {
	if len(bars) < 2 {
		return ""
	}
	count := map[BarPart]int{}
	keys := map[string]int{}
	for _, b := range bars {
		seen := map[string]bool{}
		for _, p := range b.Parts {
			count[p]++
			if p.Key != "" && !seen[p.Key] {
				seen[p.Key] = true
				keys[p.Key]++
			}
		}
	}
	n := len(bars)
	var shared []string
	for _, p := range bars[0].Parts {
		if count[p] == n {
			shared = append(shared, p.text())
		}
	}
	machine0, sharedMachine := bars[0].Machine, true
	for _, b := range bars {
		sharedMachine = sharedMachine && b.Machine == machine0
	}
	for i := range bars {
		b := &bars[i]
		var own []BarPart
		for _, p := range b.Parts {
			if count[p] == n {
				continue
			}
			p.Common = p.Key != "" && keys[p.Key] == n
			own = append(own, p)
		}
		machine := b.Machine
		if sharedMachine {
			machine = ""
		}
		if len(own) == 0 && machine == "" {
			// Nothing in the name tells this bar from the others (they
			// differ by what no label shows): it keeps its name whole.
			continue
		}
		b.Parts, b.Machine = own, machine
	}
	out := strings.Join(shared, " ")
	switch {
	case sharedMachine && out != "":
		out += " · " + machine0
	case sharedMachine:
		out = machine0
	}
	return out
}

// text is the part as a bar's label writes it.
func (p BarPart) text() string {
	s := p.Value
	if p.Key != "" {
		s = p.Key + "=" + p.Value
	}
	if p.Context {
		s = "[" + s + "]"
	}
	return s
}

func summarize(m *analysis.MetricSummary) Summary {
	v := Summary{
		Direction: m.Direction.String(), Relevance: m.Relevance.String(), Confidence: m.Confidence.String(),
		DeservesAttention: m.DeservesAttention, DefinitelyRelevant: m.DefinitelyRelevant, Significant: m.Significant,
		Markdown: report.SummaryTable(m.Primary, m.Secondary, ""),
	}
	row := func(label, class string, st analysis.ChangeStats) SummaryRow {
		r := SummaryRow{Label: label, Class: class, Count: st.Count, Mean: "-", Range: "-"}
		if st.Count > 0 {
			r.Mean = report.FormatPercent1(st.Mean)
			r.Range = "[" + report.FormatPercent1(st.Min) + ", " + report.FormatPercent1(st.Max) + "]"
		}
		return r
	}
	v.Rows = []SummaryRow{
		row("Regressions (primary)", "regression", m.Primary.Regressions),
		row("Regressions (secondary)", "regression", m.Secondary.Regressions),
		row("Improvements (primary)", "improvement", m.Primary.Improvements),
		row("Improvements (secondary)", "improvement", m.Secondary.Improvements),
		row("All (primary)", "", m.Primary.All),
	}
	return v
}
