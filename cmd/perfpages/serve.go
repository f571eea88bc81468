package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
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
	last := fingerprint(s, configPath)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fp := fingerprint(s, configPath)
			if fp == last {
				continue
			}
			last = fp
			if ns := open(); ns != nil {
				s = ns
				last = fingerprint(s, configPath)
				rebuild(s)
			}
		}
	}
}

// fingerprint hashes the names, sizes and modification times of every
// input file. Git repositories are represented by their refs and packed
// refs, which change on every commit or fetch.
func fingerprint(s *generator.Site, configPath string) uint64 {
	h := fnv.New64a()
	add := func(root string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if info, err := d.Info(); err == nil {
				fmt.Fprintf(h, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	cfg := s.Config
	if configPath != "" {
		add(configPath)
	} else if cfg.Dir != "" {
		add(filepath.Join(cfg.Dir, "perfpages.toml"))
	}
	for _, src := range cfg.Sources {
		if src.Dir != "" {
			add(src.Dir)
		}
		if src.Git != "" {
			add(filepath.Join(src.Git, ".git", "refs"))
			add(filepath.Join(src.Git, ".git", "packed-refs"))
		}
	}
	if cfg.Project.Git != "" {
		add(filepath.Join(cfg.Project.Git, ".git", "refs"))
	}
	if cfg.Analysis.Annotations != "" {
		add(cfg.Analysis.Annotations)
	}
	if cfg.Dir != "" {
		// annotations.yaml beside the config is read when it exists, so
		// its appearance is a change too.
		add(filepath.Join(cfg.Dir, "annotations.yaml"))
		add(cfg.Site.Content)
		if cfg.Site.Theme != "" {
			add(filepath.Join(cfg.Dir, "themes", cfg.Site.Theme))
		}
	}
	return h.Sum64()
}
