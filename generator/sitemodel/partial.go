package sitemodel

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// This file is the partial site model: what one shard of a sharded build
// (build -shard i/n, see package shard) hands the merge, and how the merge
// puts the shards' parts together into the analysis' value the site-wide
// outputs are planned from (analysis.Assembled).
//
// A shard analyses its benchmarks' series alone (a benchmark's series
// never meet another's in a statistic: each series' steps, headline
// verdicts and comparison rows are its own), writes their outputs (series
// data files, series indexes, benchmark pages: PartShard) and a partial
// site model. The merge plans every other output (PartSiteWide) from the
// shards' partial models and copies the shards' files in place. It runs
// no statistic: every row comes classified, every step detected; a
// comparison's per-metric summaries are summed from its rows as the
// analysis sums them (analysis.AssembleComparison).
//
// A partial site model holds no series' history: of a series, the points
// the site-wide pages read (sitePoints), and of each comparison row, what
// the pages read of its base and head (PartialValue). The merge's dataset
// is made of those, so its memory is bounded by what the site-wide pages
// show, not by the dataset's points.
//
// The same boundary (analysis of some series → partial site model →
// site-wide plan) is what a single build would take to bound its memory by
// groups of series: the parts need not come from other machines.

// PartialFile is the name of a shard's partial site model in its output
// folder. It is not part of the site: the merge reads it and copies only
// the files it lists.
const PartialFile = "perfpages-partial.gob.gz"

// partialMagic starts every partial site model; its last field is the
// format's version, which a merge requires to be its own.
//
// Version 2: series carry only the points the site-wide pages read, rows
// their base's and head's values, folded rows only what those pages read
// of them, and the comparisons' encodings come first, read on demand
// (version 1 carried every point, every column of every row, and the
// comparisons inside the gzip'd stream).
const partialMagic = "perfpages partial site model 2\n"

// Partial is one shard's partial site model.
type Partial struct {
	// Shard is the shard's number, 1 to Of.
	Shard, Of int
	// Config identifies the perfpages binary and every setting that
	// reaches a page (a build's site key); Inputs the dataset the shard
	// read, every series of every shard (the analysis and artifact keys
	// of the inputs). Shards of one site agree on both; the merge checks
	// Config against its own.
	Config, Inputs string
	// Dataset is the dataset's skeleton (artifacts, machines, main line,
	// warnings, notes), every shard's the same; its series are Series.
	Dataset PartialDataset
	// Series are the shard's series, in key order, each with the
	// points the site-wide pages read of it (sitePoints).
	Series []PartialSeries
	// Comparisons are the comparisons of Options.Comparisons, their rows
	// the shard's, each encoded on its own (a PartialComparison, gob,
	// then flate): a merge reads one from the file (ReadPartial) and
	// decodes it when the plan asks for it, so that its memory holds the
	// comparisons of one chunk of the main line decoded at a time, not
	// every row of the site, encoded or not.
	Comparisons []PartialBlob
	// Steps are the steps of the shard's series (Series indexes Series).
	Steps []analysis.Step
	// Warnings are the build's problems with the inputs, as its pages
	// show them (every shard reads every input: they are the same).
	Warnings []string
	// Files are the shard's outputs (site-relative paths) and their
	// SHA-256, which the merge checks as it copies them.
	Files []PartialOutput

	// src are the series Encode writes (NewPartial's; Series is
	// empty then): each is converted as it is written, never all at
	// once. srcData is their dataset, whose main line sitePoints walks.
	src     []*model.Series
	srcData *model.Dataset
	// file is the file ReadPartial read p from (see Close).
	file *os.File
}

// partialHead is what the file holds first: Partial but its series and
// comparisons, which follow it one gob value each (Series, then
// Comparisons), so that neither a shard nor a merge holds them all in one
// encoded message.
type partialHead struct {
	Shard, Of      int
	Config, Inputs string
	Dataset        PartialDataset
	Steps          []analysis.Step
	Warnings       []string
	Files          []PartialOutput
	Series         int // how many series follow
	Comparisons    int // and comparisons after them
}

