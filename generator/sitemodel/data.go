package sitemodel

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
	"github.com/perfpages/perfpages/generator/report"
)

// The site's data files hold every value once, by series, in chunks of
// main-line positions, so that appending a commit rewrites only the last
// chunk of each benchmark (of each pack of benchmarks of few series):
//
//	data/index/<bench>.json            SeriesIndex: a benchmark's series, and
//	                                   where its data files are
//	data/series/<bench>/<chunk>.json   SeriesData: the rows of every series of a
//	                                   benchmark at main-line positions
//	                                   [chunk·L, (chunk+1)·L), L the
//	                                   benchmark's chunk length (ChunkLen,
//	                                   SeriesIndex.Chunk)
//	data/packs/<pack>/<chunk>.json     SeriesData too: the same of every
//	                                   benchmark of at most PackSeries series
//	                                   of a pack (shard.Pack)
//	data/artifacts/<chunk>.json        ArtifactData: who the positions
//	                                   [chunk·Chunk, (chunk+1)·Chunk) are
//	data/rows/<base>...<head>.json     SeriesData too: the rows of a comparison that
//	                                   is not between consecutive main-line commits
//
// A "row" at main-line position p is the row of the comparison of the
// commit at p with its main-line predecessor, exactly what the commit page
// of p shows (and, through its value and band, a point of the series'
// history chart). Its fields are those of [Row], by their JSON names:
// the fields that are the same on every row of a series once (Row), the
// others as columns (Cols), so the page's script rebuilds a Row object by
// field name with no knowledge of what the fields mean. History charts
// read the chart columns (position, value, band, samples, failures,
// annotations).

// DefaultChunk is the number of main-line positions a series data file
// holds. A commit page's rows need one file per benchmark, a benchmark's
// history every file of the benchmark: 32 keeps both at tens of requests
// for a project of a thousand commits.
const DefaultChunk = 32

// ChunkValues is how many values a benchmark's series data file holds at
// most once its chunks are longer than the site's (ChunkLen), and
// ChunkPositions how many positions: a nightly build rewrites each
// benchmark's last file whole (from the previous build's file and the new
// rows), so the longer the files, the more a +1 commit re-encodes — at
// the asv layout's M (2,000 one-series benchmarks, 1,000 commits),
// 1,024-position files made a +1 16 CPU-s against 10.5 with 32, where 256
// keeps it near the latter and the files few (sitemodel's doc in
// docs/internals.md counts them).
const (
	ChunkValues    = 1024
	ChunkPositions = 256
)

// ChunkLen is the number of main-line positions of a series data file of
// a benchmark of the given number of series, on a site of data files of
// chunk positions: chunk·2^j with j the largest such that the file holds
// at most ChunkValues values (positions × series) and ChunkPositions
// positions, chunk itself when even that holds more. A benchmark of one
// series (asv, github-action-benchmark) has one file per 256 commits
// where 32-position files made 8 files of 32 values; one of 32 series
// or more keeps the site's chunk. The one definition of the length: the
// plan writes the files by it and a benchmark's series index tells the
// page's script (SeriesIndex.Chunk).
func ChunkLen(chunk, series int) int {
	l := max(chunk, 1)
	for 2*l <= ChunkPositions && 2*l*max(series, 1) <= ChunkValues {
		l *= 2
	}
	return l
}

// SeriesData is one data/series/<bench>/<chunk>.json, and the form of a
// rows file too. Its rows are those of several series, series after
// series, each series' rows in position order; every column holds one
// entry per row, in that order, so that the values of one kind sit
// together (they compress best that way: the site is served compressed).
// Numbers are stored so that the page's script rebuilds every cell exactly
// as the generator writes it (site.js, rowAt):
//
//	v, b, prev  values: the exact float64 (shortest form that reads back
//	            the same), formatted like analysis.FormatValue. The change
//	            is computed from them as analysis.Results.RelativeChange does,
//	            (v − b) / b, the same IEEE operations, and formatted like
//	            report.FormatChange; where that would not give the
//	            generator's change, co holds its text and cv its value
//	t, f        the threshold and the factor as printed: integers in units
//	            of their last digit (0.01 %, 0.01), null for "-", a string
//	            when the text is no plain number
//	mean, std   the z-score's distribution, with MeanDigits and StdDigits
//	            significant digits: the generator formats the
//	            pre-rendered rows from the same rounded values
//	z           the z-score as printed, an integer in units of 0.01 (-0 for
//	            a negative that prints as zero), a string when it is no
//	            plain number; null when there is none
//	p           the p-value in units of 0.001; -1 for "<0.001"
//	k           codes: magnitude, flags and classes (see rowCodes)
//	note, zr, pt, bt, ack, ann, err, co, ev   indices into the string table
//	            (ev: the evidence a headline state's badge title ends with)
//
// Data files are stored gzip-compressed (.json.gz): a site of thousands
// of commits and series must fit GitHub Pages' 1 GB, and the script
// inflates them with the browser's DecompressionStream.
type SeriesData struct {
	From int `json:"from"` // main-line position of the first row (0 in rows files)
	N    int `json:"n"`    // positions covered
	// IDs are the series' ids; the benchmark's index holds the fields
	// every row of a series shares.
	IDs []string `json:"ids"`
	Len []int    `json:"len"` // rows per series
	// Benches are the benchmarks of a rows file's series (path segments),
	// Bench the index of each series' benchmark: where its index is.
	Benches []string `json:"benches,omitempty"`
	Bench   []int    `json:"bench,omitempty"`
	// Prev is each series' value at the main-line position before From
	// (the first row's base), null when there is none. Rows files instead
	// carry B, the base value of every row.
	Prev []Exact `json:"prev,omitempty"`
	Columns
	// Strings is the file's string table: the columns of texts (notes,
	// reasons, titles) hold indices into it; 0 is "".
	Strings []string `json:"str"`
	// store holds the columns' storage, reused for another file once
	// this one is encoded (Release).
	store *Columns
}

