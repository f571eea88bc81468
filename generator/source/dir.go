package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/outdir"
)

// File is one archive file as stored.
type File struct {
	// Name is a slash-separated path whose extension tells the format, for
	// example "results/linux/abc.json.gz": relative to the root for [Dir],
	// relative to the repository root for [Git.History], "<sha>.<ext>" for
	// [Git.Notes].
	Name string
	// Origin says where the file came from, for messages: the path on disk,
	// "REF@COMMIT:PATH" for a file in git history, "NOTESREF:SHA" for a note.
	Origin string
	Data   []byte
	// Artifact is the id to use when the archive names none: for git notes,
	// the annotated commit. Empty otherwise.
	Artifact string
	// Version orders the versions of the file Name along a git ref
	// ([Git.History]): a larger Version is newer. 0 for a file with no
	// other versions ([Dir], [Git.Notes]).
	Version int
	// Blob is the git object id of a file in git history ([Git.Versions]),
	// Size its size in bytes; "" and 0 otherwise. A blob id names its
	// content: a caller that has seen it need not read it again.
	Blob string
	Size int64
	// Load, when set, reads Data for a file listed unread (a git blob):
	// a caller that finds the file's content elsewhere (a store keyed by
	// Blob) never calls it.
	Load func() ([]byte, error)
	// Tip is set on the version of a file that the ref's tip has
	// ([Git.Versions]): a path none of whose versions has it was deleted.
	Tip bool
	// Info is what stat said of the file when [List] listed it (nil
	// otherwise): its identity on disk, for a caller that knows the
	// content of files by it.
	Info fs.FileInfo
	// Err is set, and Data nil, for a git blob that was not read because
	// it is over the size limit ([Git.MaxFileBytes]): the caller reports
	// it, naming Origin, and skips the file. ([Dir] reports such files in
	// its problems instead.)
	Err error
}

