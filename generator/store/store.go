// Package store keeps, between builds, what a build computed that the next
// one can reuse, so that a nightly build after one new result archive
// decodes one archive, compares one commit and rewrites a few files. It is
// the one place that says how what a build keeps is encoded, which build
// may read it and when it goes; package generator only says what to save
// and load, and when.
//
// Each output folder has a store of its own: a folder inside the cache
// folder (.perfpages-cache beside the output by default, [site] cache or
// -cache to move it, e.g. for actions/cache) named after the output
// ([FolderName]). It holds:
//
//	.perfpages-store      the marker: this folder is a store perfpages made,
//	                      and of which format (see Ownership below)
//	index.gob             the size and version of every other file the
//	                      store wrote but the .run entries
//	runs/<aa>/<key>.run   the decoded content of one input file (an archive,
//	                      or a foreign tool's file or folder): its runs and
//	                      the problems found, keyed by a SHA-256 of the
//	                      input's bytes (or of its git blob id, which names
//	                      them) and of how it was read (see RunKey), kept
//	                      only while no checkpoint holds the input
//	                      (SaveCheckpoint); or
//	                      the fold of a file's versions along a git ref
//	                      (model.FileVersions), keyed by the versions
//	                      folded in order
//	builder.ckpt          the checkpoint's head: the dataset builder's
//	                      dataset-wide state after the archives' runs
//	                      (runs, artifacts, machines, warnings), with the
//	                      list of input files it holds ([Store.Checkpoint]):
//	                      the next build resumes from it and adds only new
//	                      files
//	builder-<i>.ckpt      the checkpoint's columns: the points of the i-th
//	                      chunk of 256 series (values, artifacts, runs,
//	                      counts, flags; see Columns below)
//	builder-<i>.floats    the samples and iteration counts of those points,
//	                      which the dataset reads from there, the file kept
//	                      open (model's lazyfloats.go)
//	outputs.gob           per file of the site the last build wrote: the key
//	                      of its inputs, its size, its time and a SHA-256 of
//	                      its bytes ([Outputs])
//	state.gob             the fingerprint of the last build's inputs and
//	                      the problems it reported, for a build with
//	                      nothing to do ([State])
//	<name>.gob            a value the caller keeps under a name ([Store.Save]);
//	                      package generator keeps "steps" (per series, the
//	                      state of step detection), "criterion" (the
//	                      results of Criterion's bootstrap), "briefs" (per
//	                      main-line comparison, what the triage reports and
//	                      the dashboard show of it), "series-sizes" (per
//	                      series, its number of points), "headlines" (per
//	                      series, its headline verdicts, for the analysis
//	                      to resume) and "file-sums" (per archive of a
//	                      folder, the SHA-256 of its bytes under its
//	                      identity on disk, so that an unchanged archive is
//	                      not read to be keyed)
//
// # Versions
//
// One rule says which entries a build may read. Every entry is kept under
// a version: a SHA-256 of the store's format ([Version]), the tool that
// made it ([Tool], the perfpages executable: everything a build computes
// depends on the code), the entry's name and the options it was made with
// (the caller's canonical text of what, besides its own key, the value
// depends on: the step detection options, the archive options). A .run
// entry's version is part of its key (RunKey), so that an input read by
// another tool or with other options is another entry; every other
// file's version is recorded in the index and at the head of the file. A
// build reads an entry only under the version it asks for: one of another
// tool or other options is not read, is no warning, and goes at the next
// prune unless the build wrote it again. The site's manifest (outputs.gob)
// alone is kept across tools: it says what is on disk, every file is
// checked against its bytes before it is kept, and the keys in it name the
// tool (the caller's), so a new perfpages still carries over the files it
// writes with the same bytes.
//
// # Prune
//
// After a successful build, [Store.Prune] keeps exactly what that build
// read or wrote: the .run entries it used but those of the inputs a
// checkpoint it saved holds ([Store.SaveCheckpoint]: the checkpoint has
// their runs), and the named files it read under their version or saved. Everything else in the folder goes: the entries of inputs that
// are gone, of another version, leftovers of killed builds. A failed build
// prunes nothing; a build with nothing to do reads two files and writes
// none.
//
// # Cold
//
// A cold build opens the store with [Reset]: the folder is emptied before
// anything is read, so nothing earlier builds kept is read, and what the
// build computes is kept for the next one.
//
// # Encodings
//
// Every file is sealed alike: a magic line naming its format, a 32-byte
// key (a .run entry's key, or the file's version), the payload and a
// CRC-32C of key and payload; it is written to a temporary name and
// renamed, so that a killed build leaves the old file or none. Once a
// build has checked a file and it is older than the clock's tick, the
// index records its identity on disk (inode, device, size, mode,
// modification and status-change times: fileid.Key), and a later build
// that finds the file with that identity does not compute its checksum
// again (see trusted): any write to it moves its status-change time. The
// payloads have three encodings, each where the others would cost:
//
//   - the .run entries, a compact binary of their own (runs.go): a large
//     history keeps millions of results, whose names a string table stores
//     once per run and whose samples decode into one array per run;
//   - the checkpoint, the dataset builder's own columnar layout
//     (model.Builder.WriteStateLeaving) after a gob of the inputs it holds: its
//     numbers are varints and decimal-scaled integers
//     (analysis/model/floatcodec.go);
//   - gob for every other value: small Go values read whole, whose types
//     are the callers'.
//
// # Columns
//
// The checkpoint is what a nightly build reads most of: every series'
// points (at M, 2,000 series of 1,000 points of 5 samples, 54 MB; 130 MB
// as raw floats and 32-bit columns before 2026-11-28). It is kept per
// chunk of 256 series — each point's artifact and run (as differences
// from the point before), counts, flag and value, the rare errors,
// summaries and ranges as sorted lists — in files of their own beside a
// small head
// (builder.ckpt) holding what every new run's merge reads, and the
// chunk's samples and iteration counts in a file of their own
// (builder-<i>.floats). A build reads the head, then the chunks on every
// core at once, each file checked by its own checksum and decoded without
// a per-point lookup: the columns are decoded into the points and dropped,
// each core reading chunk after chunk into one buffer, and the samples
// part read to be checked and to find each point's samples, then dropped
// too: the points read their samples from the file, kept open, in
// segments of a few KiB, when asked for (model's lazyfloats.go). The chunks'
// versions name the head's generation (16 random bytes), so that a chunk
// of another checkpoint — a build killed between writing the chunks and
// the head — is not mixed in: it is not read, and the build adds every
// run again.
//
// At M a new commit gives every series a point, so a build that rewrites
// the checkpoint rewrites every chunk; it does so only when the files it
// does not hold are more than 1 in 16 (generator's checkpointSlack), and a
// nightly build in between reads the chunks and adds the new archives'
// runs. What a nightly build cannot avoid is holding every point: the
// dataset (model.Dataset) is every series' points in memory, which the
// analysis and the site model read; the chunks hold nothing else. A
// shard of a sharded build holds its benchmarks' points alone
// (model.BuildOptions.Keep), and its chunks are those points and the
// other series' definitions: its store is about 1/n of one build's.
//
// Why our own files rather than an embedded columnar format (Arrow IPC,
// Parquet) or database (SQLite, bbolt, Pebble): what is read is always
// whole chunks into the dataset, in one known layout, whose numbers a
// codec of their own (decimals of a few digits, differences of a run's
// samples) keeps in 2 to 4 bytes and decodes at the speed of reading,
// where a general compressor (flate) would cost a nightly build seconds
// at L; every
// file keeps the store's one rule of versions and prune, and its checks
// (a regular file of the recorded size, magic, version, checksum) against
// hostile or broken files (scripts/hostile.sh), which a database's own
// files would need again around them. A chunk is not memory-mapped: a
// mapping would save the copy into memory, but a file changed or cut in
// place while a build runs would then change the dataset under it, or
// kill the build with SIGBUS, after its checksum was checked; read into
// memory, what was checked is what is used. The samples, which a nightly
// build reads a few of per series, are read again from the open file
// (pread, not a mapping), each segment checked against the CRC taken of
// it when the chunk was read: a file changed in place during the build
// stops it with a message, never with other numbers.
//
// Why files and not an embedded database: every entry is written once and
// read whole by a key (content addressing), the folder is private to one
// build at a time (the output's lock, taken before the store is opened),
// and the whole store can be thrown away at any time. A folder of
// immutable, self-checking files gives that with the standard library
// only, and one corrupt entry costs one re-decode, not the store. A
// pure-Go SQLite would add a large dependency for transactions this access
// pattern does not need.
//
// Nothing read from the store is trusted blindly. Every file is read only
// when it is a regular file (a symbolic link is not followed, a named
// pipe or device never opened) and no larger than it should be: a .run
// entry no larger than its caller's bound, any other file exactly the
// size the index recorded when the store wrote it. Its magic line, its
// key and its checksum are checked. A file that fails any of this is a
// warning, is removed, and what it held is computed again.
//
// Ownership: perfpages deletes only what it can tell is its own by more
// than a name. The store folder carries the marker file, whose content
// names the format; a folder at the store's path without it (and not
// empty) is left alone and the build runs without a store, saying why.
// Inside its own folder the store removes what no build uses any more; it
// never follows a symbolic link out of it. Stores of the layout before
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
	"time"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/fileid"
)