// columnsPool holds the storage of columns of data files that were
// encoded (SeriesData.Release): a cold build at M fills 2 million rows
// of them, half a gigabyte when each file's columns were new.
var columnsPool = sync.Pool{New: func() any { return new(Columns) }}

// Release gives the storage of the file's columns back for the next
// file: the caller is done with d (it encoded it) and reads it no more.
// Only the renderer calls it; a plan's outputs that are kept (tests)
// are never released.
func (d SeriesData) Release() {
	if d.store != nil {
		d.store.reset()
		columnsPool.Put(d.store)
	}
}

// useStore starts the columns of a file of n rows in the storage of a
// released file. Without rows the columns stay nil, as a file of none
// writes them.
func (d *SeriesData) useStore(n int) {
	if n > 0 {
		d.store = columnsPool.Get().(*Columns)
		d.Columns = *d.store
	}
}

// keepStore records the columns' storage, as they grew, before the
// empty ones are dropped (Columns.trim).
func (d *SeriesData) keepStore() {
	if d.store != nil {
		*d.store = d.Columns
	}
}

// reset empties every column, keeping its storage.
func (s *Columns) reset() {
	*s = Columns{Pos: s.Pos[:0], V: s.V[:0], B: s.B[:0], T: s.T[:0], F: s.F[:0], Mean: s.Mean[:0], Std: s.Std[:0],
		Samples: s.Samples[:0], Z: s.Z[:0], P: s.P[:0], K: s.K[:0], Note: s.Note[:0], ZR: s.ZR[:0], PT: s.PT[:0],
		BT: s.BT[:0], Ack: s.Ack[:0], Ann: s.Ann[:0], Err: s.Err[:0], Rng: s.Rng[:0], CO: s.CO[:0], EV: s.EV[:0], CV: s.CV[:0]}
}

// SeriesIndex is data/index/<bench>.json: the series of a
// benchmark, with the fields of their rows that never change, which the
// data files refer to by id.
type SeriesIndex struct {
	Series []Row `json:"series"`
	// Chunks are the chunks that have a data file of the benchmark
	// (data/series/<bench>/<chunk>.json, or its pack's), in order.
	Chunks []int `json:"chunks"`
	// Chunk is the length of the chunks of the benchmark's data files
	// (ChunkLen of their series): data file k holds positions
	// [k·Chunk, (k+1)·Chunk).
	Chunk int `json:"chunk"`
	// Pack, for a benchmark of at most PackSeries series, is the pack
	// whose data files hold its series with those of the pack's other
	// such benchmarks (data/packs/<pack>/<chunk>.json, route.PackData);
	// the files' rows of other benchmarks are not in its Series.
	Pack *int `json:"pack,omitempty"`
}

// Columns are the columns of a data file's rows (see SeriesData).
type Columns struct {
	// Pos are the rows' positions, relative to From.
	Pos     []int     `json:"pos"`
	V       []Exact   `json:"v"`
	B       []Exact   `json:"b,omitempty"`
	T       []Fixed   `json:"t,omitempty"`
	F       []Fixed   `json:"f,omitempty"`
	Mean    []Rounded `json:"mean,omitempty"`
	Std     []Rounded `json:"std,omitempty"`
	Samples []int     `json:"s"`
	Z       []Fixed   `json:"z,omitempty"`
	P       []Fixed   `json:"p,omitempty"`
	K       []int     `json:"k"`
	Note    []int     `json:"note,omitempty"`
	ZR      []int     `json:"zr,omitempty"`
	PT      []int     `json:"pt,omitempty"`
	BT      []int     `json:"bt,omitempty"`
	Ack     []int     `json:"ack,omitempty"`
	Ann     []int     `json:"ann,omitempty"`
	Err     []int     `json:"err,omitempty"`
	// Rng is the range the tool printed beside the value (cargo's
	// "± 1,234"), as text.
	Rng []int `json:"rng,omitempty"`
	CO  []int `json:"co,omitempty"`
	EV  []int `json:"ev,omitempty"`
	// CV is the change where co holds its text (NaN elsewhere).
	CV []Exact `json:"cv,omitempty"`
}

// Exact is a value written in the shortest form that reads back as the
// same float64 (null when NaN, ±Inf: no value).
type Exact float64

// MarshalJSON implements json.Marshaler.
func (x Exact) MarshalJSON() ([]byte, error) {
	return appendNumber(nil, float64(x), -1), nil
}

// UnmarshalJSON implements json.Unmarshaler: null is NaN.
func (x *Exact) UnmarshalJSON(b []byte) error {
	f, err := unmarshalNumber(b)
	*x = Exact(f)
	return err
}

// UnmarshalJSON implements json.Unmarshaler: null is NaN.
func (n *Rounded) UnmarshalJSON(b []byte) error {
	f, err := unmarshalNumber(b)
	*n = Rounded(f)
	return err
}

