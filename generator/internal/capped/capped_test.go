package capped

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadAll(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefgh"), 1000) // 8,000 bytes
	tests := []struct {
		name        string
		limit, hint int64
		tooLarge    bool
	}{
		{"under the limit", 10_000, 0, false},
		{"exactly the limit", 8000, 0, false},
		{"exact hint", 8000, 8000, false},
		{"hint too small", 10_000, 10, false},
		{"hint too large", 10_000, 1 << 40, false},
		{"one byte over", 7999, 0, true},
		{"far over", 100, 0, true},
		{"over with a lying hint", 100, 50, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// OneByteReader: growth and the limit work read by read.
			got, err := ReadAll(iotest.OneByteReader(bytes.NewReader(data)), tt.limit, tt.hint)
			var tl *TooLargeError
			switch {
			case tt.tooLarge:
				if !errors.As(err, &tl) || tl.Limit != tt.limit || got != nil {
					t.Fatalf("ReadAll = %d bytes, %v; want a TooLargeError with limit %d", len(got), err, tt.limit)
				}
			case err != nil || !bytes.Equal(got, data):
				t.Fatalf("ReadAll = %d bytes, %v; want the %d bytes", len(got), err, len(data))
			case int64(cap(got)) > tt.limit+1 && int64(cap(got)) > 512:
				t.Errorf("buffer of %d bytes for a limit of %d", cap(got), tt.limit)
			}
		})
	}
	if _, err := ReadAll(iotest.ErrReader(io.ErrClosedPipe), 10, 0); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("read error = %v, want it passed on", err)
	}
}

func TestGunzip(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 10_000) // 100,000 bytes
	z := gz(t, data)
	if got, err := Gunzip(z, 100_000); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Gunzip at the limit = %d bytes, %v", len(got), err)
	}
	got, err := Gunzip(z, 99_999)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !tl.Gzip || got != nil {
		t.Fatalf("Gunzip over the limit = %d bytes, %v; want a gzip TooLargeError", len(got), err)
	}
	if want := "gzip data inflates beyond 97.7 KiB, the limit per input file (max_input_bytes)"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	// Two members: the trailer's size is the last one's, a wrong hint.
	two := append(gz(t, data), gz(t, []byte("x"))...)
	if got, err := Gunzip(two, 1<<20); err != nil || len(got) != len(data)+1 {
		t.Errorf("two members = %d bytes, %v", len(got), err)
	}
	// A lying trailer changes nothing.
	lie := bytes.Clone(z)
	copy(lie[len(lie)-4:], []byte{0xff, 0xff, 0xff, 0xff})
	if _, err := Gunzip(lie, 1000); !errors.As(err, &tl) {
		t.Errorf("lying trailer: %v, want a TooLargeError", err)
	}
	if _, err := Gunzip([]byte("\x1f\x8bnot gzip"), 1000); err == nil || errors.As(err, &tl) {
		t.Errorf("bad data: %v, want gzip's error", err)
	}
	if _, err := Gunzip(z[:len(z)/2], 1<<20); err == nil || errors.As(err, &tl) {
		t.Errorf("truncated data: %v, want gzip's error", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	if err := os.WriteFile(name, bytes.Repeat([]byte("x"), 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(name, 3<<20)
	if err != nil || len(got) != 3<<20 {
		t.Fatalf("ReadFile at the limit = %d bytes, %v", len(got), err)
	}
	_, err = ReadFile(name, 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 3<<20 {
		t.Fatalf("ReadFile over the limit: %v, want a TooLargeError with the size", err)
	}
	if want := "3 MiB, over the limit of 1 MiB per input file (max_input_bytes)"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	// Just over: bytes, not "1.0 MiB, over the limit of 1 MiB".
	if err := (&TooLargeError{Limit: 1 << 20, Size: 1<<20 + 1}).Error(); err != "1048577 bytes, over the limit of 1048576 bytes per input file (max_input_bytes)" {
		t.Errorf("just over: %q", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		1: "1 byte", 100: "100 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 20: "64 MiB",
		188743895: "180.0 MiB", 3 << 30: "3 GiB",
	} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReadRegular: only regular files are read, and nothing blocks: a
// named pipe with no writer, a link to /dev/zero or to a pipe, a folder
// are refused at once, by kind.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "receipt.json")
	os.WriteFile(file, []byte(`{"schema": "x"}`), 0o644)
	os.Symlink(file, filepath.Join(dir, "link.json"))
	pipe := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	os.Symlink(pipe, filepath.Join(dir, "pipe-link.json"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.json"))
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "broken.json"))

	for _, name := range []string{"receipt.json", "link.json"} {
		if got, err := ReadRegular(filepath.Join(dir, name), 0); err != nil || string(got) != `{"schema": "x"}` {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	for _, tt := range []struct{ name, want string }{
		{"pipe.json", "pipe.json: a named pipe, not a regular file"},
		{"pipe-link.json", "pipe-link.json: a symbolic link to a named pipe, not a regular file"},
		{"zero.json", "zero.json: a symbolic link to a device, not a regular file"},
		{".", "a folder, not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := ReadRegular(filepath.Join(dir, tt.name), 0)
				done <- err
			}()
			select {
			case err := <-done:
				var nr *NotRegularError
				if !errors.As(err, &nr) || !strings.HasSuffix(err.Error(), tt.want) {
					t.Errorf("error = %v, want a NotRegularError ending %q", err, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("ReadRegular blocked")
			}
		})
	}
	if _, err := ReadRegular(filepath.Join(dir, "broken.json"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("broken link: %v, want not found", err)
	}
	if _, err := ReadRegular(file, 4); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("over the limit: %v, want a TooLargeError", err)
	}
}
