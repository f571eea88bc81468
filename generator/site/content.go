package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"gopkg.in/yaml.v3"

	"github.com/perfpages/perfpages/generator/internal/slug"
)

// Content is the Markdown side of a site: pages from content/, the home
// page's introduction (content/_index.md) and maintainers' triage notes
// (content/triage/<yyyy-mm-dd>.md), merged into the weekly reports.
type Content struct {
	Pages       []ContentPage
	Home        *ContentPage
	TriageNotes map[string]ContentPage // week date → notes
}

// ContentPage is one Markdown file with its front matter.
type ContentPage struct {
	Source string // file name for messages
	Slug   string // URL path below the base, e.g. "about" or "guide/setup"
	FrontMatter
	Body []byte // Markdown without the front matter
}

// FrontMatter is the YAML (---) or TOML (+++) header of a content page.
// Unknown keys are errors: a typo must not silently drop a setting.
type FrontMatter struct {
	Title       string `yaml:"title" toml:"title"`
	Description string `yaml:"description" toml:"description"`
	Weight      int    `yaml:"weight" toml:"weight"` // order in the navigation (ascending, then title)
	Menu        bool   `yaml:"menu" toml:"menu"`     // listed in the top navigation
	Draft       bool   `yaml:"draft" toml:"draft"`   // not built
}

// reservedSlugs are the site's own top-level routes; a content page must
// not shadow them.
var reservedSlugs = []string{"assets", "bench", "commit", "compare", "data", "pr", "triage", "404", "index.xml", "sitemap.xml"}

