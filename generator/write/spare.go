package write

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/perfpages/perfpages/generator/outdir"
)

// The spare site: why a nightly build edits the previous-but-one site.
//
// A build writes the new site beside the output and swaps it in whole
// (see [Writer]). Building that folder from nothing costs two system
// calls per file the build keeps (a hard link to the live site's file,
// and later the unlink of the old site): at M a nightly build changes
// about 130 files of 6,000, so nearly all those calls were for files it
// did not change, and they were a large part of its time (scripts/scale.sh
// M measures the nightly case, "+1 again").
//
// So after the swap the previous site is not removed but kept beside the
// output as ".<name>.spare" ([outdir.SparePath]), and the next build
// starts from it: a file there that is still the live site's file (a
// hard link made when it was kept: the same file, not a copy) is left as
// it is; any other file the new site needs is written or linked after
// removing the spare's; what the new site does not have is removed before the swap.
// A nightly build then touches about twice the files it changes, not
// every file of the site.
//
// The spare is trusted no more than the live site: a file is reused only
// when it is the live site's file itself (the same inode, see isLive),
// whose bytes the build checked;
// files nobody asked for (put there by hand) are removed; a spare with a
// folder that is not writable, or anything but folders and regular
// files, is not used (it is removed as before). A killed build's spare
// (then named like a temporary folder) is removed by the next build, like
// any leftover. Deleting the spare by hand is always safe: the next
// build starts from an empty folder, as the first one did.
type spare struct {
	files map[string]fileIdent // regular files by slash path, not the marker
	dirs  map[string]bool      // folders by slash path
	// gone are spare files removed during the build (under Writer.mu).
	gone map[string]bool
}

// openSpare takes the spare site of target, if there is a usable one, as
// the new site's folder tmp (a name that [outdir.CleanLeftovers] would
// remove, should the build be killed). It returns nil when there is none
// or it is not usable; an unusable one is removed.
func openSpare(target, tmp string) *spare {
	sp := outdir.SparePath(target)
	if !outdir.IsOwnSite(sp) {
		// Nothing, or not ours (a link, a folder without our marker):
		// left alone, and the previous site is not kept there either.
		return nil
	}
	if err := os.Rename(sp, tmp); err != nil {
		return nil
	}
	s := &spare{files: map[string]fileIdent{}, dirs: map[string]bool{}, gone: map[string]bool{}}
	usable := true
	err := filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tmp, p)
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if info.Mode().Perm()&0o300 != 0o300 {
				usable = false
				return fs.SkipAll
			}
			if rel != "." {
				s.dirs[rel] = true
			}
		case info.Mode().IsRegular():
			if rel != outdir.Marker {
				s.files[rel] = identOf(info)
			}
		default:
			usable = false
			return fs.SkipAll
		}
		return nil
	})
	if err != nil || !usable {
		outdir.RemoveSite(tmp)
		return nil
	}
	return s
}

// fromSpare prepares the new site's file p (at full) when the writer
// started from a spare site: it reports true when the spare's file is the
// live site's file rec (the one the new site wants there), which then
// stays; otherwise it removes whatever the spare has at full, so the
// caller can write or link a new file. Without a spare it does nothing.
func (w *Writer) fromSpare(p, full string, rec FileRecord, want bool) (bool, error) {
	if w.spare == nil {
		return false, nil
	}
	id, ok := w.spare.files[p]
	if !ok {
		if w.spare.dirs[p] { // a folder where the new site has a file
			return false, os.RemoveAll(full)
		}
		return false, nil
	}
	if want && w.isLive(p, id, rec) {
		return true, nil
	}
	if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	w.mu.Lock()
	w.spare.gone[p] = true
	w.mu.Unlock()
	return false, nil
}

// isLive reports whether the spare's file p (id) is the live site's file
// p itself: the same file on disk, a hard link made when the live site
// kept it. The live file's bytes were checked against their SHA-256 when
// the build started (store.Outputs.Check), so the spare's are those
// bytes; its size and time alone would prove nothing. The live file is
// the one that check found (rec.Live), not looked up again: a nightly
// build keeps nearly every file, and looking each up was a system call
// per file of the site (12,000 at the asv layout's M). A file replaced
// since the check is the same case as one edited in place since then,
// which looking it up again could not tell either.
func (w *Writer) isLive(p string, id fileIdent, rec FileRecord) bool {
	li := rec.Live
	if li == nil {
		var err error
		if li, err = os.Lstat(filepath.Join(w.target, filepath.FromSlash(p))); err != nil {
			return false
		}
	}
	return li.Mode().IsRegular() && id.same(li)
}

// spareFileAt removes a spare's file that stands where the new site needs
// the folder dir; it reports whether there was one.
func (w *Writer) spareFileAt(dir string) bool {
	if w.spare == nil {
		return false
	}
	if _, ok := w.spare.files[dir]; !ok {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.spare.gone[dir] {
		return false
	}
	if os.Remove(filepath.Join(w.tmp, filepath.FromSlash(dir))) != nil {
		return false
	}
	w.spare.gone[dir] = true
	return true
}

// pruneSpare removes what the spare site has and the new site does not:
// files no output claimed, then folders no claimed file lies in.
func (w *Writer) pruneSpare() error {
	if w.spare == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for p := range w.spare.files {
		if w.files[p] || w.spare.gone[p] {
			continue
		}
		// Gone already when its folder became a file of the new site.
		if err := os.Remove(filepath.Join(w.tmp, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return err
		}
	}
	used := map[string]bool{}
	for p := range w.files {
		for d := path.Dir(p); d != "." && !used[d]; d = path.Dir(d) {
			used[d] = true
		}
	}
	// Children before parents: a folder is empty by the time it is removed.
	dirs := slices.Collect(maps.Keys(w.spare.dirs))
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range dirs {
		if used[d] || w.files[d] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(w.tmp, filepath.FromSlash(d))); err != nil {
			return err
		}
	}
	return nil
}

// keepSpare keeps the site just replaced (now at old) as the next build's
// spare; when it cannot, the old site is removed as before.
//
// Only into an empty place: something at the spare's path that is not a
// spare site perfpages made (openSpare leaves such things alone) stays,
// with a warning, and the old site is removed instead.
func (w *Writer) keepSpare(old string) error {
	sp := outdir.SparePath(w.target)
	if _, err := os.Lstat(sp); err == nil {
		w.mu.Lock()
		w.warnings = append(w.warnings, fmt.Errorf("%s is not a spare site perfpages made, so it is left as it is; remove it to make the next builds faster", sp))
		w.mu.Unlock()
		return removeOld(old)
	}
	if err := os.Rename(old, sp); err == nil {
		return nil
	}
	return removeOld(old)
}
