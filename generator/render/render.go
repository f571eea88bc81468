// Package render is the render stage of a site build: it turns the
// outputs of the plan (package sitemodel) into the bytes of files, through
// the theme's html/template layouts, and hands them to the write stage
// ([Files]).
//
// It sits between the site model and the writer (see the architecture
// section of the README) and does no analysis, reads no input and writes no
// file itself: every number it renders was computed and formatted by the
// plan. It owns the theme (layouts, partials, static files; a user theme
// overrides any file of the default), the Markdown renderer (goldmark, for
// content pages and triage reports), the charts' options (go-echarts, see
// charts.go) and the encoding of data files.
package render

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/inert"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/themes"
)

// Files is where a Renderer puts the files it renders: package write's
// Writer. Its methods are called from several goroutines at once.
type Files interface {
	// Put writes the file at slash path p, made from inputs identified by
	// key ("" for none). It does not keep data once it returns: the
	// renderer reuses the buffer.
	Put(p, key string, data []byte) error
	// Keep carries the previous build's file at p, made with key, over.
	Keep(p, key string) error
	// WriteFile is Put without a key.
	WriteFile(p string, data []byte) error
}

// Renderer renders a plan's outputs into Files. Emit is safe for
// concurrent use.
type Renderer struct {
	site   *sitemodel.SiteView
	theme  *Theme
	md     goldmark.Markdown
	out    Files
	config string // the site's configuration for the script, JSON
	charts string // the chart options and the axis units, JSON
}

// New loads the theme (user theme folders first, the embedded default
// theme last) for the site whose site-wide view is site, and puts what it
// renders into out.
func New(site *sitemodel.SiteView, userThemes []fs.FS, out Files) (*Renderer, error) {
	r := &Renderer{site: site, out: out, md: markdown(site.BasePath)}
	theme, err := LoadTheme(append(append([]fs.FS(nil), userThemes...), themes.Default), r.funcs())
	if err != nil {
		return nil, err
	}
	r.theme = theme
	// Nothing here may change when a commit is added (the length of the
	// main line is in data/meta.json): every page carries it.
	cfg, err := inertJSON(map[string]any{
		"base": site.BasePath, "routes": site.Routes, "chunk": site.Chunk, "z": site.ZThreshold,
	})
	if err != nil {
		return nil, err
	}
	r.config = string(cfg)
	if r.charts, err = chartOptions(); err != nil {
		return nil, err
	}
	return r, nil
}

// pageData is what every layout gets as ".".
type pageData struct {
	Site   *sitemodel.SiteView
	Charts bool // the page draws charts: load ECharts
	Title  string
	URL    string // site-relative
	Kind   string
	Data   any
	// Config is the site's configuration for its script (JSON), the
	// data-site attribute of <body>.
	Config string
}

// Emit renders one output and puts it into the Files; an output the plan
// kept is kept.
func (r *Renderer) Emit(o sitemodel.Output) error {
	file := route.File(o.Path)
	if o.Keep {
		return r.out.Keep(file, o.Key)
	}
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	data, err := r.render(o, buf)
	if err != nil {
		return fmt.Errorf("/%s: %w", o.Path, err)
	}
	if d, ok := o.Data.(interface{ Release() }); ok {
		d.Release() // encoded: its storage serves the next data file
	}
	return r.out.Put(file, o.Key, data)
}

// buffers hold the bytes of a file from its rendering to its writing, and
// then the next file's: a cold build at M renders 70 MB of files and
// encodes twice as much JSON, which fresh buffers gave the garbage
// collector to free.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render returns the bytes of one output, rendered into buf (reset):
// the bytes may be buf's.
//
// No output carries a bidirectional formatting character (U+202E and its
// kind, see package inert): a benchmark, machine or commit title holding
// one would reorder what a browser shows around it, and html/template
// escapes markup, not these. JSON is made inert where it is encoded
// (inertJSON), since there "\u202e" would be the character itself; pages,
// feeds and Markdown files are made inert whole once rendered, which
// covers every name a template shows, now and in any theme. The site
// owner's own Markdown pages (layout "page") are left as written: a page
// in Arabic or Hebrew needs its marks.
func (r *Renderer) render(o sitemodel.Output, buf *bytes.Buffer) ([]byte, error) {
	buf.Reset()
	var b []byte
	var err error
	switch {
	case o.Layout == "":
		return encodeData(o, buf)
	case strings.HasSuffix(o.Layout, ".xml"):
		b, err = r.theme.RenderStandalone(o.Layout, r.pageData(o))
	default:
		err = r.theme.Render(buf, o.Layout, r.pageData(o))
		b = buf.Bytes()
	}
	if err != nil || o.Layout == contentLayout {
		return b, err
	}
	return inert.Page(b), nil
}

// contentLayout is the layout of the site owner's Markdown pages.
const contentLayout = "page"