// Version names the store's format; a store of another version is
// emptied with a warning and filled again.
const Version = "store-v5"

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
	used     map[[32]byte]bool  // run keys read or written by this build
	kept     map[string]bool    // named files read or written by this build
	index    map[string]indexed // every file but the .run entries, by name
}

// FolderName is the name of the store of the output folder out (an
// absolute, resolved path) inside the cache folder dir: the output's
// name, for people, and a hash of where the output is seen from the cache
// folder, so that two outputs never share a store (two sites built side
// by side would evict each other's entries) and the output's lock guards
// its store too. The hash is of the output's path relative to the cache
// folder (its absolute path when there is none, as across Windows
// volumes), not of its absolute path: a project moved or copied whole
// with its cache, or a CI cache restored into a workspace at another
// path, finds its store where it left it (the default cache folder is
// beside the output, so the relative path is "../public" wherever the
// project is), where a hash of the absolute path made such a build
// compute everything again and left the old store behind.
func FolderName(dir, out string) string {
	where := out
	if abs, err := filepath.Abs(dir); err == nil {
		if rel, err := filepath.Rel(abs, out); err == nil {
			where = "relative " + filepath.ToSlash(rel)
		}
	}
	return folderName(out, where)
}

// folderName is the output out's name, for people, and a hash of where.
func folderName(out, where string) string {
	name := []byte(filepath.Base(out))
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			name[i] = '_'
		}
	}
	if len(name) > 40 {
		name = name[:40]
	}
	sum := sha256.Sum256([]byte(where))
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
	s := &Store{dir: filepath.Join(dir, FolderName(dir, out)), used: map[[32]byte]bool{}, kept: map[string]bool{}, index: map[string]indexed{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.removeLegacy(dir)
	s.renameLegacy(dir, out)
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
// renameLegacy gives the store of out in dir the name FolderName gives
// it now when it has the name of builds before 2026-11-29 (a hash of the
// output's absolute path) and none has the new one: the store is kept,
// not left behind beside a new one. What is there under the old name is
// checked by open as any store is.
func (s *Store) renameLegacy(dir, out string) {
	old := filepath.Join(dir, folderName(out, out))
	if old == s.dir {
		return
	}
	if _, err := os.Lstat(s.dir); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if fi, err := os.Lstat(old); err == nil && fi.IsDir() {
		if marker, err := capped.ReadOwn(filepath.Join(old, Marker), maxMarker); err == nil && bytes.HasPrefix(marker, []byte(markerPrefix)) {
			os.Rename(old, s.dir)
		}
	}
}

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

// Checked files: a magic line, a 32-byte key, the payload, a CRC-32C of
// key and payload.

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt marks a file that is not what it should be.
var errCorrupt = errors.New("corrupt or of another version")

// sealAfter appends the checksum to b, a file's bytes after its magic
// line (which b starts with), without copying them.
func sealAfter(magic string, b []byte) []byte {
	sum := crc32.Checksum(b[len(magic):], crcTable)
	return append(b, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
}

// trusted is unseal without the checksum, for a file whose identity on
// disk is the one the index recorded after a build checked it: the same
// inode, device, size, mode, modification and status-change times, the
// last of which no tool can set back, and which any write to the file
// moves (the argument of the site's manifest, Outputs.Identify). At L a
// nightly build reads 3.3 GB of checkpoint, and the CRC was a tenth of its
// CPU time, mostly memory traffic. The magic line is still checked, and
// the caller checks the key.
func trusted(magic string, data []byte) ([]byte, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	return data[len(magic) : len(data)-4], nil
}

// identify records the identity on disk of each file this build kept whose
// index entry has none, when it is older than the clock's tick at now (a
// file written within it could change again unseen): the next build reads
// it without its checksum (trusted). The caller holds s.mu. A file read by
// a build was checked by its checksum, or trusted on its identity; one
// written by it was written whole by write.
func (s *Store) identify(now time.Time) {
	for name := range s.kept {
		e, ok := s.index[name]
		if !ok || e.Ident != "" {
			continue
		}
		if e.Ident = settledIdentity(filepath.Join(s.dir, name), e.Size, now); e.Ident != "" {
			s.index[name] = e
		}
	}
}

// unseal returns what data holds after its magic line, key first, when its
// checksum is right.
func unseal(magic string, data []byte) ([]byte, error) {
	payload, err := trusted(magic, data)
	if err != nil {
		return nil, err
	}
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

// Versions (see the package doc).

// Tool identifies the perfpages that runs: a SHA-256 of its executable,
// in hex. Every entry but the site's manifest belongs to the tool that
// made it.
func Tool() string { return tool() }

var tool = sync.OnceValue(func() string {
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			io.Copy(h, f)
			f.Close()
		}
	}
	return hex.EncodeToString(h.Sum(nil))
})

// version is the version an entry named name, made by the tool tool ("" for
// the manifest, which any tool may read) with options, is kept under: a
// build reads an entry only under the version it asks for.
func version(tool, name, options string) [32]byte {
	return Hash([]byte(Version), []byte(tool), []byte(name), []byte(options))
}

// The index: the size and version of every file the store wrote but the
// .run entries (whose callers bound their size, and whose key is their
// version), so that a file of another size — a sparse file of 20 GB, one
// truncated or grown by someone else — is refused by its size before any
// of it is read, and one of another version is not read at all.

const indexName, indexMagic = "index.gob", "perfpages store index v2\n"

// indexed is what the index knows of a file.
type indexed struct {
	Size    int64
	Version [32]byte
	// Ident is the file's identity on disk (fileid.Key) once a build
	// found it checked and older than the clock's tick (see trusted).
	Ident string
}

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
	var index map[string]indexed
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

// saveIndex writes the index; the caller holds s.mu.
func (s *Store) saveIndex() error {
	var buf bytes.Buffer
	buf.WriteString(indexMagic)
	if err := gob.NewEncoder(&buf).Encode(s.index); err != nil {
		return err
	}
	return writeFile(filepath.Join(s.dir, indexName), sealAfter(indexMagic, buf.Bytes()))
}

// recorded notes that the store wrote the file name, of size bytes and
// version v (and that this build keeps it), and saves the index; size < 0
// forgets the file.
func (s *Store) recorded(name string, size int64, v [32]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if size < 0 {
		delete(s.index, name)
		delete(s.kept, name)
	} else {
		s.index[name] = indexed{Size: size, Version: v}
		s.kept[name] = true
	}
	return s.saveIndex()
}

// Named files: a magic line naming the format and the file, the file's
// version, the payload, the checksum.

func magicOf(name string) string { return "perfpages " + Version + " " + name + "\n" }

// read returns the payload of the file name kept under version v (it
// starts at offset len(magic)+32 of a buffer the file was read into whole,
// of the size the index recorded: large ones are page-aligned, which the
// checkpoint's columns rely on). It is false when there is none, when it
// is of another version (which is no warning), or when it is broken (a
// warning, and the file is removed).
func (s *Store) read(name string, v [32]byte) ([]byte, bool) {
	return s.readInto(name, v, nil)
}

// readInto is read into buf's memory when it is large enough: a caller
// that reads many files it uses one at a time reads them into one buffer.
func (s *Store) readInto(name string, v [32]byte, buf []byte) ([]byte, bool) {
	payload, _, ok := s.readOpen(name, v, buf, false)
	return payload, ok
}

// readOpen is readInto; with keep, it also returns the file, open, where
// the payload begins at payloadOffset(name) (the caller closes it).
func (s *Store) readOpen(name string, v [32]byte, buf []byte, keep bool) ([]byte, *os.File, bool) {
	path := filepath.Join(s.dir, name)
	s.mu.Lock()
	e, ok := s.index[name]
	s.mu.Unlock()
	if !ok {
		if _, err := os.Lstat(path); err == nil {
			s.broken(name, errors.New("not a file this store wrote (the index does not list it)"))
		}
		return nil, nil, false
	}
	if e.Version != v {
		return nil, nil, false
	}
	data, ident, f, err := readSized(path, e.Size, buf, keep)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false
	}
	var payload []byte
	switch {
	case err != nil:
	case ident != "" && ident == e.Ident:
		payload, err = trusted(magicOf(name), data)
	default:
		payload, err = unseal(magicOf(name), data)
	}
	if err == nil && (len(payload) < len(v) || [32]byte(payload[:len(v)]) != v) {
		err = errors.New("of another version than the index says")
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		s.broken(name, err)
		return nil, nil, false
	}
	s.mu.Lock()
	s.kept[name] = true
	s.mu.Unlock()
	return payload[len(v):], f, true
}

// openTrusted returns the file name kept under version v, open, and the
// length of its payload (which begins at payloadOffset(name)), without
// reading the payload, when the file's identity on disk is the one the
// index recorded after a build checked it (trusted): false when it is
// not, and the caller reads it (readOpen), checking its checksum. A
// resumed checkpoint's floats parts, at L 0.84 of the 1.3 GB a nightly
// build read, are read a segment at a time when their samples are asked
// for (model's lazyfloats.go), each checked against the sum the chunk's
// columns list.
func (s *Store) openTrusted(name string, v [32]byte) (*os.File, int, bool) {
	s.mu.Lock()
	e, ok := s.index[name]
	s.mu.Unlock()
	if !ok || e.Version != v || e.Ident == "" {
		return nil, 0, false
	}
	f, fi, err := capped.OpenRegular(filepath.Join(s.dir, name), false)
	if err != nil {
		return nil, 0, false
	}
	magic := magicOf(name)
	head := make([]byte, len(magic)+len(v))
	ident, _, _ := fileid.Key(fi)
	if fi.Size() != e.Size || ident != e.Ident || e.Size < int64(len(head)+4) {
		f.Close()
		return nil, 0, false
	}
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:len(magic)]) != magic || [32]byte(head[len(magic):]) != v {
		f.Close()
		return nil, 0, false
	}
	s.mu.Lock()
	s.kept[name] = true
	s.mu.Unlock()
	return f, int(e.Size) - len(head) - 4, true
}

