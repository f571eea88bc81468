package generator

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
)

// The fingerprint identifies everything a build reads, so that a build
// whose inputs have the fingerprint of the last successful build's (whose
// site is still in place as written) does nothing at all: the tool, the
// configuration, the output folder, each source, the project's branch,
// the content and theme folders and the annotations.
//
// It must change whenever a build from nothing would build another site,
// so it looks at the inputs exactly as the readers do:
//
//   - a directory source is listed by source.Walk, the walk source.Dir
//     reads (the same links followed, the same files left out), a content
//     or theme folder through the same fs.FS its reader uses;
//   - a git source is the commit source.Git resolves its ref to, through
//     the same Git (the caller's GIT_DIR and the like do not reach it);
//   - the annotations are the bytes the build reads.
//
// A file is known by what the kernel keeps of it — size, modification
// and status-change times, inode and device, mode — not by its
// modification time alone, which rsync -a, cp -p, tar, touch -r or Nix
// (mtime 1) set to anything: the status-change time (ctime) cannot be set
// by any of them, and every write or copy changes it or the inode. Where
// the kernel's identity is not at hand (another OS, an embedded folder)
// the file's content is hashed instead.
//
// A file changed within a tick of its file system's clock before the
// fingerprint, or dated in the future, could change again within that
// tick unseen (git's "racy" files). Such a fingerprint is not stable: the
// build is done as usual, but its fingerprint is not saved, so the next
// build cannot take itself for up to date on the strength of it. (Hashing
// such files instead would change the fingerprint's form once they age.)
// (The tick: fileid.Racy.) Reading every input's bytes on every build
// would cost what the load costs; this costs a stat per file.

// Fingerprint identifies the site's inputs as a build reads them, for
// a command that watches them (serve): it changes whenever a build would.
func (s *Site) Fingerprint(ctx context.Context) [32]byte {
	repos := s.gitRepos()
	defer repos.close()
	fp, _, _ := s.fingerprint(ctx, "", repos)
	return fp
}

// GitRead is what one git source of a build read: which ref, at which
// commit, and why that ref (see source.RefRead).
type GitRead struct {
	Source string // "source perf-results:results/ in /repo", "project main in /repo"
	source.RefRead
}

func (r GitRead) String() string { return r.Source + ": " + r.RefRead.String() }

// fingerprint returns the fingerprint of the build into out, whether it
// is stable (no input is racy), and what each git source resolved to.
func (s *Site) fingerprint(ctx context.Context, out string, repos *gitRepos) (fp [32]byte, stable bool, reads []GitRead) {
	cfg := s.Config
	f := &fingerprinter{now: time.Now(), max: capped.Or(cfg.Site.MaxInputBytes), stable: true}
	b := &f.b
	cfgJSON, _ := json.Marshal(cfg)
	fmt.Fprintf(b, "tool %s\nconfig %s\nout %s\nenv %q\n", store.Tool(), cfgJSON, out, os.Getenv("PERFPAGES_BASE_URL"))
	for _, f := range s.Files {
		fmt.Fprintf(b, "file %s %x\n", f.Name, sha256.Sum256(f.Data))
	}
	data, name, err := s.annotations()
	fmt.Fprintf(b, "annotations %q %x %v\n", name, sha256.Sum256(data), err)
	tip := func(what, dir, ref, name string, resolve func(*source.Git) (source.RefRead, error)) {
		var r source.RefRead
		g, err := repos.open(ctx, dir)
		if err == nil {
			r, err = resolve(g)
		}
		fmt.Fprintf(b, "%s %s %q %s %v\n", what, dir, ref, r.Commit, err)
		if err == nil {
			reads = append(reads, GitRead{Source: name + " in " + dir, RefRead: r})
		}
	}
	for _, src := range cfg.Sources {
		switch src.Kind() {
		case "dir":
			f.dir(src.Dir, sourceWants(src))
		case "notes":
			tip("notes", src.Git, src.Notes, "notes source", func(g *source.Git) (source.RefRead, error) { return g.ResolveNotes(ctx, src.Notes) })
		default:
			tip("history", src.Git, src.Ref, "source "+cmp.Or(src.Path, "/"), func(g *source.Git) (source.RefRead, error) { return g.Resolve(ctx, src.Ref) })
		}
	}
	if cfg.Project.Git != "" {
		branch := cmp.Or(cfg.Project.Branch, "main")
		tip("project", cfg.Project.Git, branch, "project", func(g *source.Git) (source.RefRead, error) { return g.Resolve(ctx, branch) })
	}
	if s.Content != nil {
		f.fs("content", s.Content)
	}
	for _, t := range s.Themes {
		f.fs("theme", t)
	}
	return sha256.Sum256([]byte(b.String())), f.stable, reads
}

// fingerprinter writes the lines of a fingerprint.
type fingerprinter struct {
	b      strings.Builder
	now    time.Time
	max    int64 // bytes of a file hashed at most: a reader reads no more
	stable bool  // no file is racy
}

// dir adds the files of a directory source that its reader reads.
func (fp *fingerprinter) dir(root string, want func(string) bool) {
	fmt.Fprintf(&fp.b, "source %s\n", root)
	problems, err := source.Walk(root, want, func(r *os.Root, name string, info fs.FileInfo) error {
		fp.file(name, info, func() (fs.File, error) { return r.Open(name) })
		return nil
	})
	// What the reader leaves out, and why, is part of what it reads.
	for _, p := range problems {
		fmt.Fprintf(&fp.b, "  problem %v\n", p)
	}
	if err != nil {
		fmt.Fprintf(&fp.b, "  error %v\n", err)
	}
}

// fs adds the files of a folder read through fsys (content, a theme).
func (fp *fingerprinter) fs(what string, fsys fs.FS) {
	fmt.Fprintf(&fp.b, "%s\n", what)
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&fp.b, "  error %v\n", err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := fs.Stat(fsys, p)
		if err != nil {
			fmt.Fprintf(&fp.b, "  error %v\n", err)
			return nil
		}
		fp.file(p, info, func() (fs.File, error) { return fsys.Open(p) })
		return nil
	})
}

// file adds one file: its identity on disk, or its content's hash where
// the kernel keeps none, hashed as it is read up to the size a reader
// reads (a file over it is refused by its size, which the line has).
func (fp *fingerprinter) file(name string, info fs.FileInfo, open func() (fs.File, error)) {
	fmt.Fprintf(&fp.b, "  %q %d %v", name, info.Size(), info.Mode())
	id, changed, ok := fileid.Identity(info)
	if ok {
		fmt.Fprintf(&fp.b, " %d %s", info.ModTime().UnixNano(), id)
		if fileid.Racy(fp.now, info.ModTime(), changed) {
			fp.stable = false
		}
	} else if info.Size() <= fp.max {
		h := sha256.New()
		f, err := open()
		if err == nil {
			_, err = io.Copy(h, io.LimitReader(f, fp.max+1))
			f.Close()
		}
		fmt.Fprintf(&fp.b, " %x %v", h.Sum(nil), err)
	}
	fp.b.WriteByte('\n')
}
