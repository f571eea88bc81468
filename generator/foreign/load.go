package foreign

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/capped"

	"github.com/perfpages/perfpages/generator/internal/sourcespec"
)

// ReadPath reads a file, or a folder for directory formats, into an Input.
// A folder becomes an Input with every regular file below it. A file over
// archive.DefaultMaxBytes is an error naming it, found before it is read.
func ReadPath(path string) (Input, error) {
	const maxBytes = archive.DefaultMaxBytes
	st, err := os.Stat(path)
	if err != nil {
		return Input{}, err
	}
	if !st.IsDir() {
		data, err := capped.ReadFile(path, maxBytes)
		return Input{Name: path, Data: data, MaxBytes: maxBytes}, err
	}
	in := Input{Name: path, Files: map[string][]byte{}, MaxBytes: maxBytes}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		data, err := capped.ReadFile(p, maxBytes)
		if err != nil {
			var tl *capped.TooLargeError
			if errors.As(err, &tl) {
				err = fmt.Errorf("%s: %w", p, err)
			}
			return err
		}
		in.Files[filepath.ToSlash(rel)] = data
		return nil
	})
	return in, err
}

// Read reads in with the format called name ("auto" or "" to detect it).
// It returns the format used.
//
// Before any reader sees the input, Read applies the caps every reader
// shares: a file over in.MaxBytes, or with more separators (`,[{:` and
// newlines, one per value or line at least) than archive.Limits allows,
// is refused, since the readers spend up to a few hundred bytes on each
// value; so is a Git LFS pointer or a UTF-16 file, with the fix
// (readkit.NotResults); bytes that are not UTF-8 are replaced with
// U+FFFD, with a warning at the line of the first. Problems past the first 100 are
// counted, not listed.
func Read(name string, in Input, def Defaults) (Format, []model.Run, []archive.Problem) {
	in, problems, ok := checkInput(in)
	if !ok {
		return Format{}, nil, problems
	}
	f, runs, more := read(name, in, def)
	return f, runs, trimProblems(append(problems, more...))
}

func read(name string, in Input, def Defaults) (Format, []model.Run, []archive.Problem) {
	var f Format
	if name == "" || name == "auto" {
		var err error
		if f, err = Detect(in); err != nil {
			return Format{}, nil, []archive.Problem{{File: in.Name, Msg: strings.TrimPrefix(err.Error(), in.Name+": "), Fatal: true}}
		}
	} else {
		var ok bool
		if f, ok = Lookup(name); !ok {
			return Format{}, nil, []archive.Problem{{File: in.Name, Msg: fmt.Sprintf("unknown format %q (want auto or one of %s)", name, strings.Join(Names(), ", ")), Fatal: true}}
		}
		if f.Dir != (in.Files != nil) {
			what := "a file"
			if f.Dir {
				what = "a folder"
			}
			return f, nil, []archive.Problem{{File: in.Name, Msg: fmt.Sprintf("format %s reads %s", f.Name, what), Fatal: true}}
		}
	}
	runs, problems := f.Read(in, def)
	for i := range runs {
		fillDefaults(&runs[i], def)
	}
	return f, runs, problems
}

// fillDefaults completes a run with what the caller knows.
func fillDefaults(r *model.Run, def Defaults) {
	a, d := &r.Artifact, def.Artifact
	if a.ID == "" {
		a.ID = d.ID
	}
	if a.Date.IsZero() {
		a.Date = d.Date
	}
	if a.Kind == "" {
		a.Kind = d.Kind
	}
	if a.Kind == "" {
		a.Kind = model.KindCommit
	}
	for _, s := range []struct {
		dst *string
		v   string
	}{{&a.Branch, d.Branch}, {&a.Title, d.Title}, {&a.Author, d.Author}, {&a.Baseline, d.Baseline}} {
		if *s.dst == "" {
			*s.dst = s.v
		}
	}
	if a.PR == 0 {
		a.PR = d.PR
	}
	if len(a.Parents) == 0 {
		a.Parents = d.Parents
	}
	if def.Machine.Name != "" {
		// The caller's name wins: it is how the site tells machines apart.
		r.Machine.Name = def.Machine.Name
	}
	if r.Machine.Name == "" {
		r.Machine.Name = "default"
	}
	m, dm := &r.Machine, def.Machine
	for _, s := range []struct {
		dst *string
		v   string
	}{{&m.OS, dm.OS}, {&m.Arch, dm.Arch}, {&m.CPU, dm.CPU}} {
		if *s.dst == "" {
			*s.dst = s.v
		}
	}
	if m.Cores == 0 {
		m.Cores = dm.Cores
	}
	if m.MemoryBytes == 0 {
		m.MemoryBytes = dm.MemoryBytes
	}
	if len(m.Labels) == 0 {
		m.Labels = dm.Labels
	}
	if len(def.Context) > 0 {
		m := map[string]string{}
		for _, kv := range r.Context {
			m[kv.Key] = kv.Value
		}
		for _, kv := range def.Context {
			if kv.Key != GabBetter { // an instruction to the reader, not context
				m[kv.Key] = kv.Value
			}
		}
		r.Context = model.NewParams(m)
	}
}