// payloadOffset is where the payload read returns begins in the file name.
func payloadOffset(name string) int64 { return int64(len(magicOf(name))) + 32 }

// readSized reads the regular file path, which must be size bytes long,
// into buf's memory when it is large enough; ident is the file's identity
// (fileid.Key) as it was opened, "" where the system keeps none. With
// keep, the file is returned open when there was no error (the caller
// closes it); without, kept is nil.
func readSized(path string, size int64, buf []byte, keep bool) (data []byte, ident string, kept *os.File, err error) {
	f, fi, err := capped.OpenRegular(path, false)
	if err != nil {
		return nil, "", nil, err
	}
	defer func() {
		if kept == nil {
			f.Close()
		}
	}()
	if fi.Size() != size {
		return nil, "", nil, fmt.Errorf("%d bytes where the store wrote %d", fi.Size(), size)
	}
	ident, _, _ = fileid.Key(fi)
	if data, err = readAll(f, size, buf); err != nil {
		return nil, "", nil, err
	}
	// The identity after the read, too: a write while it was read moves
	// the status-change time.
	if after, err := f.Stat(); err != nil {
		ident = ""
	} else if key, _, _ := fileid.Key(after); key != ident {
		ident = ""
	}
	if keep {
		kept = f
	}
	return data, ident, kept, nil
}

