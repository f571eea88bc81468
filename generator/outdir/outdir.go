// Package outdir guards the folders perfpages writes into, so that no
// command ever destroys or leaks a user's files.
//
// It sits at the very end of the build, beside the write stage (see the
// architecture section of the README), and answers two questions:
//
//  1. May a build replace the folder X with a new site? [CheckSite] says no
//     (with one line naming the folder, the reason and the fix) when X is
//     or contains the config folder, a source, the content or theme
//     folders, the current folder or a git work tree, when X is a plain
//     file, and when X is a non-empty folder without the [Marker] file that
//     every site perfpages writes carries. Only an empty folder or a
//     previous perfpages site is ever replaced.
//  2. May a command add files to the folder X (import's archives, check's
//     reports, demo's data)? [CheckFolder] refuses a plain file and the
//     inside of a .git folder; the commands add their own rules (import
//     refuses a site folder, whose files the next build deletes; demo
//     refuses a non-empty folder that is not an earlier demo).
//
// It also holds the machinery of the site writer's swap ([Lock], [Swap],
// [RemoveSite], [CleanLeftovers]); see [Swap] for why the output stays a
// real folder rather than a symbolic link.
//
// Paths are compared after [Resolve]: absolute, with every symbolic link
// of their existing part resolved, so "-out ." or a link to the project
// cannot slip past a textual comparison.
package outdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/par"
)

// Marker is the file every site perfpages builds carries at its root. A
// build replaces an existing non-empty folder only when it has one, so a
// mistyped -out can never wipe a folder perfpages did not write.
const Marker = ".perfpages-site"

// MarkerContent is the marker file's content; it is the same on every
// build, so two builds of the same input stay byte-identical.
var MarkerContent = []byte("This folder is a site written by perfpages build. Every build replaces it\n" +
	"as a whole: do not keep other files here.\n")

// RefusedError is a refusal to write into a folder: one line naming the
// folder, why, and how to fix it.
type RefusedError struct {
	Path string // the folder as the user gave it
	Verb string // "replace" or "write into"
	Why  string
	Fix  string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refusing to %s %s: %s; %s", e.Verb, e.Path, e.Why, e.Fix)
}

// Resolve returns the absolute form of p with every symbolic link in its
// existing part resolved; the part that does not exist yet is appended as
// written. A dangling link at the end stays as it is (and is then refused
// as not a folder).
func Resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	cur, rest := abs, ""
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether path lies inside dir (or is dir); both are
// resolved and clean.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

// Protected is a file or folder that a site output must neither be nor
// contain, with what it is for messages ("the config folder (it holds
// perfpages.toml)").
type Protected struct {
	Path string
	What string
}

// CheckSite reports whether a build may replace the folder out with a new
// site; the error is a [*RefusedError]. It touches nothing. keep lists the
// config folder, the sources, the content and theme folders and the like;
// the current folder is always kept. out must additionally be absent, an
// empty folder, or a perfpages site with no git work tree inside (see
// [Replaceable]).
func CheckSite(out string, keep []Protected) error {
	real, err := Resolve(out)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", out, err)
	}
	refuse := func(why string) error {
		return &RefusedError{Path: out, Verb: "replace", Why: why,
			Fix: "choose another output folder (-out or site.output), such as public/ beside the config"}
	}
	if filepath.Dir(real) == real {
		return refuse("it is the root of the file system")
	}
	if wd, err := os.Getwd(); err == nil {
		keep = append([]Protected{{wd, "the current folder"}}, keep...)
	}
	for _, k := range keep {
		if k.Path == "" {
			continue
		}
		rk, err := Resolve(k.Path)
		if err != nil {
			continue
		}
		switch {
		case rk == real:
			return refuse(fmt.Sprintf("it is %s", k.What))
		case within(real, rk):
			return refuse(fmt.Sprintf("it contains %s, %s", k.What, rk))
		}
	}
	if err := insideGit(real); err != nil {
		err.Path, err.Verb = out, "replace"
		return err
	}
	if err := Replaceable(real); err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			re.Path = out
		}
		return err
	}
	return nil
}

// Replaceable reports whether the folder dir (resolved) may be replaced by
// a new site: it does not exist, or it is an empty folder, or it is a
// perfpages site (it has the [Marker] file) with no git work tree at or
// below it. A git checkout inside an old site (cd public && git init, to
// push to a gh-pages branch by hand) would otherwise be deleted with it.
func Replaceable(dir string) error {
	return replaceable(dir, true)
}

// StillReplaceable is [Replaceable] without the search for git work trees
// below the top: the cheap check a writer repeats just before its swap,
// in case files were put into an empty output folder during the build.
func StillReplaceable(dir string) error {
	return replaceable(dir, false)
}

