// Package confined reads a folder of the user's site (content/, a theme)
// so that nothing outside it, and nothing that is not a plain file, is
// ever read: the first stage of the pipeline for the Markdown pages and
// templates, as generator/source is for archives.
//
// An [FS] is an fs.FS over an [os.Root]. Its directory listings leave out,
// and its Open refuses,
//
//   - symbolic links that point outside the folder (to /etc/passwd,
//     /proc/self/environ, /dev/null), or nowhere;
//   - symbolic links to folders (their files are listed at their real
//     place when it is inside; a link to a folder outside is reported);
//   - devices, named pipes and sockets — never opened, since opening a
//     named pipe blocks until someone writes to it;
//   - files over the size cap.
//
// Symbolic links to regular files inside the folder are followed. What is
// left out does not exist for readers of the FS (fs.ErrNotExist), and
// [FS.Problems] lists it, one error naming each file, for the build's
// warnings. os.Root enforces the confinement even when the tree changes
// while it is read, and every file is opened non-blocking and checked
// again after opening, so a file swapped for a pipe cannot hang a build.
package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// FS is a folder read through an [os.Root]; see the package comment.
type FS struct {
	root    *os.Root
	dir     string // the folder as configured, for messages
	realDir string // the folder with its links resolved
	max     int64
	want    func(name string) bool
}

// Open returns the folder dir as an [FS]. Files over maxSize bytes are
// left out. want, when not nil, selects the files whose problems
// [FS.Problems] reports (a content folder cares about its .md files only);
// every problem file is left out either way.
func Open(dir string, maxSize int64, want func(name string) bool) (*FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		realDir = dir
	}
	if want == nil {
		want = func(string) bool { return true }
	}
	return &FS{root: root, dir: dir, realDir: realDir, max: maxSize, want: want}, nil
}

// Dir is the folder's path as given to Open.
func (f *FS) Dir() string { return f.dir }

// check says whether the entry name (with lstat info li) may be read, and
// returns the info of what it reads (the link's target for a link) or the
// problem.
func (f *FS) check(name string, li fs.FileInfo) (fs.FileInfo, error) {
	onDisk := filepath.Join(f.dir, filepath.FromSlash(name))
	info := li
	if li.Mode()&fs.ModeSymlink != 0 {
		target, err := f.root.Stat(name)
		if err != nil {
			resolved, rerr := filepath.EvalSymlinks(onDisk)
			switch {
			case rerr == nil && !within(f.realDir, resolved):
				if fi, err := os.Stat(resolved); err == nil && fi.IsDir() {
					return nil, folderLink{fmt.Errorf("%s: symbolic link to a folder outside %s, not followed", onDisk, f.dir)}
				}
				return nil, fmt.Errorf("%s: symbolic link points outside %s, skipped", onDisk, f.dir)
			case errors.Is(err, fs.ErrNotExist) || rerr != nil:
				return nil, fmt.Errorf("%s: broken symbolic link, skipped", onDisk)
			}
			// Inside, but os.Root refuses it: an absolute link.
			return nil, fmt.Errorf("%s: symbolic link with an absolute target, skipped (make it relative)", onDisk)
		}
		if target.IsDir() {
			if resolved, err := filepath.EvalSymlinks(onDisk); err == nil && within(f.realDir, resolved) {
				return nil, errInsideDirLink
			}
			return nil, folderLink{fmt.Errorf("%s: symbolic link to a folder outside %s, not followed", onDisk, f.dir)}
		}
		info = renamed{target, li.Name()}
	}
	switch m := info.Mode(); {
	case m.IsDir():
	case !m.IsRegular():
		what := capped.Kind(m)
		if li.Mode()&fs.ModeSymlink != 0 {
			what = "symbolic link to " + what
		}
		return nil, fmt.Errorf("%s: %s, not a regular file, skipped", onDisk, what)
	case info.Size() > f.max:
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %s, skipped", onDisk, info.Size(), size(f.max))
	}
	return info, nil
}

// folderLink is the problem of a link to a folder outside: reported
// whatever its name, since the files it would hold are left out.
type folderLink struct{ error }

func (l folderLink) Unwrap() error { return l.error }

