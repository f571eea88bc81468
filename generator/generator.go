// Package generator turns benchmark archives into a perfpages site: it is
// the build, which runs the stages in order (see the architecture section
// of the README).
//
// [Site] holds a configuration and where its inputs live; [Site.Load] reads
// every source (directories, git history, git notes, the project's own
// history), decodes the archives in parallel and gathers them into an
// model.Dataset; [Site.Analyze] is the analysis stage; [Site.Build] runs
// them all: it reads the content folder (contentdir), plans the site
// (sitemodel), renders it (render) and writes it into the output folder
// atomically (write). Problems with single inputs never stop a build:
// they are collected as warnings, printed, and listed on the dashboard;
// strict mode turns them into a failed build.
package generator

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/content"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/contentdir"
	"github.com/perfpages/perfpages/generator/foreign"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/confined"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/outdir"
	"github.com/perfpages/perfpages/generator/render"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
	"github.com/perfpages/perfpages/generator/write"
)

// Site is a site to build: its configuration and inputs.
type Site struct {
	Config *config.Config
	// Files are archives supplied directly rather than through a source
	// (the embedded demo's generated archives).
	Files []source.File
	// Content is the folder of Markdown pages (nil: none).
	Content fs.FS
	// ContentName names Content in messages.
	ContentName string
	// Themes are user theme folders layered over the default theme.
	Themes []fs.FS
	// Annotations is the content of an annotations.yaml supplied directly
	// (the demo's), named AnnotationsName in messages; otherwise Load
	// reads config's analysis.annotations.
	Annotations     []byte
	AnnotationsName string
	// IsDemo is set on the embedded demo site (Demo), which commands use
	// when no config was given or found; they say so.
	IsDemo bool
	// Tests caches Criterion's bootstrap results in memory across builds
	// of this site value; Build fills it from the cache folder when it is
	// empty or nil, and saves what it used there.
	Tests *analysis.TestCache
}

// Open returns the site described by the config file at path. With path
// "" it uses perfpages.toml in the current folder if there is one, and the
// embedded demo site (IsDemo) only when there is none: a perfpages.toml
// that cannot be read is an error, and so is a path that names no file.
func Open(path string) (*Site, error) {
	if path == "" {
		if _, err := os.Lstat(config.FileName); errors.Is(err, fs.ErrNotExist) {
			return Demo()
		}
		path = config.FileName
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	return FromConfig(cfg)
}

// FromConfig returns the site for a decoded configuration. The content
// folder and the user theme are read through [confined.FS]: nothing
// outside them (a symbolic link to /etc/passwd), no named pipe or device
// and no file over the size cap ([contentdir.MaxFileSize],
// [render.MaxThemeFileSize]) is ever read; Build reports each left-out file
// as a warning.
//
// A configuration without sources is an error ([config.Config.CheckSources]).
func FromConfig(cfg *config.Config) (*Site, error) {
	if err := cfg.CheckSources(); err != nil {
		return nil, err
	}
	s := &Site{Config: cfg}
	if fi, err := os.Stat(cfg.Site.Content); err == nil && fi.IsDir() {
		c, err := confined.Open(cfg.Site.Content, contentdir.MaxFileSize, func(name string) bool { return strings.HasSuffix(name, ".md") })
		if err != nil {
			return nil, fmt.Errorf("site.content: %w", err)
		}
		s.Content, s.ContentName = c, cfg.Relative(cfg.Site.Content)
	}
	if cfg.Site.Theme != "" {
		dir := filepath.Join(cfg.Dir, "themes", cfg.Site.Theme)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("site.theme %q: no folder %s", cfg.Site.Theme, dir)
		}
		t, err := confined.Open(dir, render.MaxThemeFileSize, nil)
		if err != nil {
			return nil, fmt.Errorf("site.theme %q: %w", cfg.Site.Theme, err)
		}
		s.Themes = []fs.FS{t}
	}
	return s, nil
}

// The demo's archives are generated once per process (serve rebuilds,
// tests); they never change.
var (
	demoOnce  sync.Once
	demoFiles []source.File
	demoErr   error
	// demoTests shares the demo's bootstrap results between the builds of
	// one process (serve, tests).
	demoTests = analysis.NewTestCache()
)

// Demo returns the embedded demo site: generated archives (see
// generator/demo) and the Markdown pages of the content folder.
func Demo() (*Site, error) {
	cfg := config.Default()
	cfg.Site.Title = "perfpages demo"
	cfg.Site.Repository = DemoRepository
	cfg.Site.Output, _ = filepath.Abs(cfg.Site.Output)
	demoOnce.Do(func() { demoFiles, demoErr = DemoFiles("demo") })
	if demoErr != nil {
		return nil, demoErr
	}
	files := demoFiles
	return &Site{Config: cfg, IsDemo: true, Files: files, Content: content.FS, ContentName: "content",
		Annotations: DemoAnnotations(), AnnotationsName: "demo:annotations.yaml", Tests: demoTests}, nil
}

// Load reads every source and builds the dataset. The returned warnings
// are problems that did not stop it (bad files, unknown fields, conflicts);
// the error is set only when nothing sensible can be built (an unreadable
// source root, a missing git ref, a shallow clone).
func (s *Site) Load(ctx context.Context) (*model.Dataset, []error, error) {
	repos := s.gitRepos()
	defer repos.close()
	l, warnings, err := s.load(ctx, nil, repos, nil)
	if err != nil {
		return nil, warnings, err
	}
	return l.d, warnings, nil
}

// loaded is a dataset and what it was made from: for each artifact id, the
// keys of the inputs its runs came from, in the order they were added.
type loaded struct {
	d      *model.Dataset
	inputs map[string][][32]byte
	// resumed: the archives' runs came from the store's checkpoint and
	// the files it did not hold (see addArchives).
	resumed bool
	// files are the archives and per-file result files (see
	// folderInput); decoded those decoded, not taken from the store.
	files, decoded int
	// annotations are the bytes of the annotations file read.
	annotations []byte
	// sums are the archives' hashes, for the next build (see fileSums).
	sums *fileSums
}

