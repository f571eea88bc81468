// Package store keeps, between builds, what a build computed that the next
// one can reuse, so that a nightly build after one new result archive
// decodes one archive, compares one commit and rewrites a few files.
//
// Each output folder has a store of its own: a folder inside the cache
// folder (.perfpages-cache beside the output by default, [site] cache or
// -cache to move it, e.g. for actions/cache) named after the output
// ([FolderName]). It holds:
//
//	.perfpages-store      the marker: this folder is a store perfpages made,
//	                      and of which version (see Ownership below)
//	runs/<aa>/<key>.run   the decoded content of one input file (an archive,
//	                      or a foreign tool's file or folder): its runs and
//	                      the problems found, keyed by a SHA-256 of the
//	                      input's bytes (or of its git blob id, which names
//	                      them) and of how it was read (see RunKey); or
//	                      the fold of a file's versions along a git ref
//	                      (model.FileVersions), keyed by the versions
//	                      folded in order
//	index.gob             the size of every other file the store wrote
//	briefs.gob            per main-line comparison, what the triage reports,
//	                      the dashboard and PR pages show of it (metric
//	                      summaries and counts), keyed by its chain key
//	steps.gob             per series, the state of step detection
//	                      (changepoint.State) for the next build to resume
//	                      from, with a key of the tool and the options
//	series-sizes.gob      per series, its number of points, so that the
//	                      next build allocates each series' points once
//	criterion.gob         the results of Criterion's bootstrap, by a key of
//	                      their samples and options
//	builder.ckpt          the dataset builder's state after the archives'
//	                      runs, with the list of archive files it holds:
//	                      the next build resumes from it and adds only new
//	                      files (package generator, checkpoint.go; the
//	                      state's layout is model.Builder.WriteState's)
//	outputs.gob           per file of the site the last build wrote: the key
//	                      of its inputs, its size, its time and a SHA-256 of
//	                      its bytes
//	state.gob             the fingerprint of the last build's inputs and
//	                      the problems it reported, for a build with
//	                      nothing to do
//
// Why files and not an embedded database: every entry is written once and
// read whole by a key (content addressing), the folder is private to one
// build at a time (the output's lock, taken before the store is opened),
// and the whole store can be thrown away at any time. A folder of
// immutable, self-checking files gives that with the standard library
// only: a file is written to a temporary name and renamed, so a killed
// build leaves no half entry, and one corrupt entry costs one re-decode,
// not the store. A pure-Go SQLite would add a large dependency for
// transactions this access pattern does not need. The formats are
// documented at their types (runs.go).
//
// Nothing read from the store is trusted blindly. Every file is read only
// when it is a regular file (a symbolic link is not followed, a named
// pipe or device never opened) and no larger than it should be: a .run
// entry no larger than its caller's bound, any other file exactly the
// size the index recorded when the store wrote it. Every file starts with
// a magic line naming its format version and ends with a checksum; a .run
// entry also names its own key. A file that fails any of this is a
// warning, is removed, and what it held is computed again.
//
// Ownership: perfpages deletes only what it can tell is its own by more
// than a name. The store folder carries the marker file, whose content
// names the format; a folder at the store's path without it (and not
// empty) is left alone and the build runs without a store, saying why.
// Inside its own folder the store removes entries no build uses any more;
// it never follows a symbolic link out of it. Stores of the layout before
// per-output folders (a "store-v2" folder and a "criterion-v1.gob" file
// in the cache folder) are removed when their content proves them
// perfpages' (see removeLegacy).
package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// Version names the store's format; a store of another version is
// emptied with a warning and filled again.
const Version = "store-v4"

// Marker is the file that makes a folder a store: its content is
// markerContent. Nothing is removed from a folder without it.
const Marker = ".perfpages-store"

var markerContent = []byte("perfpages store " + Version + "\n" +
	"This folder holds what perfpages build keeps between builds of one site.\n" +
	"It can be deleted at any time; the next build computes everything again.\n")

// markerPrefix starts the marker of every version: a store of another
// version is still ours to empty.
const markerPrefix = "perfpages store "

