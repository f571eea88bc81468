package render

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strings"
	texttemplate "text/template"
)

// MaxThemeFileSize caps a file of a user theme (templates, CSS, scripts,
// fonts, images); larger files are skipped with a warning.
const MaxThemeFileSize = 32 << 20

// Theme is the parsed theme: one template set per page layout, plus the
// static files to copy.
type Theme struct {
	root  *template.Template            // base and partials
	pages map[string]*template.Template // layout name ("commit") → template
	// xml are the standalone XML layouts (sitemap.xml, feed.xml): text
	// templates, escaped with the xml function, not wrapped in base.
	xml    map[string]*texttemplate.Template
	static []staticFile
}

type staticFile struct {
	path string // relative to static/
	data []byte
}

// layers merges theme folders: the first layer that has a file wins.
type layers []fs.FS

// files lists every regular file under dir across all layers, sorted, each
// once, with the layer it is read from.
func (l layers) files(dir string) ([]string, map[string]fs.FS, error) {
	from := map[string]fs.FS{}
	for _, layer := range l {
		err := fs.WalkDir(layer, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == dir {
					return fs.SkipDir
				}
				return err
			}
			if d.Type().IsRegular() {
				if _, ok := from[p]; !ok {
					from[p] = layer
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	names := make([]string, 0, len(from))
	for p := range from {
		names = append(names, p)
	}
	slices.Sort(names)
	return names, from, nil
}

// LoadTheme parses the templates of the layered theme (user folder first,
// embedded default last). funcs are the template functions.
//
// Layout: layouts/base.html defines the page skeleton; every other
// layouts/*.html is a page layout that defines "main" (and optionally
// "title"); layouts/_partials/*.html define shared templates. Templates are
// parsed once, with missingkey=error, so a typo fails the build. The files
// under static/ are copied as they are, and script/*.js are the parts of
// static/js/site.js (see [layers.script]).
//
// A user theme folder is given as a generator/internal/confined FS (see
// generator.FromConfig): a file it leaves out — a link out of the folder,
// a named pipe, a file over [MaxThemeFileSize] — does not exist here, so
// the default theme's file of that name is used instead.
func LoadTheme(fsys []fs.FS, funcs template.FuncMap) (*Theme, error) {
	l := layers(fsys)
	names, from, err := l.files("layouts")
	if err != nil {
		return nil, fmt.Errorf("reading theme: %w", err)
	}
	root := template.New("").Option("missingkey=error").Funcs(funcs)
	var pageFiles []string
	var xmlFiles []string
	for _, n := range names {
		if strings.HasSuffix(n, ".xml") && path.Dir(n) == "layouts" {
			xmlFiles = append(xmlFiles, n)
			continue
		}
		if !strings.HasSuffix(n, ".html") {
			continue
		}
		switch {
		case strings.HasPrefix(n, "layouts/_partials/"), n == "layouts/base.html":
			if err := parseInto(root, from[n], n); err != nil {
				return nil, err
			}
		case path.Dir(n) == "layouts":
			pageFiles = append(pageFiles, n)
		}
	}
	if root.Lookup("base") == nil {
		return nil, errors.New("theme: layouts/base.html must define \"base\"")
	}
	t := &Theme{pages: map[string]*template.Template{}, xml: map[string]*texttemplate.Template{}}
	// Partials are rendered from a clone of their own, so page layouts
	// cannot shadow them.
	if t.root, err = root.Clone(); err != nil {
		return nil, err
	}
	for _, n := range pageFiles {
		clone, err := root.Clone()
		if err != nil {
			return nil, err
		}
		if err := parseInto(clone, from[n], n); err != nil {
			return nil, err
		}
		t.pages[strings.TrimSuffix(path.Base(n), ".html")] = clone
	}

	for _, n := range xmlFiles {
		data, err := fs.ReadFile(from[n], n)
		if err != nil {
			return nil, err
		}
		tpl, err := texttemplate.New(n).Option("missingkey=error").Funcs(texttemplate.FuncMap(funcs)).Parse(string(data))
		if err != nil {
			return nil, fmt.Errorf("theme: %w", err)
		}
		t.xml[path.Base(n)] = tpl
	}

	statics, sfrom, err := l.files("static")
	if err != nil {
		return nil, fmt.Errorf("reading theme: %w", err)
	}
	for _, n := range statics {
		data, err := fs.ReadFile(sfrom[n], n)
		if err != nil {
			return nil, err
		}
		t.static = append(t.static, staticFile{strings.TrimPrefix(n, "static/"), data})
	}
	if sfrom["static/"+siteScript] == nil {
		data, err := l.script()
		if err != nil {
			return nil, err
		}
		t.static = append(t.static, staticFile{siteScript, data})
		slices.SortFunc(t.static, func(a, b staticFile) int { return strings.Compare(a.path, b.path) })
	}
	return t, nil
}

// siteScript is the theme's script, relative to static/.
const siteScript = "js/site.js"

// script is the theme's script as LoadTheme writes it when no layer has a
// static file siteScript: the script/*.js files (of the first layer that
// has the name) in name order, inside one function whose scope they share.
func (l layers) script() ([]byte, error) {
	names, from, err := l.files("script")
	if err != nil {
		return nil, fmt.Errorf("reading theme: %w", err)
	}
	b := []byte("(function () {\n")
	for _, n := range names {
		if path.Dir(n) != "script" || path.Ext(n) != ".js" {
			continue
		}
		data, err := fs.ReadFile(from[n], n)
		if err != nil {
			return nil, err
		}
		b = append(b, data...)
	}
	return append(b, "})();\n"...), nil
}

func parseInto(t *template.Template, fsys fs.FS, name string) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if _, err := t.New(name).Parse(string(data)); err != nil {
		return fmt.Errorf("theme: %w", err)
	}
	return nil
}

// Render executes the page layout named layout with data into buf.
func (t *Theme) Render(buf *bytes.Buffer, layout string, data any) error {
	tpl, ok := t.pages[layout]
	if !ok {
		return fmt.Errorf("theme has no layout %q (layouts/%s.html)", layout, layout)
	}
	if err := tpl.ExecuteTemplate(buf, "base", data); err != nil {
		return fmt.Errorf("rendering %s: %w", layout, err)
	}
	return nil
}

// RenderStandalone executes the XML layout named layout ("sitemap.xml").
func (t *Theme) RenderStandalone(layout string, data any) ([]byte, error) {
	tpl, ok := t.xml[layout]
	if !ok {
		return nil, fmt.Errorf("theme has no layout %q (layouts/%s)", layout, layout)
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", layout, err)
	}
	return buf.Bytes(), nil
}