// load reads every source and builds the dataset, taking the decoded
// content of inputs the store already has from it (st may be nil). keep,
// when not nil, is the benchmarks whose points the dataset holds
// (model.BuildOptions.Keep): a shard's, whose checkpoint in st then
// holds those alone.
func (s *Site) load(ctx context.Context, st *store.Store, repos *gitRepos, keep model.Keep) (*loaded, []error, error) {
	cfg := s.Config
	var warnings []error
	files := archiveInputs(s.Files)
	var folders []*folderInput // read file by file, their files among files
	var notes []string
	opts := cfg.BuildOptions()
	opts.Keep = keep
	dateOptional := cfg.Project.Git != ""

	openGit := func(dir string) (*source.Git, error) { return repos.open(ctx, dir) }

	aopts := archive.Options{DateOptional: dateOptional, MaxBytes: cfg.Site.MaxInputBytes}
	sums := newFileSums(st) // before any file is listed
	var later []laterRun    // added after the archives' runs (see addArchives)
	for _, src := range cfg.Sources {
		if src.Kind() == "git" {
			g, err := openGit(src.Git)
			if err != nil {
				return nil, warnings, fmt.Errorf("source %s: %w", src, err)
			}
			h, err := readHistory(ctx, src, g, st, aopts)
			if err != nil {
				return nil, warnings, fmt.Errorf("source %s: %w", src, err)
			}
			warnings = append(warnings, h.problems...)
			files = append(files, h.files...)
			folders = append(folders, h.folders...)
			later = append(later, h.runs...)
			notes = append(notes, h.notes...)
			continue
		}
		fs, problems, err := readSource(ctx, src, cfg.Site.MaxInputBytes, openGit, st != nil)
		if err != nil {
			return nil, warnings, fmt.Errorf("source %s: %w", src, err)
		}
		warnings = append(warnings, problems...)
		if !src.Archives() {
			r, problems := readForeign(ctx, src, fs, cfg.Site.MaxInputBytes, st, nil)
			later = append(later, r.runs...)
			files = append(files, r.files...)
			folders = append(folders, r.folders...)
			warnings = append(warnings, problems...)
			continue
		}
		files = append(files, archiveInputs(fs)...)
	}
	if cfg.Project.Git != "" {
		g, err := openGit(cfg.Project.Git)
		if err != nil {
			return nil, warnings, fmt.Errorf("project: %w", err)
		}
		branch := cfg.Project.Branch
		if branch == "" {
			branch = "main"
		}
		h, err := g.ProjectHistory(ctx, branch)
		if err != nil {
			return nil, warnings, fmt.Errorf("project: %w", err)
		}
		opts.History, opts.Other = h.Main, h.Other
		if opts.MainBranch == "" {
			opts.MainBranch = branch
		}
	}

	if st != nil {
		opts.SeriesSizes = loadSeriesSizes(st)
	}
	a := addArchives(files, opts, aopts, st, sums, cfg.Relative)
	b, l := a.b, &loaded{inputs: a.inputs, resumed: a.resumed, files: len(files), decoded: a.decoded, sums: sums}
	warnings = append(warnings, foldFolders(a.problems, folders)...)
	for _, fi := range folders {
		warnings = problemErrors(warnings, fi.finish(files, a.held))
	}
	for _, r := range later {
		b.Add(r.origin, r.run) // after every archive's run
		// An artifact's key is its own results', whichever input they
		// came in: one data.js holds every commit, and a new version of
		// it changes the keys of the commits it changed, not all.
		l.inputs[r.run.Artifact.ID] = append(l.inputs[r.run.Artifact.ID], store.RunDigest(r.run))
	}
	l.d = b.Dataset()
	if cfg.Project.Git == "" {
		notes = append(notes, untitled(l.d))
	}
	if keep == nil { // a shard holds its own benchmarks' points only
		notes = append(notes, runnersNote(l.d))
	}
	for _, note := range notes {
		if note != "" {
			l.d.Notes = append(l.d.Notes, note)
		}
	}
	slices.Sort(l.d.Notes)
	warnings = append(warnings, l.d.Warnings...)
	data, name, err := s.annotations()
	l.annotations = data
	warnings = append(warnings, s.annotate(l.d, data, name, err)...)
	warnings = append(warnings, configNameWarnings(cfg, l.d)...)
	return l, warnings, nil
}

// Analyze runs the analysis stage on d, as a build does (without the
// build's saved states: for a one-off command): step detection with the
// site's options, then analysis.Analyze.
func (s *Site) Analyze(d *model.Dataset) *analysis.Results {
	res, _ := s.analyze(d, nil, nil, nil)
	return res
}

// analyze is the analysis stage: steps and headlines (resumed from the
// states the store kept; st may be nil) and the value the site model
// reads. data is the data chain of d's main line (keys.data; nil without
// a store). It returns the states to save.
func (s *Site) analyze(d *model.Dataset, st *store.Store, tests *analysis.TestCache, data []string) (*analysis.Results, *analysisState) {
	steps, cache := detectSteps(st, d, stepOptions{s.Config})
	as := &analysisState{steps: cache, heads: loadHeads(st, data), data: data}
	res := analysis.Analyze(d, analysis.AnalyzeOptions{Compare: s.Config.CompareOptions(), Steps: steps, Tests: tests, Heads: as.heads})
	return res, as
}

// untitled is the note that points to [project] when at least half of
// the main line's commits have no title: asv results, and archives that
// carry only a sha, record no commit subject, and pages then name commits
// by their sha alone. "" when the titles are there.
func untitled(d *model.Dataset) string {
	n := 0
	for _, a := range d.MainLine {
		if d.Artifacts[a].Title == "" {
			n++
		}
	}
	if n == 0 || 2*n < len(d.MainLine) {
		return ""
	}
	return fmt.Sprintf("%d of %d main-line commits have no title (the results do not record commit subjects): "+
		"set [project] git to the benchmarked repository's clone (and branch, default main) for titles, PR numbers and the history's own order", n, len(d.MainLine))
}