// inertJSON is json.Marshal with bidirectional characters written as
// their visible escapes (inert.JSON): for every JSON the site holds, in
// data files and in the attributes its script reads.
func inertJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return inert.JSON(b), nil
}

func (r *Renderer) pageData(o sitemodel.Output) pageData {
	return pageData{Site: r.site, Charts: o.Charts, Title: o.Title, URL: o.Path, Kind: o.Layout, Data: o.Data, Config: r.config}
}

// gzipWriters are reused: a new writer allocates over a megabyte of
// compressor state, thousands of times per build. Reset gives the same
// bytes as a new writer of the same level.
var gzipWriters = sync.Pool{New: func() any {
	// Level 5 compresses these files within 1 % of level 6's size, and
	// faster.
	zw, err := gzip.NewWriterLevel(nil, 5)
	if err != nil {
		panic(err) // 5 is a valid level
	}
	return zw
}}

// encodeData encodes a data file by its extension: .json, .json.gz
// (gzip-compressed JSON: deterministic, no name or time in the header)
// and .md. The bytes it returns may be buf's.
func encodeData(o sitemodel.Output, buf *bytes.Buffer) ([]byte, error) {
	switch {
	case strings.HasSuffix(o.Path, ".json.gz"):
		scratch := jsonBuffers.Get().(*[]byte)
		defer jsonBuffers.Put(scratch)
		j, err := appendJSON((*scratch)[:0], o.Data)
		if err != nil {
			return nil, err
		}
		if cap(j) <= maxKept {
			*scratch = j
		}
		buf.Grow(len(j)/4 + 64)
		zw := gzipWriters.Get().(*gzip.Writer)
		defer gzipWriters.Put(zw)
		zw.Reset(buf)
		if _, err := zw.Write(j); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case strings.HasSuffix(o.Path, ".json"):
		return appendJSON(buf.AvailableBuffer(), o.Data)
	case strings.HasSuffix(o.Path, ".md"):
		s, ok := o.Data.(string)
		if !ok {
			return nil, fmt.Errorf("%s: Markdown data is %T, not text", o.Path, o.Data)
		}
		return inert.Page([]byte(s)), nil
	}
	return nil, fmt.Errorf("%s: no encoding for this kind of data file", o.Path)
}

// jsonBuffers hold the JSON of a .json.gz file until it is compressed;
// one larger than maxKept is not kept.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

const maxKept = 16 << 20

// appendJSON appends v's JSON followed by a newline to b; a value that
// writes its own JSON (a data file's hand-made encoder) is taken as it
// writes it, without encoding/json compacting it again.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch m := v.(type) {
	case interface{ AppendJSON([]byte) []byte }:
		n := len(b)
		b = m.AppendJSON(b)
		if j := inert.JSON(b[n:]); len(j) == 0 || &j[0] != &b[n] {
			b = append(b[:n], j...) // rewritten
		}
		return append(b, '\n'), nil
	case json.Marshaler:
		j, err := m.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(append(b, inert.JSON(j)...), '\n'), nil
	}
	j, err := inertJSON(v)
	if err != nil {
		return nil, err
	}
	return append(append(b, j...), '\n'), nil
}

// Finish writes what every site has besides its planned outputs: the
// theme's static files and .nojekyll (GitHub Pages must not run Jekyll
// over the site: it would drop files starting with "_").
func (r *Renderer) Finish() error {
	for _, f := range r.theme.static {
		if err := r.out.WriteFile(route.Asset(f.path), f.data); err != nil {
			return err
		}
	}
	if err := r.out.WriteFile(route.ChartOptions, []byte(r.charts+"\n")); err != nil {
		return err
	}
	return r.out.WriteFile(route.NoJekyll, nil)
}

func (r *Renderer) funcs() template.FuncMap {
	base := r.site.BasePath
	return template.FuncMap{
		// url makes a site-relative path absolute under the base path.
		"url":       func(p string) string { return base + strings.TrimPrefix(p, "/") },
		"pct":       report.FormatChange,
		"date":      func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"day":       func(t time.Time) string { return t.UTC().Format("2006-01-02") },
		"iso":       func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"threshold": report.FormatThreshold,
		// bytes formats a size in bytes as the pages show values (64 GiB).
		"bytes": func(n int64) string { return analysis.FormatValue(float64(n), "bytes") },
		// markdown renders Markdown (content pages, triage reports) to HTML.
		"markdown": func(s string) (template.HTML, error) { return renderMarkdown(r.md, []byte(s)) },
		"triage":   func(s string) (template.HTML, error) { return renderTriage(r.md, []byte(s)) },
		"chart":    chartHTML,
		"json": func(v any) (string, error) {
			b, err := inertJSON(v)
			return string(b), err
		},
		"xml": func(s string) string {
			var b bytes.Buffer
			template.HTMLEscape(&b, []byte(s))
			return b.String()
		},
		"rfc3339":      func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"jsnum":        JSNumber,
		"warningTotal": sitemodel.WarningTotal,
	}
}
