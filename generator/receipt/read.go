package receipt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// Kind is what a check or export input holds.
type Kind int

// Input kinds.
const (
	KindRun     Kind = iota + 1 // a perfgate.run.v1 receipt
	KindCompare                 // a perfgate.compare.v1 receipt
	KindReport                  // a perfgate.report.v1 report
	KindArchive                 // a perfpages.run.v1 archive (JSON, YAML or TOML, maybe gzipped)
)

func (k Kind) String() string {
	switch k {
	case KindRun:
		return "a perfgate run receipt"
	case KindCompare:
		return "a perfgate compare receipt"
	case KindReport:
		return "a perfgate report"
	case KindArchive:
		return "a perfpages archive"
	}
	return "an unknown file"
}

// ReadInput reads a check or export input: the file at path, inflated
// when it is gzip, and what it holds. Only a regular file (or a link to
// one) is read: a named pipe, a device such as /dev/zero, a socket or a
// folder is an error naming it, and reading never blocks
// (capped.ReadRegular). A file over maxBytes (0: archive.DefaultMaxBytes),
// before or after gunzip, is an error naming it, found before it is read
// whole; so is a JSON receipt with more separators than archive.Limits
// allows, since decoding and validating one costs a few hundred bytes per
// value; so are a Git LFS pointer and a UTF-16 file (readkit.NotResults).
// plain is the inflated content; an archive is better decoded from the
// file as it is (archive.Decode gunzips it itself, under the same caps).
func ReadInput(path string, maxBytes int64) (plain []byte, kind Kind, err error) {
	data, err := capped.ReadRegular(path, maxBytes)
	if err != nil {
		return nil, 0, pathError(path, err)
	}
	if plain, err = inflate(path, data, maxBytes); err != nil {
		return nil, 0, err
	}
	if p := readkit.NotResults(path, plain); p != nil {
		return nil, 0, p
	}
	if kind, err = sniff(path, plain); err != nil {
		return nil, 0, err
	}
	if kind != KindArchive {
		limits := archive.LimitsFor(maxBytes)
		if n := archive.Separators(plain); n > limits.Tokens {
			return nil, 0, fileError(path, 0, fmt.Errorf("%d separators (`,[{:` and newlines), more than the %d %s", n, limits.Tokens, limits.Allowed()))
		}
	}
	return plain, kind, nil
}

// inflate returns data gunzipped when it is gzip, within maxBytes.
func inflate(name string, data []byte, maxBytes int64) ([]byte, error) {
	if !capped.IsGzip(data) {
		return data, nil
	}
	plain, err := capped.Gunzip(data, maxBytes)
	var tl *capped.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fileError(name, 0, err)
	case err != nil:
		return nil, fileError(name, 0, fmt.Errorf("gzip: %w", err))
	}
	return plain, nil
}

func sniff(name string, data []byte) (Kind, error) {
	if format, _, ok := archive.FormatOf(name); ok && format != "json" {
		return KindArchive, nil
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return 0, fileError(name, 0, errors.New("empty file"))
	}
	if trimmed[0] != '{' {
		if bytes.Contains(data, []byte(archive.Schema)) {
			return KindArchive, nil // a YAML or TOML archive under another name
		}
		return 0, fileError(name, 0, errors.New("not a JSON object: want a perfgate receipt or a perfpages archive"))
	}
	root, err := parse(name, data)
	if err != nil {
		return 0, err
	}
	var head struct {
		Schema     *string `json:"schema"`
		ReportType *string `json:"report_type"`
	}
	if err := readkit.Decode(root, &head); err != nil {
		return 0, typeError(name, err)
	}
	switch {
	case head.Schema != nil && *head.Schema == RunSchema:
		return KindRun, nil
	case head.Schema != nil && *head.Schema == CompareSchema:
		return KindCompare, nil
	case head.Schema != nil && *head.Schema == archive.Schema:
		return KindArchive, nil
	case head.ReportType != nil && *head.ReportType == ReportSchema:
		return KindReport, nil
	case head.Schema != nil:
		return 0, fileError(name, 0, fmt.Errorf("schema %q: want %s or %s", *head.Schema, RunSchema, archive.Schema))
	}
	return 0, fileError(name, 0, errors.New(`no "schema" field: not a perfgate receipt or perfpages archive`))
}

// ReadRun decodes and validates a perfgate.run.v1 receipt: the schema id,
// the required fields (missing or null ones are named by path, e.g.
// "run.host.os") and their types. Unknown fields are accepted, so that
// receipts from newer perfgate versions still read. name is used in errors.
func ReadRun(name string, data []byte) (*Run, error) {
	obj, err := decodeObject(name, data)
	if err != nil {
		return nil, err
	}
	if err := checkSchema(name, data, obj, "schema", RunSchema); err != nil {
		return nil, err
	}
	if err := requireFields(name, obj, runRequired); err != nil {
		return nil, err
	}
	var r Run
	if err := readkit.Decode(obj, &r); err != nil {
		return nil, typeError(name, err)
	}
	return &r, nil
}

