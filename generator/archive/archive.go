package archive

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// Schema is the schema id every archive names in its `schema` field.
const Schema = "perfpages.run.v1"

// Options controls decoding.
type Options struct {
	// DateOptional accepts archives without artifact.date (the project's
	// git history supplies it). A date that is present must still parse.
	DateOptional bool
	// DefaultArtifact is used as artifact.id when the archive has none (git
	// notes: the annotated commit). An id in the archive wins.
	DefaultArtifact string
	// MaxBytes bounds the size of the archive after gunzip; 0 means
	// [DefaultMaxBytes]. The parse caps follow from it (see [Limits]).
	MaxBytes int64
}

// DefaultMaxBytes is the default of [Options.MaxBytes] (and of the site's
// max_input_bytes): 64 MiB, far above any real archive (perfpages' L data
// set writes archives under 1 MB) and low enough that decoding the worst
// file allowed stays well under 1 GiB (see [Limits]).
const DefaultMaxBytes = capped.Default

// Limits are the parse caps of one archive. They bound the memory a
// decode takes whatever the input, so that a hostile file is refused with
// a problem instead of exhausting memory. A cap that is hit is a Fatal
// problem: the file is skipped.
type Limits struct {
	// Bytes is the largest archive, after gunzip.
	Bytes int64
	// Values is the most values (objects, lists, strings, numbers…) a
	// JSON archive may hold: Bytes/32, 2 Mi at the default. A value costs
	// the decoder up to ~170 bytes (a tree node, then its part of the
	// run): a 64 MiB file of `[],[],…` peaks at ~360 MB RSS. A real archive
	// has one value per ~12 bytes, so real JSON archives of up to ~25 MB
	// fit; a larger one is refused with a message that names the knob.
	Values int
	// Tokens is the most separators (`,[{:` and newlines, plus `-?` in
	// YAML and `=.` in TOML, outside strings for TOML) a YAML or TOML
	// archive, a foreign result file or a perfgate receipt may hold:
	// Bytes/128, 512 Ki at the default. Every value needs one, so this
	// bounds the values without parsing. yaml.v3, BurntSushi/toml and the
	// foreign readers build their own trees first, at up to ~500 bytes
	// (YAML) and ~1 KB (TOML, at the deepest nesting allowed) per
	// separator: the worst TOML file allowed peaks at ~380 MB RSS, YAML at
	// ~200 MB. A real YAML or TOML archive has one separator per ~8
	// bytes, so those of up to ~4 MB fit (perfpages' L data set writes
	// 0.8 MB).
	Tokens int
	// Depth is the deepest nesting: 10. An archive needs 4 levels (the
	// document, results, a result, its params); the rest is room for
	// metadata in fields the schema ignores. BurntSushi/toml spends time
	// and memory quadratic in the depth of dotted keys and inline tables
	// (a 10 KB file of `a.a.a…` takes 1 GB), which this keeps small.
	Depth int
	// String is the longest string: 1 MiB. Names, titles and error texts
	// are far shorter, and every string ends up in pages.
	String int
}

// Allowed says where the caps come from, for messages: "allowed under
// max_input_bytes = 64 MiB".
func (l Limits) Allowed() string {
	return "allowed under max_input_bytes = " + capped.FormatBytes(l.Bytes)
}

// LimitsFor returns the caps for an archive of at most maxBytes (0:
// [DefaultMaxBytes]).
func LimitsFor(maxBytes int64) Limits {
	b := capped.Or(maxBytes)
	return Limits{Bytes: b, Values: int(max(b/32, 1024)), Tokens: int(max(b/128, 1024)), Depth: 10, String: 1 << 20}
}

// maxProblems bounds the problems reported for one file: past it they are
// counted, not kept, so that a file of a million bad results costs a
// million counts rather than a million messages (and the log one line).
const maxProblems = 100

// Problem is one thing wrong with an archive: the problem type every
// reader shares (generator/internal/readkit), with the file, the line
// (0 when the codec cannot tell), the message and whether the file cannot
// be used at all (Fatal).
type Problem = readkit.Problem

// FormatOf returns the format of a file name ("json", "yaml" or "toml") and
// whether it is gzipped, judging by its extension, case-insensitively:
// .json, .yaml, .yml, .toml, each optionally followed by .gz. ok is false
// for any other name.
func FormatOf(name string) (format string, gz bool, ok bool) {
	lower := strings.ToLower(name)
	if s, found := strings.CutSuffix(lower, ".gz"); found {
		lower, gz = s, true
	}
	switch path.Ext(lower) {
	case ".json":
		return "json", gz, true
	case ".yaml", ".yml":
		return "yaml", gz, true
	case ".toml":
		return "toml", gz, true
	}
	return "", false, false
}