// readAll reads the open file f of size bytes whole, into buf's memory
// when it is large enough.
func readAll(f *os.File, size int64, buf []byte) ([]byte, error) {
	// One allocation of the recorded size, and not a byte more.
	var data []byte
	if int64(cap(buf)) >= size {
		data = buf[:size]
	} else {
		data = make([]byte, size)
	}
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, errors.New("the file grew while it was read")
	}
	return data, nil
}

// write writes the file name under version v: the magic line, the
// version, then what payload writes (offset is where that starts in the
// file), then the checksum, through a temporary file and a rename.
func (s *Store) write(name string, v [32]byte, payload func(w io.Writer, offset int) error) error {
	path := filepath.Join(s.dir, name)
	f, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	sum := crc32.New(crcTable)
	magic := magicOf(name)
	bw.WriteString(magic)
	w := io.MultiWriter(bw, sum)
	_, werr := w.Write(v[:])
	if werr == nil {
		werr = payload(w, len(magic)+len(v))
	}
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
	if err := s.recorded(name, size, v); err != nil {
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
	s.recorded(name, -1, [32]byte{})
}

// Values: gobs of the caller's types, kept by name.

// Load reads into v the value the last build of this tool saved as name
// with the same options ([Store.Save]), and reports whether there was a
// good one: a value of another tool or other options is not read.
func (s *Store) Load(name, options string, v any) bool {
	return s.loadGobs(name, version(Tool(), name, options), decodeInto(v))
}

// Save keeps v (a gob) as the value name, made with options, for the next
// build. options is the caller's canonical text of what v depends on
// besides the tool and its own keys; a build with other options does not
// read it.
func (s *Store) Save(name, options string, v any) error {
	return s.saveGobs(name, version(Tool(), name, options), encodeOne(v))
}

// SaveGobs is Save for a value too large to encode as one gob: write
// encodes it in parts (each Encode call one gob message), which LoadGobs
// gives back in order. One gob of a large value is built whole in a
// buffer that grows by copying (at L, the headline cache: 51 MB, 2 of a
// nightly build's CPU-s in the buffer's growth).
func (s *Store) SaveGobs(name, options string, write func(*gob.Encoder) error) error {
	return s.saveGobs(name, version(Tool(), name, options), write)
}

// LoadGobs reads the value name that SaveGobs kept for options: read
// decodes its parts. False, with the file removed and a warning, when
// read fails; false when there is none.
func (s *Store) LoadGobs(name, options string, read func(*gob.Decoder) error) bool {
	return s.loadGobs(name, version(Tool(), name, options), read)
}

// encodeOne writes v as a value of one part.
func encodeOne(v any) func(*gob.Encoder) error {
	return func(e *gob.Encoder) error { return e.Encode(v) }
}

// decodeInto reads a value of one part into v.
func decodeInto(v any) func(*gob.Decoder) error {
	return func(d *gob.Decoder) error { return d.Decode(v) }
}

func (s *Store) loadGobs(name string, ver [32]byte, read func(*gob.Decoder) error) bool {
	payload, ok := s.read(name+".gob", ver)
	if !ok {
		return false
	}
	if err := read(gob.NewDecoder(bytes.NewReader(payload))); err != nil {
		s.broken(name+".gob", err)
		return false
	}
	return true
}

func (s *Store) saveGobs(name string, ver [32]byte, write func(*gob.Encoder) error) error {
	return s.write(name+".gob", ver, func(w io.Writer, _ int) error {
		return write(gob.NewEncoder(w))
	})
}

// keep marks the entry of key k as used by this build, so that Prune keeps
// it: Entry and Put mark what they read and write.
func (s *Store) keep(k [32]byte) {
	s.mu.Lock()
	s.used[k] = true
	s.mu.Unlock()
}

// Prune removes from the store's folder what this build neither read nor
// wrote (see the package doc): .run entries no lookup or Put used (nor
// those a checkpoint saved since holds, SaveCheckpoint),
// named files no read found under its version and no write made, and
// anything else but the marker and the index. Call it after a successful
// build.
func (s *Store) Prune() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	var errs []error
	s.mu.Lock()
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == Marker || name == indexName:
			continue
		case name == "runs" && e.IsDir():
			continue
		case s.kept[name] && e.Type().IsRegular():
			continue
		}
		errs = append(errs, os.RemoveAll(filepath.Join(s.dir, name)))
		delete(s.index, name)
	}
	for name := range s.index {
		if !s.kept[name] {
			delete(s.index, name)
		}
	}
	s.identify(time.Now())
	errs = append(errs, s.saveIndex())
	s.mu.Unlock()
	errs = append(errs, s.pruneRuns())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}
