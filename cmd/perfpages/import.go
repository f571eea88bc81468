package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/cmd/perfpages/internal/perfgate"
	pparchive "github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/foreign"
	"github.com/perfpages/perfpages/generator/outdir"
)

// cmdImport turns foreign result files into native archives, one per run,
// named by archiveName under -out. A file that cannot be read at all is
// reported and the others are still imported; the exit status is 1 when
// any file failed. An import never overwrites an archive silently: an
// archive that exists with the same bytes is left as it is ("unchanged",
// so a re-run of the same import is harmless), one with other contents is
// an error naming the input and the archive, unless -force.
//
// -out is a folder archives are added to — typically the results folder a
// [[sources]] dir reads, so it may hold files already, and import never
// deletes any. It is refused, before anything is read, when it is a plain
// file, inside a .git folder, or inside a perfpages site (a folder with
// the .perfpages-site marker): the next build replaces the site as a
// whole, archives and all.
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	format := fs.String("format", "auto", "input format: auto (detect and say which), "+strings.Join(foreign.Names(), ", "))
	artifact := fs.String("artifact", "", "artifact id (a commit sha) when the files do not record one")
	date := fs.String("date", "", "artifact date, RFC 3339 or YYYY-MM-DD (default: from the file)")
	machine := fs.String("machine", "", "machine name (default: from the file, else \"default\")")
	branch := fs.String("branch", "", "branch of the artifact")
	pr := fs.Int("pr", 0, "PR number of the artifact")
	title := fs.String("title", "", "title of the artifact (commit subject)")
	kind := fs.String("kind", "", "artifact kind: commit (default), try, tag or local")
	baseline := fs.String("baseline", "", "with -kind try: the baseline artifact id")
	better := fs.String("better", "", "for github-action-benchmark custom JSON: higher (customBiggerIsBetter) or lower (customSmallerIsBetter)")
	out := fs.String("out", "", "folder to write archives into (required)")
	force := fs.Bool("force", false, "overwrite an archive that exists with other results for the same machine, artifact and context")
	results := fs.String("results", "", "with -format asv and a result file: the results folder it belongs to, whose benchmarks.json and machine.json it is read with "+
		"(default: the file's folder's parent when it holds benchmarks.json, else the file's folder)")
	if err := parse(fs, args, 1<<20); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("import: -out is required")
	}
	if err := checkImportOut(*out); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if fs.NArg() == 0 {
		return errors.New("import: no files given")
	}
	if ff, ok := foreign.Lookup(*format); *results != "" && (!ok || ff.Open == nil) {
		return fmt.Errorf("import: -results is for a result file of a format that reads its folder file by file (asv), not -format %s", *format)
	}
	def := foreign.Defaults{Artifact: model.Artifact{ID: *artifact, Branch: *branch, PR: *pr, Title: *title,
		Kind: model.ArtifactKind(*kind), Baseline: *baseline}, Machine: model.Machine{Name: *machine}}
	switch *better {
	case "":
	case "higher", "lower":
		def.Context = model.Params{{Key: foreign.GabBetter, Value: *better}}
	default:
		return fmt.Errorf("import: -better %q: want higher or lower", *better)
	}
	if *date != "" {
		t, err := parseDate(*date)
		if err != nil {
			return fmt.Errorf("import: -date %q: %v", *date, err)
		}
		def.Artifact.Date = t
	}
	failed, inputs := 0, 0
	for _, arg := range fs.Args() {
		paths, err := importPaths(arg, *format)
		if err != nil {
			say(stderr, "perfpages: ", err)
			failed++
			inputs++
			continue
		}
		for _, path := range paths {
			if err := ctx.Err(); err != nil {
				return err
			}
			inputs++
			if _, err := importOne(path, *format, *results, def, *out, *force, stdout, stderr); err != nil {
				say(stderr, "perfpages: ", err)
				failed++
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("import: %d of %d inputs could not be imported", failed, inputs)
	}
	return nil
}

// importPaths is what import reads for the argument path: the path
// itself, except that a folder given with a format that reads files
// stands for the files in it that the format reads (Format.Wants), as a
// source without an artifact pattern reads them: `-format gab
// gh-pages/dev/bench` imports data.js, not the index.html beside it.
func importPaths(path, format string) ([]string, error) {
	f, ok := foreign.Lookup(format)
	if !ok || f.Dir {
		return []string{path}, nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return []string{path}, nil
	}
	var paths []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && f.Wants(filepath.ToSlash(p)) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no file that format %s reads in the folder", path, f.Name)
	}
	return paths, nil
}

// checkImportOut refuses an -out that import must not write archives
// into (see cmdImport).
func checkImportOut(out string) error {
	if err := outdir.CheckFolder(out); err != nil {
		return err
	}
	if site := outdir.SiteAround(out); site != "" {
		return &outdir.RefusedError{Path: out, Verb: "write archives into",
			Why: "it is inside the perfpages site " + site + ", which the next build replaces",
			Fix: "import into the folder your config's [[sources]] dir reads, such as results/"}
	}
	return nil
}