// PartialDataset is what a dataset holds besides its series.
type PartialDataset struct {
	Artifacts []model.Artifact
	Machines  []model.Machine
	MainLine  []int
	Warnings  []string
	Notes     []string
	Value     model.ValueKind
	Origins   []string
}

// PartialSeries is a series and the points the site-wide pages read of it
// (sitePoints), not its history.
type PartialSeries struct {
	Key     model.SeriesKey
	Case    model.TestCase
	Context model.Params
	Metric  model.Metric
	Origin  string
	Value   model.ValueKind
	Ranges  map[int]string
	Points  []PartialPoint
}

// PartialPoint is a point of a series as the site-wide pages read it.
type PartialPoint struct {
	Artifact int
	PartialValue
}

// PartialValue is what the site-wide pages read of a point: its value,
// whether it is one, its error and how many samples it has (the rows
// files of the pages of their own say how many, never which: package
// sitemodel reads Point.NumSamples alone). Its samples' values and a
// tool's extras stay in the shard, whose series data files show them.
type PartialValue struct {
	Value   float64
	OK      bool
	Error   string
	Samples int
}

// partialValue is what a partial site model keeps of pt.
func partialValue(pt *model.Point) PartialValue {
	return PartialValue{Value: pt.Value, OK: pt.OK(), Error: pt.Failure(), Samples: pt.NumSamples()}
}

// point is the merge's point of artifact a of v. Its samples are as many
// as v's, all zero (model.Point.SetZeroSamples): the merge runs no
// statistic and the site model reads only how many there are.
func (v PartialValue) point(a int) model.Point {
	p := model.Point{Artifact: int32(a)}
	p.SetValue(v.Value, v.OK)
	p.SetZeroSamples(v.Samples)
	p.SetFailure(v.Error)
	return p
}

// PartialBlob is an encoded PartialComparison of Base with Head: Data, or
// (read by ReadPartial) n bytes at offset off of the file src, read when
// the merge asks for it.
type PartialBlob struct {
	Base, Head int
	Data       []byte

	src    io.ReaderAt
	off, n int64
}

// partialIndex is how the file lists a comparison: its encoding is the
// Len bytes after those of the comparisons before it.
type partialIndex struct {
	Base, Head int
	Len        int64
}

// PartialComparison is a comparison's rows of one shard.
type PartialComparison struct {
	Base, Head, HistoryFrom int
	// Lead are the comparison's warnings that no row gave (the
	// options'), every shard's the same.
	Lead []string
	Rows []PartialRow
}

// PartialRow is a classified row: R without its series and points; its
// series is the shard's series S, B and A are what the pages read of its
// points at the comparison's base and head (nil: none).
type PartialRow struct {
	S    int32
	B, A *PartialValue
	R    analysis.Row
	// Warning is the comparison's warning this row gave ("a value is not
	// a finite number"), "" for none.
	Warning string
}

// PartialOutput is a file a shard wrote.
type PartialOutput struct {
	Path string
	Sum  [32]byte
}

// NewPartial starts the partial site model of shard i of n, whose
// analysed dataset is d (the shard's series; the rest of it is every
// shard's) and whose build found the problems warnings in its inputs.
func NewPartial(i, n int, d *model.Dataset, warnings []error) *Partial {
	p := &Partial{Shard: i, Of: n}
	p.Dataset = PartialDataset{Artifacts: d.Artifacts, Machines: d.Machines, MainLine: d.MainLine,
		Notes: d.Notes, Value: d.Value, Origins: d.Origins()}
	for _, w := range d.Warnings {
		p.Dataset.Warnings = append(p.Dataset.Warnings, w.Error())
	}
	for _, w := range warnings {
		p.Warnings = append(p.Warnings, w.Error())
	}
	p.src, p.srcData = d.Series, d
	return p
}

// partialSeries is series s of dataset d, whose steps are steps, as a
// partial site model holds it.
func partialSeries(d *model.Dataset, s *model.Series, steps []analysis.Step) PartialSeries {
	ps := PartialSeries{Key: s.Key, Case: s.Case, Context: s.Context, Metric: s.Metric, Origin: s.Origin, Value: s.Value, Ranges: s.Ranges}
	for _, k := range sitePoints(d, s, steps) {
		pt := &s.Points[k]
		ps.Points = append(ps.Points, PartialPoint{Artifact: int(pt.Artifact), PartialValue: partialValue(pt)})
	}
	return ps
}