// Caps of the files the store reads whose size it cannot know otherwise.
const (
	maxMarker = 4 << 10
	maxIndex  = 16 << 20
)

// Store is an open store. It is safe for concurrent use.
type Store struct {
	dir string

	mu       sync.Mutex
	warnings []error
	used     map[[32]byte]bool // run keys read or written by this build
	index    map[string]int64  // size of every file but .run entries, by name
}

// FolderName is the name of the store of the output folder out (an
// absolute, resolved path) inside the cache folder: the output's name,
// for people, and a hash of its path, so that two outputs never share a
// store (two sites built side by side would evict each other's entries)
// and the output's lock guards its store too.
func FolderName(out string) string {
	name := []byte(filepath.Base(out))
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			name[i] = '_'
		}
	}
	if len(name) > 40 {
		name = name[:40]
	}
	sum := sha256.Sum256([]byte(out))
	return string(name) + "-" + hex.EncodeToString(sum[:6])
}

// OwnershipError reports a folder at the store's path that perfpages did
// not make: it is left as it is, and the build runs without a store.
type OwnershipError struct {
	Path string
	Why  string
}

func (e *OwnershipError) Error() string {
	return fmt.Sprintf("store %s %s, so it is not a store perfpages made: it is left as it is; remove it, or choose another cache folder ([site] cache or -cache)", e.Path, e.Why)
}

// Open opens the store of the output folder out (absolute and resolved)
// in the cache folder dir, making it when there is none. A store of
// another version is emptied, with a warning. Anything at the store's
// path that is not a store perfpages made is an *OwnershipError, and is
// not touched.
//
// The caller holds the output's lock (outdir.Lock): a store belongs to
// one output, and two builds of one output never run at once.
func Open(dir, out string) (*Store, error) {
	return open(dir, out, false)
}

// Reset opens the store of out in dir emptied: nothing earlier builds left
// is used (a cold build), and this build's results are kept for the next.
func Reset(dir, out string) (*Store, error) {
	return open(dir, out, true)
}