// runnersNote is the note that points to [[machines]] when most machines
// have run each benchmark at most fewRuns times, and there are at least
// manyRunners of them: CI runners that get a new name every run (asv
// names a machine after its host, and a GitHub-hosted runner is a new
// virtual machine each time: 401 machines of two results each in one real
// history), each a history of its own too short to judge, so that no page
// has anything to say. "" otherwise. It suggests the names' common prefix
// as the pattern. A shard, which holds only its benchmarks' points, does
// not look.
func runnersNote(d *model.Dataset) string {
	const fewRuns, manyRunners = 3, 10
	most := map[string]int{} // machine → the most points of any of its series
	for _, s := range d.Series {
		most[s.Key.Machine] = max(most[s.Key.Machine], len(s.Points))
	}
	var few []string
	for _, m := range d.Machines {
		if n, ok := most[m.Name]; ok && n > 0 && n <= fewRuns {
			few = append(few, m.Name)
		}
	}
	if len(few) < manyRunners || 5*len(few) < 4*len(most) {
		return ""
	}
	prefix := few[0]
	for _, name := range few[1:] {
		for !strings.HasPrefix(name, prefix) {
			_, size := utf8.DecodeLastRuneInString(prefix)
			prefix = prefix[:len(prefix)-size]
		}
	}
	match := "a pattern that matches their names"
	if prefix != "" {
		match = strconv.Quote(prefix + "*")
	}
	return fmt.Sprintf("%d of %d machines ran each benchmark at most %d times (%s, %s, …): CI runners that get a new name every run, "+
		"as asv names a machine after its host? Each is a history of its own, too short to compare. To read them as one machine, "+
		"add a [[machines]] table with match = %s and name = \"ci\" (or any name) to the config", len(few), len(most), fewRuns, few[0], few[1], match)
}

// gitRepos are the git repositories a build reads, each opened once.
type gitRepos struct {
	maxBytes int64
	m        map[string]*source.Git
}

func (s *Site) gitRepos() *gitRepos {
	return &gitRepos{maxBytes: s.Config.Site.MaxInputBytes, m: map[string]*source.Git{}}
}

// open returns the repository at dir, opening it on first use.
func (r *gitRepos) open(ctx context.Context, dir string) (*source.Git, error) {
	if g, ok := r.m[dir]; ok {
		return g, nil
	}
	g, err := source.OpenGit(ctx, dir)
	if err != nil {
		return nil, err
	}
	g.MaxFileBytes = r.maxBytes
	r.m[dir] = g
	return g, nil
}

// reads sums what the repositories read ([source.Git.Reads]).
func (r *gitRepos) reads() (blobs, bytes int64) {
	for _, g := range r.m {
		b, n := g.Reads()
		blobs, bytes = blobs+b, bytes+n
	}
	return blobs, bytes
}

func (r *gitRepos) close() {
	for _, g := range r.m {
		g.Close()
	}
}

// annotate reads the site's annotations.yaml into d. A broken file is a
// warning and leaves the dataset without annotations; an entry for an
// unknown artifact is a warning and is left out.
func (s *Site) annotate(d *model.Dataset, data []byte, name string, err error) []error {
	if err != nil {
		return []error{err}
	}
	if data == nil {
		return nil
	}
	list, err := ParseAnnotations(name, data)
	if err != nil {
		return []error{fmt.Errorf("%w; annotations ignored", err)}
	}
	return append(d.Annotate(list), annotationNameWarnings(d, list)...)
}

// annotations reads the site's annotations.yaml: the demo's, or the file
// analysis.annotations names (nil when there is none). Every reader of
// the annotations in a build (the dataset, its keys, the fingerprint)
// goes through it.
func (s *Site) annotations() (data []byte, name string, err error) {
	data, name = s.Annotations, s.AnnotationsName
	if data == nil && s.Config.Analysis.Annotations != "" {
		name = s.Config.Analysis.Annotations
		data, err = capped.ReadFile(name, s.Config.Site.MaxInputBytes)
		if err != nil {
			return nil, name, fmt.Errorf("annotations: %w", err)
		}
	}
	return data, name, nil
}

// readSource returns the archive files of a directory or git notes
// source (git history sources are readHistory's), and the problems with
// single files that do not stop the build: files over maxBytes are among
// them, not among the files. With listOnly, a directory source whose
// files are inputs of their own (readsFileByFile) is listed, not read
// (source.List): the store may know the files' content by their identity
// (see fileSums).
func readSource(ctx context.Context, src config.Source, maxBytes int64, openGit func(string) (*source.Git, error), listOnly bool) ([]source.File, []error, error) {
	want := sourceWants(src)
	if src.Kind() == "dir" {
		if listOnly && readsFileByFile(src) {
			return source.List(src.Dir, want, maxBytes)
		}
		return source.Dir(src.Dir, want, maxBytes)
	}
	g, err := openGit(src.Git)
	if err != nil {
		return nil, nil, err
	}
	// Archives are listed unread, known by their blob ids: a build reads
	// only the notes the store has not decoded. Another tool's files are
	// picked by name, which a note has only once read (source.NoteExt).
	list := g.NoteList
	if !src.Archives() {
		list = g.Notes
	}
	fs, err := list(ctx, src.Notes)
	if err != nil {
		return nil, nil, err
	}
	var problems []error
	kept := fs[:0]
	for _, f := range fs {
		if f.Err != nil {
			problems = append(problems, fmt.Errorf("%s: %w; file skipped", f.Origin, f.Err))
			continue
		}
		kept = append(kept, f)
	}
	return kept, problems, nil
}

// readsFileByFile says the source's files are inputs of their own, each
// keyed by its bytes and read only when the store lacks its runs:
// archives, and the result files of a folder format read file by file
// (asv's). Such a folder source is listed unread like an archive folder;
// its shared files (benchmarks.json, machine.json) are read when it is
// opened (openFolder). Another tool's single files and folders read
// whole are read by their readers, every build.
func readsFileByFile(src config.Source) bool {
	if src.Archives() {
		return true
	}
	f, ok := foreign.Lookup(src.Format)
	return ok && f.Dir && f.Open != nil
}

// sourceWants says which files of the source src are its inputs: archives,
// or for a source of another tool's format the files its artifact
// pattern or the format picks. The fingerprint asks it too.
func sourceWants(src config.Source) func(string) bool {
	if src.Archives() {
		return isArchive
	}
	// Foreign files have the tool's own names; the artifact pattern
	// picks them, else the format says which files hold data.
	if f, ok := foreign.Lookup(src.Format); ok && src.Artifact == "" {
		return f.Wants
	}
	return func(string) bool { return true }
}

// laterRun is a run added to the builder after the archives' (it is not
// in the checkpoint, see addArchives): another tool's, or the newest
// version of a file a git ref rewrote.
type laterRun struct {
	origin string
	run    model.Run
}

