package source

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// catFile is a running "git cat-file --batch": object ids go in on stdin,
// one a line, and come back as "<id> <type> <size>\n<content>\n".
type catFile struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tailWriter
}

func (g *Git) startCatFile() (*catFile, error) {
	// Not CommandContext: the process outlives the call that starts it.
	// readBlobs kills it when that call's context ends mid-read.
	cmd := exec.Command(g.git, append(stableConfig[:len(stableConfig):len(stableConfig)], "cat-file", "--batch")...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	cmd.WaitDelay = 2 * time.Second
	c := &catFile{cmd: cmd, stderr: &tailWriter{}}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", g.dir, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", g.dir, err)
	}
	c.stdout = bufio.NewReaderSize(stdout, 64<<10)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", g.dir, err)
	}
	return c, nil
}

// close ends the process normally: cat-file exits at the end of its input.
func (c *catFile) close() error {
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
			return fmt.Errorf("git cat-file: %s (%w)", msg, err)
		}
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// kill ends the process after a failed or cancelled read, whose leftover
// output would confuse the next one, and returns what git said.
func (c *catFile) kill() string {
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
	return strings.TrimSpace(c.stderr.String())
}

// readBlobs returns the content of the blobs ids, in order, from the
// repository's cat-file process (see catBlobs). A blob over g.MaxFileBytes
// is not read: its content is nil and tooLarge[i] says why (tooLarge is
// nil when no blob was).
func (g *Git) readBlobs(ctx context.Context, ids []string) (blobs [][]byte, tooLarge []error, err error) {
	if len(ids) == 0 {
		return nil, nil, ctx.Err()
	}
	blobs = make([][]byte, len(ids))
	err = g.catBlobs(ctx, ids, func(i int, data []byte, big error) error {
		blobs[i] = data
		if big != nil {
			if tooLarge == nil {
				tooLarge = make([]error, len(ids))
			}
			tooLarge[i] = big
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return blobs, tooLarge, nil
}

// ReadBlobs reads the blobs ids in order and hands each to fn as it comes
// (i is its index in ids), so that only one is in memory at a time unless
// fn keeps it: a history of a thousand versions of a 2 MB file is read
// in 2 MB. An error of fn stops the reading and is returned. A blob over
// g.MaxFileBytes is an error ([Git.Versions] says which are, by size, so
// that they are never asked for).
func (g *Git) ReadBlobs(ctx context.Context, ids []string, fn func(i int, data []byte) error) error {
	return g.catBlobs(ctx, ids, func(i int, data []byte, big error) error {
		if big != nil {
			return fmt.Errorf("blob %s: %w", ids[i], big)
		}
		return fn(i, data)
	})
}

// ReadBlob reads one blob from the repository's cat-file process.
func (g *Git) ReadBlob(ctx context.Context, id string) ([]byte, error) {
	var out []byte
	err := g.ReadBlobs(ctx, []string{id}, func(_ int, data []byte) error {
		out = data
		return nil
	})
	return out, err
}

// catBlobs reads the blobs ids from the repository's cat-file process
// (started on first use) and calls fn with each in order: its content, or
// nil and why when it is over g.MaxFileBytes (then it is skipped unread,
// its size known from the header). Requests are written while answers are
// read, so reading thousands of small blobs costs no round trip each.
func (g *Git) catBlobs(ctx context.Context, ids []string, fn func(i int, data []byte, tooLarge error) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	for _, id := range ids {
		if !isObjectID(id) {
			return fmt.Errorf("git cat-file in %s: invalid object id %q", g.dir, id)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return fmt.Errorf("git repository %s: read after Close", g.dir)
	}
	if g.cat == nil {
		c, err := g.startCatFile()
		if err != nil {
			return err
		}
		g.cat = c
	}
	c := g.cat
	stop := context.AfterFunc(ctx, func() { _ = c.cmd.Process.Kill() })

	written := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(c.stdin, 16<<10)
		for _, id := range ids {
			w.WriteString(id)
			w.WriteByte('\n')
		}
		written <- w.Flush()
	}()
	limit := capped.Or(g.MaxFileBytes)
	var err, fnErr error
	for i, id := range ids {
		var data []byte
		var big error
		if data, big, err = readObject(c.stdout, id, limit); err != nil {
			break
		}
		if big == nil {
			g.blobsRead.Add(1)
			g.bytesRead.Add(int64(len(data)))
		}
		if fnErr = fn(i, data, big); fnErr != nil {
			break
		}
	}
	cancelled := !stop()
	if err == nil && fnErr == nil && !cancelled {
		if err = <-written; err == nil {
			return nil
		}
	}
	// Killing the process also frees the writer if it is stuck on a full
	// pipe, and drops the answers left unread after an error of fn.
	msg := c.kill()
	<-written
	g.cat = nil
	switch {
	case cancelled || ctx.Err() != nil:
		return fmt.Errorf("git cat-file in %s: %w", g.dir, ctx.Err())
	case fnErr != nil:
		return fnErr
	case msg != "":
		return fmt.Errorf("git cat-file in %s: %w (git said: %s)", g.dir, err, msg)
	}
	return fmt.Errorf("git cat-file in %s: %w", g.dir, err)
}

// sizes returns the size of each blob of ids, from one
// "git cat-file --batch-check": its header only, nothing of its content;
// -1 for a blob the repository does not have (see MissingBlob).
func (g *Git) sizes(ctx context.Context, ids []string) ([]int64, error) {
	var in strings.Builder
	for _, id := range ids {
		if !isObjectID(id) {
			return nil, fmt.Errorf("git cat-file in %s: invalid object id %q", g.dir, id)
		}
		in.WriteString(id)
		in.WriteByte('\n')
	}
	args := []string{"cat-file", "--batch-check"}
	cmd := g.command(ctx, args...)
	cmd.Stdin = strings.NewReader(in.String())
	var stdout bytes.Buffer
	var stderr tailWriter
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, g.commandError(ctx, args, stderr.String(), err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(ids) {
		return nil, fmt.Errorf("git cat-file --batch-check in %s: %d answers for %d objects", g.dir, len(lines), len(ids))
	}
	sizes := make([]int64, len(ids))
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == ids[i] && f[1] == "missing" {
			sizes[i] = -1
			continue
		}
		if len(f) != 3 || f[0] != ids[i] || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file --batch-check in %s: unexpected answer %q for %s", g.dir, truncate(line), ids[i])
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("git cat-file --batch-check in %s: bad size %q", g.dir, f[2])
		}
		sizes[i] = n
	}
	return sizes, nil
}

// errMissing is returned for an object the repository does not have.
var errMissing = errors.New("object missing")

// MissingBlob is the Err of a file whose blob the repository does not
// have: a damaged clone, or a copy that left its largest blobs out. It
// is that file's (or version's) problem, not the source's: the build reads
// the others.
type MissingBlob struct{ Blob string }

func (e *MissingBlob) Error() string {
	return "blob " + e.Blob + " is not in the repository (a damaged clone, or a copy without its largest files? git fsck says more)"
}

// fileSize is the Size and Err of a file of blob id whose size sizes gave
// (-1 for a missing blob), under limit: Err is nil, MissingBlob (and Size
// 0) or capped.TooLargeError.
func fileSize(id string, size, limit int64) (int64, error) {
	switch {
	case size < 0:
		return 0, &MissingBlob{Blob: id}
	case size > limit:
		return size, &capped.TooLargeError{Limit: limit, Size: size}
	}
	return size, nil
}

// readObject reads cat-file's answer for blob id. A blob over limit bytes
// is skipped without being kept, its size known from the header: data is
// nil and tooLarge says so; err is for a broken answer.
func readObject(r *bufio.Reader, id string, limit int64) (data []byte, tooLarge, err error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return nil, nil, fmt.Errorf("reading blob %s: %w", id, noEOF(err))
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, nil, fmt.Errorf("blob %s: %w", id, errMissing)
	}
	if len(fields) != 3 || fields[0] != id {
		return nil, nil, fmt.Errorf("reading blob %s: unexpected answer %q", id, strings.TrimSpace(header))
	}
	if fields[1] != "blob" {
		return nil, nil, fmt.Errorf("reading blob %s: object is a %s", id, fields[1])
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 || size > 1<<40 {
		return nil, nil, fmt.Errorf("reading blob %s: bad size %q", id, fields[2])
	}
	if size > limit {
		if _, err := r.Discard(int(size)); err != nil {
			return nil, nil, fmt.Errorf("reading blob %s: %w", id, noEOF(err))
		}
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return nil, nil, fmt.Errorf("reading blob %s: answer not terminated by a newline", id)
		}
		return nil, &capped.TooLargeError{Limit: limit, Size: size}, nil
	}
	// The size is within the limit, so the buffer can be made to fit.
	data = make([]byte, size+1)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, nil, fmt.Errorf("reading blob %s: %w", id, noEOF(err))
	}
	if data[size] != '\n' {
		return nil, nil, fmt.Errorf("reading blob %s: answer not terminated by a newline", id)
	}
	return data[:size:size], nil, nil
}

// noEOF turns a bare EOF, which means the process died, into an error that
// says the output was cut short.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
