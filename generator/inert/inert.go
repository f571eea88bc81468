// Package inert renders text that comes from data — benchmark, machine,
// metric and parameter names, file names, commit titles, error texts — so
// that it cannot act on whatever shows it: a terminal, a log, a Markdown
// comment, a web page. It is the one definition of which characters are
// dangerous there and how they are shown instead.
//
// Two kinds of character act instead of being read:
//
//   - control characters: C0 (newline, tab, ESC, NUL, …), DEL and C1, and
//     the Unicode line and paragraph separators U+2028 and U+2029. A
//     newline in a benchmark name would forge a separate log line
//     ("perfpages: note: …"); ESC starts a terminal escape sequence
//     (colours, cursor moves, window titles).
//   - bidirectional formatting characters: the embeddings and overrides
//     U+202A–U+202E, the isolates U+2066–U+2069 and the marks U+200E,
//     U+200F and U+061C. U+202E RIGHT-TO-LEFT OVERRIDE shows "exe.txt"
//     as "txt.exe" and reorders the rest of its line or paragraph
//     ("Trojan Source", CVE-2021-42574). html/template escapes markup,
//     not these: they reach a page as they are.
//
// Each is shown as a visible escape, the way Go writes it in a string
// literal: \n, \r, \t, \x1b for other C0 characters and DEL, \u0085 for
// C1, \u2028, \u202e; a byte that is not UTF-8 as \xff. Nothing else
// changes, backslashes included: the escapes are for a reader, not a
// format to decode, and doubling every backslash of a Windows path would
// cost more than the rare name that already holds the text "\x1b".
//
// [Line] is for one line of text (logs, the terminal, plain-text and
// Markdown outputs; package mdtext builds on it). [Page] and [JSON] are
// for the site's files, where only the bidirectional characters act:
// html/template and encoding/json already escape what is markup or syntax
// there, and a control character in HTML shows as nothing or a box.
package inert

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// IsControl reports whether r is a control character Line escapes: C0,
// DEL, C1, U+2028 or U+2029.
func IsControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029'
}

// IsBidi reports whether r is a bidirectional formatting character:
// U+202A–U+202E (embeddings, overrides, pop), U+2066–U+2069 (isolates)
// and the marks U+200E, U+200F and U+061C.
func IsBidi(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') ||
		r == '\u200e' || r == '\u200f' || r == '\u061c'
}

// Escaped reports whether Line shows r as an escape.
func Escaped(r rune) bool { return IsControl(r) || IsBidi(r) }

// Line is s made inert for one line of text: every control and
// bidirectional character, and every byte that is not UTF-8, written as a
// visible escape (see the package comment). The result is valid UTF-8,
// holds no newline and no character Escaped reports, and is s itself when
// s needs nothing. Line is idempotent.
func Line(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Escaped(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, "\\x", uint32(s[i]), 2)
		case Escaped(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// escape is the visible form of a character Escaped reports.
func escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	var b strings.Builder
	if r < 0x80 {
		writeHex(&b, "\\x", uint32(r), 2)
	} else {
		writeHex(&b, "\\u", uint32(r), 4)
	}
	return b.String()
}

func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	b.WriteString(prefix)
	h := strconv.FormatUint(uint64(v), 16)
	b.WriteString(strings.Repeat("0", digits-len(h)))
	b.WriteString(h)
}

// Page returns a rendered page (HTML, XML, Markdown) with every
// bidirectional character written as its visible escape (\u202e), so
// that no name can reorder what a browser shows. It returns b itself
// when there is none, which is nearly always: the scan looks for the
// lead bytes of those characters (0xE2, 0xD8) only. Do not use it on
// JSON, where \u202e is an escape of the character itself: see [JSON].
func Page(b []byte) []byte { return replaceBidi(b, `\u`) }

// JSON returns encoded JSON with every bidirectional character inside
// its strings written so that the decoded string holds the visible escape
// (the six characters \u202e, encoded as \\u202e) instead of the
// character. Outside strings JSON has only ASCII, so the bytes can be
// rewritten without parsing them. It returns b itself when there is
// nothing to rewrite.
func JSON(b []byte) []byte { return replaceBidi(b, `\\u`) }

// replaceBidi writes every bidirectional character of b as prefix and its
// four hex digits.
func replaceBidi(b []byte, prefix string) []byte {
	first := firstBidi(b)
	if first < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:first]...)
	for i := first; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if IsBidi(r) {
			out = append(out, prefix...)
			h := strconv.FormatUint(uint64(r), 16)
			out = append(out, strings.Repeat("0", 4-len(h))...)
			out = append(out, h...)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstBidi is the offset of the first bidirectional character in b, or
// -1. U+200E–U+2069 are encoded E2 80 8E … E2 81 A9, U+061C as D8 9C;
// bytes.IndexByte finds candidates at memchr speed.
func firstBidi(b []byte) int {
	first := -1
	for off := 0; off < len(b); {
		i := bytes.IndexByte(b[off:], 0xE2)
		if i < 0 {
			break
		}
		i += off
		if r, _ := utf8.DecodeRune(b[i:]); IsBidi(r) {
			first = i
			break
		}
		off = i + 1
	}
	if i := bytes.Index(b, []byte("\u061c")); i >= 0 && (first < 0 || i < first) {
		first = i
	}
	return first
}