var weekFile = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.md$`)

// MaxContentSize caps a content page: a Markdown page over 8 MiB is not
// something a person wrote, and reading one must not exhaust memory. Larger
// files are skipped with a warning.
const MaxContentSize = 8 << 20

// MaxThemeFileSize caps a file of a user theme (templates, CSS, scripts,
// fonts, images); larger files are skipped with a warning.
const MaxThemeFileSize = 32 << 20

// LoadContent reads every .md file of fsys. name is the folder's name for
// messages. A page with a problem is skipped and the problem returned; the
// other pages are kept.
//
// fsys should be a content folder opened with generator/internal/confined,
// which keeps reads inside the folder (no symbolic link to /etc/passwd is
// ever followed) and never opens a named pipe or device; LoadContent
// itself also skips, with a warning, any entry that is not a regular file
// or is over [MaxContentSize], whatever fsys is.
func LoadContent(fsys fs.FS, name string) (*Content, []error) {
	c := &Content{TriageNotes: map[string]ContentPage{}}
	var problems []error
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", path.Join(name, p), err))
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src := path.Join(name, p)
		if !d.Type().IsRegular() {
			problems = append(problems, fmt.Errorf("%s: not a regular file, skipped", src))
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > MaxContentSize {
			if err == nil {
				err = fmt.Errorf("%d bytes, over the limit of %d MiB", info.Size(), MaxContentSize>>20)
			}
			problems = append(problems, fmt.Errorf("%s: %v, skipped", src, err))
			return nil
		}
		data, err := readCapped(fsys, p, MaxContentSize)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", src, err))
			return nil
		}
		fm, body, err := ParseFrontMatter(src, data)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		if fm.Draft {
			return nil
		}
		page := ContentPage{Source: src, FrontMatter: fm, Body: body}
		switch {
		case p == "_index.md":
			c.Home = &page
			return nil
		case path.Dir(p) == "triage":
			if !weekFile.MatchString(path.Base(p)) {
				problems = append(problems, fmt.Errorf("%s: triage notes must be named triage/<yyyy-mm-dd>.md after the week's Monday", src))
				return nil
			}
			c.TriageNotes[strings.TrimSuffix(path.Base(p), ".md")] = page
			return nil
		}
		name := strings.TrimSuffix(p, ".md")
		name = strings.TrimSuffix(strings.TrimSuffix(name, "/index"), "/_index")
		var parts []string
		for _, part := range strings.Split(name, "/") {
			parts = append(parts, slug.Name(part))
		}
		page.Slug = strings.Join(parts, "/")
		if slices.Contains(reservedSlugs, parts[0]) {
			problems = append(problems, fmt.Errorf("%s: the URL /%s/ is reserved for the site's own pages; rename the file", src, page.Slug))
			return nil
		}
		if page.Title == "" {
			page.Title = firstHeading(body, parts[len(parts)-1])
		}
		c.Pages = append(c.Pages, page)
		return nil
	})
	if err != nil {
		problems = append(problems, fmt.Errorf("%s: %v", name, err))
	}
	slices.SortFunc(c.Pages, func(a, b ContentPage) int {
		if a.Weight != b.Weight {
			return a.Weight - b.Weight
		}
		return strings.Compare(a.Slug, b.Slug)
	})
	return c, problems
}

// readCapped reads the file p of fsys, failing when it holds more than
// max bytes (it may have grown since it was listed).
func readCapped(fsys fs.FS, p string, max int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("more than the limit of %d MiB", max>>20)
	}
	return data, nil
}

func firstHeading(body []byte, fallback string) string {
	for _, line := range strings.Split(string(body), "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return fallback
}

// ParseFrontMatter splits a Markdown file into its front matter and body.
// YAML front matter sits between "---" lines, TOML between "+++" lines;
// a file without either has an empty front matter. Errors name the file
// and line.
func ParseFrontMatter(name string, data []byte) (FrontMatter, []byte, error) {
	var fm FrontMatter
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	norm := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	var delim string
	switch {
	case bytes.HasPrefix(norm, []byte("---\n")):
		delim = "---"
	case bytes.HasPrefix(norm, []byte("+++\n")):
		delim = "+++"
	default:
		return fm, data, nil
	}
	rest := norm[4:]
	var head, body []byte
	if bytes.HasPrefix(rest, []byte(delim+"\n")) || string(rest) == delim {
		head, body = nil, bytes.TrimPrefix(rest[len(delim):], []byte("\n"))
	} else {
		end := bytes.Index(rest, []byte("\n"+delim+"\n"))
		if end < 0 {
			if bytes.HasSuffix(rest, []byte("\n"+delim)) {
				end = len(rest) - len(delim) - 1
			} else {
				return fm, nil, fmt.Errorf("%s:1: front matter opened with %s is never closed", name, delim)
			}
		}
		head = rest[:end+1]
		body = rest[min(len(rest), end+len(delim)+2):]
	}
	if delim == "---" {
		dec := yaml.NewDecoder(bytes.NewReader(head))
		dec.KnownFields(true)
		if err := dec.Decode(&fm); err != nil && !errors.Is(err, io.EOF) {
			return fm, nil, yamlError(name, err, 1)
		}
	} else {
		md, err := toml.Decode(string(head), &fm)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return fm, nil, fmt.Errorf("%s:%d: front matter: %s", name, pe.Position.Line+1, pe.Message)
			}
			return fm, nil, fmt.Errorf("%s: front matter: %v", name, err)
		}
		if un := md.Undecoded(); len(un) > 0 {
			return fm, nil, fmt.Errorf("%s: front matter: unknown key %q", name, un[0].String())
		}
	}
	return fm, body, nil
}

var yamlLineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
var yamlFieldRe = regexp.MustCompile(`^field (.*) not found in type .*$`)

// yamlError turns a yaml.v3 error into one line "file:line: front
// matter: msg"; offset is the number of lines before the YAML.
func yamlError(name string, err error, offset int) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs = te.Errors
	}
	msg := strings.TrimPrefix(msgs[0], "yaml: ")
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscanf(m[1], "%d", &n)
		text := m[2]
		if f := yamlFieldRe.FindStringSubmatch(text); f != nil {
			text = fmt.Sprintf("unknown key %q", f[1])
		}
		return fmt.Errorf("%s:%d: front matter: %s", name, n+offset, text)
	}
	return fmt.Errorf("%s: front matter: %s", name, msg)
}

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
