package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

const usage = `perfpages builds a static site from benchmark result archives.

Usage:
  perfpages build [-config F] [-out DIR] [-strict]
        build the site; without a config (and no perfpages.toml here) the demo site into public/
  perfpages serve [-config F] [-addr 127.0.0.1:8080]
        build the site, serve it and rebuild when inputs change
  perfpages compare [-config F] [-format text|json|markdown] [-metric M] BASE HEAD
        compare two artifacts (full sha, unique prefix, tag or pr/<n>) and print the result
  perfpages triage [-config F] -week YYYY-MM-DD [-format markdown|json]
        print the triage report of the week starting that Monday
  perfpages demo -size demo|S|M|L -out DIR [-format json|yaml|toml] [-gzip] [-samples N] [-iters SEL]
        write generated benchmark archives and a perfpages.toml that builds them
  perfpages import [-format auto|F] [-artifact ID] [-date T] [-machine M] -out DIR FILE...
        turn other tools' result files (gobench, criterion, googlebench, pytest-benchmark,
        hyperfine, bmf, gab, asv, perfgate) into archives; auto says which format it found
  perfpages run -name N [-repeat 5] [-warmup 0] [-work-units N] [-timeout D] [-out F] [-cwd DIR] -- CMD...
        measure a command (perfgate model) and write a run receipt (default perfgate.json)
  perfpages check -current F [-baseline F] [-config F] [-fail-on-warn] [-require-baseline] [-out-dir DIR]
        judge a run receipt or archive against its baseline under [budgets]; exit 0 pass/warn,
        2 fail, 3 warn with -fail-on-warn, 1 error
  perfpages export -format csv|jsonl F...
        print run or compare receipts as CSV or JSON Lines
  perfpages promote [-normalize] F DEST
        copy a run receipt to a baseline, optionally with a stable id and timestamps
  perfpages version
        print the version

Run 'perfpages <command> -h' for a command's flags.
`

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
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "build":
		return cmdBuild(ctx, rest, stdout, stderr)
	case "serve":
		return cmdServe(ctx, rest, stdout, stderr)
	case "compare":
		return cmdCompare(ctx, rest, stdout, stderr)
	case "triage":
		return cmdTriage(ctx, rest, stdout, stderr)
	case "demo":
		return cmdDemo(ctx, rest, stdout, stderr)
	case "import":
		return cmdImport(ctx, rest, stdout, stderr)
	case "run":
		return cmdRun(ctx, rest, stdout, stderr)
	case "check":
		return cmdCheck(ctx, rest, stdout, stderr)
	case "export":
		return cmdExport(ctx, rest, stdout, stderr)
	case "promote":
		return cmdPromote(ctx, rest, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "perfpages", version())
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q (run 'perfpages help')", cmd)
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// newFlags returns a flag set that reports errors through run.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("perfpages "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags and rejects stray arguments.
func parse(fs *flag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errReported
	}
	if fs.NArg() > maxArgs {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(maxArgs))
	}
	return nil
}