// foreignPattern is the artifact pattern of a source of another tool's
// format (nil for none), and whether the format reads folders.
func foreignPattern(src config.Source) (pat *foreign.Pattern, dirFormat bool, err error) {
	if src.Artifact != "" {
		if pat, err = foreign.ParsePattern(src.Format, src.Artifact); err != nil {
			return nil, false, fmt.Errorf("source %s: %w", src, err)
		}
	}
	f, known := foreign.Lookup(src.Format)
	dirFormat = known && f.Dir
	if dirFormat && pat != nil && !pat.Dir() {
		return nil, false, fmt.Errorf("source %s: format %s reads folders: set artifact to a folder pattern ending in /, such as \"{sha}/\", or leave it out to read the source as one folder", src, src.Format)
	}
	return pat, dirFormat, nil
}

// foreignDefaults is what the path of file (name relative to the
// source's folder) says of its results, by the source's pattern (nil:
// nothing), and the folder prefix it belongs to; ok is false for a file
// the pattern does not match (a README, a log), which is no input.
func foreignDefaults(pat *foreign.Pattern, name, artifact string) (def foreign.Defaults, prefix string, ok bool) {
	def = foreign.Defaults{Artifact: model.Artifact{ID: artifact}}
	if pat == nil {
		return def, "", true
	}
	d, p, ok := pat.Match(name)
	if !ok {
		return def, "", false
	}
	if d.Artifact.ID == "" {
		d.Artifact.ID = artifact
	}
	return d, p, true
}

// sourceRel is the name of file (a path in a git repository) relative to
// a git source's folder, which patterns are relative to, as for dir.
func sourceRel(src config.Source, name string) string {
	if src.Git != "" && src.Path != "" {
		return strings.TrimPrefix(name, strings.Trim(src.Path, "/")+"/")
	}
	return name
}