// Pattern matches a source's `artifact = "…"` path pattern, such as
// "{sha}/{machine}.txt" (the syntax is sourcespec's, shared with config,
// which checks it without depending on this reader).
type Pattern struct{ p *sourcespec.Pattern }

// ParsePattern compiles the path pattern of a source of the format:
// without {sha} only for a format that records its commit.
func ParsePattern(format, p string) (*Pattern, error) {
	sp, err := sourcespec.ParsePatternFor(format, p)
	if err != nil {
		return nil, err
	}
	return &Pattern{sp}, nil
}

// Dir reports whether the pattern matches folder prefixes.
func (p *Pattern) Dir() bool { return p.p.Dir() }

// Match applies the pattern to a slash-separated path and returns the
// defaults it gives and, for folder patterns, the matched folder prefix.
func (p *Pattern) Match(path string) (Defaults, string, bool) {
	f, prefix, ok := p.p.Match(path)
	if !ok {
		return Defaults{}, "", false
	}
	var def Defaults
	def.Artifact.ID, def.Artifact.PR, def.Artifact.Date = f.ID, f.PR, f.Date
	def.Machine.Name = f.Machine
	return def, prefix, true
}

// ReadFolderFile reads one file at path of a folder of the format called
// name that reads its folders file by file (Format.Open: asv's result
// files), with the files it shares with the rest of its folder, as a
// build reading the whole folder reads it: a nightly job imports the one
// result file it just wrote. results is the folder (asv's results/);
// "" finds it: the file's folder's parent when that holds a shared file
// (asv's benchmarks.json beside the machine folders), else the file's
// folder. The shared files read are those (Format.Shared) in results and
// in each folder from it down to the file's. The error is for a call that
// cannot be made (a format that reads files whole, a path outside
// results, an unreadable file); problems are the reader's, as Read's.
func ReadFolderFile(name, path, results string, def Defaults) ([]model.Run, []archive.Problem, error) {
	const maxBytes = archive.DefaultMaxBytes
	f, ok := Lookup(name)
	if !ok || f.Open == nil {
		return nil, nil, fmt.Errorf("format %s does not read a folder's files one by one", name)
	}
	dir := filepath.Dir(path)
	if results == "" {
		results = dir
		if parent := filepath.Dir(dir); parent != dir && hasShared(f, parent) {
			results = parent
		}
	}
	rel, err := filepath.Rel(results, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, nil, fmt.Errorf("%s is not inside the results folder %s", path, results)
	}
	rel = filepath.ToSlash(rel)
	if f.Shared(rel) {
		return nil, nil, fmt.Errorf("%s is a file the results share, not a result file: give a result file, or the folder", path)
	}
	data, err := capped.ReadFile(path, maxBytes)
	if err != nil {
		return nil, nil, err
	}
	shared := map[string][]byte{}
	for d := path; ; {
		d = filepath.Dir(d)
		entries, err := os.ReadDir(d)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			r, _ := filepath.Rel(results, p)
			if !e.Type().IsRegular() || !f.Shared(filepath.ToSlash(r)) {
				continue
			}
			if shared[filepath.ToSlash(r)], err = capped.ReadFile(p, maxBytes); err != nil {
				return nil, nil, err
			}
		}
		if r, _ := filepath.Rel(results, d); r == "." {
			break
		}
	}
	folder, problems := f.Open(results, shared, []string{rel}, maxBytes, def)
	runs, more := folder.ReadFile(rel, data)
	problems = append(problems, more...)
	var used []string
	if len(runs) > 0 {
		used = []string{rel}
	}
	return runs, trimProblems(append(problems, folder.Finish(used)...)), nil
}

// hasShared reports whether the folder dir holds a file that format f's
// files share.
func hasShared(f Format, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && f.Shared(e.Name()) {
			return true
		}
	}
	return false
}