// Decode decodes one archive. name is the file's path or a git description;
// it picks the format (see [FormatOf]; a name without a known extension,
// such as a git note, has its content sniffed) and names the file in
// problems. Gzip is recognised by the extension and by the magic bytes.
//
// If the file cannot be used at all, run is zero and one or more problems
// are Fatal. Otherwise run holds every valid result and problems hold the
// non-fatal ones (unknown fields, dropped invalid results, duplicates).
func Decode(name string, data []byte, opts Options) (model.Run, []Problem) {
	a := arenas.Get().(*readkit.Arena)
	defer func() { a.Reset(); arenas.Put(a) }()
	d := &decoder{file: name, opts: opts, limits: LimitsFor(opts.MaxBytes), arena: a}
	run := d.decode(data)
	if d.more > 0 {
		d.problems = append(d.problems, Problem{File: name, Msg: fmt.Sprintf("%d more problems not shown", d.more)})
	}
	if d.fatal {
		return model.Run{}, d.problems
	}
	return run, d.problems
}

// arenas hold the memory of JSON trees between decodes (see
// readkit.Arena): the decoder copies everything it keeps out of the tree
// into the Run, so the tree is dead once Decode returns.
var arenas = sync.Pool{New: func() any { return new(readkit.Arena) }}

func (d *decoder) decode(data []byte) model.Run {
	format, gz, known := FormatOf(d.file)
	if n := int64(len(data)); n > d.limits.Bytes {
		d.fail(0, "%v", &capped.TooLargeError{Limit: d.limits.Bytes, Size: n})
		return model.Run{}
	}
	// An LFS pointer or a UTF-16 file under a .gz name is not gzip either:
	// say what it is rather than "bad gzip data".
	if !capped.IsGzip(data) {
		if p := readkit.NotResults(d.file, data); p != nil {
			d.fail(0, "%s", p.Msg)
			return model.Run{}
		}
	}
	if gz || capped.IsGzip(data) {
		var err error
		if data, err = capped.Gunzip(data, d.limits.Bytes); err != nil {
			var tl *capped.TooLargeError
			if errors.As(err, &tl) {
				d.fail(0, "%v", err)
			} else {
				d.fail(0, "bad gzip data: %s", strings.TrimPrefix(err.Error(), "gzip: "))
			}
			return model.Run{}
		}
	}
	if p := readkit.NotResults(d.file, data); p != nil {
		d.fail(0, "%s", p.Msg)
		return model.Run{}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // editors on Windows write a BOM
	d.size = len(data)
	data, p := readkit.ValidUTF8(d.file, data)
	if p != nil {
		d.warn(p.Line, "%s", p.Msg)
	}
	if !known {
		if format, known = sniff(data); !known {
			d.fail(0, "unknown archive format (want a .json, .yaml, .yml or .toml file, optionally .gz)")
			return model.Run{}
		}
	}
	var root *readkit.Node
	switch format {
	case "json":
		root = d.parseJSON(data)
	case "yaml":
		root = d.parseYAML(data)
	default:
		root = d.parseTOML(data)
	}
	if root == nil {
		return model.Run{}
	}
	return d.run(root)
}

// sniff guesses the format of an archive whose name says nothing (a git
// note): JSON starts with '{' or '['; otherwise the first line that is not
// blank or a comment decides: `key = value` or `[table]` is TOML, `key:` or
// `---` is YAML.
func sniff(data []byte) (string, bool) {
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		switch {
		case t[0] == '{':
			return "json", true
		case bytes.HasPrefix(t, []byte("---")), bytes.HasPrefix(t, []byte("%YAML")):
			return "yaml", true
		case t[0] == '[':
			// A JSON array is no archive either way; TOML says so more usefully.
			if bytes.HasPrefix(t, []byte("[[")) || bytes.HasSuffix(t, []byte("]")) && !bytes.Contains(t, []byte(",")) {
				return "toml", true
			}
			return "json", true
		}
		eq := bytes.IndexByte(t, '=')
		colon := bytes.IndexByte(t, ':')
		switch {
		case eq >= 0 && (colon < 0 || eq < colon):
			return "toml", true
		case colon >= 0:
			return "yaml", true
		}
		return "", false
	}
	return "", false
}

// safely runs a third-party parser, turning a panic into an error: an
// archive must never crash the build.
func safely(codec string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: internal parser error: %v", codec, r)
		}
	}()
	return f()
}