func unmarshalNumber(b []byte) (float64, error) {
	if string(b) == "null" {
		return math.NaN(), nil
	}
	return strconv.ParseFloat(string(b), 64)
}

// MeanDigits and StdDigits are the significant digits the data files keep
// of the z-score's distribution (the pages show four of the mean and of
// the spread; three suffice for the spread, which is a scale).
const (
	MeanDigits = 5
	StdDigits  = 3
)

// Rounded is a statistic in a data file: a value rounded to a number of
// significant digits, written in its shorter notation (null when NaN or
// ±Inf). Make one with RoundMean or RoundStd.
type Rounded float64

// MarshalJSON implements json.Marshaler.
func (n Rounded) MarshalJSON() ([]byte, error) {
	return appendNumber(nil, float64(n), -1), nil
}

// RoundMean and RoundStd are the distribution's mean and standard
// deviation as the data files store them: the generator formats the
// pre-rendered rows from the same values the page's script reads.
func RoundMean(x float64) float64 { return roundDigits(x, MeanDigits) }

// RoundStd: see RoundMean.
func RoundStd(x float64) float64 { return roundDigits(x, StdDigits) }

func roundDigits(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	return f
}

// appendNumber writes x with prec significant digits (-1: the shortest
// that reads back exactly) in the shorter of plain and exponent notation;
// NaN and ±Inf are null.
func appendNumber(dst []byte, x float64, prec int) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(dst, "null"...)
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, x, 'g', prec, 64)
	e := dst[n:]
	if bytes.IndexByte(e, 'e') < 0 {
		return dst
	}
	if prec > 0 {
		x, _ = strconv.ParseFloat(string(e), 64)
	}
	var buf [32]byte
	f := strconv.AppendFloat(buf[:0], x, 'f', -1, 64)
	if len(f) < len(e) {
		return append(dst[:n], f...)
	}
	return dst
}

// Fixed is a formatted number stored as the integer of its digits: "+1.23%"
// is 123, "-0.00%" is -0, "0.548" is 548. Text that is no plain number
// ("<0.001", "n/a") is stored as text. The zero Fixed is null.
type Fixed struct {
	set  bool
	neg  bool // a negative sign, kept for -0
	n    int64
	text string
}

// MarshalJSON implements json.Marshaler.
func (f Fixed) MarshalJSON() ([]byte, error) { return appendFixedValue(nil, f), nil }

// UnmarshalJSON implements json.Unmarshaler, reading what MarshalJSON
// writes.
func (f *Fixed) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*f = Fixed{}
		return nil
	case len(b) > 0 && b[0] == '"':
		var t string
		if err := json.Unmarshal(b, &t); err != nil {
			return err
		}
		*f = Fixed{set: true, text: t}
		return nil
	}
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	*f = Fixed{set: true, neg: neg, n: n}
	return err
}

// appendFixedValue appends f's JSON.
func appendFixedValue(b []byte, f Fixed) []byte {
	switch {
	case !f.set:
		return append(b, "null"...)
	case f.text != "":
		j, _ := json.Marshal(f.text)
		return append(b, j...)
	case f.neg && f.n == 0:
		return append(b, "-0"...)
	case f.neg:
		return strconv.AppendInt(b, -f.n, 10)
	}
	return strconv.AppendInt(b, f.n, 10)
}

// fixedOf turns the text of a formatted number with the given decimals
// (and an optional "+", and a suffix such as "%" or "x") into a Fixed;
// text of another shape is kept as text. "" and "-"/"–" are null.
func fixedOf(text string, decimals int, suffix string) Fixed {
	if text == "" || text == "-" || text == "–" {
		return Fixed{}
	}
	s, ok := strings.CutSuffix(text, suffix)
	if !ok {
		return Fixed{set: true, text: text}
	}
	neg := false
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) != decimals || whole == "" || len(whole) > 15 || !digits(whole) || !digits(frac) {
		return Fixed{set: true, text: text}
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return Fixed{set: true, text: text}
	}
	return Fixed{set: true, neg: neg, n: n}
}

