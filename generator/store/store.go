// Package store keeps, between builds, what a build computed that the next
// one can reuse, so that a nightly build after one new result archive
// decodes one archive, compares one commit and rewrites a few files.
//
// It lives in a folder beside the site (.perfpages-cache/store-v2 by
// default, [site] cache to move it, e.g. for actions/cache) and holds:
//
//	runs/<aa>/<key>.run   the decoded content of one input file (an archive,
//	                      or a foreign tool's file or folder): its runs and
//	                      the problems found, keyed by a SHA-256 of the
//	                      input's bytes and of how it was read (see RunKey)
//	briefs.gob            per main-line comparison, what the triage reports,
//	                      the dashboard and PR pages show of it (metric
//	                      summaries and counts), keyed by its chain key
//	steps.gob             per series, the state of step detection
//	                      (changepoint.State) for the next build to resume
//	                      from, with a key of the tool and the options
//	series-sizes.gob      per series, its number of points, so that the
//	                      next build allocates each series' points once
//	builder.ckpt          the dataset builder's state after the archives'
//	                      runs, with the list of archive files it holds:
//	                      the next build resumes from it and adds only new
//	                      files (package generator, checkpoint.go; the
//	                      state's layout is analysis.Builder.WriteState's)
//	outputs.gob           per file of the site the last build wrote: the key
//	                      of its inputs, its size, its time and a SHA-256 of
//	                      its bytes
//	state.gob             the fingerprint of the last build's inputs and
//	                      the problems it reported, for a build with
//	                      nothing to do
//
// Why files and not an embedded database: every entry is written once and
// read whole by a key (content addressing), the folder is private to one
// build at a time (the output's lock), and the whole store can be thrown
// away at any time. A folder of immutable, self-checking files gives that
// with the standard library only: a .run file is written to a temporary
// name and renamed, so a killed build leaves no half entry, and one
// corrupt entry costs one re-decode, not the store. A pure-Go SQLite would
// add a large dependency for transactions this access pattern does not
// need. The formats are documented at their types (runs.go).
//
// Nothing read from the store is trusted blindly: every file starts with a
// magic line naming its format version and ends with a checksum; a file of
// another version, or one that fails its checksum or does not decode, is a
// warning, is removed, and what it held is computed again.
package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Version names the store's format; a store of another version is
// discarded with a warning.
const Version = "store-v2"

// Store is an open store. It is safe for concurrent use.
type Store struct {
	dir string

	mu       sync.Mutex
	warnings []error
	used     map[[32]byte]bool // run keys read or written by this build
}

// Open opens the store in dir (created when missing). A store whose
// folder holds something that is not a store of this version is emptied,
// with a warning.
func Open(dir string) (*Store, error) {
	s := &Store{dir: filepath.Join(dir, Version), used: map[[32]byte]bool{}}
	if err := os.MkdirAll(filepath.Join(s.dir, "runs"), 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// Stores of other versions beside this one are of no use.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() && e.Name() != Version && len(e.Name()) > 6 && e.Name()[:6] == "store-" {
			os.RemoveAll(filepath.Join(dir, e.Name()))
			s.warn(fmt.Errorf("store %s is of another version (%s); it is rebuilt", dir, e.Name()))
		}
	}
	return s, nil
}

// Reset opens the store in dir emptied: nothing earlier builds left is
// used (a cold build), and this build's results are kept for the next.
func Reset(dir string) (*Store, error) {
	if err := os.RemoveAll(filepath.Join(dir, Version)); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return Open(dir)
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

// The gob files: a magic line, a gob of the value, the checksum.

func (s *Store) loadGob(name, magic string, v any) bool {
	payload, ok := s.ReadBlob(name, magic)
	if !ok {
		return false
	}
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(v); err != nil {
		path := filepath.Join(s.dir, name)
		s.warn(fmt.Errorf("store %s: %v; it is rebuilt", path, err))
		os.Remove(path)
		return false
	}
	return true
}

func (s *Store) saveGob(name, magic string, v any) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	if err := writeFile(filepath.Join(s.dir, name), seal(magic, buf.Bytes())); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	return nil
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
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store %s: %w", name, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store %s: %w", name, err)
	}
	return nil
}

// ReadBlob returns the payload of the file name (it starts at offset
// len(magic) of a buffer the file was read into whole); false when there
// is none or it is broken (a warning, and the file is removed).
func (s *Store) ReadBlob(name, magic string) ([]byte, bool) {
	path := filepath.Join(s.dir, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	var payload []byte
	if err == nil {
		payload, err = unseal(magic, data)
	}
	if err != nil {
		s.warn(fmt.Errorf("store %s: %v; it is rebuilt", path, err))
		os.Remove(path)
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