// Collector gathers a shard's comparisons into its partial site model:
// its Add is Options.Comparisons.
type Collector struct {
	p     *Partial
	index map[*model.Series]int32
	mu    sync.Mutex
}

// Collect returns the collector of p's comparisons of dataset d's series.
func (p *Partial) Collect(d *model.Dataset) *Collector {
	c := &Collector{p: p, index: make(map[*model.Series]int32, len(d.Series))}
	for i, s := range d.Series {
		c.index[s] = int32(i)
	}
	return c
}

// Add adds comparison cm (safe for concurrent use); whole says that the
// site-wide pages show each of its rows (Options.Comparisons). Of a
// comparison of consecutive main-line commits (not whole), the rows its
// commit page folds keep only what the site-wide pages read of them
// (foldedRow).
func (c *Collector) Add(cm *analysis.Comparison, whole bool) {
	pc := PartialComparison{Base: cm.Base, Head: cm.Head, HistoryFrom: cm.HistoryFrom, Rows: make([]PartialRow, len(cm.Rows))}
	var rowWarnings []string
	for k := range cm.Rows {
		r := cm.Rows[k]
		pr := PartialRow{S: c.index[r.Series]}
		fold := !whole && folded(&r)
		if r.Before != nil {
			v := partialValue(r.Before)
			if fold {
				v = foldedValue(v)
			}
			pr.B = &v
		}
		if r.After != nil {
			v := partialValue(r.After)
			if fold {
				v = foldedValue(v)
			}
			pr.A = &v
		}
		if r.Note == analysis.NoteNotANumber {
			rowWarnings = append(rowWarnings, "")
			pr.Warning = "?"
		}
		if fold {
			foldedRow(&r)
		}
		r.Series, r.Before, r.After = nil, nil, nil
		pr.R = r
		pc.Rows[k] = pr
	}
	// The row warnings are the comparison's last ones, in row order.
	lead := len(cm.Warnings) - len(rowWarnings)
	for _, w := range cm.Warnings[:lead] {
		pc.Lead = append(pc.Lead, w.Error())
	}
	j := lead
	for k := range pc.Rows {
		if pc.Rows[k].Warning != "" {
			pc.Rows[k].Warning = cm.Warnings[j].Error()
			j++
		}
	}
	var buf bytes.Buffer
	zw := flateWriters.Get().(*flate.Writer)
	zw.Reset(&buf)
	err := gob.NewEncoder(zw).Encode(&pc)
	if err == nil {
		err = zw.Close()
	}
	flateWriters.Put(zw)
	if err != nil {
		panic(fmt.Sprintf("sitemodel: encoding a comparison: %v", err)) // of values this package made: a bug
	}
	c.mu.Lock()
	c.p.Comparisons = append(c.p.Comparisons, PartialBlob{Base: cm.Base, Head: cm.Head, Data: buf.Bytes()})
	c.mu.Unlock()
}

// foldedRow clears what no site-wide page reads of a row its commit page
// folds (folded), so that a partial site model does not carry it: the
// z-score, sample test and budget status, the factor, and the headline's
// widths and level (the pre-rendered rows show them, and the series data
// files, which the shard writes). The rest is read: the change and the
// classification by the counts, the summaries, the watches and the
// Markdown (the headline's width by its basis note), the threshold and
// history by the dashboard's noisiest series.
func foldedRow(r *analysis.Row) {
	r.Z, r.Test, r.Budget = zscore.Z{}, analysis.SampleTest{}, nil
	r.Factor, r.Headline.Widths, r.Headline.Level = 0, 0, 0
}

// foldedValue is what the site-wide pages read of a folded row's point:
// whether it is a value and its error (the counts, the watches), not the
// value nor how many samples it has (the pre-rendered rows and the rows
// files show those).
func foldedValue(v PartialValue) PartialValue {
	return PartialValue{OK: v.OK, Error: v.Error}
}