func replaceable(dir string, deep bool) error {
	refuse := func(why, fix string) error {
		return &RefusedError{Path: dir, Verb: "replace", Why: why, Fix: fix}
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("output folder %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return refuse("it is a symbolic link to nothing", "remove the link or point it at a folder")
	case !fi.IsDir():
		return refuse("it is "+capped.Kind(fi.Mode())+", not a folder", "choose a folder (-out or site.output)")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	site := false
	for _, e := range entries {
		switch e.Name() {
		case ".git":
			return refuse("it is a git work tree (it has .git)",
				"choose a folder inside the repository, such as public/")
		case Marker:
			site = e.Type().IsRegular()
		}
	}
	if !site {
		return refuse("it is not empty and is not a site perfpages built (it has no "+Marker+" file)",
			"choose an empty folder or a previous perfpages site, or empty it yourself")
	}
	if !deep {
		return nil
	}
	if found := findGit(dir); found != "" {
		return refuse("it contains a git work tree ("+found+")",
			"move that repository out of the site folder, or build elsewhere")
	}
	return nil
}

// findGit returns an entry named .git below dir (the shallowest, the first
// by name among those), or "" when there is none. A site's tree is
// thousands of folders (a page is a folder): they are read level by level,
// on every core. Folders that cannot be read are passed over, as
// filepath.WalkDir's callers here always did.
func findGit(dir string) string {
	level := []string{dir}
	for len(level) > 0 {
		var (
			mu    sync.Mutex
			next  []string
			found string
		)
		par.Each(context.Background(), len(level), func(i int) error {
			entries, err := os.ReadDir(level[i])
			if err != nil {
				return nil
			}
			var subs []string
			for _, e := range entries {
				p := filepath.Join(level[i], e.Name())
				if e.Name() == ".git" {
					mu.Lock()
					if found == "" || p < found {
						found = p
					}
					mu.Unlock()
				} else if e.IsDir() {
					subs = append(subs, p)
				}
			}
			mu.Lock()
			next = append(next, subs...)
			mu.Unlock()
			return nil
		})
		if found != "" {
			return found
		}
		level = next
	}
	return ""
}

// insideGit refuses a path inside a .git folder, where perfpages has no
// business writing.
func insideGit(real string) *RefusedError {
	for _, part := range strings.Split(filepath.ToSlash(real), "/") {
		if part == ".git" {
			return &RefusedError{Why: "it is inside a git repository's .git folder",
				Fix: "choose a folder outside .git"}
		}
	}
	return nil
}

// CheckFolder reports whether a command may add files to the folder dir
// (creating it if needed): dir must not be a plain file, a dangling link
// or inside a .git folder. It never refuses a folder for having files;
// the commands that need more say so (see [SiteAround]).
func CheckFolder(dir string) error {
	real, err := Resolve(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if err := insideGit(real); err != nil {
		err.Path, err.Verb = dir, "write into"
		return err
	}
	fi, err := os.Lstat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return &RefusedError{Path: dir, Verb: "write into", Why: "it is a symbolic link to nothing",
			Fix: "remove the link or point it at a folder"}
	case !fi.IsDir():
		return &RefusedError{Path: dir, Verb: "write into", Why: "it is " + capped.Kind(fi.Mode()) + ", not a folder",
			Fix: "give a folder"}
	}
	return nil
}

// SiteAround returns the perfpages site that dir is or lies in (the
// nearest folder at or above it with the [Marker] file), or "". Files
// written there are deleted by the next build.
func SiteAround(dir string) string {
	real, err := Resolve(dir)
	if err != nil {
		return ""
	}
	for p := real; ; p = filepath.Dir(p) {
		if IsSite(p) {
			return p
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}

// IsSite reports whether dir is a folder (not a symbolic link to one)
// with the [Marker] file, as a regular file: a folder the user may let a
// build replace (a marker made by hand counts, as the output's guard
// says).
func IsSite(dir string) bool {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return false
	}
	fi, err := os.Lstat(filepath.Join(dir, Marker))
	return err == nil && fi.Mode().IsRegular()
}

// IsOwnSite reports whether dir is a folder perfpages made and may remove
// unasked (a spare site, a killed build's temporary folder): [IsSite],
// and its marker says what [MarkerContent] says. A folder is never taken
// for ours by its name alone.
func IsOwnSite(dir string) bool {
	if !IsSite(dir) {
		return false
	}
	f, _, err := capped.OpenRegular(filepath.Join(dir, Marker), false)
	if err != nil {
		return false
	}
	defer f.Close()
	got := make([]byte, len(MarkerContent)+1)
	n, _ := io.ReadFull(f, got)
	return bytes.Equal(got[:n], MarkerContent)
}

func isEmptyDir(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	return len(names) == 0 && err != nil
}
