package perfgate

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/perfpages/perfpages/generator/receipt"
)

// DefaultOutputCap is how many bytes of a sample's stdout and stderr a
// receipt keeps (perfgate's output_cap_bytes).
const DefaultOutputCap = 8192

// maxOutputCap is the most bytes of each stream a receipt may keep per
// sample: 1 MiB. The receipt must stay readable by check and export,
// which refuse an input over 64 MiB (max_input_bytes): a default run of 5
// samples keeping 1 MiB of stdout and stderr each writes 10 MiB of text,
// up to 6 × that where JSON escapes control bytes. Output is kept to
// diagnose a failing sample; a megabyte of it is plenty.
const maxOutputCap = 1 << 20

// CheckOutputCap says whether n bytes is a valid output cap: 1 to
// maxOutputCap.
func CheckOutputCap(n int) error {
	if n < 1 || n > maxOutputCap {
		return fmt.Errorf("%d bytes: want 1 to %d (1 MiB), the most a receipt keeps of each stream of a sample", n, maxOutputCap)
	}
	return nil
}

// RunOptions describes a measurement.
type RunOptions struct {
	// Name is the bench name (see [validateBenchName]).
	Name string
	// Command is the argv to run; no shell is involved.
	Command []string
	// Cwd is the working directory of the command ("" for the current one).
	Cwd string
	// Repeat is the number of measured samples (at least 1); Warmup the
	// number of samples run first and excluded from the statistics.
	Repeat, Warmup int
	// WorkUnits, when set, adds throughput_per_s = work units per second.
	WorkUnits *uint64
	// Timeout bounds each sample; 0 means none. A sample that runs out of
	// time has its whole process group killed and is recorded as timed out.
	Timeout time.Duration
	// OutputCap is the number of output bytes kept per stream (0:
	// DefaultOutputCap; at most maxOutputCap).
	OutputCap int
	Tool      receipt.Tool
	// Now is the clock of the receipt's timestamps (default time.Now).
	Now func() time.Time
	// Host describes the machine (default probeHost).
	Host func() receipt.Host
}

// RunOutcome is a finished measurement.
type RunOutcome struct {
	Receipt *receipt.Run
	// Failures lists measured samples that timed out or exited non-zero,
	// in perfgate's words ("iteration 3 exit code 2", "iteration 4 timed
	// out"; a killed sample is listed once, as timed out). Warm-up
	// failures are recorded in the samples but not listed.
	Failures []string
}

// Run measures a command: opts.Warmup warm-up samples, then opts.Repeat
// measured ones, each a fresh process; the receipt summarizes the measured
// samples. A sample that fails (non-zero exit, timeout) is recorded, not
// fatal: the outcome lists it and the caller decides. Run fails only when
// the options are invalid, the command cannot be started, or ctx is
// cancelled; cancelling ctx kills the running sample's process group.
// Nothing a sample starts outlives it: when the command exits, whatever it
// left running in its process group is killed.
func Run(ctx context.Context, opts RunOptions) (*RunOutcome, error) {
	if err := validateBenchName(opts.Name); err != nil {
		return nil, err
	}
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("no command to run (give it after --)")
	}
	if opts.Repeat < 1 {
		return nil, fmt.Errorf("repeat %d: want at least 1", opts.Repeat)
	}
	if opts.Warmup < 0 {
		return nil, fmt.Errorf("warmup %d: want 0 or more", opts.Warmup)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("timeout %v: want a positive duration", opts.Timeout)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	host := opts.Host
	if host == nil {
		host = probeHost
	}
	capBytes := opts.OutputCap
	if capBytes == 0 {
		capBytes = DefaultOutputCap
	}
	if err := CheckOutputCap(capBytes); err != nil {
		return nil, fmt.Errorf("output cap %w", err)
	}
	path, err := lookPath(opts.Command[0])
	if err != nil {
		return nil, err
	}
	id, err := newUUID()
	if err != nil {
		return nil, err
	}

	r := &receipt.Run{
		Schema: receipt.RunSchema,
		Tool:   opts.Tool,
		Run:    receipt.RunMeta{ID: id, StartedAt: now().UTC().Format(time.RFC3339Nano), Host: host()},
		Bench: receipt.Bench{
			Name:      opts.Name,
			Cwd:       opts.Cwd,
			Command:   append([]string{}, opts.Command...),
			Repeat:    uint32(opts.Repeat),
			Warmup:    uint32(opts.Warmup),
			WorkUnits: opts.WorkUnits,
		},
	}
	if opts.Timeout > 0 {
		ms := uint64(opts.Timeout.Milliseconds())
		r.Bench.TimeoutMs = &ms
	}
	out := &RunOutcome{Receipt: r}
	for i := range opts.Warmup + opts.Repeat {
		s, err := runOnce(ctx, path, opts.Command, opts.Cwd, opts.Timeout, capBytes)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("iteration %d of %d interrupted: %w (everything the command started was killed)", i+1, opts.Warmup+opts.Repeat, context.Cause(ctx))
		}
		if err != nil {
			return nil, fmt.Errorf("iteration %d: %w", i+1, err)
		}
		s.Warmup = i < opts.Warmup
		if !s.Warmup {
			switch {
			case s.TimedOut:
				out.Failures = append(out.Failures, fmt.Sprintf("iteration %d timed out", i+1))
			case s.ExitCode != 0:
				out.Failures = append(out.Failures, fmt.Sprintf("iteration %d exit code %d", i+1, s.ExitCode))
			}
		}
		r.Samples = append(r.Samples, s)
	}
	if r.Stats, err = receipt.ComputeStats(r.Samples, opts.WorkUnits); err != nil {
		return nil, err
	}
	r.Run.EndedAt = now().UTC().Format(time.RFC3339Nano)
	return out, nil
}

