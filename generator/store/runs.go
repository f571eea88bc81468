package store

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/capped"
)

// Entry is the decoded content of one input: its runs and the problems
// found reading it. A problem's message does not name the input (the
// input may be read under another name next time); the caller adds it.
// The entry of a file's versions along a git ref holds their fold
// instead (Versions), keyed by the versions folded, so that the next
// build folds in only the versions it has not seen.
type Entry struct {
	Runs     []model.Run
	Problems []Problem
	Versions *model.FileVersions
}

// Problem is a problem found reading an input, without the input's name.
type Problem struct {
	Line  int
	Msg   string
	Fatal bool
}

// RunKey is the key of an input's entry: a hash of its version (the
// store's format, the tool, what reads the input and its options in a
// canonical text: see the package doc) and of the input's bytes (each
// file's name and bytes for a folder of files).
func RunKey(reader, options string, files ...[]byte) [32]byte {
	v := version(Tool(), "run "+reader, options)
	return Hash(append([][]byte{v[:]}, files...)...)
}

func (s *Store) runPath(k [32]byte) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(s.dir, "runs", h[:2], h+".run")
}

// Entry returns the entry of key k, if the store has a good one. limit
// bounds the size of its file (a few times the input's: the caller knows
// it), so that a file put there by someone else is refused by its size.
func (s *Store) Entry(k [32]byte, limit int64) (Entry, bool) {
	path := s.runPath(k)
	data, err := capped.ReadOwn(path, limit)
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, false
	}
	var e Entry
	if err == nil {
		var payload []byte
		if payload, err = unseal(runMagic, data); err == nil {
			if len(payload) < len(k) || string(payload[:len(k)]) != string(k[:]) {
				err = errors.New("the entry of another input (its key differs from its name)")
			} else {
				e, err = decodeEntry(payload[len(k):])
			}
		}
	}
	if err != nil {
		s.warn(fmt.Errorf("store %s: %v; the input is read again", path, err))
		os.Remove(path)
		return Entry{}, false
	}
	s.keep(k)
	return e, true
}

// Put stores the entry of key k.
func (s *Store) Put(k [32]byte, e Entry) error {
	s.keep(k)
	if err := writeFile(s.runPath(k), sealAfter(runMagic, encodeEntry(runMagic+string(k[:]), e))); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// pruneRuns removes the .run entries no lookup or Put of this build
// used: inputs that are gone, or read another way.
func (s *Store) pruneRuns() error {
	root := filepath.Join(s.dir, "runs")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := hex.DecodeString(strings.TrimSuffix(d.Name(), ".run"))
		if err != nil || len(raw) != 32 || !d.Type().IsRegular() {
			return os.Remove(p)
		}
		s.mu.Lock()
		used := s.used[[32]byte(raw)]
		s.mu.Unlock()
		if !used {
			return os.Remove(p)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// The .run format (after the magic line "perfpages run v4\n" and the 32
// bytes of the entry's key, before the CRC-32C). Integers are varints
// (signed) or uvarints (counts, lengths); strings are a uvarint length and
// UTF-8 bytes; float64s are 8 bytes little-endian IEEE 754. Strings of
// results go through a table, written before them, so that a benchmark or
// metric name is stored once per entry:
//
//	problems: count, then per problem: line, fatal (0/1), message
//	runs: count, then per run:
//	  artifact: id, kind, date (Unix ns, 0 for none), parents (count,
//	    ids), branch, pr, title, author, baseline
//	  machine: name, os, arch, cpu, cores, memory bytes, labels
//	  context: params
//	  table: count, strings
//	  floats: the number of samples and iteration counts of all results
//	  results: count, then per result: benchmark, category, params (count,
//	    key, value), metric, unit, direction, error, range as table
//	    indices; samples (count, float64s); iters (count, float64s);
//	    summary: 0 for none, else 1, mean, stddev (float64s), n (uvarint)
//	versions: 0 for none, else 1 and the fold of a file's versions
//	  (model.FileVersions): origin, runs, history runs (as runs
//	  above), the origin of each, removed runs, the origin of each, seen
//	  (count, artifact ids), corrected, correction, fields, deleted (0/1)
//	params outside results are a count and key, value strings.
//
// v2 added the summary (model.SampleSummary); a v1 entry would decode
// without it, so the store's Version changed with it and old stores are
// rebuilt. v3 added the key: an entry copied over another's file is not
// taken for it. v4 added the versions and the results' range.
const runMagic = "perfpages run v4\n"

type enc struct{ b []byte }

func (e *enc) uint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *enc) int(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) floats(xs []float64) {
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x))
	}
}
func (e *enc) summary(s *model.SampleSummary) {
	if s == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(s.Mean))
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(s.StdDev))
	e.uint(uint64(s.N))
}
func (e *enc) params(p model.Params) {
	e.uint(uint64(len(p)))
	for _, kv := range p {
		e.str(kv.Key)
		e.str(kv.Value)
	}
}

