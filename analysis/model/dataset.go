package model

import (
	"cmp"
	"container/heap"
	"fmt"
	"io"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// SeriesKey identifies a series: one test case × metric on one machine in
// one context. Its fields are canonical strings so that keys compare and
// sort without looking inside maps.
type SeriesKey struct {
	Machine   string
	Context   string // Params.String() of the context
	Benchmark string
	Params    string // Params.String() of the test case's parameters
	Metric    string
}

// String is the key in one line, "benchmark [params] metric on machine
// [context]": unique per series, stable across builds (it seeds the
// Criterion bootstrap).
func (k SeriesKey) String() string {
	var b strings.Builder
	b.WriteString(k.Benchmark)
	if k.Params != "" {
		b.WriteString(" [" + k.Params + "]")
	}
	b.WriteString(" " + k.Metric + " on " + k.Machine)
	if k.Context != "" {
		b.WriteString(" [" + k.Context + "]")
	}
	return b.String()
}

// Compare orders keys by benchmark, parameters, metric, machine, context:
// the order in which pages list test cases.
func (k SeriesKey) Compare(o SeriesKey) int {
	return cmp.Or(
		strings.Compare(k.Benchmark, o.Benchmark),
		strings.Compare(k.Params, o.Params),
		strings.Compare(k.Metric, o.Metric),
		strings.Compare(k.Machine, o.Machine),
		strings.Compare(k.Context, o.Context),
	)
}

// Point is one artifact's result in a series.
//
// A dataset holds every point of every series in memory (two million at
// M, fifty million at L), so a point is 24 bytes: its samples are a
// reference into memory shared by many points (see [Point.Samples]), what
// few points have (Failure, Iters, Summary) is out of line, reached
// through a source of samples of the point's own, the artifact's index is
// 32 bits (a dataset has far fewer than 2³¹ artifacts: each costs a file
// or a run), and where its samples are in their source and whether it has
// a value share 32 bits (ref). At 32 bytes, the points were 64 MB of the
// 150 MB a cold build at M holds.
type Point struct {
	// Value is the single value of the samples by the dataset's rule; it is
	// meaningful only when OK.
	Value    float64
	src      *sampleSrc // where the samples are, and the rare values
	Artifact int32      // index into Dataset.Artifacts
	ref      uint32     // OK, rare, and where in src the samples are (sampleRef)
}

// OK reports whether the point has a value: no error and at least one
// sample.
func (p *Point) OK() bool { return p.ref&okBit != 0 }

// SetValue sets the point's Value and OK.
func (p *Point) SetValue(v float64, ok bool) {
	p.Value = v
	p.ref &^= okBit
	if ok {
		p.ref |= okBit
	}
}

// rarePoint is what few points have.
type rarePoint struct {
	failure string
	iters   []float64
	summary *SampleSummary
}

// rare is what few points have, nil for almost every point. The point's
// rare bit says whether it has them, so that asking (Failure, on every
// point a page or a comparison reads) does not load the source: a cold
// build at L asked fifty million points in commit order, each source
// elsewhere in memory, and spent 45 of its 720 CPU-s waiting for them.
func (p *Point) rare() *rarePoint {
	if p.ref&rareBit == 0 {
		return nil
	}
	return p.src.rare
}

// setSrc makes s the point's source, its rare bit saying whether s has
// rare values: every write of src goes through it.
func (p *Point) setSrc(s *sampleSrc) {
	p.src = s
	p.ref &^= rareBit
	if s != nil && s.rare != nil {
		p.ref |= rareBit
	}
}

// setRareValue makes r the point's rare values. A point's rare values are
// those of the source of its samples, so a point that has them has a
// source of its own: a copy of the shared one's header (its samples stay
// where they are) with r. Neither is ever changed after: copies of a point
// share them.
func (p *Point) setRareValue(r *rarePoint) {
	src := p.src
	if r == nil && (src == nil || src.rare == nil) {
		return
	}
	own := &sampleSrc{rare: r}
	if src != nil {
		own.base, own.at = src.root()
		own.n = src.n
	}
	p.setSrc(own)
}

func (p *Point) setRare(iters []float64, summary *SampleSummary) {
	var r *rarePoint
	if failure := p.Failure(); len(iters) > 0 || summary != nil || failure != "" {
		r = &rarePoint{failure, iters, summary}
	}
	p.setRareValue(r)
}

// Failure is the error the point's result reports (Result.Error), "" for
// almost every point.
func (p *Point) Failure() string {
	if r := p.rare(); r != nil {
		return r.failure
	}
	return ""
}

// SetFailure sets the point's Failure.
func (p *Point) SetFailure(msg string) {
	switch r := p.rare(); {
	case r != nil:
		c := *r // a copy: rare values are shared by copies of the point
		c.failure = msg
		p.setRareValue(&c)
	case msg != "":
		p.setRareValue(&rarePoint{failure: msg})
	}
}

// sampleRef is where a point's samples are: n of them at off in src's
// decoded floats, or encoded (floatcodec.go) at byte off of src's bytes.
// A point holds it in 12 bytes (its src and 31 bits of its ref) where a
// slice is 24, and it lets a resumed dataset keep its history's samples
// as the checkpoint encodes them: at M they are 80 MB as float64s and
// about a third of that encoded, and a nightly build reads the samples of
// a few points per series (its new comparisons'), not of all.
//
// A point's ref holds OK in its top bit, whether src has rare values in
// the bit below (rareBit), n in the 10 bits below (nInSrc: n is src.n)
// and off in the 20 bits below those. A point whose samples
// are further into their source than maxOff, or more than maxInlineN,
// gets a source of its own that starts at them and knows their number
// (setSamples): a builder's slabs are 512 KiB, a resumed chunk's
// sources are cut every maxOff bytes (resumeChunk), and a point of over
// a thousand samples is rare.
type sampleRef struct {
	src *sampleSrc
	off uint32
	n   uint32
}

const (
	okBit      = 1 << 31
	rareBit    = 1 << 30
	nShift     = 20
	nInSrc     = 1<<10 - 1 // the n field's value when src.n is n
	maxInlineN = nInSrc - 1
	maxOff     = 1<<nShift - 1
)

// samples is where the point's samples are.
func (p *Point) samples() sampleRef {
	n := p.ref >> nShift & nInSrc
	if n == nInSrc {
		n = uint32(p.src.n)
	}
	return sampleRef{p.src, p.ref & maxOff, n}
}

// setSamples makes r where the point's samples are (r.src has no rare
// values, or is the point's own), keeping its OK.
func (p *Point) setSamples(r sampleRef) {
	p.ref &= okBit
	if r.n == 0 {
		p.setSrc(r.src) // nil, or the point's own with its rare values
		return
	}
	if r.off > maxOff || r.n > maxInlineN {
		r = sampleRef{r.src.slice(r.off, r.n), 0, nInSrc}
	}
	p.setSrc(r.src)
	p.ref |= r.n<<nShift | r.off
}

// sampleSrc is memory that points' samples refer to: decoded floats (a
// point's own), or encoded groups (floatcodec.go) in memory (enc: a
// builder's slab or block, a checkpoint chunk's floats part) or in a
// file (seg: lazyfloats.go), which are the bytes a builder wrote (their
// segments' CRC-32Cs are those the checkpoint lists, checked when they
// are read), so decoding them does not fail. What a point
// refers to is never written again (a slab is appended to past it, a
// block is moved to a file whole). A source shared by many points has no
// rare values; a point with rare values has a source of its own
// (setRareValue) that refers to the shared one (base, from at on: a byte
// offset of encoded groups, an index of decoded floats) rather than
// copying where it is, so that a block moved to a file takes every point
// with it.
type sampleSrc struct {
	dec  []float64
	enc  []byte
	seg  *segment
	base *sampleSrc
	at   int
	rare *rarePoint
	n    int // the number of samples, for a point whose ref says nInSrc
}

// root is the source that holds s's samples (s, or its base) and where
// they begin in it.
func (s *sampleSrc) root() (*sampleSrc, int) {
	if s.base != nil {
		return s.base, s.at
	}
	return s, 0
}

// encoded reports whether the source's samples are encoded groups.
func (s *sampleSrc) encoded() bool {
	r, _ := s.root()
	return r.enc != nil || r.seg != nil
}

// bytes are the source's encoded groups (encoded is true), read from the
// file if they are in one.
func (s *sampleSrc) bytes() []byte {
	r, at := s.root()
	if r.seg != nil {
		return r.seg.bytes()[at:]
	}
	return r.enc[at:]
}

// floats are the source's decoded floats (encoded is false).
func (s *sampleSrc) floats() []float64 {
	r, at := s.root()
	return r.dec[at:]
}

// slice is a source of the n samples at byte off of s's encoded groups or
// at index off of its decoded floats.
func (s *sampleSrc) slice(off, n uint32) *sampleSrc {
	base, at := s.root()
	return &sampleSrc{rare: s.rare, n: int(n), base: base, at: at + int(off)}
}

// Samples are the point's samples, in the order the result listed them;
// the caller must not modify them. Samples held encoded (those of every
// point a builder made or resumed) are decoded into new memory on each
// call: a caller that reads them in a loop uses [Point.SamplesTo].
func (p *Point) Samples() []float64 {
	if r := p.samples(); r.n > 0 && !r.src.encoded() {
		return r.src.floats()[r.off : r.off+r.n : r.off+r.n]
	}
	return p.SamplesTo(nil)
}

// SamplesTo is [Point.Samples] in buf's memory when it is large enough
// (new memory when not): encoded samples are decoded into it and decoded
// ones copied, so the result never shares the point's memory and a
// caller may reuse it as the next call's buffer.
func (p *Point) SamplesTo(buf []float64) []float64 {
	r := p.samples()
	if r.n == 0 {
		return buf[:0]
	}
	out := slices.Grow(buf[:0], int(r.n))[:r.n]
	if !r.src.encoded() {
		copy(out, r.src.floats()[r.off:r.off+r.n])
		return out
	}
	if _, ok := readFloats(r.src.bytes()[r.off:], out); !ok {
		// Their segment's sum is the one listed when it was written.
		panic("model: encoded samples that were checked do not decode")
	}
	return out
}

// NumSamples is len(p.Samples()), without decoding them.
func (p *Point) NumSamples() int { return int(p.samples().n) }

// SetSamples makes xs the point's samples (not a copy: xs must not be
// modified after); its rare values stay.
func (p *Point) SetSamples(xs []float64) {
	if len(xs) > math.MaxUint32 {
		panic("model: more than 2³² samples in one point")
	}
	r := p.rare()
	if len(xs) == 0 && r == nil {
		p.setSamples(sampleRef{})
		return
	}
	p.setSamples(sampleRef{src: &sampleSrc{dec: xs, rare: r}, n: uint32(len(xs))})
}

// zeroSamples backs SetZeroSamples: points of up to 256 samples share it.
var zeroSamples = &sampleSrc{dec: make([]float64, 256)}

// SetZeroSamples gives the point n samples of value 0, in memory shared by
// every such point: for a point of which only the number of samples is
// known (a merged site's, whose shards ran the statistics).
func (p *Point) SetZeroSamples(n int) {
	if n > len(zeroSamples.dec) {
		p.SetSamples(make([]float64, n))
		return
	}
	r := p.rare()
	p.setSamples(sampleRef{src: zeroSamples, n: uint32(max(n, 0))})
	p.setRareValue(r)
}

// Iters are the point's per-sample iteration counts (Result.Iters), nil
// for almost every point.
func (p *Point) Iters() []float64 {
	if r := p.rare(); r != nil {
		return r.iters
	}
	return nil
}

// Summary is the result's summary statistics (Result.Summary), nil for
// almost every point.
func (p *Point) Summary() *SampleSummary {
	if r := p.rare(); r != nil {
		return r.summary
	}
	return nil
}

// Series is every result of one (machine, context, test case, metric),
// ordered by artifact.
type Series struct {
	Key     SeriesKey
	Case    TestCase
	Context Params
	Metric  Metric
	Points  []Point // sorted by Artifact
	// Origin names the archive the series was first read from, for
	// messages about it.
	Origin string
	// Value is the single-value rule its points were reduced with: the
	// dataset's, with Auto resolved for the metric ([ValueKind.For]).
	Value ValueKind
	// Ranges are the ranges the tool printed beside its values
	// (Result.Range), by artifact index; nil for a series without any.
	// They are shown, never computed with.
	Ranges map[int]string
}

// At returns the point of artifact index a, or nil.
func (s *Series) At(a int) *Point {
	i, ok := slices.BinarySearchFunc(s.Points, a, func(p Point, a int) int { return cmp.Compare(int(p.Artifact), a) })
	if !ok {
		return nil
	}
	return &s.Points[i]
}

// Dataset is everything the site is built from: artifacts in order, the
// main line, machines and series.
type Dataset struct {
	Artifacts []Artifact // sorted by (date, id)
	Machines  []Machine  // sorted by name
	Series    []*Series  // sorted by key
	// MainLine holds the indices of main-line artifacts, oldest first: the
	// first-parent chain of the project's branch when its history is known,
	// else the commits of the main branch by date, each after its first
	// parent when that is on the main line too (see parentsFirst).
	MainLine []int
	// Warnings are problems that did not stop the build: conflicting
	// metadata, duplicate results, artifacts without a date.
	Warnings []error
	// Notes are things worth knowing that are not problems, so that a
	// strict build does not fail on them: artifacts naming a PR that has
	// no page; the caller adds its own (a newer version of a file on a
	// results branch correcting results of an older one, see
	// [FileVersions]). Sorted.
	Notes []string
	// Value is the single-value rule the dataset was built with; each
	// series says what it resolved to ([Series.Value]).
	Value ValueKind
	// Annotations are the distribution changes and acknowledged changes
	// of annotations.yaml (see [Dataset.Annotate]); nil when there are
	// none.
	Annotations *Annotations

	byID    map[string]int
	mainPos []int    // artifact index → position in MainLine, or -1
	origins []string // artifact index → the archive its metadata came from
}

// ArtifactOrigin names the archive artifact a's metadata came from, "" if
// unknown.
func (d *Dataset) ArtifactOrigin(a int) string {
	if a < 0 || a >= len(d.origins) {
		return ""
	}
	return d.origins[a]
}

// Index returns the index of the artifact with this id.
func (d *Dataset) Index(id string) (int, bool) {
	i, ok := d.byID[id]
	return i, ok
}

// MainPos returns the position of artifact a on the main line, or -1.
func (d *Dataset) MainPos(a int) int {
	if a < 0 || a >= len(d.mainPos) {
		return -1
	}
	return d.mainPos[a]
}

// Previous returns the main-line artifact before a (its baseline on a
// commit page) and whether there is one.
func (d *Dataset) Previous(a int) (int, bool) {
	p := d.MainPos(a)
	if p <= 0 {
		return -1, false
	}
	return d.MainLine[p-1], true
}

// Contiguous reports whether b's first parent is a, i.e. nothing untested
// lies between them.
func (d *Dataset) Contiguous(a, b int) bool {
	pa := d.Artifacts[b].Parents
	return len(pa) > 0 && pa[0] == d.Artifacts[a].ID
}

// Resolve finds an artifact by full id, unique id prefix (at least 4
// characters) or "pr/<n>" (the PR's main-line commit, else its latest try
// run).
func (d *Dataset) Resolve(ref string) (int, error) {
	if i, ok := d.byID[ref]; ok {
		return i, nil
	}
	if n, ok := strings.CutPrefix(ref, "pr/"); ok {
		var pr int
		if _, err := fmt.Sscanf(n, "%d", &pr); err != nil || pr <= 0 || fmt.Sprint(pr) != n {
			return -1, fmt.Errorf("%q is not a PR reference (want pr/<number>)", ref)
		}
		if a, ok := d.PRHead(pr); ok {
			return a, nil
		}
		return -1, fmt.Errorf("no results for PR #%d", pr)
	}
	if len(ref) < 4 {
		return -1, fmt.Errorf("unknown artifact %q (a prefix needs at least 4 characters)", ref)
	}
	found := -1
	for i, a := range d.Artifacts {
		if strings.HasPrefix(a.ID, ref) {
			if found >= 0 {
				return -1, fmt.Errorf("artifact prefix %q is ambiguous: %s, %s", ref, d.Artifacts[found].ID, a.ID)
			}
			found = i
		}
	}
	if found < 0 {
		return -1, fmt.Errorf("unknown artifact %q", ref)
	}
	return found, nil
}

// PRHead returns the artifact that stands for PR n: its main-line commit
// when merged, else its most recent try run.
func (d *Dataset) PRHead(n int) (int, bool) {
	head := -1
	for _, a := range d.MainLine {
		if d.Artifacts[a].PR == n {
			head = a
		}
	}
	if head >= 0 {
		return head, true
	}
	for i, a := range d.Artifacts {
		if a.PR == n && a.Kind == KindTry {
			head = i
		}
	}
	return head, head >= 0
}

// PRBase returns the baseline of the artifact that stands for a PR: the
// try run's baseline, else the main-line predecessor.
func (d *Dataset) PRBase(head int) (int, bool) {
	a := d.Artifacts[head]
	if a.Kind == KindTry && a.Baseline != "" {
		if i, ok := d.byID[a.Baseline]; ok {
			return i, true
		}
		return -1, false
	}
	return d.Previous(head)
}

// PRs returns the PR numbers that have a head ([Dataset.PRHead]: a
// main-line commit or a try run), ascending: the PRs that get a page. An
// artifact that names a PR but is neither (a commit off the main line,
// such as a merge into another branch) stands for no PR; Dataset notes
// how many there are ([Dataset.Notes]).
func (d *Dataset) PRs() []int {
	seen := map[int]bool{}
	var prs []int
	for i, a := range d.Artifacts {
		if a.PR > 0 && !seen[a.PR] && (a.Kind == KindTry || d.MainPos(i) >= 0) {
			seen[a.PR] = true
			prs = append(prs, a.PR)
		}
	}
	slices.Sort(prs)
	return prs
}

// headlessPRs is the note on artifacts that name a PR but stand for none
// (see PRs); "" when there are none.
func (d *Dataset) headlessPRs() string {
	heads := map[int]bool{}
	for _, pr := range d.PRs() {
		heads[pr] = true
	}
	n, example := 0, ""
	for _, a := range d.Artifacts {
		if a.PR > 0 && !heads[a.PR] {
			n++
			if example == "" {
				example = fmt.Sprintf("%s names #%d", a.Short(), a.PR)
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("artifacts naming a PR that no main-line commit or try run names get no PR page (they are off the main line): %d (e.g. %s)", n, example)
}

// MainLineValues returns series s's values along the main line, one per
// position, NaN where it has no value (no result, or a failed one).
func (d *Dataset) MainLineValues(s *Series) []float64 {
	return d.MainLineValuesTo(nil, s)
}

// MainLineValuesTo is MainLineValues into buf's memory when it is large
// enough (a caller that goes through every series reuses one buffer).
func (d *Dataset) MainLineValuesTo(buf []float64, s *Series) []float64 {
	vals := slices.Grow(buf[:0], len(d.MainLine))[:len(d.MainLine)]
	for i := range vals {
		vals[i] = math.NaN()
	}
	for _, p := range s.Points {
		if pos := d.MainPos(int(p.Artifact)); pos >= 0 && p.OK() {
			vals[pos] = p.Value
		}
	}
	return vals
}

// SeriesByKey returns the series with key k.
func (d *Dataset) SeriesByKey(k SeriesKey) (*Series, bool) {
	i, ok := slices.BinarySearchFunc(d.Series, k, func(s *Series, k SeriesKey) int { return s.Key.Compare(k) })
	if !ok {
		return nil, false
	}
	return d.Series[i], true
}

// BuildOptions says how runs become a dataset.
type BuildOptions struct {
	// Value is the single-value rule; empty is Auto, the product's
	// default (filled in here, by NewBuilder, and nowhere else).
	Value ValueKind
	// Metrics overrides the unit, direction and noise class of metrics by
	// name; fields left empty keep the defaults of DefaultMetric.
	Metrics map[string]Metric
	// UnitMetrics override the direction and noise class of a metric's
	// series in one unit (Name and Unit say which), for a metric whose
	// series come in several units (asv's track_ benchmarks: gflopss
	// beside runtime (s)); fields left empty take Metrics'.
	UnitMetrics []Metric
	// MainBranch names the main line's branch. When empty, the branch most
	// commit artifacts carry is used ("main" on a tie or when none has one).
	MainBranch string
	// History is the project's first-parent chain, oldest first, when its
	// repository is configured: it supplies order, parents, dates, titles
	// and PR numbers, and defines the main line.
	History []Artifact
	// Other holds commits of the project that are not on the main line
	// (PR branches), used to fill in metadata of try runs.
	Other []Artifact
	// SeriesSizes, when known, is each series' number of points in the
	// previous build (a nightly build adds a commit or two): a series
	// with a size gets its points in one array of about that size, which
	// becomes Series.Points in place, instead of chunks joined by a copy.
	// It changes no result, only where the points are kept, so it is not
	// part of the options' key (no JSON).
	SeriesSizes map[SeriesKey]int `json:"-"`
	// Spill, when not nil, is a file the builder moves its points' samples
	// to as it adds them: each series' are encoded into a block of its
	// own, and a block of lazySegment bytes is written to Spill and left
	// there, read again when asked for (lazyfloats.go). A cold build's
	// samples (at L, 0.8 GB encoded) then stay out of memory while its
	// archives are added, where they were most of what it held beside the
	// points. It changes no result (no JSON).
	Spill SpillFile `json:"-"`
	// Keep, when not nil, is the benchmarks whose points the dataset
	// holds: a shard of a sharded build holds its own benchmarks'. The
	// results of other benchmarks are dropped as runs are added, but
	// their series are still made and settled as without Keep (units,
	// origins, duplicates with another value: the same warnings), and are
	// in Dataset.Series without points. The dataset's artifacts, main
	// line, machines, warnings and notes are the same as without Keep,
	// and so is every held series. Its rule is part of a state's options
	// (WriteStateLeaving), not of their JSON.
	Keep Keep `json:"-"`
	// Machines pools machines: a run whose machine's name matches a
	// rule's Match (the first rule that does) is read as a run of the
	// rule's machine (see MachineRule).
	Machines []MachineRule `json:"machines,omitempty"`
}

// MachineRule pools the runs of every machine whose name matches Match —
// the name itself, or a pattern of path.Match ("fv-az*") — into one
// machine, Name: CI runners that get a new host name every run (asv names
// a machine after its host unless told otherwise, and a GitHub-hosted
// runner is a new virtual machine each time) are one machine to compare
// across, whose noise the headline's model learns as it does any
// two-level runner's. The runners' own names and descriptions are not
// kept, as they differ from run to run: the pooled machine's description
// is the label runners, the Match of every rule of that Name in order,
// separated by spaces. A commit run on two runners of a pool is a
// duplicate as any other (the first run's results are kept, merge.go),
// but an expected one: the dataset notes how many there were, per
// machine, and warns of none.
type MachineRule struct {
	Match string `json:"match"`
	Name  string `json:"name"`
}

// pool returns the machine m's run is read as: the first rule that
// matches its name makes it its pooled machine (true); otherwise m.
func (o *BuildOptions) pool(m Machine) (Machine, bool) {
	for _, r := range o.Machines {
		if ok, _ := path.Match(r.Match, m.Name); ok || r.Match == m.Name {
			return Machine{Name: r.Name, Labels: Params{{Key: "runners", Value: o.runners(r.Name)}}}, true
		}
	}
	return m, false
}

// runners are the patterns of the rules that pool into machine name.
func (o *BuildOptions) runners(name string) string {
	var matches []string
	for _, r := range o.Machines {
		if r.Name == name && !slices.Contains(matches, r.Match) {
			matches = append(matches, r.Match)
		}
	}
	return strings.Join(matches, " ")
}

// SpillFile is where a builder moves samples (BuildOptions.Spill): an
// *os.File of its own.
type SpillFile interface {
	io.ReaderAt
	io.WriterAt
}

// Keep is a rule on benchmark names (BuildOptions.Keep).
type Keep interface {
	// Holds reports whether the dataset holds the points of the
	// benchmark named name.
	Holds(name string) bool
	// String names the rule: a state written with one rule resumes only
	// with the same.
	String() string
}

// Builder gathers runs into a Dataset.
type Builder struct {
	opts     BuildOptions
	runs     []runSource                // every run added, in order
	claims   map[string][]artifactClaim // artifact id → what runs say of it
	origin   map[string]string          // artifact id → the first run's origin
	machines map[string]Machine
	series   map[SeriesKey]*seriesBuild
	// shapes remember, per machine and context, the series of the last
	// run's results in order: the next run of that machine usually lists
	// the same test cases in the same order, and then finds its series
	// without building and hashing their keys.
	shapes   map[string][]shapeEntry
	warnings []posWarning
	dups     map[[2]string]*dupGroup // duplicates not warned of yet (merge.go)
	ids      map[string]int          // artifact id → pending number
	order    []string                // pending number → artifact id
	firstPos []int                   // pending number → position of its first run
	// pooled are the machines pooled by a rule (BuildOptions.Machines),
	// with how many duplicate results their runners gave (merge.go).
	pooled map[string]int
	// pos is the position of the run being added, lastPos the largest
	// position added so far (see AddAt), maxPos the largest of a
	// resumed builder's checkpoint.
	pos, lastPos, maxPos int
	// resumed is set for a builder made by ResumeBuilderFrom (checkpoint.go).
	resumed *resumeState
	// slab is where a builder with Keep copies the iteration counts of
	// the points it adds (own), filled up to its capacity and then
	// replaced by one of twice that, up to 64 Ki floats.
	slab []float64
	// encSlab is where the samples of the points it adds are encoded
	// (encodeSamples), filled and replaced alike up to 512 KiB, without
	// Spill.
	encSlab *sampleSrc
	// spilled is how many bytes were written to Spill.
	spilled int64
}

// posWarning is a warning and the position of the run it came from:
// Dataset lists warnings in position order, which is the order they were
// found in unless the builder was resumed.
type posWarning struct {
	pos int
	err error
}

// seriesBuild is a series while runs are added: which run each point's
// result came from, and where each artifact's point is.
//
// Points are appended as runs arrive; while every new point's artifact
// (pending number) is larger than all before it — the usual case, runs
// read in order — a result cannot be a duplicate and no index is needed.
// The first result that breaks the order builds the index, which is kept
// from then on.
type seriesBuild struct {
	s *Series
	// pts are the points so far in chunks of pointChunk (the first grows
	// up to that by append): appending never copies the points already
	// there. At M the builder appends two million points to 2,000 series
	// one archive at a time, on one goroutine; growing one slice per
	// series spent much of that time copying (BenchmarkLoad in package
	// generator measures the load). Dataset joins the chunks into
	// Series.Points, on every core.
	pts [][]Point
	// flat is set when the series was given a size (BuildOptions.
	// SeriesSizes): then pts holds one array, grown by append if the
	// size was short, and finishSeries keeps it as the series' points.
	flat bool
	hint int
	// scale is the scale of the last samples encoded into the builder's
	// slab (floatcodec.go's hint: a series keeps its precision).
	scale int
	// block is where the series' samples are encoded with Spill
	// (encodeSamples).
	block *sampleSrc
	// value is the series' single-value rule (Dataset.Value for its
	// metric, which is fixed when the series is made).
	value ValueKind
	// originPos is the position of the run that made the series (the
	// first with a result of it).
	originPos int
	n         int32   // the number of points
	runs      runList // runs.at(i) is the run of point i
	maxArt    int     // the largest artifact among the points, -1 when none
	index     map[int]int32
	// ranges are the tools' ranges of the points that have one
	// (Result.Range), by point: few series have any.
	ranges map[int32]string

	// skeleton is set for a series whose benchmark BuildOptions.Keep does
	// not hold: it has no points. What the merge rules read of them is
	// kept instead, per result: its artifact (arts, by pending number),
	// its run (runs) and a hash of its values (sums, resultSum), 16
	// bytes against a point's 72 and its samples. old is the set of
	// artifacts (a bitmap by pending number) of the results of a resumed
	// builder's checkpoint, whose claims it no longer needs (a new run of
	// an old artifact makes it diverge). present is set by finishSeries
	// when the series has a result of an artifact of the dataset: it is
	// then in Dataset.Series, as it would be with points.
	skeleton bool
	arts     []int32
	sums     []uint64
	old      []byte
	present  bool
}

// held is the number of points sb holds: none for a skeleton.
func (sb *seriesBuild) held() int32 {
	if sb.skeleton {
		return 0
	}
	return sb.n
}

// artifact is the artifact (pending number) of result pt.
func (sb *seriesBuild) artifact(pt int32) int {
	if sb.skeleton {
		return int(sb.arts[pt])
	}
	return int(sb.point(pt).Artifact)
}

// claim records result pt of a skeleton: its run ri, artifact art and
// hash sum.
func (sb *seriesBuild) claim(ri int32, art int, sum uint64) {
	pt := sb.n
	sb.arts = append(sb.arts, int32(art))
	sb.sums = append(sb.sums, sum)
	sb.runs.add(ri)
	sb.n++
	sb.maxArt = max(sb.maxArt, art)
	if sb.index != nil {
		sb.index[art] = pt
	}
}

// pointChunk is the number of points in each chunk of seriesBuild.pts;
// a power of two.
const pointChunk = 256

// reduce sets p's single value from its samples by the series' rule (no
// value for a failed result). It is done as each point is added, while
// the run's samples are at hand, not when the dataset is finished: by
// then they are scattered over every archive's memory, and reading them
// series by series cost a cache miss a point.
func (sb *seriesBuild) reduce(p *Point, samples []float64) {
	p.SetValue(0, false)
	if p.Failure() == "" {
		p.SetValue(SingleValue(samples, sb.value, sb.s.Metric.Direction))
	}
}

// point returns point pt of the series being built.
func (sb *seriesBuild) point(pt int32) *Point {
	if sb.flat {
		return &sb.pts[0][pt]
	}
	return &sb.pts[pt/pointChunk][pt%pointChunk]
}

// find returns the claim on artifact art, if any.
func (sb *seriesBuild) find(art int) (claim, bool) {
	if art > sb.maxArt {
		return claim{}, false
	}
	if sb.index == nil {
		sb.index = make(map[int]int32, sb.n)
		for i := range sb.n {
			sb.index[sb.artifact(i)] = i
		}
	}
	pt, ok := sb.index[art]
	if !ok {
		return claim{}, false
	}
	return claim{run: sb.runs.at(pt), pt: pt}, true
}

// add appends the point of run ri.
func (sb *seriesBuild) add(ri int32, p Point) {
	pt := sb.n
	switch {
	case len(sb.pts) == 0 && sb.hint > 0:
		// Room for the previous build's points and a few more commits.
		sb.flat = true
		sb.pts = [][]Point{make([]Point, 0, sb.hint+sb.hint/64+8)}
	case len(sb.pts) == 0:
		sb.pts = [][]Point{make([]Point, 0, 8)}
	case sb.flat:
	case int(pt/pointChunk) == len(sb.pts):
		sb.pts = append(sb.pts, make([]Point, 0, pointChunk))
	}
	last := &sb.pts[len(sb.pts)-1]
	*last = append(*last, p)
	sb.n++
	sb.runs.add(ri)
	sb.maxArt = max(sb.maxArt, int(p.Artifact))
	if sb.index != nil {
		sb.index[int(p.Artifact)] = pt
	}
}

// shapeEntry is one result of a run's shape: what identifies its series
// within the run's machine and context, and the series.
type shapeEntry struct {
	bench, metric string
	params        Params
	s             *seriesBuild
}

func (e *shapeEntry) matches(r *Result) bool {
	return e.bench == r.Case.Benchmark && e.metric == r.Metric && slices.Equal(e.params, r.Case.Params)
}

// NewBuilder returns an empty builder.
func NewBuilder(opts BuildOptions) *Builder {
	if opts.Value == "" {
		opts.Value = Auto
	}
	return &Builder{
		opts:     opts,
		claims:   map[string][]artifactClaim{},
		origin:   map[string]string{},
		machines: map[string]Machine{},
		pooled:   map[string]int{},
		series:   map[SeriesKey]*seriesBuild{},
		shapes:   map[string][]shapeEntry{},
		ids:      map[string]int{},
		lastPos:  -1,
	}
}

// warnf records a problem that does not stop the build, found adding the
// run at b.pos.
func (b *Builder) warnf(format string, args ...any) {
	b.warnings = append(b.warnings, posWarning{b.pos, fmt.Errorf(format, args...)})
}

// Add adds the run decoded from origin. Runs must be added in a
// deterministic order: on a conflict between runs the first one wins
// (see merge.go for the rules).
//
// On a resumed builder (ResumeBuilderFrom), the run is placed after every run
// of the checkpoint and every run added.
func (b *Builder) Add(origin string, r Run) {
	b.AddAt(max(b.lastPos, b.maxPos)+1, origin, r)
}

// AddAt is Add for the run at position pos of the order of all runs: the
// order Add would have been called in. Positions must grow from call to
// call. A builder that was not resumed sees runs in that order anyway
// (Add numbers them 0, 1, 2, …); a resumed one (ResumeBuilderFrom) places new
// runs among the runs of its checkpoint by their positions.
func (b *Builder) AddAt(pos int, origin string, r Run) {
	if pos <= b.lastPos {
		panic(fmt.Sprintf("model: run at position %d added after position %d", pos, b.lastPos))
	}
	b.pos, b.lastPos = pos, pos
	if m, ok := b.opts.pool(r.Machine); ok {
		r.Machine = m
		if _, seen := b.pooled[m.Name]; !seen {
			b.pooled[m.Name] = 0
		}
	}
	if b.resumed != nil && !b.resumable(&r) {
		return
	}
	ri := int32(len(b.runs))
	b.runs = append(b.runs, runSource{origin: origin, pos: pos})
	b.claimArtifact(ri, r.Artifact)
	art := b.pending(r.Artifact.ID)
	if m, ok := b.machines[r.Machine.Name]; !ok {
		b.machines[r.Machine.Name] = r.Machine
	} else if merged, ok := mergeMachine(m, r.Machine); ok {
		b.machines[r.Machine.Name] = merged
	} else if b.resumed != nil {
		b.diverge("machine %q is described differently in %s", r.Machine.Name, origin)
		return
	} else {
		b.warnf("%s: machine %q is described differently than in an earlier archive; keeping the first description", origin, r.Machine.Name)
	}
	ctx := r.Context.String()
	shapeKey := r.Machine.Name + "\x00" + ctx
	shape := b.shapes[shapeKey]
	for i := range r.Results {
		res := &r.Results[i]
		var sb *seriesBuild
		if i < len(shape) && shape[i].matches(res) {
			sb = shape[i].s
		} else {
			key := SeriesKey{
				Machine:   r.Machine.Name,
				Context:   ctx,
				Benchmark: res.Case.Benchmark,
				Params:    res.Case.Params.String(),
				Metric:    res.Metric,
			}
			sb = b.series[key]
			if sb == nil {
				s := b.newSeries(key, origin, r.Context, res)
				sb = &seriesBuild{s: s, maxArt: -1, hint: b.opts.SeriesSizes[key], value: b.opts.Value.For(s.Metric), originPos: pos,
					skeleton: b.opts.Keep != nil && !b.opts.Keep.Holds(key.Benchmark)}
				b.series[key] = sb
			}
			e := shapeEntry{bench: res.Case.Benchmark, metric: res.Metric, params: res.Case.Params, s: sb}
			if i < len(shape) {
				shape[i] = e
			} else if i == len(shape) {
				shape = append(shape, e)
			}
		}
		if pos < sb.originPos && !b.reorigin(sb, origin, r.Context, res) {
			return
		}
		s := sb.s
		if c, dup := sb.find(art); dup {
			b.duplicate(sb, art, c, ri, res)
			continue
		}
		if res.Unit != "" && s.Metric.Unit != "" && res.Unit != s.Metric.Unit {
			b.warnf("%s: %s %s has unit %q, but earlier archives say %q; skipping it", origin, res.Case, res.Metric, res.Unit, s.Metric.Unit)
			continue
		}
		if sb.skeleton {
			sb.claim(ri, art, resultSum(res))
			continue
		}
		// The point's artifact index is not known until every artifact is
		// in; keep the id in a side table through the index field.
		// The samples are encoded into the builder's slabs (a run's
		// samples are one array, its decoder's, which a point's slice
		// would keep whole, dropped results and all), and a kept
		// dataset's iteration counts copied into them.
		p := Point{Artifact: int32(art)}
		p.setSamples(b.encodeSamples(sb, res.Samples))
		p.SetFailure(res.Error)
		if b.opts.Keep != nil {
			p.setRare(b.own(res.Iters), ownSummary(res.Summary))
		} else {
			p.setRare(res.Iters, res.Summary)
		}
		sb.reduce(&p, res.Samples)
		if res.Range != "" {
			if sb.ranges == nil {
				sb.ranges = map[int32]string{}
			}
			sb.ranges[sb.n] = res.Range
		}
		sb.add(ri, p)
	}
	b.shapes[shapeKey] = shape
}

// own returns a copy of xs in the builder's own memory, slabs that
// double up to 64 Ki floats; xs itself when empty.
func (b *Builder) own(xs []float64) []float64 {
	if len(xs) == 0 {
		return xs
	}
	if len(b.slab)+len(xs) > cap(b.slab) {
		b.slab = make([]float64, 0, max(len(xs), min(1<<16, 2*cap(b.slab)+64)))
	}
	at := len(b.slab)
	b.slab = append(b.slab, xs...)
	return b.slab[at:len(b.slab):len(b.slab)]
}

// encodeSamples is a reference to xs encoded (floatcodec.go's group, scale
// the series' hint), sb's next samples. A build holds every point's
// samples until it ends, and encoded they take a third of the memory (at
// L, 2 GB as float64s): the few comparisons that read a point's samples
// decode them ([Point.SamplesTo]), and a checkpoint copies the groups as
// they are. The encoding is exact (floatcodec.go), so the numbers are the
// same. Without Spill, they go into the builder's slabs, which double up
// to 512 KiB; with it, into the series' block, which doubles up to
// lazySegment and is then moved to Spill (spill) for a new one.
func (b *Builder) encodeSamples(sb *seriesBuild, xs []float64) sampleRef {
	if len(xs) == 0 {
		return sampleRef{}
	}
	if len(xs) > math.MaxUint32 {
		panic("model: more than 2³² samples in one point")
	}
	need := 1 + 8*len(xs)
	if b.opts.Spill == nil {
		if b.encSlab == nil || len(b.encSlab.enc)+need > cap(b.encSlab.enc) {
			last := 0
			if b.encSlab != nil {
				last = cap(b.encSlab.enc)
			}
			b.encSlab = &sampleSrc{enc: make([]byte, 0, max(need, min(1<<19, 2*last+512)))}
		}
		at := len(b.encSlab.enc)
		b.encSlab.enc = appendFloats(b.encSlab.enc, xs, &sb.scale)
		return sampleRef{src: b.encSlab, off: uint32(at), n: uint32(len(xs))}
	}
	blk := sb.block
	switch {
	case blk == nil || len(blk.enc) > 0 && len(blk.enc)+need > lazySegment:
		if blk != nil {
			b.spill(blk)
		}
		blk = &sampleSrc{enc: make([]byte, 0, max(need, 64))}
		sb.block = blk
	case len(blk.enc)+need > cap(blk.enc):
		// The points refer to blk: they find its groups in the new memory.
		blk.enc = append(make([]byte, 0, max(len(blk.enc)+need, min(2*cap(blk.enc), lazySegment))), blk.enc...)
	}
	at := len(blk.enc)
	blk.enc = appendFloats(blk.enc, xs, &sb.scale)
	return sampleRef{src: blk, off: uint32(at), n: uint32(len(xs))}
}

// spill moves the groups of blk, a series' full block, to Spill: blk
// becomes a segment of it. A failed write leaves them in memory.
func (b *Builder) spill(blk *sampleSrc) {
	if _, err := b.opts.Spill.WriteAt(blk.enc, b.spilled); err != nil {
		return
	}
	seg := &segment{at: b.opts.Spill, off: b.spilled}
	seg.seal(blk.enc)
	b.spilled += int64(len(blk.enc))
	blk.seg, blk.enc = seg, nil
}

// ownSummary is a copy of s (nil for nil).
func ownSummary(s *SampleSummary) *SampleSummary {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// newSeries is the series of key as the run from origin with context ctx
// and result res makes it.
func (b *Builder) newSeries(key SeriesKey, origin string, ctx Params, res *Result) *Series {
	s := &Series{Key: key, Case: res.Case, Context: ctx, Metric: b.metric(res.Metric, res.Unit, res.Direction), Origin: origin}
	if s.Case.Category == "" {
		s.Case.Category = Primary
	}
	return s
}

// pending numbers artifact ids in order of first appearance; Dataset maps
// these numbers to final indices once every artifact and its date is known.
func (b *Builder) pending(id string) int {
	if i, ok := b.ids[id]; ok {
		return i
	}
	b.ids[id] = len(b.order)
	b.order = append(b.order, id)
	b.firstPos = append(b.firstPos, b.pos)
	return b.ids[id]
}

func (b *Builder) metric(name, unit string, dir Direction) Metric {
	if unit == "" {
		unit = b.opts.Metrics[name].Unit
	}
	m := DefaultMetric(name, unit)
	if dir == LowerIsBetter || dir == HigherIsBetter {
		m.Direction, m.Guessed = dir, false
	}
	c := b.opts.configured(name, unit)
	if c.Direction != "" {
		m.Direction, m.Guessed = c.Direction, false
	}
	if c.Noise != "" {
		m.Noise = c.Noise
	}
	return m
}

// configured is what the configuration says of metric name in unit: its
// units table's direction and noise class ([metrics."name".units."unit"]),
// each where set, else the metric's ([metrics."name"]); "" where neither
// says.
func (o BuildOptions) configured(name, unit string) Metric {
	c := o.Metrics[name]
	for _, u := range o.UnitMetrics {
		if u.Name == name && u.Unit == unit {
			c.Direction, c.Noise = cmp.Or(u.Direction, c.Direction), cmp.Or(u.Noise, c.Noise)
		}
	}
	return c
}

// mergeMachine fills the fields a describes with b's; archives may
// describe a machine in more or less detail, but must not contradict.
func mergeMachine(a, b Machine) (Machine, bool) {
	ok := fill(&a.OS, b.OS) && fill(&a.Arch, b.Arch) && fill(&a.CPU, b.CPU) &&
		fill(&a.Cores, b.Cores) && fill(&a.MemoryBytes, b.MemoryBytes)
	switch {
	case len(b.Labels) == 0 || slices.Equal(a.Labels, b.Labels):
	case len(a.Labels) == 0:
		a.Labels = b.Labels
	default:
		ok = false
	}
	return a, ok
}

// fill sets *dst to v when *dst is the zero value; it reports false when
// both are set and differ (a conflict: *dst is kept).
func fill[T comparable](dst *T, v T) bool {
	var zero T
	switch {
	case v == zero || *dst == v:
	case *dst == zero:
		*dst = v
	default:
		return false
	}
	return true
}

// Dataset finishes the build. The builder must not be used afterwards.
func (b *Builder) Dataset() *Dataset {
	// Project history is authoritative for the commits it knows.
	known := map[string]Artifact{}
	for _, h := range b.opts.Other {
		known[h.ID] = h
	}
	for _, h := range b.opts.History {
		known[h.ID] = h
	}
	b.pos = math.MaxInt // the artifacts' warnings come after the runs'
	artifacts := make(map[string]*Artifact, len(b.order))
	found := map[string]*disagreement{}
	for _, id := range slices.Sorted(maps.Keys(b.claims)) {
		var hp *Artifact
		if h, ok := known[id]; ok {
			hp = &h
		}
		a := b.resolveArtifact(id, hp, found)
		artifacts[id] = &a
	}
	b.disagreements(found)
	b.flushDuplicates()
	// Warnings in the order of the runs they came from, then those of the
	// artifacts (resolveArtifact, above), by field.
	slices.SortStableFunc(b.warnings, func(x, y posWarning) int { return cmp.Compare(x.pos, y.pos) })
	d := &Dataset{Value: b.opts.Value, byID: map[string]int{}}
	for _, w := range b.warnings {
		d.Warnings = append(d.Warnings, w.err)
	}
	for id, a := range artifacts {
		h, ok := known[id]
		if !ok {
			continue
		}
		if !h.Date.IsZero() {
			a.Date = h.Date
		}
		if len(h.Parents) > 0 {
			a.Parents = h.Parents
		}
		if h.Title != "" {
			a.Title = h.Title
		}
		if h.Author != "" && a.Author == "" {
			a.Author = h.Author
		}
		if h.PR != 0 {
			a.PR = h.PR
		}
		if a.Kind == "" {
			a.Kind = KindCommit
		}
	}

	ids := make([]string, 0, len(artifacts))
	// Artifacts in the order of their first runs (pending order, unless
	// the builder was resumed).
	byFirst := make([]int, len(b.order))
	for i := range byFirst {
		byFirst[i] = i
	}
	slices.SortStableFunc(byFirst, func(x, y int) int { return cmp.Compare(b.firstPos[x], b.firstPos[y]) })
	for _, i := range byFirst {
		id := b.order[i]
		a := artifacts[id]
		if a.Date.IsZero() {
			d.Warnings = append(d.Warnings, fmt.Errorf("%s: artifact %s has no date and the project history does not know it; skipping its results", b.origin[id], id))
			continue
		}
		if a.Kind == "" {
			a.Kind = KindCommit
		}
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		return cmp.Or(artifacts[x].Date.Compare(artifacts[y].Date), strings.Compare(x, y))
	})
	for i, id := range ids {
		d.Artifacts = append(d.Artifacts, *artifacts[id])
		d.byID[id] = i
		d.origins = append(d.origins, b.origin[id])
	}

	d.MainLine = b.mainLine(d)
	d.mainPos = make([]int, len(d.Artifacts))
	for i := range d.mainPos {
		d.mainPos[i] = -1
	}
	for p, a := range d.MainLine {
		d.mainPos[a] = p
	}
	if note := d.headlessPRs(); note != "" {
		d.Notes = append(d.Notes, note)
	}
	for _, name := range slices.Sorted(maps.Keys(b.pooled)) {
		if n := b.pooled[name]; n > 0 {
			what := fmt.Sprintf("%d results are", n)
			if n == 1 {
				what = "1 result is"
			}
			d.Notes = append(d.Notes, fmt.Sprintf("machine %s pools the runners %s: %s of commits another of its runners had run already; the first run's results are kept (sources in configuration order, files by name)",
				name, b.opts.runners(name), what))
		}
	}
	slices.Sort(d.Notes)

	for _, m := range b.machines {
		d.Machines = append(d.Machines, m)
	}
	slices.SortFunc(d.Machines, func(x, y Machine) int { return strings.Compare(x.Name, y.Name) })

	// Points get their final artifact indices and single values; series
	// are independent, so they are done in parallel.
	// remap[i] is the index in d of the artifact numbered i while
	// building (see pending), -1 for a skipped one.
	remap := make([]int, len(b.order))
	for i, id := range b.order {
		remap[i] = -1
		if idx, ok := d.byID[id]; ok {
			remap[i] = idx
		}
	}
	all := make([]*seriesBuild, 0, len(b.series))
	for _, sb := range b.series {
		all = append(all, sb)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(all)/64)) {
		wg.Go(func() {
			var scratch orderScratch
			for {
				i := int(next.Add(1)) - 1
				if i >= len(all) {
					return
				}
				b.finishSeries(all[i], remap, &scratch)
			}
		})
	}
	wg.Wait()
	for _, sb := range all {
		if len(sb.s.Points) > 0 || sb.present {
			d.Series = append(d.Series, sb.s)
		}
	}
	slices.SortFunc(d.Series, func(x, y *Series) int { return x.Key.Compare(y.Key) })
	d.Warnings = append(d.Warnings, directionWarnings(d.Series, b.opts)...)
	return d
}

// directionWarnings warns once per metric and unit whose direction was
// guessed (Metric.Guessed: a change of it is called a regression or an
// improvement on a guess), then once per metric and unit whose results say
// the other way is better than its unit does (a time or a size lower, a
// rate higher; KnownDirection) where the configuration does not say which:
// the results win, as the configuration would, but such a pair is most
// often a mistake — github-action-benchmark's customBiggerIsBetter chosen
// for times in ms, whose every slowdown the site would then call an
// improvement. Each kind is sorted.
//
// The section a warning names is the metric's, or, when the metric's
// series come in several units, the unit's within it
// ([metrics."track".units."gflopss"]): one direction would not fit them all.
func directionWarnings(series []*Series, o BuildOptions) []error {
	units := map[string]map[string]bool{}
	for _, s := range series {
		if units[s.Metric.Name] == nil {
			units[s.Metric.Name] = map[string]bool{}
		}
		units[s.Metric.Name][s.Metric.Unit] = true
	}
	section := func(m Metric) string {
		if len(units[m.Name]) > 1 {
			return fmt.Sprintf("[metrics.%q.units.%q]", m.Name, m.Unit)
		}
		return fmt.Sprintf("[metrics.%q]", m.Name)
	}
	seen := map[[2]string]bool{}
	var guessed, contradicted []error
	for _, s := range series {
		m := s.Metric
		k := [2]string{m.Name, m.Unit}
		if seen[k] {
			continue
		}
		switch unit := DefaultMetric(m.Name, m.Unit).Direction; {
		case m.Guessed:
			guessed = append(guessed, fmt.Errorf("metric %q (unit %q): neither the results nor the configuration say whether lower or higher is better, and its unit does not tell; it is taken as lower is better: set %s direction = \"higher\" (or \"lower\") in the config (first read from %s)",
				m.Name, m.Unit, section(m), s.Origin))
		case KnownDirection(m.Name, m.Unit) && m.Direction != unit && m.Direction != "" && o.configured(m.Name, m.Unit).Direction == "":
			contradicted = append(contradicted, fmt.Errorf("metric %q (unit %q): the results say %s is better, though the unit says %s; taken as the results say: if that is a mistake (github-action-benchmark's customBiggerIsBetter for times, customSmallerIsBetter for rates), set %s direction = %q in the config (first read from %s)",
				m.Name, m.Unit, m.Direction, unit, section(m), unit, s.Origin))
		default:
			continue
		}
		seen[k] = true
	}
	byText := func(a, b error) int { return strings.Compare(a.Error(), b.Error()) }
	slices.SortFunc(guessed, byText)
	slices.SortFunc(contradicted, byText)
	return append(guessed, contradicted...)
}

// finishSeries joins the points of sb into its series, mapped to the
// dataset's artifacts by remap (dropping those of skipped artifacts), and
// sorts them; their single values were set as they were added
// (seriesBuild.reduce).
func (b *Builder) finishSeries(sb *seriesBuild, remap []int, scratch *orderScratch) {
	s := sb.s
	s.Value = sb.value // Dataset.Value.For(s.Metric): the rule its points were reduced with
	if sb.skeleton {
		for _, a := range sb.arts {
			sb.present = sb.present || remap[a] >= 0
		}
		for a := 0; a < len(remap) && a < 8*len(sb.old) && !sb.present; a++ {
			sb.present = hasBit(sb.old, a) && remap[a] >= 0
		}
		sb.arts, sb.sums, sb.runs, sb.index, sb.old = nil, nil, runList{}, nil, nil
		return
	}
	for pt, text := range sb.ranges {
		if idx := remap[sb.point(pt).Artifact]; idx >= 0 {
			if s.Ranges == nil {
				s.Ranges = map[int]string{}
			}
			s.Ranges[idx] = text
		}
	}
	var pts []Point
	if sb.flat {
		// In place: a point is written at or before where it was read.
		pts = sb.pts[0][:0]
	} else {
		kept := 0
		for _, c := range sb.pts {
			for _, p := range c {
				if remap[p.Artifact] >= 0 {
					kept++
				}
			}
		}
		// Exactly as long as needed: a dataset lives for the whole build
		// (at L, gigabytes).
		pts = make([]Point, 0, kept)
	}
	for _, c := range sb.pts {
		for _, p := range c {
			idx := remap[p.Artifact]
			if idx < 0 {
				continue
			}
			p.Artifact = int32(idx)
			pts = append(pts, p)
		}
	}
	if sb.flat {
		clear(sb.pts[0][len(pts):]) // dropped points keep no samples alive
	}
	sb.pts = nil
	s.Points = pts
	// Often in order already (a checkpoint's points are, and a nightly's
	// new run is the newest artifact): a pass to see it costs far less
	// than a sort that finds it (at M, 2,000 series of 1,000).
	byArtifact := func(a, b Point) int { return cmp.Compare(a.Artifact, b.Artifact) }
	if !slices.IsSortedFunc(s.Points, byArtifact) {
		scratch.order(s.Points, len(remap))
	}
}

// orderScratch is the memory orderScratch.order reuses from series to
// series.
type orderScratch struct {
	slot []int32
	pts  []Point
}

// order sorts pts by artifact, whose indices are distinct and below n (a
// series has one point per artifact, and remap is one-to-one). Points of
// files that sort by name rather than by date (asv's result files are
// named by commit hash) come in no order at all, in every series: a
// stable sort of 1,000 points took 0.22 ms, 0.44 s of every build of the
// asv layout's M. When the series has at least a tenth as many points as
// there are artifacts, each point is put in its artifact's slot and the
// slots read in order (7 µs for 1,000); a sparser series is sorted.
func (o *orderScratch) order(pts []Point, n int) {
	if len(pts)*10 < n {
		slices.SortFunc(pts, func(a, b Point) int { return cmp.Compare(a.Artifact, b.Artifact) })
		return
	}
	o.slot = slices.Grow(o.slot[:0], n)[:n]
	for i := range o.slot {
		o.slot[i] = -1
	}
	for k := range pts {
		o.slot[pts[k].Artifact] = int32(k)
	}
	o.pts = o.pts[:0]
	for _, k := range o.slot {
		if k >= 0 {
			o.pts = append(o.pts, pts[k])
		}
	}
	if len(o.pts) == len(pts) {
		copy(pts, o.pts)
	} else {
		// Two points of one artifact (never, by the above): sorted, both kept.
		slices.SortStableFunc(pts, func(a, b Point) int { return cmp.Compare(a.Artifact, b.Artifact) })
	}
	clear(o.pts) // no sample or rare value kept alive by the scratch
}

// mainLine picks the main line (see BuildOptions.History and MainBranch).
func (b *Builder) mainLine(d *Dataset) []int {
	var line []int
	if len(b.opts.History) > 0 {
		for _, h := range b.opts.History {
			if i, ok := d.byID[h.ID]; ok && d.Artifacts[i].Kind == KindCommit {
				line = append(line, i)
			}
		}
		return line
	}
	branch := b.opts.MainBranch
	if branch == "" {
		count := map[string]int{}
		for _, a := range d.Artifacts {
			if a.Kind == KindCommit && a.Branch != "" {
				count[a.Branch]++
			}
		}
		best := 0
		branch = "main"
		for name, n := range count {
			if n > best || n == best && name < branch {
				branch, best = name, n
			}
		}
	}
	for i, a := range d.Artifacts {
		if a.Kind == KindCommit && (a.Branch == "" || a.Branch == branch) {
			line = append(line, i)
		}
	}
	line, cycle := parentsFirst(d, line)
	if len(cycle) > 0 {
		ids := make([]string, len(cycle))
		for k, i := range cycle {
			ids[k] = d.Artifacts[i].ID
		}
		d.Warnings = append(d.Warnings, fmt.Errorf("main line: the first parents of artifacts %s form a cycle (or descend from one); they are placed last, by date", strings.Join(ids, ", ")))
	}
	return line
}

// parentsFirst reorders line (artifact indices in date order) so that a
// commit whose first parent is also on the line comes after that parent,
// keeping date order wherever the parents say nothing: a stable
// topological sort. Dates alone mislead when they are author dates, which
// go backwards along a history (rebases, cherry-picks); without the
// project's history, parents are the order the archives record — a
// github-action-benchmark data file gives each run the previous run of
// its main line as parent, its push order. Indices caught in a parent
// cycle (bad data) keep their date order after the others and are
// returned in cycle.
func parentsFirst(d *Dataset, line []int) (ordered, cycle []int) {
	at := make(map[string]int, len(line)) // id → position in line
	for k, i := range line {
		at[d.Artifacts[i].ID] = k
	}
	parent := make([]int, len(line)) // position of the first parent, or -1
	children := make([][]int, len(line))
	linked := false
	for k, i := range line {
		parent[k] = -1
		if ps := d.Artifacts[i].Parents; len(ps) > 0 {
			if p, ok := at[ps[0]]; ok && p != k {
				parent[k] = p
				children[p] = append(children[p], k)
				linked = linked || p > k
			}
		}
	}
	if !linked {
		// Every parent is older than its children already.
		return line, nil
	}
	// Kahn's algorithm, taking the ready position that comes first by
	// date: a min-heap of positions.
	var ready posHeap
	for k := range line {
		if parent[k] < 0 {
			heap.Push(&ready, k)
		}
	}
	ordered = make([]int, 0, len(line))
	done := make([]bool, len(line))
	for ready.Len() > 0 {
		k := heap.Pop(&ready).(int)
		done[k] = true
		ordered = append(ordered, line[k])
		for _, c := range children[k] {
			heap.Push(&ready, c)
		}
	}
	for k, i := range line {
		if !done[k] {
			cycle = append(cycle, i)
		}
	}
	return append(ordered, cycle...), cycle
}

// posHeap is a min-heap of positions (container/heap).
type posHeap []int

func (h posHeap) Len() int           { return len(h) }
func (h posHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h posHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *posHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *posHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