// lookPath finds a command the way a shell would: names with a slash are
// used as given (relative ones against the working directory of the
// command), others are searched in PATH.
func lookPath(name string) (string, error) {
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, os.PathSeparator) {
		return name, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	return p, nil
}

// outputGrace is how long the output of a finished command is still read:
// a descendant that left the command's process group (and so survived
// its kill) may keep the pipe open.
const outputGrace = time.Second

// runOnce runs the command once and measures it.
func runOnce(ctx context.Context, path string, argv []string, dir string, timeout time.Duration, capBytes int) (receipt.Sample, error) {
	if err := ctx.Err(); err != nil {
		return receipt.Sample{}, err
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return receipt.Sample{}, err
	}
	defer devnull.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return receipt.Sample{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return receipt.Sample{}, err
	}
	stdout, stderr := &capBuffer{max: capBytes}, &capBuffer{max: capBytes}
	var readers sync.WaitGroup
	readers.Go(func() { stdout.drain(outR) })
	readers.Go(func() { stderr.drain(errR) })

	attr := &os.ProcAttr{Dir: dir, Files: []*os.File{devnull, outW, errW}, Sys: procAttr()}
	start := time.Now()
	p, err := os.StartProcess(path, argv, attr)
	outW.Close()
	errW.Close()
	if err != nil {
		readers.Wait()
		outR.Close()
		errR.Close()
		return receipt.Sample{}, err
	}

	// Kill the process group on timeout or cancellation, but never after
	// the command has been reaped (the pid may be reused). waitSample also
	// kills the group when the command exits on its own, so that nothing a
	// sample started outlives it.
	var mu sync.Mutex
	exited, timedOut := false, false
	kill := func(isTimeout bool) {
		mu.Lock()
		defer mu.Unlock()
		if exited {
			return
		}
		timedOut = timedOut || isTimeout
		killGroup(p)
	}
	var timer *time.Timer
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() { kill(true) })
	}
	stopWatch := context.AfterFunc(ctx, func() { kill(false) })

	state, exitedAt, werr := waitSample(p)
	wall := exitedAt.Sub(start)
	mu.Lock()
	exited = true
	mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	stopWatch()

	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(outputGrace):
		outR.Close()
		errR.Close()
		<-done
	}
	outR.Close()
	errR.Close()

	if werr != nil {
		return receipt.Sample{}, werr
	}
	if err := ctx.Err(); err != nil {
		return receipt.Sample{}, err
	}
	// ExitCode is -1 for a process ended by a signal (Go's convention;
	// perfgate records the signal number).
	s := receipt.Sample{
		WallMs:   uint64(wall.Milliseconds()),
		ExitCode: int32(state.ExitCode()),
		TimedOut: timedOut,
		Stdout:   stdout.text(),
		Stderr:   stderr.text(),
	}
	// CPU time as perfgate sums it: user and system, each in whole ms.
	cpu := uint64(state.UserTime().Milliseconds()) + uint64(state.SystemTime().Milliseconds())
	s.CPUMs = &cpu
	s.MaxRSSKB = maxRSSKB(state)
	return s, nil
}

// capBuffer keeps the first max bytes written to it and discards the
// rest, so that a chatty command neither blocks nor fills memory.
type capBuffer struct {
	max int
	buf []byte
}

func (c *capBuffer) drain(f *os.File) {
	b := make([]byte, 32<<10)
	for {
		n, err := f.Read(b)
		if room := c.max - len(c.buf); room > 0 {
			c.buf = append(c.buf, b[:min(n, room)]...)
		}
		if err != nil {
			return
		}
	}
}

// text is the kept output as valid UTF-8, or nil when there was none.
func (c *capBuffer) text() *string {
	if len(c.buf) == 0 {
		return nil
	}
	s := strings.ToValidUTF8(string(c.buf), "\uFFFD")
	return &s
}

// newUUID returns a random (version 4) UUID.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// benchNameMaxLen is the longest bench name perfgate accepts.
const benchNameMaxLen = 64

var benchNameChars = regexp.MustCompile(`^[a-z0-9_./-]+$`)

// validateBenchName checks a bench name by perfgate's rules: 1 to 64
// characters out of lower-case letters, digits, '_', '.', '-' and '/',
// with no empty, "." or ".." path segment. The name becomes a baseline
// file name (baselines/<name>.json), so it must not escape that folder.
func validateBenchName(name string) error {
	switch {
	case name == "":
		return errors.New("bench name must not be empty")
	case len(name) > benchNameMaxLen:
		return fmt.Errorf("bench name %q exceeds maximum length of %d characters", name, benchNameMaxLen)
	case !benchNameChars.MatchString(name):
		return fmt.Errorf("bench name %q contains invalid characters; allowed: lowercase alphanumeric, dots, underscores, hyphens, slashes", name)
	}
	for _, seg := range strings.Split(name, "/") {
		switch seg {
		case "":
			return fmt.Errorf("bench name %q contains an empty path segment (leading, trailing, or consecutive slashes are forbidden)", name)
		case ".", "..":
			return fmt.Errorf("bench name %q contains a %q path segment (path traversal is forbidden)", name, seg)
		}
	}
	return nil
}