// flateWriters are the compressors of Add: a flate.Writer holds some
// 600 kB, and a shard encodes every comparison of the site.
var flateWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed)
	return zw
}}

// decode decodes the comparison of b.
func (b *PartialBlob) decode() (*PartialComparison, error) {
	data := b.Data
	if data == nil && b.n > 0 {
		data = make([]byte, b.n)
		if _, err := b.src.ReadAt(data, b.off); err != nil {
			return nil, err
		}
	}
	var pc PartialComparison
	if err := gob.NewDecoder(flate.NewReader(bytes.NewReader(data))).Decode(&pc); err != nil {
		return nil, err
	}
	if pc.Base != b.Base || pc.Head != b.Head {
		return nil, errors.New("a comparison is not what it says")
	}
	return &pc, nil
}

// Encode writes p: the magic line, the length of the comparisons'
// encodings as 8 bytes (little-endian), the encodings one after the
// other, then gzip'd gob: the head, the series, and the comparisons'
// index. A merge reads everything but the encodings, which it reads from
// the file when the plan asks for a comparison: its memory does not hold
// the site's rows, encoded or not.
func (p *Partial) Encode(w io.Writer) error {
	// Comparisons in a fixed order: they were collected from several
	// goroutines.
	slices.SortFunc(p.Comparisons, func(a, b PartialBlob) int {
		return cmp.Or(cmp.Compare(a.Head, b.Head), cmp.Compare(a.Base, b.Base))
	})
	var total int64
	for i := range p.Comparisons {
		total += int64(len(p.Comparisons[i].Data))
	}
	if _, err := io.WriteString(w, partialMagic); err != nil {
		return err
	}
	if _, err := w.Write(binary.LittleEndian.AppendUint64(nil, uint64(total))); err != nil {
		return err
	}
	for i := range p.Comparisons {
		if _, err := w.Write(p.Comparisons[i].Data); err != nil {
			return err
		}
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return err
	}
	series := p.Series
	if p.src != nil {
		series = nil
	}
	head := partialHead{Shard: p.Shard, Of: p.Of, Config: p.Config, Inputs: p.Inputs, Dataset: p.Dataset, Steps: p.Steps,
		Warnings: p.Warnings, Files: p.Files, Series: len(series) + len(p.src), Comparisons: len(p.Comparisons)}
	enc := gob.NewEncoder(zw)
	if err := enc.Encode(&head); err != nil {
		return err
	}
	for i := range series {
		if err := enc.Encode(&series[i]); err != nil {
			return err
		}
	}
	stepsOf := make(map[int][]analysis.Step)
	for _, st := range p.Steps {
		stepsOf[st.Series] = append(stepsOf[st.Series], st)
	}
	for i, s := range p.src {
		ps := partialSeries(p.srcData, s, stepsOf[i])
		if err := enc.Encode(&ps); err != nil {
			return err
		}
	}
	for _, c := range p.Comparisons {
		if err := enc.Encode(&partialIndex{Base: c.Base, Head: c.Head, Len: int64(len(c.Data))}); err != nil {
			return err
		}
	}
	return zw.Close()
}

// Close closes the file a read partial site model reads its comparisons
// from.
func (p *Partial) Close() error {
	if p.file == nil {
		return nil
	}
	return p.file.Close()
}

