package fileid

import (
	"fmt"
	"io/fs"
	"time"
)

// Key is the whole of what a file is known by without reading it: its
// size, mode and modification time, and its Identity; changed is its
// status-change time (for Racy). ok is false where the system keeps no
// Identity. The archives' hashes (generator's file sums) and the site's
// manifest (the store's outputs) record it.
func Key(info fs.FileInfo) (key string, changed time.Time, ok bool) {
	id, changed, ok := Identity(info)
	if !ok {
		return "", time.Time{}, false
	}
	return fmt.Sprintf("%d %v %d %s", info.Size(), info.Mode(), info.ModTime().UnixNano(), id), changed, true
}
