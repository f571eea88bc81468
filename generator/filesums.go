package generator

import (
	"crypto/sha256"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/store"
)

// Archive keys without reading the archives. An archive's store key is a
// hash of its bytes (archiveKey); hashing every archive of a large history
// on every build means reading all of them (at M 2,000 files, 63 MB, a
// third of a nightly build's load). A directory source is therefore
// listed without reading its files (source.List), and the store keeps,
// per file, the SHA-256 of its bytes with the file's identity on disk
// when they were read (the value "file-sums"): a file whose identity is
// the same is not read again, its hash is carried over.
//
// The identity is what the fingerprint knows a file by: size, mode,
// modification time, and what the kernel keeps beside them — inode,
// device and status-change time (fileid.Identity). Why that is enough:
//
//   - Every write to a file, and every copy or rename onto its path, sets
//     its status-change time (ctime) to the kernel's clock or gives it
//     another inode; no tool can set the ctime (rsync -a, cp -p, tar,
//     touch -r restore the modification time only: scripts/hostile.sh's
//     case mtime-restored rewrites a digit and restores the time, and the
//     ctime tells). A file whose ctime, inode and device are the ones
//     recorded has not been written since it was listed.
//   - A file is listed (stat) before it is read. A write after the listing
//     moves its ctime to the clock's time then, later than the listing;
//     so the hash read after the listing belongs to the recorded identity
//     unless the file changed, and then its identity is no longer the
//     recorded one and it is read again.
//   - Racy files: a clock tick is coarse (up to a few milliseconds, a
//     second on some file systems), so a write in the same tick as the
//     recorded ctime could leave it as it was. A file changed within
//     fileid.Racy's window before the listing is read and hashed, and its
//     hash is not recorded, exactly as the fingerprint does not trust such
//     a file (it marks the build unstable).
//   - Where the kernel keeps no ctime (fileid.Identity not ok), nothing is
//     recorded: every file is read.
//
// The hash is only used as the file's key: the entry under it is the one
// decoded from those bytes, checked by the store like any entry.

const fileSumsValue = "file-sums"

// fileSum is one file's hash under its identity, as the store keeps it.
type fileSum struct {
	Origin, Ident string
	Sum           [32]byte
}

// fileSums are the hashes known from the last build and those of this
// build, to save.
type fileSums struct {
	listed time.Time // before any file was listed
	old    map[string]fileSum
	mu     sync.Mutex
	now    []fileSum
}

// newFileSums reads the hashes the store kept (st may be nil); call it
// before the sources are listed.
func newFileSums(st *store.Store) *fileSums {
	fs := &fileSums{listed: time.Now(), old: map[string]fileSum{}}
	var saved []fileSum
	if st != nil && st.Load(fileSumsValue, "", &saved) {
		for _, s := range saved {
			fs.old[s.Origin] = s
		}
	}
	return fs
}

// ident is the identity of a listed file, and whether it may be trusted
// (the kernel keeps one, and the file is not racy).
func (fs *fileSums) ident(f *input) (string, bool) {
	info := f.Info
	if info == nil {
		return "", false
	}
	key, changed, ok := fileid.Key(info)
	if !ok || fileid.Racy(fs.listed, info.ModTime(), changed) {
		return "", false
	}
	return key, true
}

// sum sets the hash of the listed file f (Data nil, Load set): carried
// over when its identity is the one recorded, else read (into f.Data)
// and hashed. It returns Load's error.
func (fs *fileSums) sum(f *input) error {
	id, trusted := fs.ident(f)
	if trusted {
		if s, ok := fs.old[f.Origin]; ok && s.Ident == id {
			f.sum, f.summed = s.Sum, true
			fs.add(s)
			return nil
		}
	}
	data, err := f.Load()
	if err != nil {
		return err
	}
	f.Data, f.sum, f.summed = data, sha256.Sum256(data), true
	if trusted {
		fs.add(fileSum{f.Origin, id, f.sum})
	}
	return nil
}

func (fs *fileSums) add(s fileSum) {
	fs.mu.Lock()
	fs.now = append(fs.now, s)
	fs.mu.Unlock()
}

// save keeps the hashes of this build's files for the next.
func (fs *fileSums) save(st *store.Store) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	slices.SortFunc(fs.now, func(a, b fileSum) int { return strings.Compare(a.Origin, b.Origin) })
	return st.Save(fileSumsValue, "", fs.now)
}
