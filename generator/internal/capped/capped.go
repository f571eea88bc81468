// Package capped reads input files with a limit on their size, so that one
// hostile file — a 200 KB .json.gz that inflates to 200 MB, a 180 MB
// "archive" — cannot take the process's memory. Every reader of benchmark
// inputs goes through it: the sources (directories, git blobs and notes),
// the archive codecs (gzip), the foreign readers and the receipts of
// `check` and `export`.
//
// A file over the limit is refused before it is read whole: by its size on
// disk when that is known up front (a file's stat, a git blob's header),
// else by reading at most limit+1 bytes. Gzip data is inflated through the
// same cap, and going over it is a [TooLargeError] that says so rather
// than a silent truncation. [ReadRegular] also refuses, without blocking,
// whatever is not a regular file: a named pipe, a device, a socket.
package capped

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Default is the default limit on the decoded size of one input file:
// 64 MiB. The largest archives perfpages' own L data set writes are under
// 1 MB, and a run of 10,000 results with 100 samples and iteration counts
// each is about 25 MB of JSON, so no real input comes near it; the parse
// caps the codecs derive from it keep the peak memory of decoding any one
// file, however hostile, to a few hundred MB.
const Default int64 = 64 << 20

// Or returns limit, or Default when limit is 0 or negative.
func Or(limit int64) int64 {
	if limit <= 0 {
		return Default
	}
	return limit
}

// TooLargeError reports an input over the size limit.
type TooLargeError struct {
	Limit int64
	// Size is the input's size when it is known up front (a file's size
	// on disk, a git blob's header), else 0: only "more than Limit" is
	// known.
	Size int64
	// Gzip is set when the limit was reached while inflating gzip data.
	Gzip bool
}

func (e *TooLargeError) Error() string {
	limit := FormatBytes(e.Limit)
	switch {
	case e.Gzip:
		return fmt.Sprintf("gzip data inflates beyond %s, the limit per input file (max_input_bytes)", limit)
	case e.Size > 0:
		size := FormatBytes(e.Size)
		if strings.Replace(size, ".0 ", " ", 1) == limit {
			// "64.0 MiB, over the limit of 64 MiB" would read as a bug.
			size, limit = fmt.Sprintf("%d bytes", e.Size), fmt.Sprintf("%d bytes", e.Limit)
		}
		return fmt.Sprintf("%s, over the limit of %s per input file (max_input_bytes)", size, limit)
	}
	return fmt.Sprintf("larger than the limit of %s per input file (max_input_bytes)", limit)
}

// FormatBytes writes a size for messages: "64 MiB", "180.5 MiB", "512 KiB",
// "100 bytes".
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			if n%u.size == 0 {
				return fmt.Sprintf("%d %s", n/u.size, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadAll reads r to the end, or fails with a [TooLargeError] as soon as
// it has more than limit bytes (limit ≤ 0: [Default]). hint, when known,
// is the expected size: the buffer starts at min(hint, limit) so that a
// file read whole costs one allocation; a wrong hint costs only growth.
func ReadAll(r io.Reader, limit, hint int64) ([]byte, error) {
	limit = Or(limit)
	size := min(max(hint, 0), limit) + 1 // +1: room to see the end (or one byte too many)
	buf := make([]byte, 0, max(size, 512))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, &TooLargeError{Limit: limit}
			}
			// Grow by half, as append does for large slices, but never
			// past limit+1: the peak is ~1.5 × the data, not 2 ×.
			grown := min(int64(cap(buf))+int64(cap(buf))/2+512, limit+1)
			buf = append(make([]byte, 0, grown), buf...)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Read reads an open file whole, refusing it by its size before reading
// when [fs.File.Stat] says it is over limit (limit ≤ 0: [Default]). A file
// that grows while it is read is still cut off at limit+1 bytes.
func Read(f fs.File, limit int64) ([]byte, error) {
	limit = Or(limit)
	var hint int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > limit {
			return nil, &TooLargeError{Limit: limit, Size: st.Size()}
		}
		hint = st.Size()
	}
	return ReadAll(f, limit, hint)
}

// ReadFile is [os.ReadFile] with a size limit (limit ≤ 0: [Default]).
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readNamed(f, name, limit)
}

// readNamed reads the open file f whole ([Read]), naming it name in
// errors other than a [TooLargeError].
func readNamed(f fs.File, name string, limit int64) ([]byte, error) {
	data, err := Read(f, limit)
	if err != nil {
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			err = &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, err
	}
	return data, nil
}

// NotRegularError reports a path that is not a regular file (or a link to
// one): a named pipe, a device, a socket, a folder.
type NotRegularError struct {
	Mode fs.FileMode
	// Link is set when the path is a symbolic link to it.
	Link bool
}

func (e *NotRegularError) Error() string {
	what := Kind(e.Mode)
	if e.Link {
		what = "a symbolic link to " + what
	}
	return what + ", not a regular file"
}

// Kind names what a file of mode m is, with its article: "a named pipe",
// "a device", "a folder" — for messages about files that are not what a
// reader wants.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// IsGzip reports whether data starts with the gzip magic bytes.
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// Gunzip inflates gzip data (every member of a multi-member stream), or
// fails with a [TooLargeError] once the output passes limit (limit ≤ 0:
// [Default]) without ever holding more than limit+1 bytes of it. Other
// errors are compress/gzip's.
func Gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	// The trailer's ISIZE is the (last member's) size modulo 2³²: only a
	// hint, since a hostile file can say anything there. Deflate inflates
	// at most 1032:1, which bounds what a lying trailer can make us
	// allocate up front.
	var hint int64
	if len(data) >= 18 {
		hint = min(int64(binary.LittleEndian.Uint32(data[len(data)-4:])), 1032*int64(len(data)))
	}
	out, err := ReadAll(zr, limit, hint)
	var tl *TooLargeError
	if errors.As(err, &tl) {
		tl.Gzip = true
	}
	return out, err
}