func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errors.New("want RFC 3339 (2026-11-20T03:00:00Z) or YYYY-MM-DD")
}

// importOne imports one file or folder and returns the number of archives
// written (or found unchanged). A run whose archive would overwrite other
// results (without force) is reported and skipped; the others are still
// written and the error counts the skipped ones.
//
// A file of a format that reads its folders file by file (asv's result
// file) is read with the files its folder shares (benchmarks.json,
// machine.json), found in results or beside it (foreign.ReadFolderFile):
// a nightly job imports the one file it just wrote.
func importOne(path, format, results string, def foreign.Defaults, out string, force bool, stdout, stderr io.Writer) (int, error) {
	var f foreign.Format
	var runs []model.Run
	var problems []pparchive.Problem
	if ff, ok := foreign.Lookup(format); ok && ff.Open != nil && !isDir(path) {
		var err error
		f = ff
		if runs, problems, err = foreign.ReadFolderFile(format, path, results, def); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
	} else {
		in, err := foreign.ReadPath(path)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		f, runs, problems = foreign.Read(format, in, def)
	}
	fatal := false
	for _, p := range problems {
		if p.Fatal {
			fatal = true
			say(stderr, "perfpages: ", p)
		} else {
			say(stderr, "perfpages: warning: ", p)
		}
	}
	if fatal && len(runs) == 0 {
		return 0, fmt.Errorf("%s: nothing imported", path)
	}
	if format == "" || format == "auto" {
		fmt.Fprintf(stdout, "%s: format %s (detected)\n", path, f.Name)
	}
	n, refused := 0, 0
	for _, r := range runs {
		switch {
		case r.Artifact.ID == "":
			return n, fmt.Errorf("%s: the file records no artifact: give -artifact (a commit sha)", path)
		case r.Artifact.Date.IsZero():
			return n, fmt.Errorf("%s: the file records no date for %s: give -date (or build with a [project] history)", path, r.Artifact.ID)
		}
		name := filepath.Join(out, archiveName(r))
		var buf bytes.Buffer
		if err := pparchive.Encode(&buf, r, "json", false); err != nil {
			return n, fmt.Errorf("%s: %w", path, err)
		}
		switch old, err := os.ReadFile(name); {
		case err == nil && bytes.Equal(old, buf.Bytes()):
			fmt.Fprintf(stdout, "%s: %s unchanged (%d results)\n", path, name, len(r.Results))
			n++
			continue
		case err == nil && !force:
			say(stderr, "perfpages: ", fmt.Sprintf("%s: not written: %s exists with other results for machine %q, artifact %s and the same context (-force overwrites it)",
				path, name, r.Machine.Name, r.Artifact.ID))
			refused++
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return n, fmt.Errorf("%s: %w", path, err)
		}
		if err := perfgate.WriteFile(name, buf.Bytes()); err != nil {
			return n, fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(stdout, "%s: wrote %s (%d results)\n", path, name, len(r.Results))
		n++
	}
	if refused > 0 {
		return n, fmt.Errorf("%s: %d of %d runs not written: their archives exist with other results", path, refused, len(runs))
	}
	if n == 0 {
		return 0, fmt.Errorf("%s: no results in the file", path)
	}
	return n, nil
}

// archiveName is where import writes a run, relative to -out:
// <machine>/<date>-<artifact>[-<context hash>].json. The name is
// injective: a machine name or artifact id that is not kept as it is (a
// character other than letters, digits, '-', '_' and '.', a leading or
// trailing dot, an id over 12 characters) gets "~" and a hash of the
// original appended, and "~" is never kept, so "ci linux", "ci/linux" and
// "ci_linux" are three folders. Names that were kept before, and a commit
// sha shortened to 12 hex digits, are unchanged, so archives written by
// earlier imports keep their names. What can still meet (a 32-bit hash
// collision, 12-digit sha prefixes, names differing only in case on a
// case-insensitive file system) is caught by the overwrite check.
func archiveName(r model.Run) string {
	name := r.Artifact.Date.Format("2006-01-02T150405") + "-" + nameSegment(r.Artifact.ID, 12)
	if len(r.Context) > 0 {
		name += "-" + shortHash(r.Context.String())
	}
	return filepath.Join(nameSegment(r.Machine.Name, 0), name+".json")
}

// nameSegment is s as a file name segment, at most max bytes before the
// hash (0: no limit); see archiveName.
func nameSegment(s string, max int) string {
	safe := safeName(s)
	shortSha := false
	if max > 0 && len(safe) > max {
		shortSha = safe == s && isHex(s)
		safe = safe[:max]
	}
	if safe == s || shortSha {
		return safe
	}
	return safe + "~" + shortHash(s)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func shortHash(s string) string {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%08x", h)
}

// safeName keeps a path segment to letters, digits, '.', '-' and '_'.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	out := strings.Trim(string(b), ".")
	if out == "" {
		return "_"
	}
	return out
}

// isDir reports whether path is a folder (false when it cannot be told:
// reading it says why).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
