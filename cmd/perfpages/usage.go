package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// subcommand is one command of perfpages. Its synopsis and summary are the only place
// the command is described: the usage printed by 'perfpages help', the
// 'perfpages <name> -h' text, the doc comment (doc.go) and the README's
// command table are all made from them, and tests keep the last two in
// sync (TestDoc, TestREADMECommands) and check that the synopsis names
// every flag the command defines (TestSynopsisNamesEveryFlag).
type subcommand struct {
	name string
	// synopsis follows "perfpages <name>": every flag, then the
	// arguments. Pipes separate alternatives.
	synopsis string
	// summary says what the command does, in Markdown (the README's
	// "does" column); terminals get it without the backticks.
	summary string
	// details are more lines for 'perfpages <name> -h' only.
	details string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is filled in init: the commands' functions use the table for
// their -h text, which a package-level initializer cannot refer to.
var commands []subcommand

func init() {
	commands = []subcommand{
		{name: "build", run: cmdBuild,
			synopsis: "[-config F] [-out DIR] [-base-url URL] [-cache DIR|off] [-strict] [-cold] [-shard I/N] [-cpuprofile F] [-memprofile F] [-timings]",
			summary: "builds the site; with no `-config` and no `perfpages.toml` in the current folder, the embedded demo site into `public/` " +
				"(saying so on stderr); `-base-url` (or `PERFPAGES_BASE_URL`) overrides `site.base_url`, `-cache` the store of earlier builds (`site.cache`); " +
				"a build reuses what the last one computed and rewrites only what changed, `-cold` computes everything again; " +
				"`-shard i/n` builds shard i of n alone (its benchmarks' files and a partial site model) for `merge`"},
		{name: "merge", run: cmdMerge,
			synopsis: "[-config F] [-out DIR] [-base-url URL] [-cache DIR|off] [-strict] [-cold] [-timings] SHARD-DIR...",
			summary: "the last job of a sharded build: puts the output folders of every `build -shard i/n` together into the site, " +
				"byte for byte the one `build` writes without shards (same config, same inputs; it reads the shards' partial site models, not the results)"},
		{name: "serve", run: cmdServe,
			synopsis: "[-config F] [-addr 127.0.0.1:8080] [-base-url URL] [-cache DIR|off] [-poll 1s]",
			summary:  "builds, serves, and rebuilds when the config, archives, content, theme or `annotations.yaml` change"},
		{name: "compare", run: cmdCompare,
			synopsis: "[-config F] [-format text|json|markdown] [-metric M] [-model M] [-base-url URL] [BASE] HEAD",
			summary: "one comparison to stdout; BASE and HEAD are an artifact's id (a full sha, or the name of an artifact of kind tag), a unique prefix or `pr/<n>`, " +
				"or with `[project] git` any revision git knows there that has results (a git tag such as `v0.1`, a branch, `HEAD~3`); " +
				"without BASE, HEAD is compared with its baseline (a try run's baseline, else its main-line predecessor)",
			details: "A prefix needs at least 4 characters. Flags may also follow BASE and HEAD."},
		{name: "triage", run: cmdTriage,
			synopsis: "[-config F] -week YYYY-MM-DD [-format markdown|json] [-filter F] [-metric M] [-model M] [-base-url URL]",
			summary: "the weekly triage report of the week starting that Monday; `-filter` is `definitely-relevant` (default: `triage.filter`), " +
				"`probably-relevant` or `deserves-attention`"},
		{name: "demo", run: cmdDemo,
			synopsis: "-size demo|S|M|L -out DIR [-format json|yaml|toml|asv] [-gzip] [-samples N] [-iters SEL]",
			summary: "writes generated archives (the demo, or the benchmark sizes S = 100 artifacts × 200 series, M = 1,000 × 2,000, L = 5,000 × 10,000) " +
				"and a `perfpages.toml` that builds them; `-samples` sets the samples per result, `-iters` gives chosen benchmarks Criterion's iteration counts"},
		{name: "import", run: cmdImport,
			synopsis: "[-format auto|F] [-artifact ID] [-date T] [-machine M] [-branch B] [-pr N] [-title T] [-kind commit|try|tag|local] [-baseline ID] [-better higher|lower] [-results DIR] [-force] -out DIR FILE...",
			summary: "other tools' result files → archives (see \"Other tools' results\"); `-artifact`, `-date`, `-machine`, `-branch`, `-pr` and `-title` " +
				"say what the files do not record; a PR's run is `-kind try -pr N -baseline BASE_SHA`; `-force` overwrites an archive with other results; " +
				"an asv results folder, or one new result file of it, read with the folder's `benchmarks.json` and `machine.json` (found beside it, or in `-results DIR`)"},
		{name: "run", run: cmdRun,
			synopsis: "-name N [-repeat 5] [-warmup 0] [-work-units N] [-timeout D] [-out F] [-cwd DIR] [-output-cap N] [-allow-nonzero] -- CMD...",
			summary:  "measures a command as perfgate does (wall time, max RSS, CPU time, throughput) and writes a `perfgate.run.v1` receipt",
			details: "CMD runs warm-up + repeat times (no shell). A measured sample that exits non-zero or times out\n" +
				"is recorded; run then exits 1 after writing the receipt, unless -allow-nonzero."},
		{name: "check", run: cmdCheck,
			synopsis: "-current F [-baseline F] [-config F] [-fail-on-warn] [-fail-within-noise] [-require-baseline] [-out-dir DIR] [-significance-alpha A] [-significance-min-samples N] [-require-significance] [-host-mismatch warn|error|ignore] [-max-input-bytes N]",
			summary: "compares two run receipts, or two perfpages archives, against the budgets; writes `compare.json`, `report.json` and `comment.md`; " +
				"exit 0 pass/warn, 2 fail, 3 warn with `-fail-on-warn`, 1 error",
			details: "F is a perfgate run receipt or a perfpages archive (both sides the same kind)."},
		{name: "export", run: cmdExport,
			synopsis: "-format csv|jsonl [-max-input-bytes N] F...",
			summary:  "run or compare receipts as CSV or JSON Lines",
			details:  "F are perfgate run receipts (one row each) or compare receipts (one row per metric), not both."},
		{name: "promote", run: cmdPromote,
			synopsis: "[-normalize] F DEST",
			summary:  "copies a run receipt to a baseline; `-normalize` sets the run id to `baseline` and the timestamps to 1970"},
		{name: "version", run: cmdVersion,
			synopsis: "",
			summary:  "prints the version (also `perfpages -version`): the release, or the commit it was built from and whether it had local changes, or for a build without version control the SHA-256 of the binary"},
	}
}

// lookup returns the command called name.
func lookup(name string) (subcommand, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return subcommand{}, false
}

// line is the command's synopsis line, "perfpages <name> <synopsis>".
func (c subcommand) line() string {
	return strings.TrimSpace("perfpages " + c.name + " " + c.synopsis)
}

// plain turns the Markdown of a summary into terminal text.
func plain(s string) string { return strings.ReplaceAll(s, "`", "") }

// wrap breaks s into lines of at most width characters (longer words stay
// whole), each starting with indent.
func wrap(s, indent string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		l := len([]rune(w))
		if n > 0 && n+1+l > width {
			b.WriteString("\n")
			n = 0
		}
		if n == 0 {
			b.WriteString(indent)
		} else {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}

// usage is the text of 'perfpages help'.
func usage() string {
	var b strings.Builder
	b.WriteString("perfpages builds a static site from benchmark result archives.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %s\n%s\n", c.line(), wrap(plain(c.summary), "        ", 72))
	}
	b.WriteString(`
Flags may come before or after the arguments; "--" ends them (run's CMD
follows it). Run 'perfpages <command> -h' for a command's flags.

Errors go to standard error, one line each, prefixed "perfpages:"; the
exit status is 1 on any error. check has perfgate's exit statuses: 0
pass (or warn, skip, no baseline), 2 when a budget fails, 3 when one
warns and -fail-on-warn is set, 1 on error.
`)
	return b.String()
}

// newFlags returns a flag set that reports errors through run, and whose
// -h text is the command's synopsis, summary and flags.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("perfpages "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		c, _ := lookup(name)
		fmt.Fprintf(stderr, "usage: %s\n\n%s\n", c.line(), wrap(plain(c.summary), "", 76))
		if c.details != "" {
			fmt.Fprintf(stderr, "%s\n", c.details)
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags wherever they are among the arguments
// ("compare A B -format markdown" as well as "compare -format markdown A
// B"), stops at "--", and rejects more than maxArgs arguments. Afterwards
// fs.Args() are the arguments.
func parse(fs *flag.FlagSet, args []string, maxArgs int) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return errReported
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// flag.Parse stops at the first argument or after "--"; only
		// in the first case may flags follow.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" && !isFlagValue(fs, args[:consumed-1]) {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parse sets Args to what follows "--", and leaves the flags as set.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return errReported
	}
	if fs.NArg() > maxArgs {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(maxArgs))
	}
	return nil
}

