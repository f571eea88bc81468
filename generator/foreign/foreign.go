// Package foreign reads the result files of other benchmark tools — Go's
// `go test -bench` text, Criterion.rs directories, Google Benchmark,
// pytest-benchmark, hyperfine, Bencher Metric Format, github-action-benchmark,
// asv and perfgate — into the native model (model.Run), for
// `perfpages import` and for sources with `format = "…"` (the README's
// "Other tools' results"). It is a reader of the sources stage, beside
// generator/archive (see the architecture section of the README).
//
// Each format has a Reader. A reader never panics and never gives up on a
// whole file for one bad entry: problems come back as archive.Problem values
// naming the file (and line where it is known), Fatal only when nothing of
// the file can be used.
package foreign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// Input is one thing to read: a file, or for directory formats (criterion,
// asv) a whole folder.
type Input struct {
	// Name is the file's (or folder's) path, used in messages.
	Name string
	// Data is the file's content (file formats).
	Data []byte
	// Files holds a folder's files by slash-separated path relative to the
	// folder (directory formats); nil for file formats.
	Files map[string][]byte
	// MaxBytes bounds the size of a file (Data, or each of Files); 0
	// means archive.DefaultMaxBytes. [Read] refuses a larger file, and a
	// file with more separators than archive.Limits allows, before any
	// reader parses it.
	MaxBytes int64
}

// Defaults are what the caller knows about the results: from `perfpages
// import` flags or from a source's path pattern. A reader fills the run's
// artifact and machine from the file where the format records them and
// uses these for the rest; a zero field is unknown.
type Defaults struct {
	Artifact model.Artifact
	Machine  model.Machine
	Context  model.Params
}

// Reader reads one input into runs (one per artifact × machine × context
// the input holds; most formats give one).
type Reader func(in Input, def Defaults) ([]model.Run, []archive.Problem)

// Format describes one foreign format.
type Format struct {
	Name string // the contract name for -format and format = "…"
	// Dir is true for formats read from a folder (Input.Files).
	Dir  bool
	Read Reader
	// Sniff reports whether data (or, for directory formats, the folder's
	// files) looks like this format. It must be cheap and must not panic.
	Sniff func(in Input) bool
	// Files reports whether a source without an artifact pattern reads
	// the file at slash-separated path name, so that what a tool writes
	// beside its data (github-action-benchmark's index.html) is not read
	// as data; nil reads every file.
	Files func(name string) bool
	// Shared and Open are set for a folder format whose files are read
	// one at a time, against a few files they share (asv's
	// benchmarks.json and machine.json): Shared picks those (by
	// slash-separated path in the folder), and Open decodes them for
	// reading the folder's other files, files, one by one (Folder). A
	// build then keeps each file's runs apart, and reads only the files
	// that are new.
	Shared func(rel string) bool
	Open   func(name string, shared map[string][]byte, files []string, maxBytes int64, def Defaults) (Folder, []archive.Problem)
}

// Wants reports whether a source of format f without an artifact pattern
// reads the file name (see Format.Files).
func (f Format) Wants(name string) bool { return f.Files == nil || f.Files(name) }

var formats []Format

// register adds a format; each format's file calls it from init.
func register(f Format) {
	formats = append(formats, f)
	slices.SortFunc(formats, func(a, b Format) int { return strings.Compare(a.Name, b.Name) })
}

// Lookup returns the format called name.
func Lookup(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Names lists the format names, sorted.
func Names() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}

// Detect picks the format of an input by content ("auto"): the formats
// whose Sniff accepts it, in name order; an input that none accepts is an
// error listing what was tried.
func Detect(in Input) (Format, error) {
	var tried []string
	for _, f := range formats {
		if f.Dir != (in.Files != nil) {
			continue
		}
		tried = append(tried, f.Name)
		if f.Sniff != nil && f.Sniff(in) {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%s: not a result file of any known format (tried %s)", in.Name, strings.Join(tried, ", "))
}

// problem is a shorthand for a non-fatal problem.
func problem(file string, line int, format string, args ...any) archive.Problem {
	return archive.Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// fatal is a shorthand for a problem that makes the whole input unusable.
func fatal(file string, line int, format string, args ...any) archive.Problem {
	return archive.Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...), Fatal: true}
}