// ReadPartial reads the partial site model of a shard's output folder
// dir; its comparisons are read from the file when decoded, until Close.
func ReadPartial(dir string) (_ *Partial, err error) {
	name := filepath.Join(dir, PartialFile)
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no partial site model: not the output folder of build -shard", dir)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	magic := make([]byte, len(partialMagic))
	if _, err := io.ReadFull(f, magic); err != nil || !bytes.Equal(magic, []byte(partialMagic)) {
		if bytes.HasPrefix(magic, []byte("perfpages partial site model ")) {
			return nil, fmt.Errorf("%s: a partial site model of another format (%q; this perfpages reads %q): build the shards and merge with one perfpages", name, bytes.TrimSpace(magic), partialMagic[:len(partialMagic)-1])
		}
		return nil, fmt.Errorf("%s: not a partial site model", name)
	}
	var size [8]byte
	if _, err := io.ReadFull(f, size[:]); err != nil {
		return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
	}
	start := int64(len(partialMagic) + len(size))
	total := int64(binary.LittleEndian.Uint64(size[:]))
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if total < 0 || total > fi.Size()-start {
		return nil, fmt.Errorf("%s: corrupt partial site model: comparisons beyond the end of the file", name)
	}
	if _, err := f.Seek(start+total, io.SeekStart); err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
	}
	dec := gob.NewDecoder(zr)
	var head partialHead
	if err := dec.Decode(&head); err != nil {
		return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
	}
	p := Partial{Shard: head.Shard, Of: head.Of, Config: head.Config, Inputs: head.Inputs, Dataset: head.Dataset, Steps: head.Steps,
		Warnings: head.Warnings, Files: head.Files, file: f}
	// The counts are the file's word: they size nothing before the
	// values are there.
	for range head.Series {
		var ps PartialSeries
		if err := dec.Decode(&ps); err != nil {
			return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
		}
		p.Series = append(p.Series, ps)
	}
	off := start
	for range head.Comparisons {
		var ix partialIndex
		if err := dec.Decode(&ix); err != nil {
			return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
		}
		if ix.Len <= 0 || ix.Len > start+total-off {
			return nil, fmt.Errorf("%s: corrupt partial site model: a comparison beyond the comparisons", name)
		}
		p.Comparisons = append(p.Comparisons, PartialBlob{Base: ix.Base, Head: ix.Head, src: f, off: off, n: ix.Len})
		off += ix.Len
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: corrupt partial site model: %w", name, err)
	}
	return &p, nil
}

// check validates the indexes of p, so that a merge never indexes out of
// range.
func (p *Partial) check() error {
	d := &p.Dataset
	na := len(d.Artifacts)
	if p.Of < 1 || p.Shard < 1 || p.Shard > p.Of {
		return fmt.Errorf("shard %d/%d", p.Shard, p.Of)
	}
	if len(d.Origins) != na {
		return errors.New("artifact origins do not match the artifacts")
	}
	for _, a := range d.MainLine {
		if a < 0 || a >= na {
			return errors.New("main line names no artifact")
		}
	}
	for i, s := range p.Series {
		if i > 0 && p.Series[i-1].Key.Compare(s.Key) >= 0 {
			return errors.New("series out of order")
		}
		for k, pt := range s.Points {
			if pt.Artifact < 0 || pt.Artifact >= na || k > 0 && s.Points[k-1].Artifact >= pt.Artifact {
				return fmt.Errorf("series %s: points out of order", s.Key)
			}
		}
	}
	for i, c := range p.Comparisons {
		if c.Base < 0 || c.Base >= na || c.Head < 0 || c.Head >= na {
			return errors.New("comparison names no artifact")
		}
		if i > 0 && p.Comparisons[i-1].Head == c.Head && p.Comparisons[i-1].Base == c.Base {
			return errors.New("a comparison twice")
		}
	}
	for _, st := range p.Steps {
		if st.Series < 0 || st.Series >= len(p.Series) {
			return errors.New("step names no series")
		}
	}
	return nil
}

// Merged is the shards' partial site models put together.
type Merged struct {
	Results  *analysis.Results
	Warnings []error
	// Files are every shard's outputs and the folder each is in.
	Files []MergedFile
}

// MergedFile is a shard's output, in folder Dir.
type MergedFile struct {
	Dir string
	PartialOutput
}