// ReadRunFile returns the bytes of the run receipt at path as they are,
// once [ReadRun] has validated them: what promote copies. Like every
// receipt, the file is read only when it is a regular file (or a link to
// one), within the default input cap; it is not inflated.
func ReadRunFile(path string) ([]byte, error) {
	data, err := capped.ReadRegular(path, 0)
	if err != nil {
		return nil, pathError(path, err)
	}
	if _, err := ReadRun(path, data); err != nil {
		return nil, err
	}
	return data, nil
}

// ReadCompare decodes and validates a perfgate.compare.v1 receipt.
func ReadCompare(name string, data []byte) (*Compare, error) {
	obj, err := decodeObject(name, data)
	if err != nil {
		return nil, err
	}
	if err := checkSchema(name, data, obj, "schema", CompareSchema); err != nil {
		return nil, err
	}
	if err := requireFields(name, obj, compareRequired); err != nil {
		return nil, err
	}
	var c Compare
	if err := readkit.Decode(obj, &c); err != nil {
		return nil, typeError(name, err)
	}
	return &c, nil
}

// field lists: a path of object keys; "[]" walks into every element of an
// array, "?" marks an object that may be absent (its own fields are then
// required only when it is present).
var runRequired = []string{
	"tool.name", "tool.version",
	"run.id", "run.started_at", "run.ended_at", "run.host.os", "run.host.arch",
	"bench.name", "bench.command", "bench.repeat", "bench.warmup",
	"samples",
	"samples.[].wall_ms", "samples.[].exit_code",
	"stats.wall_ms.median", "stats.wall_ms.min", "stats.wall_ms.max",
	"stats.cpu_ms?.median", "stats.page_faults?.median", "stats.ctx_switches?.median",
	"stats.max_rss_kb?.median", "stats.io_read_bytes?.median", "stats.io_write_bytes?.median",
	"stats.network_packets?.median", "stats.energy_uj?.median", "stats.binary_bytes?.median",
	"stats.throughput_per_s?.median",
}

var compareRequired = []string{
	"tool.name", "tool.version",
	"bench.name", "bench.command",
	"baseline_ref", "current_ref", "budgets", "deltas",
	"verdict.status", "verdict.counts", "verdict.reasons",
}

// parse parses a JSON document with readkit.ParseJSON, the parser of
// every reader: a tree whose values carry their lines and whose numbers
// keep their text (readkit.Decode then reads integers as encoding/json
// does). Repeated keys are kept, the last one counting, and nesting is
// bounded as encoding/json bounds it, so that what encoding/json read,
// parse reads. A syntax error is "invalid JSON: …" at its line.
func parse(name string, data []byte) (*readkit.Node, error) {
	root, _, p := readkit.ParseJSON(name, data, readkit.JSONOptions{Duplicates: true, NumberText: true, MaxDepth: readkit.EncodingJSONMaxDepth})
	if p == nil {
		return root, nil
	}
	var se *readkit.SyntaxError
	if !errors.As(p.Err, &se) {
		return nil, p
	}
	line := p.Line
	if line == 0 { // an empty document ends on its last line
		line = readkit.ErrorLine(data, int64(len(data)))
	}
	return nil, fileError(name, line, fmt.Errorf("invalid JSON: %v", se))
}

// decodeObject parses a JSON document, which must be an object.
func decodeObject(name string, data []byte) (*readkit.Node, error) {
	root, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	switch root.Kind {
	case readkit.Map:
		return root, nil
	case readkit.Null:
		return nil, fileError(name, 0, errors.New("not a JSON object"))
	}
	var obj map[string]*readkit.Node
	return nil, typeError(name, readkit.Decode(root, &obj))
}

func checkSchema(name string, data []byte, obj *readkit.Node, key, want string) error {
	v := obj.Last(key)
	if v == nil || v.Kind == readkit.Null {
		return fileError(name, 0, fmt.Errorf("missing field %q: not a %s receipt", key, want))
	}
	if v.Kind != readkit.String || v.Text != want {
		return fileError(name, 0, fmt.Errorf("%s is %s, want %s", key, readkit.Source(data, v), want))
	}
	return nil
}

// requireFields reports the first missing or null field of paths.
func requireFields(name string, obj *readkit.Node, paths []string) error {
	for _, p := range paths {
		if missing := findMissing(obj, strings.Split(p, "."), ""); missing != "" {
			return fileError(name, 0, fmt.Errorf("missing field %q", missing))
		}
	}
	return nil
}

