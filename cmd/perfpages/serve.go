package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfpages/perfpages/generator"
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlags("serve", stderr)
	site := addSiteFlags(flags, true)
	addr := flags.String("addr", "127.0.0.1:8080", "address to listen on")
	poll := flags.Duration("poll", time.Second, "how often to look for changed inputs")
	if err := parse(flags, args, 0); err != nil {
		return err
	}
	s, err := site.open(stderr)
	if err != nil {
		return err
	}
	// The site lives in a temporary folder that is removed when serve
	// stops: on an error, or on SIGINT or SIGTERM (main cancels ctx), after
	// the server and any rebuild in progress have stopped.
	tmp, err := os.MkdirTemp("", "perfpages-serve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "site")
	if _, err := build(ctx, s, generator.BuildOptions{Out: out}, stdout, stderr); err != nil {
		return err
	}

	base := s.Config.BasePath()
	mux := http.NewServeMux()
	files := http.StripPrefix(strings.TrimSuffix(base, "/"), noCache(siteHandler(out)))
	mux.Handle(base, files)
	if base != "/" {
		mux.Handle("/", http.RedirectHandler(base, http.StatusFound))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := newServer(mux)
	fmt.Fprintf(stdout, "serving http://%s%s (Ctrl-C to stop)\n", ln.Addr(), base)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		// Re-read the configuration on every change: it may be what
		// changed, and it says what to watch from then on.
		open := func() *generator.Site {
			ns, err := site.reopen()
			if err != nil {
				say(stderr, "perfpages: ", err)
				return nil
			}
			return ns
		}
		watch(ctx, s, *site.config, *poll, open, func(s *generator.Site) {
			if _, err := build(ctx, s, generator.BuildOptions{Out: out}, stdout, stderr); err != nil && !errors.Is(err, errReported) && ctx.Err() == nil {
				say(stderr, "perfpages: ", fmt.Sprintf("%v (still serving the previous build)", err))
			}
		})
	}()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	err = srv.Serve(ln)
	cancel()
	<-watching
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// watch polls the inputs of s (config file, source folders, content,
// themes, annotations, git refs) and, when their fingerprint changes,
// re-opens the site with open and builds it with rebuild. The re-opened
// site's inputs are watched from then on, fingerprinted before its build
// so that a change during the build is not missed. When open fails (a
// broken config, already reported) the previous site is kept.
func watch(ctx context.Context, s *generator.Site, configPath string, every time.Duration,
	open func() *generator.Site, rebuild func(*generator.Site)) {
	last := fingerprint(ctx, s, configPath)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fp := fingerprint(ctx, s, configPath)
			if fp == last {
				continue
			}
			last = fp
			if ns := open(); ns != nil {
				s = ns
				last = fingerprint(ctx, s, configPath)
				rebuild(s)
			}
		}
	}
}

// fingerprint identifies the site's inputs as a build reads them (the
// build's own fingerprint: generator.Site.Fingerprint), and the files that
// make the configuration: the config file and the annotations.yaml beside
// it, which the configuration uses when it exists.
func fingerprint(ctx context.Context, s *generator.Site, configPath string) [32]byte {
	h := sha256.New()
	cfg := s.Config
	if configPath == "" && cfg.Dir != "" {
		configPath = filepath.Join(cfg.Dir, "perfpages.toml")
	}
	var files []string
	if configPath != "" {
		files = append(files, configPath)
	}
	if cfg.Dir != "" {
		files = append(files, filepath.Join(cfg.Dir, "annotations.yaml"))
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s %x %v\n", p, sha256.Sum256(data), errors.Is(err, fs.ErrNotExist))
	}
	fp := s.Fingerprint(ctx)
	h.Write(fp[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}
