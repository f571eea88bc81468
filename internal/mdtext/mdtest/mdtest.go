// Package mdtest reads Markdown back the way GitHub does, for the tests
// (fuzz tests above all) that prove the Markdown writers safe: goldmark
// with GitHub's extensions (tables, strikethrough, extended autolinks,
// task lists), and a walk of the tree that records its shape, the text a
// reader sees and the link destinations. Only tests import it.
package mdtest

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	stdhtml "html"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// gfm is goldmark configured as GitHub renders comments (extension.GFM
// includes Linkify).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Doc is what a reader gets from a Markdown document.
type Doc struct {
	// Shape lists the nodes other than text, in document order, with
	// their nesting depth: "2 Link", "3 CodeSpan", "1 Heading(3)"; line
	// breaks inside paragraphs appear as "soft" and "hard". Two documents
	// with the same Shape have the same structure; only their text and
	// destinations may differ.
	Shape []string
	// Text is the text a reader sees, code spans included, whitespace runs
	// collapsed to one space (block boundaries are whitespace too).
	Text string
	// Plain is Text without code spans: where GitHub looks for @mentions.
	Plain string
	// Links are the destinations of links and images and the URLs of
	// autolinks, in order.
	Links []string
}

// Parse parses src as GitHub-flavoured Markdown.
func Parse(src []byte) Doc {
	reader := text.NewReader(src)
	root := gfm.Parser().Parse(reader)
	var d Doc
	var all, plain strings.Builder
	depth := 0
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			if n.Type() == ast.TypeBlock {
				all.WriteByte(' ')
				plain.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		}
		depth++
		switch n := n.(type) {
		case *ast.Text:
			s := textOf(n.Segment.Value(src), n.IsRaw())
			all.WriteString(s)
			plain.WriteString(s)
			switch {
			case n.HardLineBreak():
				d.Shape = append(d.Shape, fmt.Sprintf("%d hard", depth))
			case n.SoftLineBreak():
				d.Shape = append(d.Shape, fmt.Sprintf("%d soft", depth))
			}
			if n.HardLineBreak() || n.SoftLineBreak() {
				all.WriteByte(' ')
				plain.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		case *ast.String:
			s := textOf(n.Value, n.IsCode() || n.IsRaw())
			all.WriteString(s)
			plain.WriteString(s)
			return ast.WalkContinue, nil
		case *ast.CodeSpan:
			d.Shape = append(d.Shape, fmt.Sprintf("%d CodeSpan", depth))
			all.WriteByte(' ')
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				v := c.(*ast.Text).Segment.Value(src)
				all.Write(bytes.ReplaceAll(v, []byte("\n"), []byte(" ")))
			}
			all.WriteByte(' ')
			plain.WriteByte(' ')
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			d.Shape = append(d.Shape, fmt.Sprintf("%d Heading(%d)", depth, n.Level))
		case *ast.Link:
			d.Shape = append(d.Shape, fmt.Sprintf("%d Link", depth))
			d.Links = append(d.Links, string(n.Destination))
		case *ast.Image:
			d.Shape = append(d.Shape, fmt.Sprintf("%d Image", depth))
			d.Links = append(d.Links, string(n.Destination))
		case *ast.AutoLink:
			d.Shape = append(d.Shape, fmt.Sprintf("%d AutoLink", depth))
			d.Links = append(d.Links, string(n.URL(src)))
		case *ast.RawHTML:
			var raw []byte
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				raw = append(raw, seg.Value(src)...)
			}
			d.Shape = append(d.Shape, fmt.Sprintf("%d RawHTML %q", depth, raw))
		default:
			d.Shape = append(d.Shape, fmt.Sprintf("%d %s", depth, n.Kind()))
		}
		if n.Type() == ast.TypeBlock {
			all.WriteByte(' ')
			plain.WriteByte(' ')
		}
		return ast.WalkContinue, nil
	})
	d.Text = collapse(all.String())
	d.Plain = collapse(plain.String())
	return d
}

