package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxChartPageGzip is what a reader's first chart page may cost to open,
// gzip-compressed as Pages and Netlify serve it: the HTML, the CSS, the
// scripts (site.js and the theme's ECharts build) and the data files the
// script fetches (the full ECharts build alone was 336 KB; the theme's
// custom build, made by scripts/echarts, ships only what the charts use).
const maxChartPageGzip = 250_000

// checkWeight adds up the gzip size of every file the tab asked for so far
// (a .gz data file counts as it is: the script decompresses it) and
// requires at most maxChartPageGzip: a check of bytes, not of time.
// TestChartPages calls it on the smallest page of every kind that draws
// charts, with an empty cache, once its charts are drawn: what every chart
// page costs at least (a benchmark with more series fetches more data
// files on top).
func checkWeight(t *testing.T, tb *tab) {
	t.Helper()
	public := filepath.Join(demo.dir, "public")
	tb.mu.Lock()
	requests := slices.Clone(tb.requests)
	tb.mu.Unlock()
	seen := map[string]bool{}
	total, echarts := 0, 0
	var lines []string
	for _, u := range requests {
		file, err := servedFile(public, strings.TrimPrefix(u, tb.base))
		if err != nil {
			t.Error(err)
			continue
		}
		if file == "" || seen[file] {
			continue
		}
		seen[file] = true
		n, err := gzipSize(file)
		if err != nil {
			t.Fatal(err)
		}
		total += n
		if filepath.Base(file) == "echarts.min.js" {
			echarts = n
		}
		rel, _ := filepath.Rel(public, file)
		lines = append(lines, fmt.Sprintf("%8d  %s", n, filepath.ToSlash(rel)))
	}
	t.Logf("%d files, %d bytes gzip (ECharts %d):\n%s", len(seen), total, echarts, strings.Join(lines, "\n"))
	if echarts == 0 {
		t.Error("the page did not load echarts.min.js")
	}
	if total > maxChartPageGzip {
		t.Errorf("the page costs %d bytes gzip to open, over %d", total, maxChartPageGzip)
	}
}

// servedFile is the file of the output folder that the test server sends
// for a request path ("" for what is not the site's: data: URLs, the
// browser's own favicon probe).
func servedFile(public, request string) (string, error) {
	u, err := url.Parse(request)
	if err != nil || u.Scheme != "" || !strings.HasPrefix(u.Path, "/") {
		return "", nil
	}
	p := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") {
		p = path.Join(p, "index.html")
	}
	file := filepath.Join(public, filepath.FromSlash(p))
	if _, err := os.Stat(file); err != nil {
		if p == "/favicon.ico" {
			return "", nil
		}
		return "", fmt.Errorf("%s: no such file in the site: %w", request, err)
	}
	return file, nil
}

// gzipSize is the size of the file as sent gzip-compressed (the default
// level, as servers use): a file that is gzip already counts as it is.
func gzipSize(file string) (int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if strings.HasSuffix(file, ".gz") {
		return len(b), nil
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return buf.Len(), nil
}

// gunzipFile is the content of the gzip-compressed file name.
func gunzipFile(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}