// findMissing walks obj, an object (or null, an object without fields),
// along path and returns the dotted path of the first field that is
// absent or null, or "".
func findMissing(obj *readkit.Node, path []string, prefix string) string {
	key := path[0]
	optional := strings.HasSuffix(key, "?")
	key = strings.TrimSuffix(key, "?")
	full := key
	if prefix != "" {
		full = prefix + "." + key
	}
	v := obj.Last(key)
	if v == nil || v.Kind == readkit.Null {
		if optional {
			return ""
		}
		return full
	}
	if len(path) == 1 {
		return ""
	}
	if path[1] == "[]" {
		if v.Kind != readkit.List {
			return "" // the typed decode reports the wrong type
		}
		for i, e := range v.Elems() {
			if e.Kind != readkit.Map && e.Kind != readkit.Null {
				continue
			}
			if m := findMissing(e, path[2:], fmt.Sprintf("%s[%d]", full, i)); m != "" {
				return m
			}
		}
		return ""
	}
	if v.Kind != readkit.Map {
		return ""
	}
	return findMissing(v, path[1:], full)
}

// typeError words a type error of readkit.Decode: the value's field (its
// path of JSON names), the JSON value and what the field holds, at the
// value's line.
func typeError(name string, err error) error {
	var typ *readkit.TypeError
	if !errors.As(err, &typ) {
		return fileError(name, 0, err)
	}
	what := typ.Field
	if what == "" {
		what = "document"
	}
	return fileError(name, typ.Line, fmt.Errorf("%s: a JSON %s cannot be %s", what, typ.Value, typeName(typ.Type.String())))
}

func typeName(goType string) string {
	switch strings.TrimPrefix(goType, "*") {
	case "uint64", "uint32":
		return "a non-negative integer"
	case "int32":
		return "a 32-bit integer"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	}
	if strings.HasPrefix(goType, "[]") {
		return "an array"
	}
	return "an object"
}

// fileError is an error naming the file (and the line, when it is not
// 0): readkit's Problem, the type every reader returns, keeping err as its
// cause for errors.Is.
func fileError(file string, line int, err error) error {
	return readkit.Wrap(file, line, err)
}

// Input is a decoded check input.
type Input struct {
	Path    string
	Kind    Kind
	Run     *Run       // KindRun
	Archive *model.Run // KindArchive
	// Problems are the archive's non-fatal problems (unknown fields,
	// dropped results), as "file:line: message".
	Problems []string
}

// Load reads a check input: a perfgate run receipt or a perfpages archive,
// told apart by content, each of at most maxBytes (0:
// archive.DefaultMaxBytes; see [ReadInput]). Errors name the file.
//
// A run receipt's statistics are those of its samples whenever it has
// measured samples (verifyStats): the stats block is a
// summary the receipt's writer computed, and a check judges what was
// measured, so a hand-edited, stale or buggy summary cannot pass a
// regression (or fail one). A stats block that disagrees with the samples
// is replaced by theirs, with a warning naming the file and the values. A
// receipt without measured samples is judged by its stats block, the only
// data it has.
func Load(path string, maxBytes int64) (*Input, error) {
	data, kind, err := ReadInput(path, maxBytes)
	if err != nil {
		return nil, err
	}
	in := &Input{Path: path, Kind: kind}
	switch kind {
	case KindRun:
		data, p := readkit.ValidUTF8(path, data)
		if p != nil {
			in.Problems = append(in.Problems, p.Error())
		}
		if in.Run, err = ReadRun(path, data); err != nil {
			return nil, err
		}
		if differ := in.Run.verifyStats(); len(differ) > 0 {
			in.Problems = append(in.Problems, fileError(path, 0, fmt.Errorf(
				"the stats block disagrees with the samples (%s); the statistics of the samples are used", strings.Join(differ, "; "))).Error())
		}
	case KindArchive:
		run, problems := archive.Decode(path, data, archive.Options{DateOptional: true, MaxBytes: maxBytes})
		var fatal []error
		for _, p := range problems {
			if p.Fatal {
				fatal = append(fatal, p)
			} else {
				in.Problems = append(in.Problems, p.Error())
			}
		}
		if len(fatal) > 0 {
			return nil, errors.Join(fatal...)
		}
		in.Archive = &run
	default:
		return nil, fileError(path, 0, fmt.Errorf("is %s; want a perfgate run receipt or a perfpages archive", kind))
	}
	return in, nil
}

// pathError is "path: reason" for a file that cannot be read, without the
// operation name os adds ("open path: …").
func pathError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fileError(path, 0, pe.Err)
	}
	return fileError(path, 0, err)
}
