package generator

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfpages/perfpages/analysis"
)

// The analysis cache keeps the results of Criterion's bootstrap between
// builds: a comparison's result depends only on its two samples, the
// series key (the seed) and the options, which make its key, so an entry
// can never go stale. A nightly rebuild after one new artifact therefore
// bootstraps only the new comparisons. Only the entries a build used are
// written back, so the file does not grow with pairs no page shows any
// more.

// cacheFile is the cache's file name inside the cache folder; the version
// changes with the entry format.
const cacheFile = "criterion-v1.gob"

// cacheHeader guards against reading a file of another format.
type cacheHeader struct {
	Magic   string
	Entries int
}

const cacheMagic = "perfpages analysis cache v1"

// loadTestCache reads the cache in dir; a missing file is an empty cache,
// a broken one a warning (and an empty cache).
func loadTestCache(dir string) ([]analysis.CachedTest, error) {
	if dir == "" {
		return nil, nil
	}
	path := filepath.Join(dir, cacheFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("analysis cache: %w", err)
	}
	defer f.Close()
	dec := gob.NewDecoder(f)
	var h cacheHeader
	var entries []analysis.CachedTest
	if err := dec.Decode(&h); err != nil || h.Magic != cacheMagic {
		return nil, fmt.Errorf("analysis cache %s: not a cache of this version; starting afresh", path)
	}
	if err := dec.Decode(&entries); err != nil || len(entries) != h.Entries {
		return nil, fmt.Errorf("analysis cache %s: truncated or corrupt; starting afresh", path)
	}
	return entries, nil
}

// saveTestCache writes the entries c used into dir, atomically.
func saveTestCache(dir string, c *analysis.TestCache) error {
	if dir == "" {
		return nil
	}
	entries := c.Used()
	if len(entries) == 0 {
		// Nothing worth keeping: no file, or an emptied one.
		if _, err := os.Stat(filepath.Join(dir, cacheFile)); err != nil {
			return nil
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("analysis cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("analysis cache: %w", err)
	}
	enc := gob.NewEncoder(tmp)
	err = enc.Encode(cacheHeader{Magic: cacheMagic, Entries: len(entries)})
	if err == nil {
		err = enc.Encode(entries)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, cacheFile))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("analysis cache: %w", err)
	}
	return nil
}
