package archive

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
)

// Schema is the schema id every archive names in its `schema` field.
const Schema = "perfpages.run.v1"

// maxSize bounds the decompressed size of a gzipped archive, so that a
// small hostile file cannot exhaust memory.
const maxSize = 1 << 30

// Options controls decoding.
type Options struct {
	// DateOptional accepts archives without artifact.date (the project's
	// git history supplies it). A date that is present must still parse.
	DateOptional bool
	// DefaultArtifact is used as artifact.id when the archive has none (git
	// notes: the annotated commit). An id in the archive wins.
	DefaultArtifact string
}

// Problem is one thing wrong with an archive.
type Problem struct {
	File  string // the name given to Decode
	Line  int    // 1-based; 0 when the problem has no line (or the codec cannot tell)
	Msg   string
	Fatal bool // the file cannot be used at all
}

// Error is "file:line: msg", or "file: msg" when Line is 0.
func (p Problem) Error() string {
	if p.Line > 0 {
		return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Msg
	}
	return p.File + ": " + p.Msg
}

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
func Decode(name string, data []byte, opts Options) (analysis.Run, []Problem) {
	d := &decoder{file: name, opts: opts}
	format, gz, known := FormatOf(name)
	if gz || isGzip(data) {
		var err error
		if data, err = gunzip(data); err != nil {
			d.fail(0, "%v", err)
			return analysis.Run{}, d.problems
		}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // editors on Windows write a BOM
	if !known {
		if format, known = sniff(data); !known {
			d.fail(0, "unknown archive format (want a .json, .yaml, .yml or .toml file, optionally .gz)")
			return analysis.Run{}, d.problems
		}
	}
	var root *node
	switch format {
	case "json":
		root = d.parseJSON(data)
	case "yaml":
		root = d.parseYAML(data)
	default:
		root = d.parseTOML(data)
	}
	if root == nil {
		return analysis.Run{}, d.problems
	}
	run := d.run(root)
	if d.fatal {
		return analysis.Run{}, d.problems
	}
	return run, d.problems
}

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %s", strings.TrimPrefix(err.Error(), "gzip: "))
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %s", strings.TrimPrefix(err.Error(), "gzip: "))
	}
	if len(out) > maxSize {
		return nil, fmt.Errorf("gzip data expands to more than %d bytes", maxSize)
	}
	return out, nil
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
