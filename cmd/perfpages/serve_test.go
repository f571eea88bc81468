package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine to write and
// the test to read.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond every 50 ms for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func archive(sha, date, parent string, v string) string {
	parents := ""
	if parent != "" {
		parents = `, "parents": ["` + parent + `"]`
	}
	return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + sha + `", "date": "` + date + `"` + parents + `},
 "machine": {"name": "m"}, "results": [{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [` + v + `]}]}`
}

// TestServe builds a site on a sub-path, serves it, and rebuilds when an
// archive is added.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte("[site]\nbase_url = \"https://example.github.io/sub/\"\n[[sources]]\ndir = \"results\"\n"), 0o644)
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	os.WriteFile(filepath.Join(dir, "results", "a.json"), []byte(archive(a, "2026-09-07T10:00:00Z", "", "100")), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	t.Chdir(dir)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-poll", "100ms"}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v\n%s", err, stderr.String())
		}
	}()

	addr := regexp.MustCompile(`serving (http://[^ ]+/sub/)`)
	waitFor(t, "the server", func() bool { return addr.MatchString(stdout.String()) })
	base := addr.FindStringSubmatch(stdout.String())[1]
	root := strings.TrimSuffix(base, "sub/")

	if code, body := get(t, base); code != 200 || !strings.Contains(body, `href="/sub/commit/`+a+`/"`) {
		t.Errorf("GET %s = %d, links not under /sub/:\n%.300s", base, code, body)
	}
	if code, _ := get(t, root); code != http.StatusFound {
		t.Errorf("GET / = %d, want a redirect to the base path", code)
	}
	if code, _ := get(t, base+"commit/"+b+"/"); code != 404 {
		t.Errorf("commit b exists before its archive does")
	}

	// A new archive: the site is rebuilt and the new commit page appears.
	os.WriteFile(filepath.Join(dir, "results", "b.json"), []byte(archive(b, "2026-09-08T10:00:00Z", a, "90")), 0o644)
	waitFor(t, "the rebuild", func() bool { code, _ := get(t, base+"commit/"+b+"/"); return code == 200 })
	if _, body := get(t, base+"commit/"+b+"/"); !strings.Contains(body, "-10.00%") {
		t.Errorf("rebuilt commit page lacks the change")
	}
}

// siteHandler serves like GitHub Pages: folders by their index.html, a
// folder without one is a 404 (never a listing), and a 404 shows the
// site's 404.html.
func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":            "home",
		"404.html":              "the site's 404 page",
		"commit/abc/index.html": "commit abc",
		"data/series/0.json":    "{}",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()
	for _, tt := range []struct {
		path string
		code int
		body string
	}{
		{"/", 200, "home"},
		{"/commit/abc/", 200, "commit abc"},
		{"/commit/abc", http.StatusMovedPermanently, ""},
		{"/data/series/0.json", 200, "{}"},
		{"/commit/", 404, "the site's 404 page"},
		{"/data/", 404, "the site's 404 page"},
		{"/data/series", 404, "the site's 404 page"},
		{"/nope/", 404, "the site's 404 page"},
		{"/../../etc/passwd", 404, "the site's 404 page"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			code, body := get(t, srv.URL+tt.path)
			if code != tt.code || (tt.body != "" && body != tt.body) {
				t.Errorf("GET %s = %d %q, want %d %q", tt.path, code, body, tt.code, tt.body)
			}
			if strings.Contains(body, "<pre>") || strings.Contains(body, `href="abc/"`) {
				t.Errorf("GET %s lists a folder:\n%s", tt.path, body)
			}
		})
	}
	os.Remove(filepath.Join(dir, "404.html"))
	if code, body := get(t, srv.URL+"/data/"); code != 404 || !strings.Contains(body, "404 page not found") {
		t.Errorf("without a 404.html: %d %q", code, body)
	}
}

// serve's server bounds every wait: headers, whole requests, responses
// and idle kept-alive connections (scripts/hostile.sh sees one closed).
func TestServeTimeouts(t *testing.T) {
	srv := newServer(http.NotFoundHandler())
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		if d <= 0 || d > time.Minute {
			t.Errorf("%s = %v, want a bound of at most a minute", name, d)
		}
	}
}
