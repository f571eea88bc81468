// Package sourcespec holds what a source's entry in perfpages.toml may
// say, apart from any reader: the names of the foreign formats and the
// syntax of `artifact = "…"` path patterns. config checks a source with it
// and generator/foreign reads files with it, so the arrow goes from the
// readers to this leaf and config depends on no reader.
package sourcespec

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Formats are the names of the foreign formats, sorted: the
// contract names of -format and `format = "…"`. generator/foreign
// registers a reader for each (a test keeps the two lists equal).
var Formats = []string{"asv", "bmf", "criterion", "gab", "gobench", "googlebench", "hyperfine", "perfgate", "pytest-benchmark"}

// IsFormat reports whether name is a foreign format.
func IsFormat(name string) bool { return slices.Contains(Formats, name) }

// Fields are what a path pattern gives a file: its artifact id, machine,
// PR number and date ("" or zero when the pattern has no placeholder for
// one).
type Fields struct {
	ID, Machine string
	PR          int
	Date        time.Time
}

// Pattern matches a source's `artifact = "…"` path pattern, such as
// "{sha}/{machine}.txt": {sha} (or {id}) is the artifact id, {machine} the
// machine, {pr} a PR number, {date} an RFC 3339 date or YYYY-MM-DD, {*}
// any one path segment; the rest must match literally. A pattern ending in
// "/" matches a folder prefix (directory formats).
type Pattern struct {
	re     *regexp.Regexp
	prefix *regexp.Regexp // folder patterns: the pattern without its tail
	keys   []string
	dir    bool
}

// RecordsCommit reports whether results of the foreign format record the
// commit they measured (github-action-benchmark's data.js, asv's result
// files, pytest-benchmark's commit_info): a source of it may have a path
// pattern without {sha}, such as "{machine}/data.js" for a data.js per
// runner.
func RecordsCommit(format string) bool {
	return format == "gab" || format == "asv" || format == "pytest-benchmark"
}

// ParsePatternFor compiles the path pattern of a source of the foreign
// format, which must name the artifact ({sha}) unless the format records
// its commit.
func ParsePatternFor(format, p string) (*Pattern, error) {
	needSHA := !RecordsCommit(format)
	if p == "" {
		return nil, fmt.Errorf("empty artifact pattern")
	}
	var b strings.Builder
	pat := &Pattern{dir: strings.HasSuffix(p, "/")}
	b.WriteString("^")
	rest := p
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("artifact pattern %q: unclosed {", p)
		}
		key := rest[i+1 : i+j]
		switch key {
		case "sha", "id", "machine", "pr", "date":
			if key == "id" {
				key = "sha"
			}
			pat.keys = append(pat.keys, key)
			b.WriteString("([^/]+)")
		case "*":
			b.WriteString("[^/]+")
		default:
			return nil, fmt.Errorf("artifact pattern %q: unknown placeholder {%s} (want {sha}, {machine}, {pr}, {date} or {*})", p, key)
		}
		rest = rest[i+j+1:]
	}
	if pat.dir {
		pat.prefix = regexp.MustCompile(b.String())
		b.WriteString(".*")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("artifact pattern %q: %w", p, err)
	}
	if needSHA && !strings.Contains(p, "{sha}") && !strings.Contains(p, "{id}") {
		return nil, fmt.Errorf("artifact pattern %q: no {sha}: the artifact must come from the path (only formats that record their commit, gab, asv and pytest-benchmark, may leave it out)", p)
	}
	pat.re = re
	return pat, nil
}

// Dir reports whether the pattern matches folder prefixes.
func (p *Pattern) Dir() bool { return p.dir }

// Match applies the pattern to a slash-separated path and returns the
// fields it gives and, for folder patterns, the matched folder prefix.
func (p *Pattern) Match(path string) (Fields, string, bool) {
	m := p.re.FindStringSubmatchIndex(path)
	if m == nil {
		return Fields{}, "", false
	}
	var def Fields
	for i, key := range p.keys {
		v := path[m[2+2*i]:m[3+2*i]]
		switch key {
		case "sha":
			def.ID = v
		case "machine":
			def.Machine = v
		case "pr":
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				def.PR = n
			}
		case "date":
			for _, layout := range []string{time.RFC3339, "2006-01-02"} {
				if t, err := time.Parse(layout, v); err == nil {
					def.Date = t.UTC()
					break
				}
			}
		}
	}
	prefix := ""
	if p.dir {
		if loc := p.prefix.FindStringIndex(path); loc != nil {
			prefix = path[:loc[1]]
		}
	}
	return def, prefix, true
}
