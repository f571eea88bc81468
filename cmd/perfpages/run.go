package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/perfpages/perfpages/generator/inert"
)

// errReported is returned when the problem was already printed; main only
// has to set the exit status.
var errReported = errors.New("reported")

// exitError asks for an exit status other than 1 (check's 2 and 3). run
// prints msg like any error, or nothing when msg is empty; main exits with
// code.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.msg
}

// exitCode is the process exit status for run's error: 0 for none, the
// code of an exitError, else 1.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// run is the whole command line, testable in-process: it prints errors
// itself (one line each, "perfpages: …") and returns non-nil when the exit
// status must not be 0: an *exitError carries its status, any other error
// means 1 (see exitCode).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, stdout, stderr)
	var ee *exitError
	if errors.As(err, &ee) && ee.msg == "" {
		return err
	}
	if err != nil && !errors.Is(err, errReported) && !errors.Is(err, flag.ErrHelp) {
		for _, line := range errorLines(err) {
			fmt.Fprintf(stderr, "perfpages: %s\n", line)
		}
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// say prints one line of the log: prefix, then msg made inert
// (inert.Line), so that a name in it — a benchmark, a machine, a file —
// can neither forge another line ("perfpages: note: …") nor act on the
// terminal. Every warning and note of the commands goes through it.
func say(w io.Writer, prefix string, msg any) {
	fmt.Fprintf(w, "%s%s\n", prefix, inert.Line(fmt.Sprint(msg)))
}

// errorLines is what run prints of err: one inert line per error that
// errors.Join joined (a config with three bad keys is three lines), one
// for any other error whatever newlines a name in it holds. When a joined
// error is wrapped ("config: %w"), its lines can only be told apart by
// its newlines, and each is made inert.
func errorLines(err error) []string {
	if errs, ok := joined(err); ok {
		var lines []string
		for _, e := range errs {
			lines = append(lines, errorLines(e)...)
		}
		return lines
	}
	if wrapsJoin(err) {
		lines := strings.Split(err.Error(), "\n")
		for i, l := range lines {
			lines[i] = inert.Line(l)
		}
		return lines
	}
	return []string{inert.Line(err.Error())}
}

// joined returns the errors of an errors.Join: an error whose Unwrap
// returns several errors and whose message is theirs, one a line (not
// fmt.Errorf with several %w, whose message is its own).
func joined(err error) ([]error, bool) {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil, false
	}
	errs := j.Unwrap()
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errs, err.Error() == strings.Join(msgs, "\n")
}

// wrapsJoin reports whether an errors.Join lies under err.
func wrapsJoin(err error) bool {
	for err != nil {
		if _, ok := joined(err); ok {
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return errors.New("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return nil
	case "-version", "--version":
		name = "version"
	}
	if c, ok := lookup(name); ok {
		return c.run(ctx, rest, stdout, stderr)
	}
	return fmt.Errorf("unknown command %q (run 'perfpages help')", name)
}