// isFlagValue reports whether the argument after before is the value of
// a flag ("-name --"), not a "--" of its own.
func isFlagValue(fs *flag.FlagSet, before []string) bool {
	if len(before) == 0 {
		return false
	}
	last := before[len(before)-1]
	name, ok := strings.CutPrefix(last, "-")
	if !ok || strings.Contains(name, "=") || name == "-" {
		return false
	}
	name = strings.TrimPrefix(name, "-")
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
		return false
	}
	return true
}

// buildVersion is the release version, set when the binary is linked:
//
//	go build -ldflags "-X main.buildVersion=v0.3.0" ./cmd/perfpages
//
// The GitHub Action does this with the ref it was used at. Without it,
// the version comes from the module's build information.
var buildVersion string

// develVersion is the version of a binary that carries none: built by go
// build or go run inside the module, whose version Go records as
// "(devel)". It is Go's base for the pseudo-versions of a module without
// a release tag (v0.0.0-<time>-<commit>), so that it sorts before every
// release; the commit (or, without version-control stamping, the
// binary's hash) says which build it is.
const develVersion = "v0.0.0-devel"

// version is the version recorded in receipts: buildVersion, else the
// module version go install put in the binary, else develVersion.
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return develVersion
}

// binaryID is the first 12 hex digits of the SHA-256 of the running
// binary, "" when it cannot be read: what tells two unstamped builds
// apart.
var binaryID = func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// versionLine is what 'perfpages version' prints: the version; when the
// binary was built from a git checkout, the commit, its time and whether
// the work tree had changes, else (go run, -buildvcs=false, a source tree
// without .git) the binary's SHA-256; then the Go version and platform.
func versionLine(bi *debug.BuildInfo) string {
	var extra []string
	var rev, at string
	modified := false
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	switch {
	case rev != "":
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified {
			rev += "-dirty"
		}
		extra = append(extra, "commit "+rev)
		if at != "" {
			extra = append(extra, at)
		}
	case buildVersion == "" && (bi == nil || bi.Main.Version == "" || bi.Main.Version == "(devel)"):
		if id := binaryID(); id != "" {
			extra = append(extra, "no commit recorded, binary sha256 "+id)
		}
	}
	extra = append(extra, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return "perfpages " + versionOf(bi) + " (" + strings.Join(extra, ", ") + ")"
}

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(bi))
	return nil
}