// readForeign reads a source's files in another tool's format: each file
// (or, for directory formats, each folder the artifact pattern names) with
// the artifact and machine its path gives. Files the pattern does not match
// are not results (READMEs, logs) and are skipped quietly. A file of a git
// source (Blob set, Data nil) is read from g only when the store does not
// have its folder's runs: a folder's key is its files' names and blob ids.
//
// A folder of a format read file by file (foreign.Format.Open, asv's) is
// not one input: its result files are returned as inputs of their own,
// for the archives' checkpoint, with the open folders (see folderInput).
func readForeign(ctx context.Context, src config.Source, files []source.File, maxBytes int64, st *store.Store, g *source.Git) (foreignRead, []error) {
	var out foreignRead
	pat, dirFormat, err := foreignPattern(src)
	if err != nil {
		return out, []error{err}
	}
	format, _ := foreign.Lookup(src.Format)
	perFile := dirFormat && format.Open != nil
	type input struct {
		in  foreign.Input
		def foreign.Defaults
		// blobs are the git blobs of the folder's files (by name in
		// Files), not read yet.
		blobs map[string]string
		// files are the folder's files, when it is read file by file.
		files map[string]source.File
	}
	var inputs []input
	groups := map[string]int{} // folder prefix → index in inputs
	for _, file := range files {
		name := sourceRel(src, file.Name)
		def, prefix, ok := foreignDefaults(pat, name, file.Artifact)
		if !ok {
			continue
		}
		if !dirFormat {
			inputs = append(inputs, input{in: foreign.Input{Name: file.Origin, Data: file.Data, MaxBytes: maxBytes}, def: def})
			continue
		}
		i, ok := groups[prefix]
		if !ok {
			i = len(inputs)
			groups[prefix] = i
			folder := strings.TrimSuffix(file.Origin, strings.TrimPrefix(name, prefix))
			if pat == nil {
				// The whole source is the tool's folder (asv's results/).
				folder = strings.TrimRight(folder, `/\`)
			}
			inputs = append(inputs, input{in: foreign.Input{Name: folder, Files: map[string][]byte{}, MaxBytes: maxBytes}, def: def})
		}
		rel := strings.TrimPrefix(name, prefix)
		if perFile {
			if inputs[i].files == nil {
				inputs[i].files = map[string]source.File{}
			}
			inputs[i].files[rel] = file
			continue
		}
		inputs[i].in.Files[rel] = file.Data
		if file.Blob != "" && file.Data == nil {
			if inputs[i].blobs == nil {
				inputs[i].blobs = map[string]string{}
			}
			inputs[i].blobs[rel] = file.Blob
		}
	}
	var problems []error
	for _, in := range inputs {
		if perFile {
			fi, files, err := openFolder(ctx, format, in.in.Name, in.files, in.def, maxBytes, g)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s: %w; folder skipped", in.in.Name, err))
				continue
			}
			for i := range files {
				if f := &files[i]; f.Data == nil && f.Blob != "" {
					blob := f.Blob
					f.Load = func() ([]byte, error) { return g.ReadBlob(ctx, blob) }
				}
			}
			out.folders = append(out.folders, fi)
			out.files = append(out.files, files...)
			continue
		}
		var load func() error
		if len(in.blobs) > 0 {
			load = func() error { return readFiles(ctx, g, in.in.Files, in.blobs) }
		}
		runs, probs, err := readCached(st, src.Format, in.in, in.def, in.blobs, load)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w; folder skipped", in.in.Name, err))
			continue
		}
		problems = problemErrors(problems, probs)
		for _, r := range runs {
			out.runs = append(out.runs, laterRun{in.in.Name, r})
		}
	}
	return out, problems
}

// foreignRead is what readForeign read of a source.
type foreignRead struct {
	runs []laterRun // added after the archives'
	// files are result files of folders read file by file, inputs like
	// the archives; folders those folders.
	files   []input
	folders []*folderInput
}

// readFiles reads the git blobs of a folder's files into files.
func readFiles(ctx context.Context, g *source.Git, files map[string][]byte, blobs map[string]string) error {
	names := slices.Sorted(maps.Keys(blobs))
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = blobs[n]
	}
	return g.ReadBlobs(ctx, ids, func(i int, data []byte) error {
		files[names[i]] = data
		return nil
	})
}

func isArchive(name string) bool {
	_, _, ok := archive.FormatOf(name)
	return ok
}

// decodeAll decodes files on every core, taking what the store has from
// it (st may be nil), and hands each decoded run to add in the files'
// order (so the dataset does not depend on scheduling), as soon as it and
// the ones before it are decoded: only a few decoded files are in memory
// at a time. key is the file's store key (keys[i] when keys is not nil,
// else computed), probs its problems. A decoded file's entry is put in
// the store when put is true (not when a checkpoint saved next holds
// it). It returns how many files it decoded (the others' runs came from
// the store).
func decodeAll(files []input, keys [][32]byte, sums *fileSums, opts archive.Options, st *store.Store, put bool, add func(i int, r *model.Run, key [32]byte, probs []archive.Problem)) int {
	var decoded atomic.Int64
	type result struct {
		run   *model.Run
		key   [32]byte
		probs []archive.Problem
	}
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan result, len(files))
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	// At most 2·workers files are decoded ahead of the one being added.
	ahead := make(chan struct{}, 2*workers)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := files[i]
				o := opts
				o.DefaultArtifact = f.Artifact
				var key [32]byte
				if keys != nil {
					key = keys[i]
				} else {
					key = inputKey(&f, o, sums) // f is this worker's copy: its bytes go with it
				}
				run, key, probs, stored := decodeCached(st, f, o, key, put)
				if !stored {
					decoded.Add(1)
				}
				slots[i] <- result{run, key, probs}
			}
		}()
	}
	go func() {
		for i := range files {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()
	for i := range files {
		r := <-slots[i]
		<-ahead
		add(i, r.run, r.key, r.probs)
	}
	wg.Wait()
	return int(decoded.Load())
}

// problemErrors are the build's warnings of a file's problems.
func problemErrors(out []error, ps []archive.Problem) []error {
	for _, p := range ps {
		if p.Fatal {
			out = append(out, fmt.Errorf("%w; file skipped", p))
		} else {
			out = append(out, p)
		}
	}
	return out
}

func fatal(ps []archive.Problem) bool {
	for _, p := range ps {
		if p.Fatal {
			return true
		}
	}
	return false
}

// BuildOptions control a build.
type BuildOptions struct {
	// Cold ignores what earlier builds left in the store: everything is
	// computed again (the store is still written for the next build).
	Cold   bool
	Out    string // output folder; default the config's site.output
	Strict bool   // fail on any warning
	// Timings, when not nil, receives the wall time of each stage of the
	// build, one line each: where a build's time goes, without a profiler.
	Timings io.Writer
	// Shard, when set, builds shard Shard.I of Shard.N alone: its
	// benchmarks' files and its partial site model
	// (sitemodel.PartialFile), which Merge puts together with the other
	// shards' into the site (see package shard for which benchmarks a
	// shard holds).
	Shard shard.Spec
}

// stages times the stages of a build for BuildOptions.Timings: wall
// time, and the process' CPU time (user and system, every core) when the
// system tells it.
type stages struct {
	w       io.Writer
	last    time.Time
	lastCPU int64
}

// note reports what a stage did.
func (t *stages) note(name, format string, args ...any) {
	if t.w != nil {
		fmt.Fprintf(t.w, "perfpages: %-10s %s\n", name, fmt.Sprintf(format, args...))
	}
}

// begin labels the work of the stage that begins now, and of the
// goroutines it starts, with its name: a CPU profile of a build
// (build -cpuprofile) shows one stage with pprof's -tagfocus=stage=NAME
// (load, analysis, plan: the last is -timings' plan+render).
func (t *stages) begin(ctx context.Context, name string) {
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", name)))
}

// done reports the stage that ends now.
func (t *stages) done(name string) {
	if t.w == nil {
		return
	}
	now, cpu := time.Now(), cpuTime()
	if cpu > 0 && t.lastCPU > 0 {
		fmt.Fprintf(t.w, "perfpages: %-10s %7.3fs  cpu %7.3fs\n", name, now.Sub(t.last).Seconds(), float64(cpu-t.lastCPU)/1e9)
	} else {
		fmt.Fprintf(t.w, "perfpages: %-10s %7.3fs\n", name, now.Sub(t.last).Seconds())
	}
	t.last, t.lastCPU = now, cpu
}

// Report says what a build did.
type Report struct {
	// UpToDate: the inputs had not changed since the last build, whose
	// site is still in place; nothing was written.
	UpToDate bool
	// Kept are the pages and data files kept from the previous build
	// without being computed; Comparisons those computed.
	Kept, Comparisons int
	// Resumed: the dataset was built from the store's checkpoint and
	// the archives it did not hold (see addArchives).
	Resumed  bool
	Out      string
	Pages    int
	Files    int
	Artifact int
	Series   int
	Warnings []error
	// Notes are not problems and do not fail a strict build (see
	// model.Dataset.Notes).
	Notes []string
	// Git says which ref and commit each git source (and the project's
	// history) read, and why that ref: a local build never reads a stale
	// remote-tracking branch without saying so.
	Git []GitRead
}

// ErrStrict is returned (wrapped) when a strict build fails on warnings.
var ErrStrict = errors.New("warnings in strict mode")

// Build loads the inputs, renders the site into a temporary folder next to
// the output and swaps it in. On any error, including warnings in strict
// mode, the previous site is left untouched.
//
// Before anything is read, the output folder is checked
// ([outdir.CheckSite]): a build refuses, touching nothing, an output that
// is or contains the config folder, a source, the content or theme
// folder, the annotations file, the current folder or a git work tree, a
// plain file, or a non-empty folder that is not a previous perfpages site.
// Problems of the writer itself (leftovers of killed builds or an old
// site that could not be removed) are warnings printed after the build;
// they are not on the site and do not fail a strict build.
func (s *Site) Build(ctx context.Context, opts BuildOptions) (*Report, error) {
	out := opts.Out
	if out == "" {
		out = s.Config.Site.Output
	}
	rep := &Report{Out: out}
	t := &stages{w: opts.Timings, last: time.Now(), lastCPU: cpuTime()}
	defer pprof.SetGoroutineLabels(ctx) // the caller's labels back (see stages.begin)
	absOut, unlock, st, err := s.takeOutput(out, s.protected(), opts.Cold, rep)
	if err != nil {
		return rep, err
	}
	defer unlock()
	repos := s.gitRepos()
	defer repos.close()
	fp, stable, reads := s.fingerprint(ctx, absOut, repos)
	rep.Git = reads
	t.done("fingerprint")
	if st != nil {
		if done, err := s.upToDate(st, fp, absOut, opts, rep); done {
			return rep, err
		}
		st.ClearState()
		// What the store found broken (and rebuilt) is reported with the
		// build's warnings, after the strict check: it is no problem of
		// the input.
		defer func() { rep.Warnings = append(rep.Warnings, st.Warnings()...) }()
	}

	// The output's side (the writer, what of the previous site is still
	// as written) reads the output folder and the store, not the
	// sources: it runs beside the load and the analysis.
	setup := s.startSetup(out, absOut, st, opts.Cold)
	defer setup.abortUnused()

	t.begin(ctx, "load")
	// A shard's dataset holds its benchmarks' points alone: the others'
	// series are there for their names (the URL table, the warnings).
	var keep model.Keep
	if opts.Shard.On() {
		keep = shard.Keep{Spec: opts.Shard}
	}
	l, warnings, err := s.load(ctx, st, repos, keep)
	rep.Warnings = append(rep.Warnings, warnings...)
	if err != nil {
		return rep, err
	}
	t.done("load")
	t.note("files", "%d of %d decoded (the others' runs from the store)", l.decoded, l.files)
	if blobs, bytes := repos.reads(); blobs > 0 || len(repos.m) > 0 {
		t.note("git", "%d blobs read (%s)", blobs, capped.FormatBytes(bytes))
	}
	d := l.d
	rep.Notes, rep.Resumed = d.Notes, l.resumed
	var cont *sitemodel.Content
	if s.Content != nil {
		if c, ok := s.Content.(*confined.FS); ok {
			rep.Warnings = append(rep.Warnings, c.Problems()...)
		}
		c, problems := contentdir.Load(s.Content, s.ContentName)
		cont = c
		rep.Warnings = append(rep.Warnings, problems...)
	}
	for _, t := range s.Themes {
		if c, ok := t.(*confined.FS); ok {
			rep.Warnings = append(rep.Warnings, c.Problems()...)
		}
	}
	if opts.Strict && len(rep.Warnings) > 0 {
		return rep, fmt.Errorf("%d problems: %w", len(rep.Warnings), ErrStrict)
	}
	rep.Artifact, rep.Series = len(d.Artifacts), len(d.Series)
	if err := checkSize(d, s.Config); err != nil {
		return rep, err
	}
	// The analysis stage: steps (resumed from the store's states), then
	// the value the site model reads.
	tests := s.Tests
	if tests == nil || opts.Cold {
		tests = analysis.NewTestCache()
	}
	if tests.Len() == 0 {
		loadTests(st, tests)
	}
	t.begin(ctx, "analysis")
	k, err := s.dataKeys(l)
	if err != nil {
		return rep, err
	}
	// A shard analyses its benchmarks' series alone: none of a series'
	// statistics looks at another series.
	ad := d
	if opts.Shard.On() {
		ad = d.Subset(func(sr *model.Series) bool { return opts.Shard.Holds(sr.Case.Benchmark) })
	}
	res, as := s.analyze(ad, st, tests, k.data)
	res.Steps() // the headline verdicts (lazy), here rather than in the plan's time
	k.chainKeys(ad, res)
	t.done("analysis")
	if as.heads != nil {
		t.note("headlines", "%d of %d positions computed (the others' verdicts kept)", as.heads.Recomputed, len(d.MainLine)*len(d.Series))
	}
	o, err := setup.wait()
	if err != nil {
		return rep, err
	}
	w, known, records, br := o.w, o.known, o.records, o.briefs
	defer func() { rep.Warnings = append(rep.Warnings, w.Warnings()...) }()
	t.done("setup")
	popts := s.planOptions(cont, rep.Warnings)
	var part *shardPart
	switch {
	case opts.Shard.On():
		// A shard's outputs are computed whole: its partial site model
		// needs every comparison (the writer still writes only the files
		// whose bytes changed).
		part = s.newShardPart(opts.Shard, ad, cont, k, rep.Warnings)
		in := route.ForDataset(d)
		popts.Part, popts.Routes, popts.Comparisons = sitemodel.PartShard, &in, part.collect.Add
	case st != nil:
		popts.SiteKey, popts.Chain, popts.ArtifactKeys, popts.Known, popts.Briefs = s.siteKey(cont), k.chain, k.artifacts, known, br
		popts.Previous = previousFiles(absOut, records)
	}
	t.begin(ctx, "plan")
	plan := sitemodel.NewPlan(res, popts)
	rep.Warnings = append(rep.Warnings, plan.Warnings()...)
	r, err := render.New(plan.SiteView(), s.Themes, w)
	if err == nil {
		var stats sitemodel.Stats
		emit := r.Emit
		if part != nil {
			emit = part.emit(r.Emit)
		}
		stats, err = plan.Run(ctx, emit)
		rep.Pages, rep.Kept, rep.Comparisons = stats.Pages, stats.Kept, stats.Comparisons
		t.note("compare", "%.3fs of plan+render waiting for the analysis' comparisons of consecutive commits", stats.Consecutive.Seconds())
	}
	if err == nil {
		err = r.Finish()
	}
	if err == nil && part != nil {
		err = part.write(w, res)
	}
	if err != nil {
		w.Abort()
		return rep, sizeError(err, d, s.Config)
	}
	t.done("plan+render")
	if err := pagesWarning(w.Bytes(), config.PagesMaxBytes, d, s.Config); err != nil {
		rep.Warnings = append(rep.Warnings, err)
	}
	rep.Files = w.Count()
	manifest := w.Manifest()
	if err := w.Commit(); err != nil {
		w.Abort()
		return rep, err
	}
	t.done("swap")
	if st != nil {
		if !stable {
			fp = [32]byte{} // no later fingerprint equals it: the next build is done
		}
		s.saveStore(st, l, br, as, tests, manifest, fp, absOut, rep)
	}
	t.done("store")
	return rep, nil
}

// outputSetup is what a build knows of its output before it plans: the
// writer of the new site, and what the previous build wrote as far as it
// is still on disk as written — the plan keeps what it would write again
// from the same keys (known), the writer carries over files whose bytes
// are the same (records).
type outputSetup struct {
	w       *write.Writer
	known   map[string]string
	records map[string]write.FileRecord
	briefs  *briefs
}

// pendingSetup is an outputSetup being made (startSetup).
type pendingSetup struct {
	done  chan struct{}
	o     outputSetup
	err   error
	taken bool
}

// startSetup makes the output's setup on a goroutine of its own: its
// work is the output folder's (the search for git work trees, the
// previous site's files checked, a spare site opened: 0.3 s at M, most of
// it system calls), which the load and the analysis do not wait for.
func (s *Site) startSetup(out, absOut string, st *store.Store, cold bool) *pendingSetup {
	ps := &pendingSetup{done: make(chan struct{})}
	go func() {
		defer close(ps.done)
		ps.o, ps.err = s.setupOutput(out, absOut, st, cold)
	}()
	return ps
}

// wait returns the setup once it is made.
func (ps *pendingSetup) wait() (outputSetup, error) {
	<-ps.done
	ps.taken = true
	return ps.o, ps.err
}

// abortUnused removes the new site's temporary folder when the build
// stopped before it took the setup (an error in the load or the
// analysis).
func (ps *pendingSetup) abortUnused() {
	if ps.taken {
		return
	}
	<-ps.done
	if ps.o.w != nil {
		ps.o.w.Abort()
	}
}

func (s *Site) setupOutput(out, absOut string, st *store.Store, cold bool) (outputSetup, error) {
	w, err := write.New(out, write.Options{Fresh: cold, MaxFiles: s.Config.Site.MaxSiteFiles, MaxBytes: s.Config.Site.MaxSiteBytes, Searched: true})
	if err != nil {
		return outputSetup{}, err
	}
	o := outputSetup{w: w}
	if st != nil {
		written := st.Outputs()
		prev, _ := written.Check(absOut)
		o.known = map[string]string{}
		o.records = map[string]write.FileRecord{}
		for p, r := range written {
			if checked, ok := prev[p]; ok {
				o.records[p] = fileRecord(checked)
			} else if r.Key != "" {
				// Written, but changed or gone since: the plan must know
				// the file was there (a chunk of series data tells which
				// files it has by them) and that it cannot be kept.
				r.Key = changedKey
			}
			if r.Key != "" {
				o.known[p] = r.Key
			}
		}
		w.SetPrevious(o.records)
	}
	o.briefs = loadBriefs(st)
	return o, nil
}

// planOptions are the options of the site's plan with content cont and
// the problems found in its inputs, without the keys of an incremental
// build.
func (s *Site) planOptions(cont *sitemodel.Content, warnings []error) sitemodel.Options {
	return sitemodel.Options{
		Title:        s.Config.Site.Title,
		BasePath:     s.Config.BasePath(),
		AbsURL:       s.Config.AbsURL(),
		Repository:   s.Config.Site.Repository,
		CommitURL:    s.Config.Site.CommitURL,
		PRURL:        s.Config.Site.PRURL,
		CompareURL:   s.Config.Site.CompareURL,
		TriageFilter: analysis.TriageFilter(s.Config.Triage.Filter),
		Watch:        s.Config.Triage.Watch(),
		Content:      cont,
		Warnings:     warnings,
		StepOptions:  s.Config.StepOptions,
	}
}

// takeOutput checks that out may be a site (not one of protected: the
// site's own inputs), takes its lock — before anything is read, held until
// unlock: the output's, which guards its store too (a store belongs to one
// output) — and opens its store (emptied when cold; nil, with a warning in
// rep, when it cannot be used). absOut is out resolved.
func (s *Site) takeOutput(out string, protected []outdir.Protected, cold bool, rep *Report) (absOut string, unlock func(), st *store.Store, err error) {
	if err := outdir.CheckSite(out, protected); err != nil {
		return "", nil, nil, err
	}
	if absOut, err = outdir.Resolve(out); err != nil {
		return "", nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(absOut), 0o755); err != nil {
		return "", nil, nil, err
	}
	if unlock, err = outdir.Lock(absOut); err != nil {
		return "", nil, nil, err
	}
	if err := s.checkStoreFolder(absOut); err != nil {
		unlock()
		return "", nil, nil, err
	}
	st, err = s.openStore(absOut, cold)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Errorf("%v; building without it", err))
	}
	return absOut, unlock, st, nil
}

// openStore opens the store of the output out (resolved), emptied for a
// cold build; nil (and no error) when the cache is off.
func (s *Site) openStore(out string, cold bool) (*store.Store, error) {
	dir := s.Config.CacheDir(out)
	switch {
	case dir == "":
		return nil, nil
	case cold:
		return store.Reset(dir, out)
	}
	return store.Open(dir, out)
}

// checkStoreFolder refuses a store folder for the output out (resolved)
// that would lie inside the output, its spare site or one of the site's
// inputs (a source or content folder; the config folder, where
// .perfpages-cache usually is, is fine): the next build would delete it,
// or the sources would change with every build.
func (s *Site) checkStoreFolder(out string) error {
	dir := s.Config.CacheDir(out)
	if dir == "" {
		return nil
	}
	folder, err := outdir.Resolve(filepath.Join(dir, store.FolderName(dir, out)))
	if err != nil {
		return err
	}
	inside := []outdir.Protected{
		{Path: out, What: "the output folder"},
		{Path: outdir.SparePath(out), What: "the spare site beside the output"},
	}
	for _, p := range s.protected() {
		if p.Path != s.Config.Dir && p.Path != s.Config.Project.Git {
			inside = append(inside, p)
		}
	}
	for _, p := range inside {
		if p.Path == "" {
			continue
		}
		rp, err := outdir.Resolve(p.Path)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(rp, folder); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return fmt.Errorf("cache folder %s: the store would lie inside %s (%s); choose a cache folder outside it ([site] cache or -cache)", dir, p.What, p.Path)
		}
	}
	return nil
}

// changedKey is the key the plan is told for a file the last build wrote
// that is no longer as written: no output's key is ever equal to it.
const changedKey = "\x00changed since it was written"

// upToDate reports whether the last successful build had the same inputs
// (fp) and its site is still there as it wrote it: then there is nothing
// to do, and rep says what that build said.
func (s *Site) upToDate(st *store.Store, fp [32]byte, out string, opts BuildOptions, rep *Report) (bool, error) {
	state, ok := st.State()
	if !ok || state.Fingerprint != fp || state.Out != out {
		return false, nil
	}
	outs := st.Outputs()
	if _, all := outs.Check(out); !all || !outs.Only(out, outdir.Marker) {
		return false, nil
	}
	if !outdir.IsOwnSite(out) {
		return false, nil
	}
	for _, w := range state.Warnings {
		rep.Warnings = append(rep.Warnings, errors.New(w))
	}
	rep.Notes = state.Notes
	rep.Pages, rep.Files, rep.Artifact, rep.Series = state.Pages, state.Files, state.Artifacts, state.Series
	rep.UpToDate = true
	if opts.Strict && len(rep.Warnings) > 0 {
		return true, fmt.Errorf("%d problems: %w", len(rep.Warnings), ErrStrict)
	}
	return true, nil
}

// saveStore records what the next build may reuse. A failure is a warning:
// the site is built; the next build only does more work.
func (s *Site) saveStore(st *store.Store, l *loaded, br *briefs, as *analysisState, tests *analysis.TestCache, manifest map[string]write.FileRecord, fp [32]byte, out string, rep *Report) {
	outs := siteOutputs(manifest, out)
	state := store.State{Fingerprint: fp, Out: out, Notes: rep.Notes,
		Pages: rep.Pages, Files: rep.Files, Artifacts: rep.Artifact, Series: rep.Series}
	for _, w := range rep.Warnings {
		state.Warnings = append(state.Warnings, w.Error())
	}
	// The entries are independent files of the store (which is safe for
	// concurrent use), saved on every core; then what this build did not
	// read or write is pruned, and the state names the build.
	saves := []func() error{
		func() error { return st.SaveOutputs(outs) },
		func() error { return br.save(st) },
		func() error { return saveSteps(st, as.steps, stepOptions{s.Config}) },
		func() error { return as.saveHeads(st) },
		func() error { return saveTests(st, tests) },
		func() error { return saveSeriesSizes(st, l.d) },
		func() error { return l.sums.save(st) },
	}
	errs := make([]error, len(saves))
	par.Each(context.Background(), len(saves), func(i int) error {
		errs[i] = saves[i]()
		return nil
	})
	errs = append(errs, st.Prune(), st.SaveState(state))
	for _, err := range errs {
		if err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Errorf("store: %w", err))
		}
	}
}

// fileRecord is what the writer needs of a file the store's manifest
// records.
func fileRecord(o store.Output) write.FileRecord {
	return write.FileRecord{Key: o.Key, Size: o.Size, Time: o.Time, Sum: o.Sum, Live: o.Live()}
}

// siteOutputs is the store's manifest of the site the writer just put in
// place at out (its manifest), with each file's identity on disk now
// (store.Outputs.Identify): call it after the swap.
func siteOutputs(manifest map[string]write.FileRecord, out string) store.Outputs {
	outs := make(store.Outputs, len(manifest))
	for p, r := range manifest {
		outs[p] = store.Output{Key: r.Key, Size: r.Size, Time: r.Time, Sum: r.Sum}.WithLive(r.Live)
	}
	outs.Identify(out, time.Now())
	return outs
}

// protected lists what an output folder must neither be nor contain: the
// site's own inputs.
func (s *Site) protected() []outdir.Protected {
	cfg := s.Config
	keep := []outdir.Protected{
		{Path: cfg.Dir, What: "the config folder (it holds " + config.FileName + ")"},
		{Path: cfg.Analysis.Annotations, What: "the annotations file"},
		{Path: cfg.Project.Git, What: "the project repository ([project] git)"},
	}
	if _, ok := s.Content.(*confined.FS); ok {
		// The demo's content is embedded; a folder on disk is protected.
		keep = append(keep, outdir.Protected{Path: cfg.Site.Content, What: "the content folder (site.content)"})
	}
	if cfg.Site.Theme != "" {
		keep = append(keep, outdir.Protected{Path: filepath.Join(cfg.Dir, "themes", cfg.Site.Theme), What: "the theme folder (site.theme)"})
	}
	for _, src := range cfg.Sources {
		if src.Dir != "" {
			keep = append(keep, outdir.Protected{Path: src.Dir, What: "a source folder ([[sources]] dir)"})
		}
		if src.Git != "" {
			keep = append(keep, outdir.Protected{Path: src.Git, What: "a source repository ([[sources]] git)"})
		}
	}
	return keep
}

// Links are the URLs documents about d use to point into the site d
// builds: absolute when site.base_url is, else under the base path, with
// the site's URL table and the comparisons it pre-renders, so that every
// link goes to a page the site has (a pair it does not pre-render to the
// compare form).
func (s *Site) Links(d *model.Dataset) report.Links {
	site := sitemodel.Options{AbsURL: s.Config.AbsURL(), BasePath: s.Config.BasePath()}.Root()
	routes := route.New(route.ForDataset(d))
	return report.Links{Site: site, Repository: s.Config.Site.Repository, Routes: routes, Shown: routes.Shown(d),
		CommitPattern: s.Config.Site.CommitURL, PRPattern: s.Config.Site.PRURL, ComparePattern: s.Config.Site.CompareURL}
}

// TriageNotes returns the maintainers' notes on a week
// (content/triage/<yyyy-mm-dd>.md), without front matter, or "".
func (s *Site) TriageNotes(week string) string {
	if s.Content == nil {
		return ""
	}
	data, err := fs.ReadFile(s.Content, "triage/"+week+".md")
	if err != nil {
		return ""
	}
	_, body, err := contentdir.ParseFrontMatter(week+".md", data)
	if err != nil {
		return ""
	}
	return string(body)
}

// previousFiles reads the files of the site in folder out that the
// previous build wrote and that are as it wrote them (records, by path;
// their bytes are checked against the sums it noted): the plan takes
// the rows of kept chunks of a data file it rewrites from them.
func previousFiles(out string, records map[string]write.FileRecord) func(path string) []byte {
	return func(path string) []byte {
		p := route.File(path)
		r, ok := records[p]
		if !ok {
			return nil
		}
		name := filepath.Join(out, filepath.FromSlash(p))
		if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() || fi.Size() != r.Size {
			return nil // not the file written (a link is never read)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, r.Size+1))
		if err != nil || int64(len(b)) != r.Size || sha256.Sum256(b) != r.Sum {
			return nil
		}
		return b
	}
}
