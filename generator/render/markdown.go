package render

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders content written by people: GitHub-flavoured Markdown,
// heading ids, raw HTML dropped (content may come from anyone with commit
// access to the results repository).
func markdown(basePath string) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(baseLinks{basePath}, 100)),
		),
		// goldmark registers node renderers from the highest priority
		// value to the lowest, so the last one wins: below the HTML
		// renderer's 1000, lineBreaks replaces its raw HTML rendering.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(lineBreaks{}, 100))),
	)
}

// lineBreaks renders the one piece of inline HTML that tables in
// Markdown need, a line break ("<br />", which rustc-perf's summary
// tables use inside cells), and drops all other raw HTML as goldmark does
// by default.
type lineBreaks struct{}

func (lineBreaks) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkSkipChildren, nil
		}
		var raw []byte
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			raw = append(raw, seg.Value(source)...)
		}
		switch strings.ToLower(strings.TrimSpace(string(raw))) {
		case "<br>", "<br/>", "<br />":
			w.WriteString("<br />")
		default:
			w.WriteString("<!-- raw HTML omitted -->")
		}
		return ast.WalkSkipChildren, nil
	})
}

// baseLinks prefixes site-absolute links ("/commit/…") with the base path,
// so Markdown pages work on a sub-path site without knowing it.
type baseLinks struct{ base string }

func (b baseLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	if b.base == "/" {
		return
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			l.Destination = b.fix(l.Destination)
		case *ast.Image:
			l.Destination = b.fix(l.Destination)
		}
		return ast.WalkContinue, nil
	})
}

func (b baseLinks) fix(dest []byte) []byte {
	if len(dest) > 0 && dest[0] == '/' && !bytes.HasPrefix(dest, []byte("//")) {
		return append([]byte(strings.TrimSuffix(b.base, "/")), dest...)
	}
	return dest
}

// renderMarkdown converts Markdown to HTML.
func renderMarkdown(md goldmark.Markdown, src []byte) (template.HTML, error) {
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}

// The icons of rustc-perf's triage tables (❌ regressions, ✅
// improvements, ⚠️ warnings) are emoji: a reader without an emoji font
// sees empty boxes. The Markdown keeps them (it is rustc-perf's format);
// its HTML shows them as inline SVG with a text label.
var triageIcons = strings.NewReplacer(
	"❌", `<svg class="icon icon-regression" role="img" aria-label="regression" viewBox="0 0 16 16" width="1em" height="1em"><circle cx="8" cy="8" r="7.5" fill="#e5534b"/><path d="M5 5l6 6M11 5l-6 6" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>`,
	"✅", `<svg class="icon icon-improvement" role="img" aria-label="improvement" viewBox="0 0 16 16" width="1em" height="1em"><circle cx="8" cy="8" r="7.5" fill="#2da44e"/><path d="M4.5 8.5l2.5 2.5 4.5-5" stroke="#fff" stroke-width="2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
	"⚠️", `<svg class="icon icon-warning" role="img" aria-label="warning" viewBox="0 0 16 16" width="1em" height="1em"><path d="M8 1l7.5 13.5h-15z" fill="#bf8700"/><path d="M8 6v4M8 12.2v.1" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/></svg>`,
)

// renderTriage renders a triage report's Markdown, its icons as SVG.
// Only the reports get this: their Markdown is the generator's, with every
// name from the data escaped, so no icon can sit inside an attribute.
func renderTriage(md goldmark.Markdown, src []byte) (template.HTML, error) {
	h, err := renderMarkdown(md, src)
	return template.HTML(triageIcons.Replace(string(h))), err
}