// Dir returns every file under root (recursively) whose name isArchive
// accepts, sorted by name. Names are slash-separated and relative to root;
// a nil isArchive accepts every file.
//
// A file larger than maxBytes (0: [capped.Default]) is a problem and is
// not read: its size on disk says so before any of it is in memory, and
// a file that grows while it is read is cut off at maxBytes+1.
//
// Which files are read, and which are problems, is [Walk]'s to say; a
// file that cannot be read is reported in problems too, naming the path,
// and does not stop the others. A missing or unreadable root is an error.
func Dir(root string, isArchive func(name string) bool, maxBytes int64) (files []File, problems []error, err error) {
	problems, err = Walk(root, isArchive, func(r *os.Root, name string, _ fs.FileInfo) error {
		data, err := readListed(r, name, maxBytes)
		if err != nil {
			return err
		}
		files = append(files, File{Name: name, Origin: onDisk(root, name), Data: data})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return files, problems, nil
}

// List is [Dir] without reading the files: each File has Data nil, Size
// and Info (what stat said of it as it was listed) set, and Load reads it
// through root opened again as an [os.Root], so that a caller that knows
// a file's content by its identity (see generator's archive keys) never
// reads it. A file the listing already knows to be over maxBytes is read
// there, as Dir reads it, so that its problem is Dir's.
func List(root string, isArchive func(name string) bool, maxBytes int64) (files []File, problems []error, err error) {
	limit := capped.Or(maxBytes)
	problems, err = Walk(root, isArchive, func(r *os.Root, name string, info fs.FileInfo) error {
		if info.Size() > limit {
			// Read as Dir reads it, so that its problem is Dir's (and a
			// file that shrank since it was listed is read).
			data, err := readListed(r, name, maxBytes)
			if err != nil {
				return err
			}
			files = append(files, File{Name: name, Origin: onDisk(root, name), Data: data})
			return nil
		}
		files = append(files, File{Name: name, Origin: onDisk(root, name), Size: info.Size(), Info: info,
			Load: func() ([]byte, error) { return readIn(root, name, maxBytes) }})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return files, problems, nil
}

// readListed reads the file name that Walk listed under r, at most
// maxBytes: an error opening it is returned as it is, one reading it (over
// maxBytes, cut short) says the file was skipped.
func readListed(r *os.Root, name string, maxBytes int64) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, unwrapPath(err)
	}
	data, err := capped.Read(f, maxBytes)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%v; file skipped", unwrapPath(err))
	}
	return data, nil
}

// readIn reads the file name (slash-separated) under root through an
// [os.Root], as Dir does: nothing outside root is read.
func readIn(root, name string, maxBytes int64) ([]byte, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer r.Close()
	f, err := r.Open(name)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	data, err := capped.Read(f, maxBytes)
	if err != nil {
		return nil, unwrapPath(err)
	}
	return data, nil
}

// onDisk is the path of the file name (slash-separated, relative to root)
// on disk, for messages.
func onDisk(root, name string) string { return filepath.Join(root, filepath.FromSlash(name)) }

// Walk calls visit, in the order of a walk, for every file under root
// (recursively) whose name isArchive accepts (nil: every file) and that
// [Dir] reads: r is root opened as an [os.Root], through which the file
// is to be read, name its slash-separated path relative to root and info
// what stat says of it (of its target, for a symbolic link). It returns
// the problems of the files it leaves out and those visit returns, in the
// order of the walk, one error each naming the path; a missing or unreadable root is an error. A build's fingerprint
// walks a source with it too, so that it sees exactly the files the
// source reads.
//
// Folders named ".git" are skipped, and so are sites perfpages built
// (isSite). Symbolic links to folders are not
// followed (a problem when the folder is outside root, since its content
// is left out); symbolic links to files are read only when they point
// inside root, so a hostile tree cannot make us read /etc/passwd. A root
// that is itself a symbolic link is followed. Reads go through the
// [os.Root], which enforces all that even if the tree changes under us.
func Walk(root string, isArchive func(name string) bool, visit func(r *os.Root, name string, info fs.FileInfo) error) (problems []error, err error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("reading directory %s: %w", root, unwrapPath(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("reading directory %s: not a directory", root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("reading directory %s: %w", root, unwrapPath(err))
	}
	defer r.Close()
	// The real location of root, to tell a symlink escaping it from a
	// broken one.
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	if isArchive == nil {
		isArchive = func(string) bool { return true }
	}
	problem := func(name, format string, args ...any) {
		problems = append(problems, fmt.Errorf("%s: %s", onDisk(root, name), fmt.Sprintf(format, args...)))
	}
	err = fs.WalkDir(r.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == "." {
				return err
			}
			// An unreadable folder: WalkDir calls us a second time with
			// the error from reading it and then skips its content.
			problem(name, "%v", unwrapPath(err))
			return nil
		}
		switch mode := d.Type(); {
		case d.IsDir():
			if name != "." && d.Name() == ".git" {
				return fs.SkipDir
			}
			if name != "." && (isSite(r, name) || isSiteFolder(r, name)) {
				return fs.SkipDir
			}
		case mode.IsRegular():
			if isArchive(name) {
				info, err := d.Info()
				if err != nil {
					problem(name, "%v", unwrapPath(err))
					return nil
				}
				if err := visit(r, name, info); err != nil {
					problem(name, "%v", err)
				}
			}
		case mode&fs.ModeSymlink != 0:
			target, err := os.Stat(onDisk(root, name))
			switch {
			case err == nil && target.IsDir():
				// Its content is walked anyway when it lies inside root.
				if !inside(realRoot, onDisk(root, name)) {
					problem(name, "symbolic link to a folder outside %s, not followed", root)
				}
			case !isArchive(name):
			case err != nil:
				problem(name, "broken symbolic link: %v", unwrapPath(err))
			case !inside(realRoot, onDisk(root, name)):
				problem(name, "symbolic link points outside %s, skipped", root)
			case !target.Mode().IsRegular():
				problem(name, "symbolic link to %s, not a regular file", capped.Kind(target.Mode()))
			default:
				if err := visit(r, name, target); err != nil {
					problem(name, "%v", err)
				}
			}
		default:
			if isArchive(name) {
				problem(name, "%s, not a regular file", capped.Kind(mode))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading directory %s: %w", root, unwrapPath(err))
	}
	return problems, nil
}

// isSite reports whether the folder name under r is a site perfpages
// built (it has the [outdir.Marker] file): the output of a config kept
// beside its data (dir = "." with the site in it), or that output's
// spare. Its data files are the site's, not results: read as a source's,
// every build would warn about each of them and find the build never up
// to date, since each build changes them.
func isSite(r *os.Root, name string) bool {
	fi, err := r.Lstat(path.Join(name, outdir.Marker))
	return err == nil && fi.Mode().IsRegular()
}

// isSiteFolder reports whether the folder name under r is named as the
// spare site or a temporary folder of a site beside it (outdir.OwnerOf):
// a build of that site renames its spare into its new site while the
// sources are read, so the spare may be gone, or not yet marked, by the
// time the walk reads it.
func isSiteFolder(r *os.Root, name string) bool {
	out, ok := outdir.OwnerOf(path.Base(name))
	return ok && isSite(r, path.Join(path.Dir(name), out))
}

// inside reports whether the symlink at path resolves to a file under
// realRoot.
func inside(realRoot, path string) bool {
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(realRoot, resolved)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// unwrapPath drops the *fs.PathError wrapper, whose path the caller already
// names (and names better: the fs.FS path is relative).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
