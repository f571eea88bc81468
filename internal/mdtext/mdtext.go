// Package mdtext puts text that comes from data — benchmark, parameter,
// metric and machine names, artifact ids, titles, error strings, units —
// into the Markdown perfpages writes: the PR comment of `compare -format
// markdown`, the weekly triage report and the `comment.md` of `check`.
// Every Markdown writer goes through it, so one set of rules decides what
// a crafted name can do. Fuzz tests prove the rules against goldmark with
// GitHub's extensions (package mdtest): FuzzFragments here for each place
// a writer puts a fragment, FuzzMarkdownWriters (generator/report) and
// FuzzCommentMarkdown (cmd/perfpages/internal/perfgate) for the documents
// themselves.
//
// The promise: whatever s holds, Text(s), Code(s) and CodeCell(s) render
// as exactly one run of text (or one code span) showing Line(s), with two
// documented changes (below). No heading, list, quote, table row, link,
// image, autolink, raw HTML, emphasis or strikethrough can start from
// data wherever the writer places the fragment: at the start of a line,
// inside a sentence, in link text or in a table cell. The fuzz tests prove
// it for goldmark (the site's renderer); the rules follow the GFM spec,
// which GitHub's renderer implements, and GitHub's mention syntax.
//
// The changes a reader sees:
//
//   - Line: control characters (C0, DEL, C1, the Unicode line and
//     paragraph separators), bidirectional formatting characters (U+202E
//     and its kind) and bytes that are not UTF-8 are shown as visible
//     escapes (\n, \x1b, \u202e, \xff), as package inert writes them for
//     every output, so a value is always one line that no terminal escape
//     or right-to-left override acts in; spaces at either end are
//     trimmed, since Markdown drops them anyway and four of them at the
//     start of a line would open a code block.
//   - Text only: every '@' is followed by U+200B ZERO WIDTH SPACE.
//     GitHub turns "@name" in plain text into a mention (and notifies
//     name) after Markdown has been rendered, so no backslash or entity
//     stops it; the invisible space does (Dependabot writes "@&#8203;"
//     for the same reason). It also breaks e-mail autolinks. Code spans
//     need no such care: GitHub does not look for mentions in code.
//
// Everything else is kept: the backslash escapes Text adds are removed by
// any CommonMark renderer. Text escapes only where a character could start
// markup, so ordinary names stay readable in the Markdown source
// ("json-decode", "wall_ms", "go1.26", "instructions:u" are unchanged).
package mdtext

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/perfpages/perfpages/generator/inert"
)

// Line is s as one line of plain text: [inert.Line] (control and
// bidirectional characters and invalid bytes as visible escapes), with
// spaces trimmed from both ends. It is what Text and Code show, and what
// the plain-text outputs print.
func Line(s string) string { return strings.Trim(inert.Line(s), " ") }

// zwsp follows every '@' in Text: see the package comment.
const zwsp = "\u200B"

// Text is s as inline Markdown text showing Line(s) (with '@' followed by
// a zero-width space). It is safe anywhere inline: in a sentence, at the
// start of a line or list item, in link text, in a table cell.
//
// Escaped with a backslash, always: \ ` * _ ~ [ ] < > | & $ — code spans,
// emphasis, strikethrough, links, images, footnotes, task boxes, raw HTML
// and autolinks in angle brackets, block quotes, table cells, entity
// references and GitHub's math. '_' is left alone between two ASCII
// letters or digits, where CommonMark cannot open or close emphasis with
// it ("wall_ms"). Escaped at the start only (where a block could open): #
// + - = and the '.' or ')' after leading digits (headings, list items,
// thematic breaks, setext underlines). Escaped in context: ':' before '/'
// (http://, https://, ftp://) and the '.' of "www." (GFM's extended
// autolinks).
func Text(s string) string {
	s = Line(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:]) // valid: Line escaped invalid bytes
		if needsEscape(s, i) {
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size])
		if r == '@' {
			b.WriteString(zwsp)
		}
		i += size
	}
	return b.String()
}

// needsEscape decides whether the ASCII character at s[i] gets a
// backslash (see Text).
func needsEscape(s string, i int) bool {
	switch c := s[i]; c {
	case '\\', '`', '*', '~', '[', ']', '<', '>', '|', '&', '$':
		return true
	case '_':
		return i == 0 || i+1 == len(s) || !isAlnum(s[i-1]) || !isAlnum(s[i+1])
	case '#', '+', '-', '=':
		return i == 0
	case '.', ')':
		if i > 0 && allDigits(s[:i]) {
			return true // "1." or "1)" would open an ordered list
		}
		return c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www")
	case ':':
		return i+1 < len(s) && s[i+1] == '/'
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// Code is s as a Markdown code span showing Line(s), for inline text
// outside tables; "" when Line(s) is empty (an empty code span does not
// exist in Markdown). The fence is one backtick longer than the longest
// run inside, padded with a space where the content begins or ends with a
// backtick (CommonMark strips that one space again).
func Code(s string) string { return code(Line(s), false) }

// CodeCell is Code for a table cell: a '|' inside is written "\|", which
// GFM's table parser reads as a pipe of the cell's content (in a code span
// too) instead of the end of the cell. Outside a table "\|" would show
// its backslash, hence two functions.
func CodeCell(s string) string { return code(Line(s), true) }

func code(s string, cell bool) string {
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[len(s)-1] == '`' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// URL makes a link destination the writer built (from the site's base,
// the repository's URL and slugs) safe inside Markdown's "(...)": every
// byte that could end the destination or start markup — space, control
// characters, < > ( ) [ ] ` " ' \ | and non-ASCII — is percent-encoded.
// Percent-encoding is transparent to a browser, so a valid URL still
// leads where it did.
func URL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("<>()[]`\"'\\|{}^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