// textOf is the text goldmark shows for a text segment: backslash escapes
// and entity references resolved unless it is raw.
func textOf(v []byte, raw bool) string {
	if raw {
		return string(v)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	html.DefaultWriter.Write(w, v)
	w.Flush()
	return stdhtml.UnescapeString(b.String())
}

// Shown is what the package mdtext promises a reader sees of s, written
// here independently of mdtext and inert: a byte that is not UTF-8 as
// \xHH; control characters (C0, DEL, C1), line and paragraph separators
// and bidirectional formatting characters as Go writes them in a string
// literal (\n, \r, \t, \xHH below U+0080, \uHHHH above); and, outside
// code (code false), a U+200B after every '@'. Whitespace is compared
// collapsed (Doc.Text), so trimming does not matter here.
func Shown(s string, code bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case (r >= 0x80 && r <= 0x9f) || r == '\u2028' || r == '\u2029' || Bidi(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		case r == '@' && !code:
			b.WriteString("@\u200B")
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return collapse(b.String())
}

// Bidi reports whether r is a bidirectional formatting character, which
// no Markdown output may hold: U+202A–U+202E, U+2066–U+2069, U+200E,
// U+200F and U+061C.
func Bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// collapse replaces runs of Markdown's whitespace (space, tab, line
// endings; not U+00A0 and the other Unicode spaces, which Markdown keeps
// as text) by one space and trims both ends.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
	}), " ")
}

// mention is GitHub's @mention (and an e-mail address's '@'): '@' followed
// directly by a name character.
var mention = regexp.MustCompile(`@[A-Za-z0-9_-]`)

// Mention returns the first @mention GitHub would find in d's text
// outside code, or "".
func (d Doc) Mention() string {
	return mention.FindString(d.Plain)
}

// Check compares a document written from hostile strings with the same
// document written from placeholders (clean): the same shape, the text of
// clean with each placeholder replaced by what the reader should see of
// its string (placeholders must not contain each other unless the longer
// one is a whole printed value, which is then replaced first), links only
// with one of the given prefixes, no @mention, and in the source no
// control character but newlines and no bidirectional formatting
// character (they would act in a terminal or reorder the rendered line).
// It returns "" when all hold, else what differs.
func Check(hostile, clean []byte, want map[string]string, linkPrefixes []string) string {
	h, c := Parse(hostile), Parse(clean)
	var problems []string
	for i, r := range string(hostile) {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029' || Bidi(r) {
			problems = append(problems, fmt.Sprintf("source holds %U at byte %d", r, i))
			break
		}
	}
	if d := diffLines(c.Shape, h.Shape); d != "" {
		problems = append(problems, "shape (-clean +hostile):\n"+d)
	}
	// Longer placeholders first: "QKEYQ_warn" before "QKEYQ".
	keys := slices.SortedFunc(maps.Keys(want), func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	expect := c.Text
	for _, placeholder := range keys {
		expect = strings.ReplaceAll(expect, placeholder, want[placeholder])
	}
	expect = collapse(expect)
	if h.Text != expect {
		problems = append(problems, fmt.Sprintf("text:\n got %q\nwant %q", h.Text, expect))
	}
	if len(h.Links) != len(c.Links) {
		problems = append(problems, fmt.Sprintf("links: %q, want %d", h.Links, len(c.Links)))
	}
	for _, l := range h.Links {
		ok := false
		for _, p := range linkPrefixes {
			ok = ok || strings.HasPrefix(l, p)
		}
		if !ok || strings.ContainsAny(l, " <>\"'`()[]\\") || !utf8.ValidString(l) {
			problems = append(problems, fmt.Sprintf("link %q: not one the writer builds", l))
		}
	}
	if m := h.Mention(); m != "" {
		problems = append(problems, fmt.Sprintf("mention %q in %q", m, h.Plain))
	}
	return strings.Join(problems, "\n")
}

func diffLines(a, b []string) string {
	if len(a) == len(b) {
		same := true
		for i := range a {
			same = same && a[i] == b[i]
		}
		if same {
			return ""
		}
	}
	var s strings.Builder
	for _, x := range a {
		fmt.Fprintf(&s, "- %s\n", x)
	}
	for _, x := range b {
		fmt.Fprintf(&s, "+ %s\n", x)
	}
	return s.String()
}