// encodeEntry encodes en after prefix (the magic of the sealed file, so
// that sealing does not copy the payload).
func encodeEntry(prefix string, en Entry) []byte {
	e := &enc{b: []byte(prefix)}
	e.uint(uint64(len(en.Problems)))
	for _, p := range en.Problems {
		e.int(int64(p.Line))
		if p.Fatal {
			e.uint(1)
		} else {
			e.uint(0)
		}
		e.str(p.Msg)
	}
	e.runs(en.Runs)
	if v := en.Versions; v == nil {
		e.uint(0)
	} else {
		e.uint(1)
		e.str(v.Origin)
		e.runs(v.Runs)
		e.runs(v.History)
		for _, o := range v.HistoryIn {
			e.str(o)
		}
		e.runs(v.Removed)
		for _, o := range v.RemovedIn {
			e.str(o)
		}
		e.uint(uint64(len(v.Seen)))
		for _, id := range v.Seen {
			e.str(id)
		}
		e.uint(uint64(v.Corrected))
		e.str(v.Correction)
		e.uint(uint64(v.Fields))
		if v.Deleted {
			e.uint(1)
		} else {
			e.uint(0)
		}
	}
	return e.b
}

// runs encodes a list of runs.
func (e *enc) runs(runs []model.Run) {
	e.uint(uint64(len(runs)))
	for i := range runs {
		r := &runs[i]
		a := r.Artifact
		e.str(a.ID)
		e.str(string(a.Kind))
		if a.Date.IsZero() {
			e.int(0)
		} else {
			e.int(a.Date.UnixNano())
		}
		e.uint(uint64(len(a.Parents)))
		for _, p := range a.Parents {
			e.str(p)
		}
		e.str(a.Branch)
		e.int(int64(a.PR))
		e.str(a.Title)
		e.str(a.Author)
		e.str(a.Baseline)
		m := r.Machine
		e.str(m.Name)
		e.str(m.OS)
		e.str(m.Arch)
		e.str(m.CPU)
		e.int(int64(m.Cores))
		e.int(m.MemoryBytes)
		e.params(m.Labels)
		e.params(r.Context)
		// The string table.
		idx := map[string]uint64{}
		var table []string
		id := func(s string) {
			if _, ok := idx[s]; !ok {
				idx[s] = uint64(len(table))
				table = append(table, s)
			}
		}
		for j := range r.Results {
			res := &r.Results[j]
			id(res.Case.Benchmark)
			id(string(res.Case.Category))
			for _, kv := range res.Case.Params {
				id(kv.Key)
				id(kv.Value)
			}
			id(res.Metric)
			id(res.Unit)
			id(string(res.Direction))
			id(res.Error)
			id(res.Range)
		}
		e.uint(uint64(len(table)))
		for _, s := range table {
			e.str(s)
		}
		floats := 0
		for j := range r.Results {
			floats += len(r.Results[j].Samples) + len(r.Results[j].Iters)
		}
		e.uint(uint64(floats))
		e.uint(uint64(len(r.Results)))
		// Room for the results (8 bytes a float, a few bytes of indices
		// per result) at once rather than by appends' doublings.
		e.b = slices.Grow(e.b, 8*floats+12*len(r.Results)+4)
		for j := range r.Results {
			res := &r.Results[j]
			e.uint(idx[res.Case.Benchmark])
			e.uint(idx[string(res.Case.Category)])
			e.uint(uint64(len(res.Case.Params)))
			for _, kv := range res.Case.Params {
				e.uint(idx[kv.Key])
				e.uint(idx[kv.Value])
			}
			e.uint(idx[res.Metric])
			e.uint(idx[res.Unit])
			e.uint(idx[string(res.Direction)])
			e.uint(idx[res.Error])
			e.uint(idx[res.Range])
			e.floats(res.Samples)
			e.floats(res.Iters)
			e.summary(res.Summary)
		}
	}
}

type dec struct {
	b   []byte
	err error
}

var errShort = errors.New("entry ends early")

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *dec) int() int64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return x
}

// count reads a count of items of at least min bytes each, refusing one
// the rest of the entry cannot hold.
func (d *dec) count(min int) int {
	n := d.uint()
	if d.err == nil && n > uint64(len(d.b)/max(min, 1)) {
		d.err = errShort
		return 0
	}
	return int(n)
}

func (d *dec) str() string {
	n := d.count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// floats reads a list of floats into the front of *arena (one allocation
// for every sample of a run).
func (d *dec) floats(arena *[]float64) []float64 {
	n := d.count(8)
	if d.err != nil || n == 0 {
		return nil
	}
	if n > len(*arena) {
		d.err = errShort
		return nil
	}
	out := (*arena)[:n:n]
	*arena = (*arena)[n:]
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(d.b[8*i:]))
	}
	d.b = d.b[8*n:]
	return out
}