// over is f's number divided by d, as the page's script computes it
// (one IEEE division): 250 over 100 is the factor 2.5 of "2.50x". Text
// and null are 0.
func (f Fixed) over(d float64) float64 {
	if !f.set || f.text != "" {
		return 0
	}
	n := float64(f.n)
	if f.neg {
		n = -n
	}
	return n / d
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// The codes of a row (column k): the magnitude in the low 3 bits, then
// flags and classes.
var (
	magnitudes = []string{"", "very-small", "small", "medium", "large", "very-large"}
	dirs       = []string{"", "regression", "improvement"}
	pClasses   = []string{"", "regression", "improvement", "significant"}
	verdicts   = []string{"", "improved", "regressed", "no change", "within noise"}
	budgets    = []string{"", "pass", "warn", "fail", "skip"}
	// bases of rows with a change; the most common one is 0, so that it
	// adds nothing to the codes (site.js's BASES has the same list).
	bases = []string{string(analysis.BasisPersistence), string(analysis.BasisNoise), string(analysis.BasisYoung),
		string(analysis.BasisHistory), string(analysis.BasisShort), string(analysis.Basis2021)}
	// states of model perfpages' headline (site.js's STATES).
	states = []string{"", string(analysis.StateConfirmed), string(analysis.StateUnconfirmed), string(analysis.StateSpike), string(analysis.StateGradual), string(analysis.StateYoung)}
)

const (
	kHasChange = 1 << 3
	kRelevant  = 1 << 4
	kDodgy     = 1 << 5
	kDirShift  = 6  // 2 bits: dirs
	kZShift    = 8  // 2 bits: dirs (z class)
	kPShift    = 10 // 2 bits: pClasses
	kVerdict   = 12 // 3 bits: verdicts
	kBudget    = 15 // 3 bits: budgets
	kBasis     = 18 // 3 bits: bases (with kHasChange)
	kState     = 21 // 3 bits: states
)

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// codeFields are the enumerated fields of a row, as its cells show them.
type codeFields struct {
	magnitude, dir, zClass, pClass, verdict, budget, budgetText, class, basis, state string
	hasChange, relevant, dodgy                                                       bool
}

// rowCodes packs the enumerated fields of a row, and reports false when a
// value is not one the codes know (the caller then keeps it as text).
func rowCodes(f codeFields) (int, bool) {
	m, d, z, pc, v, b, bs, st := indexOf(magnitudes, f.magnitude), indexOf(dirs, f.dir), indexOf(dirs, f.zClass),
		indexOf(pClasses, f.pClass), indexOf(verdicts, f.verdict), indexOf(budgets, f.budget), 0, indexOf(states, f.state)
	if f.hasChange {
		bs = indexOf(bases, f.basis)
	}
	if m < 0 || d < 0 || z < 0 || pc < 0 || v < 0 || b < 0 || bs < 0 || st < 0 || (f.class != "" && f.class != f.dir) || f.budgetText != f.budget {
		return 0, false
	}
	k := m | d<<kDirShift | z<<kZShift | pc<<kPShift | v<<kVerdict | b<<kBudget | bs<<kBasis | st<<kState
	if f.hasChange {
		k |= kHasChange
	}
	if f.relevant {
		k |= kRelevant
	}
	if f.dodgy {
		k |= kDodgy
	}
	return k, true
}

// cells are what a data file stores of a row besides its values: the
// cells the page's script rebuilds from numbers and codes, and its texts.
// dataCells makes them from an analysis row with the helpers formatRow
// formats a page's rows with (a test checks both say the same).
type cells struct {
	t, f, z, p Fixed
	k          int
	// change is Row.Change when hasChange.
	hasChange bool
	change    float64
	// The texts: the note, the z-score's reason, the test's title, the
	// budget's title, the acknowledgements, a headline's evidence.
	note, zr, pt, bt, ack, ev string
}

// dataCells are the cells of analysis row r in a data file: the cells
// of p.row(r), made without formatting what the data file stores as a
// number (the formatted text is only made where it is no plain number).
func (p *planner) dataCells(r *analysis.Row) cells {
	c := cells{note: r.Note, ack: p.ackNotes(r)}
	f := codeFields{}
	if r.OK {
		c.hasChange, c.change = true, rowChange(r)
		f.hasChange, f.relevant, f.dodgy = true, r.Relevant, r.Dodgy
		f.basis, f.state = string(r.Basis), string(r.Headline.State)
		c.ev = badgeEvidence(r)
		f.magnitude = r.Magnitude.String()
		c.t, c.f = thresholdFixed(r.Threshold), factorFixed(r.Factor)
		f.dir = rowDir(r)
		if r.Relevant {
			f.class = f.dir
		}
	}
	if z := r.Z; z.OK {
		c.z = zFixed(z.Z)
		f.zClass = zClass(z)
	} else if z.Reason != "" {
		c.zr = zReason(z) // the cell is "–": null
	}
	t := r.Test
	if t.OK {
		f.verdict, c.pt, f.pClass = testCell(t)
		c.p = pFixed(t.P)
	} else if t.Reason != "" {
		c.pt = testReason(t) // the cell is "–": null
	}
	if b := r.Budget; b != nil {
		f.budget = string(b.Delta.Status)
		f.budgetText = f.budget
		c.bt = budgetTitle(b)
	}
	k, ok := rowCodes(f)
	if !ok {
		// Something the codes do not know: keep the p-value's text as
		// it is (the script shows text columns verbatim).
		text := ""
		if t.OK {
			text = report.FormatP(t.P)
			if t.Method == analysis.MethodCriterion {
				text += " " + f.verdict
			}
		} else if t.Reason != "" {
			text = "–"
		}
		c.p, k = Fixed{set: text != "", text: text}, 0
	}
	c.k = k
	return c
}

// fixedFast is fixedOf(analysis.FormatFixed(x, decimals), decimals, "")
// for a finite x with |x| < analysis.FixedLimit, without the text; ok is
// false for any other x, or a text fixedOf would keep as text.
func fixedFast(x float64, decimals int) (_ Fixed, ok bool) {
	if !(math.Abs(x) < analysis.FixedLimit) {
		return Fixed{}, false // NaN, ±Inf, the exponent form
	}
	if x == 0 {
		x = 0 // −0, as FormatFixed
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'f', decimals, 64)
	neg := false
	if b[0] == '-' {
		neg, b = true, b[1:]
	}
	whole := bytes.IndexByte(b, '.')
	if whole <= 0 || whole > 15 || len(b)-whole-1 != decimals {
		return Fixed{}, false
	}
	var n int64
	for i, c := range b {
		if i == whole {
			continue
		}
		if c < '0' || c > '9' {
			return Fixed{}, false
		}
		n = n*10 + int64(c-'0')
	}
	return Fixed{set: true, neg: neg, n: n}, true
}

// thresholdFixed is fixedOf(report.FormatThreshold(t), 2, "%").
func thresholdFixed(t float64) Fixed {
	if t == 0 {
		return Fixed{} // "-"
	}
	if math.Abs(t) < analysis.FixedLimit/100 {
		if f, ok := fixedFast(t*100, 2); ok {
			return f
		}
	}
	return fixedOf(report.FormatThreshold(t), 2, "%")
}

// factorFixed is fixedOf(report.FormatFactor(x), 2, "x").
func factorFixed(x float64) Fixed {
	if x == 0 {
		return Fixed{} // "-"
	}
	if f, ok := fixedFast(x, 2); ok {
		return f
	}
	return fixedOf(report.FormatFactor(x), 2, "x")
}

// zFixed is fixedOf(report.FormatZ(z), 2, "").
func zFixed(z float64) Fixed {
	if r := zscore.Round4(z); math.Abs(r) <= report.ZShown {
		// FormatSigned's "+" is dropped by fixedOf.
		if f, ok := fixedFast(r, 2); ok {
			return f
		}
	}
	return fixedOf(report.FormatZ(z), 2, "")
}

// pFixed is the p-value's cell of a test's p-value x: fixedOf of
// report.FormatP(x), with "<0.001" as -1.
func pFixed(x float64) Fixed {
	if x < 0.001 && x > 0 {
		return Fixed{set: true, neg: true, n: 1} // "<0.001"
	}
	if f, ok := fixedFast(x, 3); ok {
		return f
	}
	return fixedOf(report.FormatP(x), 3, "")
}

// seriesPoint is one row of a series at a main-line position, as the data
// files hold it.
type seriesPoint struct {
	series *model.Series
	pos    int
	cells  cells
	value  float64 // NaN: none
	before float64 // NaN: none
	// change is the change from before to value as the page's script
	// computes it from them (Results.RelativeChange), changeOK whether
	// there is one.
	change    float64
	changeOK  bool
	mean, std float64 // NaN: no distribution
	samples   int
	err, ann  string
	rng       string // the tool's range (model.Series.Ranges)
}

// point turns an analysis row at main-line position pos into a data point.
func (p *planner) point(pos int, r *analysis.Row) seriesPoint {
	pt := seriesPoint{series: r.Series, pos: pos, cells: p.dataCells(r), value: math.NaN(), before: math.NaN(), mean: math.NaN(), std: math.NaN()}
	if a := r.After; a != nil {
		if a.OK() {
			pt.value = a.Value
		}
		pt.samples = a.NumSamples()
		pt.err = a.Failure()
		pt.rng = r.Series.Ranges[int(a.Artifact)]
		var notes []string
		for _, an := range p.d.Annotations.For(r.Series, int(a.Artifact)) {
			notes = append(notes, cmp.Or(an.Note, string(an.Kind)))
		}
		pt.ann = strings.Join(notes, "; ")
	}
	if b := r.Before; b != nil && b.OK() {
		pt.before = b.Value
	}
	pt.change, pt.changeOK = p.res.RelativeChange(pt.before, pt.value)
	if _, _, ok := r.Z.Band(); ok {
		// The distribution the head is scored against: the band of the
		// history charts (even where the head has no z-score).
		pt.mean, pt.std = r.Z.Mean, r.Z.Std
	}
	return pt
}

// strtab is a data file's string table.
type strtab struct {
	list []string
	idx  map[string]int
}

func newStrtab() *strtab { return &strtab{list: []string{""}, idx: map[string]int{"": 0}} }

func (t *strtab) id(s string) int {
	if i, ok := t.idx[s]; ok {
		return i
	}
	t.idx[s] = len(t.list)
	t.list = append(t.list, s)
	return len(t.list) - 1
}

// encoder builds the columns of one data file.
type encoder struct {
	str    *strtab
	before bool // rows files: store every row's base value
}

// add appends one row.
func (e *encoder) add(s *Columns, pt *seriesPoint, from int) {
	c := &pt.cells
	s.Pos = append(s.Pos, pt.pos-from)
	s.V = append(s.V, Exact(pt.value))
	if e.before {
		s.B = append(s.B, Exact(pt.before))
	}
	s.T = append(s.T, c.t)
	s.F = append(s.F, c.f)
	s.Mean = append(s.Mean, Rounded(RoundMean(pt.mean)))
	s.Std = append(s.Std, Rounded(RoundStd(pt.std)))
	s.Samples = append(s.Samples, pt.samples)
	s.Z = append(s.Z, c.z)
	s.P = append(s.P, c.p)
	s.K = append(s.K, c.k)
	// The change and the factor are derived from the values and the
	// threshold the way the generator computed them; where that would not
	// give the generator's text, the text is kept.
	co, cv := "", math.NaN()
	if c.hasChange {
		// The same change (bit for bit) prints the same text.
		if ch, cok := pt.change, pt.changeOK; !cok || ch != c.change {
			co, cv = report.FormatChange(c.change), c.change
			if cok && math.IsInf(ch, 0) {
				// A change from 0: the row holds the largest finite
				// change (it sorts first), the page prints "+∞%".
				co = report.FormatChange(ch)
			}
		}
	}
	s.CV = append(s.CV, Exact(cv))
	s.Note = append(s.Note, e.str.id(c.note))
	s.ZR = append(s.ZR, e.str.id(c.zr))
	s.PT = append(s.PT, e.str.id(c.pt))
	s.BT = append(s.BT, e.str.id(c.bt))
	s.Ack = append(s.Ack, e.str.id(c.ack))
	s.Ann = append(s.Ann, e.str.id(pt.ann))
	s.Err = append(s.Err, e.str.id(pt.err))
	s.Rng = append(s.Rng, e.str.id(pt.rng))
	s.CO = append(s.CO, e.str.id(co))
	s.EV = append(s.EV, e.str.id(c.ev))
}

// grow makes room for n more rows in every column that add fills, so that
// a data file's columns are allocated once at their size instead of
// growing by appends (at M that growth allocated 1.4 GB per cold build).
func (s *Columns) grow(n int, before bool) {
	s.Pos, s.V, s.Samples, s.K = slices.Grow(s.Pos, n), slices.Grow(s.V, n), slices.Grow(s.Samples, n), slices.Grow(s.K, n)
	if before {
		s.B = slices.Grow(s.B, n)
	}
	s.T, s.F, s.Z, s.P = slices.Grow(s.T, n), slices.Grow(s.F, n), slices.Grow(s.Z, n), slices.Grow(s.P, n)
	s.Mean, s.Std, s.CV = slices.Grow(s.Mean, n), slices.Grow(s.Std, n), slices.Grow(s.CV, n)
	s.Note, s.ZR, s.PT, s.BT = slices.Grow(s.Note, n), slices.Grow(s.ZR, n), slices.Grow(s.PT, n), slices.Grow(s.BT, n)
	s.Ack, s.Ann, s.Err, s.CO = slices.Grow(s.Ack, n), slices.Grow(s.Ann, n), slices.Grow(s.Err, n), slices.Grow(s.CO, n)
	s.Rng, s.EV = slices.Grow(s.Rng, n), slices.Grow(s.EV, n)
}

// trim drops the columns with nothing in them.
func (s *Columns) trim() {
	if allNaNExact(s.B) {
		s.B = nil
	}
	if allNaNRounded(s.Mean) && allNaNRounded(s.Std) {
		s.Mean, s.Std = nil, nil
	}
	s.T, s.F, s.Z, s.P = trimFixed(s.T), trimFixed(s.F), trimFixed(s.Z), trimFixed(s.P)
	s.CO = trimZero(s.CO)
	if allNaNExact(s.CV) {
		s.CV = nil
	}

	s.Note, s.ZR, s.PT, s.BT = trimZero(s.Note), trimZero(s.ZR), trimZero(s.PT), trimZero(s.BT)
	s.Ack, s.Ann, s.Err, s.Rng = trimZero(s.Ack), trimZero(s.Ann), trimZero(s.Err), trimZero(s.Rng)
	s.EV = trimZero(s.EV)
}

func trimFixed(xs []Fixed) []Fixed {
	for _, x := range xs {
		if x.set {
			return xs
		}
	}
	return nil
}

func allNaNExact(xs []Exact) bool {
	for _, x := range xs {
		if !math.IsNaN(float64(x)) {
			return false
		}
	}
	return true
}

func trimZero[T comparable](xs []T) []T {
	var zero T
	for _, x := range xs {
		if x != zero {
			return xs
		}
	}
	return nil
}

// seriesData gathers the n points of one benchmark into the data file of
// the chunk starting at from. key(i) is point i's series id and
// main-line position; point(i) builds the point. Points are built one at
// a time, in the file's order, and dropped once encoded: all of a
// chunk's points at once were a fifth of the bytes a cold build
// allocated. prev gives, per series id, the value at position from-1.
func seriesData(from, span, n int, key func(i int) (string, int), point func(i int) seriesPoint, prev map[string]float64) SeriesData {
	out := SeriesData{From: from, N: span}
	out.useStore(n)
	e := encoder{str: newStrtab()}
	// Series by id, each series' rows in position order.
	type ref struct{ i, pos int }
	byID := map[string][]ref{}
	for i := range n {
		id, pos := key(i)
		byID[id] = append(byID[id], ref{i, pos})
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	hasPrev := false
	out.Columns.grow(n, e.before)
	for _, id := range ids {
		refs := byID[id]
		slices.SortStableFunc(refs, func(a, b ref) int { return cmp.Compare(a.pos, b.pos) })
		out.IDs = append(out.IDs, id)
		out.Len = append(out.Len, len(refs))
		v, ok := prev[id]
		if !ok {
			v = math.NaN()
		}
		hasPrev = hasPrev || ok
		out.Prev = append(out.Prev, Exact(v))
		for _, r := range refs {
			pt := point(r.i)
			e.add(&out.Columns, &pt, from)
		}
	}
	if !hasPrev {
		out.Prev = nil
	}
	out.keepStore()
	out.Columns.trim()
	out.Strings = e.str.list
	return out
}

// benchFile is a series data file of a benchmark whose chunks are longer
// than the site's (ChunkLen), gathered over the site's chunks it spans:
// each chunk's rows are encoded, as a file of their own with the columns
// that hold something (a third of the bytes of every column), as the
// chunk is emitted, and the file is made from them once its last chunk
// is.
type benchFile struct {
	from, to int // the file's main-line positions
	parts    []filePart
	// old is the previous build's file of the same path and positions,
	// whose rows of the chunks an incremental build keeps are taken as
	// they are (oldRead: it was looked for).
	old     *SeriesData
	oldRead bool
}

// filePart are the rows of d at main-line positions [from, to).
type filePart struct {
	d        *SeriesData
	from, to int
}

func newBenchFile(from, to int) *benchFile { return &benchFile{from: from, to: to} }

// addPart adds the rows of d (positions relative to the file's first)
// at positions [from, to).
func (f *benchFile) addPart(d *SeriesData, from, to int) {
	f.parts = append(f.parts, filePart{d, from, to})
}

// addOld adds the rows of the previous build's file at positions
// [from, to).
func (f *benchFile) addOld(from, to int) { f.addPart(f.old, from, to) }

// compact gives d's columns their own storage of their length and the
// pooled storage back: a part of a benchFile waits for the file's last
// chunk.
func (d *SeriesData) compact() {
	c := &d.Columns
	*c = Columns{Pos: slices.Clone(c.Pos), V: slices.Clone(c.V), B: slices.Clone(c.B), T: slices.Clone(c.T), F: slices.Clone(c.F),
		Mean: slices.Clone(c.Mean), Std: slices.Clone(c.Std), Samples: slices.Clone(c.Samples), Z: slices.Clone(c.Z), P: slices.Clone(c.P),
		K: slices.Clone(c.K), Note: slices.Clone(c.Note), ZR: slices.Clone(c.ZR), PT: slices.Clone(c.PT), BT: slices.Clone(c.BT),
		Ack: slices.Clone(c.Ack), Ann: slices.Clone(c.Ann), Err: slices.Clone(c.Err), Rng: slices.Clone(c.Rng), CO: slices.Clone(c.CO),
		EV: slices.Clone(c.EV), CV: slices.Clone(c.CV)}
	d.Release()
	d.store = nil
}

// fileSeries are the rows of one series of a benchFile, every column.
type fileSeries struct{ cols Columns }

// merge adds the rows of part p to the series' columns, its strings to
// t (a column the part left out holds its empty value).
func (p filePart) merge(series map[string]*fileSeries, t *strtab, from int) {
	o := p.d
	str := func(col []int, g int) string {
		if col == nil || col[g] < 0 || col[g] >= len(o.Strings) {
			return ""
		}
		return o.Strings[col[g]]
	}
	fixed := func(col []Fixed, g int) Fixed {
		if col == nil {
			return Fixed{}
		}
		return col[g]
	}
	exact := func(col []Exact, g int) Exact {
		if col == nil {
			return Exact(math.NaN())
		}
		return col[g]
	}
	rounded := func(col []Rounded, g int) Rounded {
		if col == nil {
			return Rounded(math.NaN())
		}
		return col[g]
	}
	start := 0
	for si, id := range o.IDs {
		n := o.Len[si]
		for g := start; g < start+n; g++ {
			pos := o.From + o.Pos[g]
			if pos < p.from || pos >= p.to {
				continue
			}
			fs := series[id]
			if fs == nil {
				fs = &fileSeries{}
				series[id] = fs
			}
			if g == start || len(fs.cols.Pos) == cap(fs.cols.Pos) {
				// Room for the rest of the part's rows at once: one
				// growth per column, not one per doubling.
				fs.cols.grow(start+n-g, false)
			}
			c := &fs.cols
			c.Pos = append(c.Pos, pos-from)
			c.V = append(c.V, exact(o.V, g))
			c.T, c.F = append(c.T, fixed(o.T, g)), append(c.F, fixed(o.F, g))
			c.Mean, c.Std = append(c.Mean, rounded(o.Mean, g)), append(c.Std, rounded(o.Std, g))
			c.Samples = append(c.Samples, o.Samples[g])
			c.Z, c.P = append(c.Z, fixed(o.Z, g)), append(c.P, fixed(o.P, g))
			c.K = append(c.K, o.K[g])
			c.CV = append(c.CV, exact(o.CV, g))
			c.Note, c.ZR = append(c.Note, t.id(str(o.Note, g))), append(c.ZR, t.id(str(o.ZR, g)))
			c.PT, c.BT = append(c.PT, t.id(str(o.PT, g))), append(c.BT, t.id(str(o.BT, g)))
			c.Ack, c.Ann = append(c.Ack, t.id(str(o.Ack, g))), append(c.Ann, t.id(str(o.Ann, g)))
			c.Err, c.Rng = append(c.Err, t.id(str(o.Err, g))), append(c.Rng, t.id(str(o.Rng, g)))
			c.CO, c.EV = append(c.CO, t.id(str(o.CO, g))), append(c.EV, t.id(str(o.EV, g)))
		}
		start += n
	}
}

// data is the file: its series by id, as seriesData writes them, with
// each series' value at position from-1 (at is the main-line artifact
// there, -1 for none; seriesOf finds a series by id, nil for none).
func (f *benchFile) data(at int, seriesOf func(id string) *model.Series) SeriesData {
	out := SeriesData{From: f.from, N: f.to - f.from}
	series, t := map[string]*fileSeries{}, newStrtab()
	for _, p := range f.parts {
		p.merge(series, t, f.from)
	}
	f.parts = nil
	ids := make([]string, 0, len(series))
	n := 0
	for id, fs := range series {
		ids = append(ids, id)
		n += len(fs.cols.Pos)
	}
	slices.Sort(ids)
	out.useStore(n)
	out.Columns.grow(n, false)
	hasPrev := false
	for _, id := range ids {
		fs := series[id]
		out.IDs = append(out.IDs, id)
		out.Len = append(out.Len, len(fs.cols.Pos))
		v := math.NaN()
		if s := seriesOf(id); at >= 0 && s != nil {
			if pt := s.At(at); pt != nil && pt.OK() {
				v, hasPrev = pt.Value, true
			}
		}
		out.Prev = append(out.Prev, Exact(v))
		out.Columns.appendAll(&fs.cols)
	}
	if !hasPrev {
		out.Prev = nil
	}
	out.Strings = out.Columns.renumber(t.list)
	out.keepStore()
	out.Columns.trim()
	return out
}

// renumber numbers the strings of the columns' rows, whose indices are
// into list, in the order the rows use them (as seriesData's encoder
// does for a file's rows in one pass, so that a file gathered over
// several chunks has the same bytes), and returns the new table.
func (s *Columns) renumber(list []string) []string {
	t := newStrtab()
	cols := [...][]int{s.Note, s.ZR, s.PT, s.BT, s.Ack, s.Ann, s.Err, s.Rng, s.CO, s.EV} // add's order
	for g := range s.Pos {
		for _, c := range cols {
			c[g] = t.id(list[c[g]])
		}
	}
	return t.list
}

// appendAll appends the rows of c, every column of them (c is not
// trimmed).
func (s *Columns) appendAll(c *Columns) {
	s.Pos, s.V, s.B = append(s.Pos, c.Pos...), append(s.V, c.V...), append(s.B, c.B...)
	s.T, s.F, s.Z, s.P = append(s.T, c.T...), append(s.F, c.F...), append(s.Z, c.Z...), append(s.P, c.P...)
	s.Mean, s.Std, s.Samples, s.K = append(s.Mean, c.Mean...), append(s.Std, c.Std...), append(s.Samples, c.Samples...), append(s.K, c.K...)
	s.Note, s.ZR, s.PT, s.BT = append(s.Note, c.Note...), append(s.ZR, c.ZR...), append(s.PT, c.PT...), append(s.BT, c.BT...)
	s.Ack, s.Ann, s.Err, s.Rng = append(s.Ack, c.Ack...), append(s.Ann, c.Ann...), append(s.Err, c.Err...), append(s.Rng, c.Rng...)
	s.CO, s.EV, s.CV = append(s.CO, c.CO...), append(s.EV, c.EV...), append(s.CV, c.CV...)
}

// rowsData encodes the rows of a comparison that is not between
// consecutive main-line commits: every row at position 0, with its base,
// each its own series.
func (p *planner) rowsData(points []seriesPoint) SeriesData {
	out := SeriesData{N: 1}
	out.useStore(len(points))
	e := encoder{str: newStrtab(), before: true}
	benches := map[string]int{}
	out.Columns.grow(len(points), e.before)
	for i := range points {
		s := points[i].series
		seg := p.routes.BenchSegment(s.Case.Benchmark)
		b, ok := benches[seg]
		if !ok {
			b = len(out.Benches)
			benches[seg] = b
			out.Benches = append(out.Benches, seg)
		}
		out.IDs = append(out.IDs, seriesID(s.Key))
		out.Len = append(out.Len, 1)
		out.Bench = append(out.Bench, b)
		e.add(&out.Columns, &points[i], points[i].pos)
	}
	out.keepStore()
	out.Columns.trim()
	out.Strings = e.str.list
	return out
}

func allNaNRounded(xs []Rounded) bool {
	for _, x := range xs {
		if !math.IsNaN(float64(x)) {
			return false
		}
	}
	return true
}

// ArtifactData is one data/artifacts/<chunk>.json: the main-line artifacts
// at positions [From, From+len(IDs)), for chart axes, tooltips and links.
type ArtifactData struct {
	From   int      `json:"from"`
	IDs    []string `json:"id"`
	Labels []string `json:"label"`
	Titles []string `json:"title"`
	// Dates are Unix milliseconds, DateTexts the dates as pages show them.
	Dates     []int64  `json:"date"`
	DateTexts []string `json:"date_text"`
	// URLs are the commit pages, site-relative.
	URLs []string `json:"url"`
	// Benches are the benchmarks (path segments, sorted) with a series
	// data file for this chunk: where a commit page's script finds the
	// rows it did not pre-render.
	Benches []string `json:"benches"`
}

func (p *planner) artifactData(from, to int, benches []string) ArtifactData {
	out := ArtifactData{From: from, Benches: benches}
	for pos := from; pos < to; pos++ {
		a := p.d.Artifacts[p.d.MainLine[pos]]
		out.IDs = append(out.IDs, a.ID)
		out.Labels = append(out.Labels, a.Label())
		out.Titles = append(out.Titles, a.Title)
		out.Dates = append(out.Dates, a.Date.UnixMilli())
		out.DateTexts = append(out.DateTexts, a.Date.UTC().Format("2006-01-02 15:04 UTC"))
		out.URLs = append(out.URLs, p.routes.Commit(a.ID))
	}
	return out
}

// Meta is data/meta.json: what the data files cover, for scripts that
// read them (the bench pages find their chunks from it).
type Meta struct {
	Positions int       `json:"positions"`
	Chunk     int       `json:"chunk"`
	Built     time.Time `json:"latest"` // the date of the latest main-line commit
}