// errInsideDirLink marks a link to a folder inside the root: left out
// without a warning, its files are listed at their real place.
var errInsideDirLink = errors.New("link to a folder inside")

// readDir lists the folder name, split into the entries that may be read
// and the problems of the others.
func (f *FS) readDir(name string) ([]fs.DirEntry, []error, error) {
	d, err := f.root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	all, err := d.ReadDir(-1)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(all, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	var keep []fs.DirEntry
	var problems []error
	for _, e := range all {
		p := path.Join(name, e.Name())
		li, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		info, err := f.check(p, li)
		switch {
		case errors.Is(err, errInsideDirLink):
		case err != nil:
			if f.want(p) || errors.As(err, new(folderLink)) {
				problems = append(problems, err)
			}
		default:
			keep = append(keep, fs.FileInfoToDirEntry(info))
		}
	}
	return keep, problems, nil
}

// ReadDir lists the readable entries of the folder name; links to files
// inside are listed as the files they point to.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	entries, _, err := f.readDir(name)
	return entries, err
}

// Problems walks the whole folder and returns what it leaves out, sorted
// by path: one error per file, naming it and saying why. Folders that
// cannot be listed are the reader's to report (they fail its walk too).
func (f *FS) Problems() []error {
	var out []error
	var walk func(dir string)
	walk = func(dir string) {
		entries, problems, err := f.readDir(dir)
		if err != nil {
			return
		}
		out = append(out, problems...)
		for _, e := range entries {
			if e.IsDir() {
				walk(path.Join(dir, e.Name()))
			}
		}
	}
	walk(".")
	return out
}

// Stat returns the info of name, following a link inside the folder.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	li, err := f.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	info, err := f.check(name, li)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: refused(err)}
	}
	return info, nil
}

// Open opens name for reading if it may be read (see the package
// comment). A regular file is opened non-blocking, checked again through
// the open descriptor, and reads fail past the size cap.
func (f *FS) Open(name string) (fs.File, error) {
	info, err := f.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		d, err := f.root.Open(name)
		if err != nil {
			return nil, err
		}
		return &dir{File: d, fsys: f, name: name}, nil
	}
	file, err := f.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	got, err := file.Stat()
	if err != nil || !got.Mode().IsRegular() || got.Size() > f.max {
		file.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("changed into something that is not a small regular file while being read")}
	}
	return &cappedFile{File: file, left: f.max, name: name}, nil
}

// ReadFile reads the whole file name.
func (f *FS) ReadFile(name string) ([]byte, error) {
	file, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(file)
}

// cappedFile is a regular file whose reads fail after its cap: a file that
// grows while it is read is not read without bound.
type cappedFile struct {
	*os.File
	left int64
	name string
}

func (c *cappedFile) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.File.Read(one[:]); n > 0 {
			return 0, &fs.PathError{Op: "read", Path: c.name, Err: errors.New("file grew over the size limit while being read")}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.File.Read(p)
	c.left -= int64(n)
	return n, err
}

// dir is an open folder whose listing leaves out what the FS refuses.
type dir struct {
	*os.File
	fsys    *FS
	name    string
	entries []fs.DirEntry
	read    bool
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		entries, _, err := d.fsys.readDir(d.name)
		if err != nil {
			return nil, err
		}
		d.entries, d.read = entries, true
	}
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n]
	d.entries = d.entries[n:]
	return out, nil
}

// renamed is a link target's info under the link's name.
type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// refusal wraps a problem so that errors.Is(err, fs.ErrNotExist) holds
// for a refused file: it is not listed, so to a reader of the FS it does
// not exist (a theme without a readable layouts/ falls back to the
// default's); [FS.Problems] reports it.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() []error {
	return []error{fs.ErrNotExist, r.err}
}

func refused(err error) error {
	if errors.Is(err, errInsideDirLink) {
		return refusal{errors.New("symbolic link to a folder, not followed")}
	}
	return refusal{err}
}

// within reports whether path lies inside dir (or is dir).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// size formats a size cap for messages.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

var _ interface {
	fs.ReadDirFS
	fs.ReadFileFS
	fs.StatFS
} = (*FS)(nil)