func open(dir, out string, reset bool) (*Store, error) {
	s := &Store{dir: filepath.Join(dir, FolderName(out)), used: map[[32]byte]bool{}, index: map[string]int64{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.removeLegacy(dir)
	fi, err := os.Lstat(s.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(s.dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, &OwnershipError{s.dir, "is a symbolic link"}
	case !fi.IsDir():
		return nil, &OwnershipError{s.dir, "is not a folder"}
	default:
		marker, err := capped.ReadOwn(filepath.Join(s.dir, Marker), maxMarker)
		switch {
		case err == nil && bytes.Equal(marker, markerContent):
			if reset {
				if err := s.empty(); err != nil {
					return nil, err
				}
			}
		case err == nil && bytes.HasPrefix(marker, []byte(markerPrefix)):
			if err := s.empty(); err != nil {
				return nil, err
			}
			s.warn(fmt.Errorf("store %s is of another version (%s); it is rebuilt", s.dir, strings.TrimSpace(strings.SplitN(string(marker), "\n", 2)[0])))
		case errors.Is(err, fs.ErrNotExist) && isEmptyDir(s.dir):
		case errors.Is(err, fs.ErrNotExist):
			return nil, &OwnershipError{s.dir, "is not empty and has no " + Marker + " file"}
		default:
			return nil, &OwnershipError{s.dir, "has a " + Marker + " file that is not perfpages' marker"}
		}
	}
	if err := writeFile(filepath.Join(s.dir, Marker), markerContent); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(s.dir, "runs"), 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.loadIndex()
	return s, nil
}

// empty removes everything in the store's folder but the marker (which
// the caller rewrites). os.RemoveAll removes a symbolic link, not what it
// points to.
func (s *Store) empty() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, e := range entries {
		if e.Name() == Marker {
			continue
		}
		if err := os.RemoveAll(filepath.Join(s.dir, e.Name())); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// legacyNames are the files of a store-v2 folder, the store's layout
// before it was one folder per output with a marker.
var legacyNames = map[string]bool{"runs": true, "briefs.gob": true, "steps.gob": true,
	"series-sizes.gob": true, "builder.ckpt": true, "outputs.gob": true, "state.gob": true}

// removeLegacy removes, from the cache folder dir, a store-v2 folder and a
// criterion-v1.gob file that earlier versions of perfpages left there:
// only when their content shows they are perfpages' (a folder of nothing
// but the store's file names, with at least one file starting with one
// of its magic lines; a file starting with the cache's gob header). A
// folder or file of those names that is anything else stays.
func (s *Store) removeLegacy(dir string) {
	old := filepath.Join(dir, "store-v2")
	if fi, err := os.Lstat(old); err == nil && fi.IsDir() {
		entries, _ := os.ReadDir(old)
		ours, magic := len(entries) > 0, false
		for _, e := range entries {
			switch {
			case strings.HasPrefix(e.Name(), ".tmp-"):
			case !legacyNames[e.Name()]:
				ours = false
			case e.Type().IsRegular():
				if head, err := readHead(filepath.Join(old, e.Name()), 10); err == nil && string(head) == "perfpages " {
					magic = true
				}
			case e.Name() == "runs" && e.IsDir():
			default:
				ours = false
			}
		}
		if ours && magic {
			if err := os.RemoveAll(old); err == nil {
				s.warn(fmt.Errorf("store %s is of an older version; it is removed (each output now has its own store in %s)", old, dir))
			}
		}
	}
	cache := filepath.Join(dir, "criterion-v1.gob")
	if head, err := readHead(cache, 256); err == nil && bytes.Contains(head, []byte("perfpages analysis cache v1")) {
		os.Remove(cache)
	}
}

// readHead reads the first n bytes of the regular file name.
func readHead(name string, n int) ([]byte, error) {
	f, _, err := capped.OpenRegular(name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return b[:m], nil
}

func isEmptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Warnings are the problems met reading the store (each also repaired).
func (s *Store) Warnings() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.warnings...)
}

func (s *Store) warn(err error) {
	s.mu.Lock()
	s.warnings = append(s.warnings, err)
	s.mu.Unlock()
}

// Checked files: a magic line, the payload, a CRC-32C of the payload.

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt marks a file that is not what it should be.
var errCorrupt = errors.New("corrupt or of another version")

func seal(magic string, payload []byte) []byte {
	out := make([]byte, 0, len(magic)+len(payload)+4)
	out = append(out, magic...)
	out = append(out, payload...)
	sum := crc32.Checksum(payload, crcTable)
	return append(out, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
}

// sealAfter is seal for a payload written after the magic in the same
// slice: it appends the checksum without copying.
func sealAfter(magic string, b []byte) []byte {
	sum := crc32.Checksum(b[len(magic):], crcTable)
	return append(b, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
}

func unseal(magic string, data []byte) ([]byte, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	payload := data[len(magic) : len(data)-4]
	t := data[len(data)-4:]
	sum := uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24
	if crc32.Checksum(payload, crcTable) != sum {
		return nil, errCorrupt
	}
	return payload, nil
}

// writeFile writes data to path through a temporary file and a rename.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// The index: the size of every file the store wrote but the .run entries
// (whose callers bound their size), so that a file of another size — a
// sparse file of 20 GB, one truncated or grown by someone else — is
// refused by its size before any of it is read.

const indexName, indexMagic = "index.gob", "perfpages store index v1\n"

func (s *Store) loadIndex() {
	path := filepath.Join(s.dir, indexName)
	data, err := capped.ReadOwn(path, maxIndex)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var payload []byte
	if err == nil {
		payload, err = unseal(indexMagic, data)
	}
	var index map[string]int64
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(payload)).Decode(&index)
	}
	if err != nil {
		s.warn(fmt.Errorf("store %s: %v; the store is rebuilt", path, err))
		s.empty()
		return
	}
	s.index = index
}

// recorded notes that the store wrote name with size bytes, and saves the
// index.
func (s *Store) recorded(name string, size int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if size < 0 {
		delete(s.index, name)
	} else {
		s.index[name] = size
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s.index); err != nil {
		return err
	}
	return writeFile(filepath.Join(s.dir, indexName), seal(indexMagic, buf.Bytes()))
}

// readIndexed reads the store's file name (not a .run entry), which must
// have the size the index recorded for it. It returns fs.ErrNotExist when
// there is no such file, or the index does not know it.
func (s *Store) readIndexed(name string) ([]byte, error) {
	path := filepath.Join(s.dir, name)
	s.mu.Lock()
	size, ok := s.index[name]
	s.mu.Unlock()
	if !ok {
		if _, err := os.Lstat(path); err == nil {
			return nil, errors.New("not a file this store wrote (the index does not list it)")
		}
		return nil, fs.ErrNotExist
	}
	f, fi, err := capped.OpenRegular(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() != size {
		return nil, fmt.Errorf("%d bytes where the store wrote %d", fi.Size(), size)
	}
	// One allocation of the recorded size (large ones are page-aligned,
	// which the checkpoint's columns rely on), and not a byte more.
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, errors.New("the file grew while it was read")
	}
	return data, nil
}

// The gob files: a magic line, a gob of the value, the checksum.

func (s *Store) loadGob(name, magic string, v any) bool {
	payload, ok := s.ReadBlob(name, magic)
	if !ok {
		return false
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(v); err != nil {
		s.broken(name, err)
		return false
	}
	return true
}

func (s *Store) saveGob(name, magic string, v any) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	data := seal(magic, buf.Bytes())
	if err := writeFile(filepath.Join(s.dir, name), data); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	if err := s.recorded(name, int64(len(data))); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	return nil
}

// broken reports the store's file name as broken (err says how) and
// removes it, and what the index knows of it.
func (s *Store) broken(name string, err error) {
	path := filepath.Join(s.dir, name)
	s.warn(fmt.Errorf("store %s: %v; it is rebuilt", path, err))
	os.Remove(path)
	s.recorded(name, -1)
}

// Hash is a SHA-256 of parts, each length-prefixed so that no two lists of
// parts hash alike.
func Hash(parts ...[]byte) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		l := uint64(len(p))
		for i := range 8 {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Blobs: large files written as a stream (a magic line, the payload, a
// CRC-32C of the payload) and read whole.

// WriteBlob writes the file name: the magic line, then what write writes
// (offset is where that starts in the file), then the checksum; through a
// temporary file and a rename, so that a killed build leaves the old file
// or none. A failure is one of the store's warnings too.
func (s *Store) WriteBlob(name, magic string, write func(w io.Writer, offset int) error) (err error) {
	defer func() {
		if err != nil {
			s.warn(err)
		}
	}()
	path := filepath.Join(s.dir, name)
	f, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	sum := crc32.New(crcTable)
	bw.WriteString(magic)
	werr := write(io.MultiWriter(bw, sum), len(magic))
	if werr == nil {
		t := sum.Sum32()
		_, werr = bw.Write([]byte{byte(t), byte(t >> 8), byte(t >> 16), byte(t >> 24)})
	}
	if werr == nil {
		werr = bw.Flush()
	}
	var size int64
	if werr == nil {
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		} else {
			werr = err
		}
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store %s: %w", name, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store %s: %w", name, err)
	}
	if err := s.recorded(name, size); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	return nil
}

// ReadBlob returns the payload of the file name (it starts at offset
// len(magic) of a buffer the file was read into whole); false when there
// is none or it is broken (a warning, and the file is removed).
func (s *Store) ReadBlob(name, magic string) ([]byte, bool) {
	data, err := s.readIndexed(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	var payload []byte
	if err == nil {
		payload, err = unseal(magic, data)
	}
	if err != nil {
		s.broken(name, err)
		return nil, false
	}
	return payload, true
}

// Keep marks the entry of key k as used by this build, so that Prune keeps
// it: Entry and Put mark what they read and write, a build marks the
// entries it did not need to read (the checkpoint held them).
func (s *Store) Keep(k [32]byte) {
	s.mu.Lock()
	s.used[k] = true
	s.mu.Unlock()
}
