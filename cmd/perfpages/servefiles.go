package main

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"time"
)

// The timeouts of serve's HTTP server. Without them a connection that
// sends nothing, or keeps quiet between requests, is held forever: a few
// thousand of them exhaust the process's file descriptors.
const (
	// serveReadHeaderTimeout bounds the wait for a request's headers,
	// from the connection's first byte or its last request.
	serveReadHeaderTimeout = 10 * time.Second
	// serveReadTimeout bounds reading a whole request (the site takes no
	// bodies: GET and HEAD only).
	serveReadTimeout = 30 * time.Second
	// serveWriteTimeout bounds writing a response: the largest file of a
	// site (echarts.min.js, a data file of a few MB) takes well under a
	// second on any link serve is meant for.
	serveWriteTimeout = 60 * time.Second
	// serveIdleTimeout is how long a kept-alive connection may wait for
	// its next request; a browser opens a new one when it needs it.
	serveIdleTimeout = 15 * time.Second
)

// newServer is serve's HTTP server: h behind every timeout above.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serveReadHeaderTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
	}
}

// siteHandler serves the site built in dir the way GitHub Pages does: a
// folder is its index.html (a URL without the final slash is redirected
// to it), a folder without one does not exist — it is never listed — and
// whatever does not exist is a 404 that shows the site's own 404.html.
func siteHandler(dir string) http.Handler {
	files := pagesDir{http.Dir(dir)}
	server := http.FileServer(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := files.Open(path.Clean("/" + r.URL.Path))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				notFound(w, dir)
				return
			}
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		f.Close()
		server.ServeHTTP(w, r)
	})
}

// notFound answers 404 with the site's 404.html, or a plain 404 when the
// site has none.
func notFound(w http.ResponseWriter, dir string) {
	page, err := os.ReadFile(filepath.Join(dir, "404.html"))
	if err != nil {
		http.NotFound(w, nil)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(page)
}

// pagesDir is an http.FileSystem in which a folder without an index.html
// does not exist, so http.FileServer never lists one.
type pagesDir struct{ http.FileSystem }

func (d pagesDir) Open(name string) (http.File, error) {
	f, err := d.FileSystem.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		index, err := d.FileSystem.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, fs.ErrNotExist
		}
		ist, err := index.Stat()
		index.Close()
		if err != nil || !ist.Mode().IsRegular() {
			f.Close()
			return nil, fs.ErrNotExist
		}
	}
	return f, nil
}
