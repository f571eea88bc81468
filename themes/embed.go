// Package themes embeds perfpages' default theme: the html/template
// layouts and partials under default/layouts, the static files (CSS,
// the ECharts build) under default/static, and under default/script the
// parts of the site's script, which the generator joins into
// static/js/site.js.
//
// It is the render stage's raw material: generator/render parses these
// templates once per build and layers a user's themes/<name>/ folder over
// them, file by file, so a site can override any layout, partial,
// static file or script part without forking the theme.
package themes

import (
	"embed"
	"io/fs"
)

// The all: prefix keeps files whose names start with '_' or '.' (the
// _partials folder); without it they would vanish silently.
//
//go:embed all:default
var embedded embed.FS

// Default is the default theme, rooted at its folder (layouts/, static/,
// script/).
var Default fs.FS = mustSub(embedded, "default")

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}