// Merge puts the partial site models of parts (read from dirs, one each)
// together: every shard of one sharded build exactly once, of the same
// inputs and configuration (config is the merge's own configuration key,
// which each part must carry). opts are the analysis options the merge
// resolves as the shards did; annotate attaches the site's annotations to
// the merged dataset.
func Merge(parts []*Partial, dirs []string, config string, opts analysis.Options, annotate func(*model.Dataset)) (*Merged, error) {
	if len(parts) == 0 {
		return nil, errors.New("no shards to merge")
	}
	n := parts[0].Of
	seen := make([]string, n+1)
	for k, p := range parts {
		switch {
		case p.Of != n:
			return nil, fmt.Errorf("%s is shard %d/%d, %s of %d shards: shards of different builds", dirs[k], p.Shard, p.Of, dirs[0], n)
		case seen[p.Shard] != "":
			return nil, fmt.Errorf("shard %d/%d twice: %s and %s", p.Shard, n, seen[p.Shard], dirs[k])
		case p.Config != config:
			return nil, fmt.Errorf("%s (shard %d/%d) was built by another perfpages or with other settings than this merge's: build every shard and merge with one perfpages binary and one configuration", dirs[k], p.Shard, n)
		case p.Inputs != parts[0].Inputs:
			return nil, fmt.Errorf("%s (shard %d/%d) and %s (shard %d/%d) read different inputs: every shard must build from the same results", dirs[k], p.Shard, n, dirs[0], parts[0].Shard, n)
		}
		seen[p.Shard] = dirs[k]
	}
	var missing []int
	for i := 1; i <= n; i++ {
		if seen[i] == "" {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shards %v of %d missing: a merge needs every shard's output folder", missing, n)
	}

	// The skeleton, and every shard's series in key order.
	sk := parts[0].Dataset
	type ref struct{ part, idx int }
	var refs []ref
	for k, p := range parts {
		for i := range p.Series {
			refs = append(refs, ref{k, i})
		}
	}
	key := func(r ref) model.SeriesKey { return parts[r.part].Series[r.idx].Key }
	slices.SortFunc(refs, func(a, b ref) int { return key(a).Compare(key(b)) })
	global := make([][]int, len(parts)) // part, shard index → dataset index
	for k, p := range parts {
		global[k] = make([]int, len(p.Series))
	}
	series := make([]*model.Series, len(refs))
	for g, r := range refs {
		if g > 0 && key(refs[g-1]) == key(r) {
			return nil, fmt.Errorf("series %s is in two shards (%s and %s)", key(r), dirs[refs[g-1].part], dirs[r.part])
		}
		ps := &parts[r.part].Series[r.idx]
		s := &model.Series{Key: ps.Key, Case: ps.Case, Context: ps.Context, Metric: ps.Metric, Origin: ps.Origin, Value: ps.Value, Ranges: ps.Ranges,
			Points: make([]model.Point, len(ps.Points))}
		for i, pp := range ps.Points {
			s.Points[i] = pp.point(pp.Artifact)
		}
		ps.Points = nil // held once, in the dataset
		series[g] = s
		global[r.part][r.idx] = g
	}
	d := model.Assemble(model.Dataset{Artifacts: sk.Artifacts, Machines: sk.Machines, Series: series, MainLine: sk.MainLine,
		Notes: sk.Notes, Value: sk.Value, Warnings: errorsOf(sk.Warnings)}, sk.Origins)
	annotate(d)

	// The steps, series by series as the analysis finds them.
	var steps []analysis.Step
	for k, p := range parts {
		for _, st := range p.Steps {
			st.Series = global[k][st.Series]
			steps = append(steps, st)
		}
	}
	slices.SortStableFunc(steps, func(a, b analysis.Step) int { return cmp.Compare(a.Series, b.Series) })

	// The comparisons: each shard's rows of one pair, in series order,
	// decoded when the plan asks for them.
	type blob struct {
		part int
		b    *PartialBlob
	}
	byPair := map[[2]int][]blob{}
	for k, p := range parts {
		for ci := range p.Comparisons {
			pb := &p.Comparisons[ci]
			key := [2]int{pb.Base, pb.Head}
			byPair[key] = append(byPair[key], blob{k, pb})
		}
	}
	type ref2 struct {
		g  int
		pr *PartialRow
	}
	compare := func(base, head int) (*analysis.Comparison, bool) {
		blobs, ok := byPair[[2]int{base, head}]
		if !ok {
			return nil, false
		}
		var rows []ref2
		var first *PartialComparison
		for _, b := range blobs {
			pc, err := b.b.decode()
			if err != nil {
				panic(fmt.Sprintf("%s: corrupt partial site model: %v", dirs[b.part], err))
			}
			if first == nil {
				first = pc
			}
			for ri := range pc.Rows {
				pr := &pc.Rows[ri]
				if pr.S < 0 || int(pr.S) >= len(global[b.part]) {
					panic(fmt.Sprintf("%s: corrupt partial site model: a row names no series", dirs[b.part]))
				}
				rows = append(rows, ref2{global[b.part][pr.S], pr})
			}
		}
		slices.SortFunc(rows, func(a, b ref2) int { return cmp.Compare(a.g, b.g) })
		out := make([]analysis.Row, len(rows))
		warnings := errorsOf(first.Lead)
		for i, x := range rows {
			r := x.pr.R
			s := series[x.g]
			r.Series = s
			if x.pr.B != nil {
				pt := x.pr.B.point(base)
				r.Before = &pt
			}
			if x.pr.A != nil {
				pt := x.pr.A.point(head)
				r.After = &pt
			}
			if x.pr.Warning != "" {
				warnings = append(warnings, errors.New(x.pr.Warning))
			}
			out[i] = r
		}
		return analysis.AssembleComparison(base, head, opts, first.HistoryFrom, out, warnings), true
	}

	m := &Merged{Results: analysis.Assembled(d, opts, steps, compare), Warnings: errorsOf(parts[0].Warnings)}
	for k, p := range parts {
		for _, f := range p.Files {
			m.Files = append(m.Files, MergedFile{Dir: dirs[k], PartialOutput: f})
		}
	}
	return m, nil
}

func errorsOf(msgs []string) []error {
	var out []error
	for _, m := range msgs {
		out = append(out, errors.New(m))
	}
	return out
}

// sitePoints are the indexes in s.Points, in order, of the points the
// site-wide outputs read of series s of dataset d, whose steps are steps:
// what a partial site model keeps of a series. Every reader of a series'
// points in the site-wide part of the plan is one of these, and
// TestShardedEqualsOne fails when one reads a point not kept:
//
//   - the first main-line commit's page lists its results
//     (firstComparison): the point at the first main-line commit;
//   - the dashboard's latest commit of each machine and its results
//     (dashboard): the series' last main-line point; its failing list
//     walks back a failing streak (latestOnMachine): the failing
//     main-line points just before it, while there are;
//   - the regressions page's sparklines (sparkline): up to SparkSide
//     finite values on each side of each step, at or before its Prev and
//     at or after its Index on the main line.
//
// The rows of comparisons carry their own points (PartialRow).
func sitePoints(d *model.Dataset, s *model.Series, steps []analysis.Step) []int {
	n := len(d.MainLine)
	if n == 0 || len(s.Points) == 0 {
		return nil
	}
	keep := map[int]bool{}
	index := func(pos int) (int, bool) {
		a := d.MainLine[pos]
		k, ok := slices.BinarySearchFunc(s.Points, a, func(p model.Point, a int) int { return cmp.Compare(int(p.Artifact), a) })
		return k, ok
	}
	if k, ok := index(0); ok {
		keep[k] = true
	}
	last := -1
	for k := len(s.Points) - 1; k >= 0; k-- {
		if pos := d.MainPos(int(s.Points[k].Artifact)); pos >= 0 {
			keep[k] = true
			last = pos
			break
		}
	}
	if last >= 0 {
		for pos := last; pos >= 0; pos-- {
			k, ok := index(pos)
			if !ok || s.Points[k].Failure() == "" {
				break
			}
			keep[k] = true
		}
	}
	finite := func(pos int) (int, bool) {
		k, ok := index(pos)
		if !ok {
			return 0, false
		}
		pt := &s.Points[k]
		return k, pt.OK() && !math.IsNaN(pt.Value) && !math.IsInf(pt.Value, 0)
	}
	for _, st := range steps {
		for pos, got := min(st.Prev, n-1), 0; pos >= 0 && got < SparkSide; pos-- {
			if k, ok := finite(pos); ok {
				keep[k] = true
				got++
			}
		}
		for pos, got := max(st.Index, 0), 0; pos < n && got < SparkSide; pos++ {
			if k, ok := finite(pos); ok {
				keep[k] = true
				got++
			}
		}
	}
	out := make([]int, 0, len(keep))
	for k := range keep {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