// summary reads a result's summary; nil when it has none.
func (d *dec) summary() *model.SampleSummary {
	switch d.uint() {
	case 0:
		return nil
	case 1:
	default:
		if d.err == nil {
			d.err = errors.New("bad summary flag")
		}
		return nil
	}
	if d.err != nil || len(d.b) < 16 {
		d.err = errShort
		return nil
	}
	s := &model.SampleSummary{
		Mean:   math.Float64frombits(binary.LittleEndian.Uint64(d.b)),
		StdDev: math.Float64frombits(binary.LittleEndian.Uint64(d.b[8:])),
	}
	d.b = d.b[16:]
	n := d.uint()
	if d.err == nil && n > math.MaxInt32 {
		d.err = errors.New("summary count out of range")
	}
	s.N = int(n)
	return s
}

// strs reads n strings (nil for none).
func (d *dec) strs(n int) []string {
	if n == 0 || d.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *dec) params() model.Params {
	n := d.count(2)
	if n == 0 {
		return nil
	}
	p := make(model.Params, n)
	for i := range p {
		p[i] = model.Param{Key: d.str(), Value: d.str()}
	}
	return p
}

// runs decodes a list of runs.
func (d *dec) runs() []model.Run {
	var runs []model.Run
	if n := d.count(20); n > 0 {
		runs = make([]model.Run, n)
	}
	for i := range runs {
		r := &runs[i]
		a := &r.Artifact
		a.ID = d.str()
		a.Kind = model.ArtifactKind(d.str())
		if ns := d.int(); ns != 0 {
			a.Date = time.Unix(0, ns).UTC()
		}
		if n := d.count(1); n > 0 {
			a.Parents = make([]string, n)
			for j := range a.Parents {
				a.Parents[j] = d.str()
			}
		}
		a.Branch = d.str()
		a.PR = int(d.int())
		a.Title = d.str()
		a.Author = d.str()
		a.Baseline = d.str()
		m := &r.Machine
		m.Name, m.OS, m.Arch, m.CPU = d.str(), d.str(), d.str(), d.str()
		m.Cores = int(d.int())
		m.MemoryBytes = d.int()
		m.Labels = d.params()
		r.Context = d.params()
		table := make([]string, d.count(1))
		for j := range table {
			table[j] = d.str()
		}
		at := func() string {
			k := d.uint()
			if d.err == nil && k >= uint64(len(table)) {
				d.err = errShort
			}
			if d.err != nil {
				return ""
			}
			return table[k]
		}
		arena := make([]float64, d.count(8))
		var params model.Params
		if n := d.count(10); n > 0 {
			r.Results = make([]model.Result, n)
		}
		for j := range r.Results {
			res := &r.Results[j]
			res.Case.Benchmark = at()
			res.Case.Category = model.Category(at())
			if n := d.count(2); n > 0 {
				// Every result's parameters in one array per run (a
				// result's own capacity ends with its last parameter).
				if len(params)+n > cap(params) {
					params = make(model.Params, 0, max(n, 2*len(r.Results)))
				}
				at0 := len(params)
				for range n {
					params = append(params, model.Param{Key: at(), Value: at()})
				}
				res.Case.Params = params[at0:len(params):len(params)]
			}
			res.Metric = at()
			res.Unit = at()
			res.Direction = model.Direction(at())
			res.Error = at()
			res.Range = at()
			res.Samples = d.floats(&arena)
			res.Iters = d.floats(&arena)
			res.Summary = d.summary()
		}
		if d.err != nil {
			break
		}
	}
	return runs
}

func decodeEntry(b []byte) (Entry, error) {
	d := &dec{b: b}
	var en Entry
	if n := d.count(3); n > 0 {
		en.Problems = make([]Problem, n)
		for i := range en.Problems {
			en.Problems[i] = Problem{Line: int(d.int()), Fatal: d.uint() == 1, Msg: d.str()}
		}
	}
	en.Runs = d.runs()
	switch d.uint() {
	case 0:
	case 1:
		v := &model.FileVersions{Origin: d.str()}
		v.Runs = d.runs()
		v.History = d.runs()
		v.HistoryIn = d.strs(len(v.History))
		v.Removed = d.runs()
		v.RemovedIn = d.strs(len(v.Removed))
		v.Seen = d.strs(d.count(1))
		v.Corrected = int(d.uint())
		v.Correction = d.str()
		v.Fields = int(d.uint())
		v.Deleted = d.uint() == 1
		en.Versions = v
	default:
		if d.err == nil {
			d.err = errors.New("bad versions flag")
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d bytes after the entry", len(d.b))
	}
	return en, d.err
}

// RunDigest is a SHA-256 of everything run holds, in the entries'
// encoding: equal for equal runs, whatever input they came from.
func RunDigest(r model.Run) [32]byte {
	e := &enc{}
	e.runs([]model.Run{r})
	return Hash(e.b)
}
