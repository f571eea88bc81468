package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
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
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "perfpages: %s\n", line)
		}
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
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
