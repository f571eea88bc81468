package generator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/foreign"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
)

// Git history sources, incrementally. A results branch keeps every
// version of its files: a nightly job adds an archive a commit, or
// github-action-benchmark rewrites data.js with every push, each version
// repeating the history before it (1,091 versions of a 2 MB file are 1.2
// GB of JSON). A build must neither read nor decode it all again, nor hold
// it in memory. So:
//
//  1. The source lists the versions of each path along the ref with their
//     blob ids, reading nothing ([source.Git.Versions]).
//  2. A path with one version at the ref's tip is an input like a file of
//     a directory, keyed by its blob id (a blob id names its content): a
//     build whose store has it never reads it (archiveKey).
//  3. The versions of any other path (rewritten, or deleted since) are
//     folded, oldest first, into what the newest says (analysis.
//     FileVersions: corrections, re-runs, removed results). The fold is
//     kept in the store under a key of the versions it folded, in order
//     (chainKeys): the next build finds the longest run of versions it
//     folded before and reads and folds only the blobs after it. A
//     nightly build of one new data.js version reads one blob.
//  4. Reading and decoding stream: the blobs are read one at a time and
//     decoded on every core a few versions ahead of the fold, which keeps
//     the newest version and what was removed; memory holds a few
//     versions, never the history.
//
// The newest version of a file is what its maintainer meant: results a
// later version removed, and files deleted since, are left out unless the
// source says keep_removed = true. Each source says once how many results
// were corrected and removed (versionNotes), and a version's problems are
// reported for the newest version only: the same cause in a thousand
// versions is one warning.

// history is what a git history source gives a build.
type history struct {
	// files are the archives of paths with one version, at the ref's
	// tip: inputs like a directory's files, read only when the store does
	// not have them (Load).
	files []input
	// folders are the folders read file by file whose result files
	// are among files.
	folders []*folderInput
	// runs are the other paths' runs (folded versions, other tools'
	// formats), added after the archives'.
	runs     []laterRun
	problems []error
	notes    []string
}

// readHistory reads a git history source (see the top of this file).
func readHistory(ctx context.Context, src config.Source, g *source.Git, st *store.Store, aopts archive.Options) (history, error) {
	var h history
	maxBytes := aopts.MaxBytes
	files, err := g.Versions(ctx, src.Ref, src.Path, sourceWants(src))
	if err != nil {
		return h, err
	}
	paths := groupPaths(files)
	var folds []folded
	var tally removedTally
	fold := func(p histPath, reader, options string, decode decodeVersion) error {
		f, err := foldPath(ctx, g, st, chainKeys(reader, options, p), foldLimit(maxBytes, p), p, decode)
		if err != nil {
			return err
		}
		folds = append(folds, f)
		return nil
	}
	switch pat, dirFormat, err := foreignPattern(src); {
	case src.Archives():
		o, _ := json.Marshal(aopts)
		for _, p := range paths {
			if len(p.versions) == 1 && !p.deleted {
				f := p.versions[0]
				if f.Err != nil {
					h.problems = append(h.problems, fmt.Errorf("%s: %w; file skipped", f.Origin, f.Err))
					continue
				}
				f.Load = func() ([]byte, error) { return g.ReadBlob(ctx, f.Blob) }
				h.files = append(h.files, input{File: f})
				continue
			}
			err := fold(p, "perfpages archive", string(o), func(origin string, data []byte) ([]model.Run, []archive.Problem) {
				run, probs := archive.Decode(origin, data, aopts)
				if fatal(probs) {
					return nil, probs
				}
				return []model.Run{run}, probs
			})
			if err != nil {
				return h, err
			}
		}
	case err != nil:
		h.problems = append(h.problems, err)
	case dirFormat:
		// A folder's files are read together; of each file, the newest
		// version (and a file deleted since only with keep_removed).
		var newest []source.File
		for _, p := range paths {
			f := p.newest()
			if p.deleted {
				tally.deleted++
				minExample(&tally.deletedExample, f.Origin)
				if !src.KeepRemoved {
					continue
				}
			}
			if f.Err != nil {
				h.problems = append(h.problems, fmt.Errorf("%s: %w; file skipped", f.Origin, f.Err))
				continue
			}
			newest = append(newest, f)
		}
		r, problems := readForeign(ctx, src, newest, maxBytes, st, g)
		h.runs, h.problems = append(h.runs, r.runs...), append(h.problems, problems...)
		h.files, h.folders = append(h.files, r.files...), append(h.folders, r.folders...)
	default:
		for _, p := range paths {
			def, _, ok := foreignDefaults(pat, sourceRel(src, p.name), "")
			if !ok {
				continue
			}
			err := fold(p, "foreign "+src.Format, fmt.Sprintf("%+v max-bytes=%d", def, maxBytes), func(origin string, data []byte) ([]model.Run, []archive.Problem) {
				_, runs, probs := foreign.Read(src.Format, foreign.Input{Name: origin, Data: data, MaxBytes: maxBytes}, def)
				return runs, probs
			})
			if err != nil {
				return h, err
			}
		}
	}
	for _, f := range folds {
		if f.path.deleted {
			f.v.Delete()
			if !src.KeepRemoved {
				continue // its problems are moot
			}
		}
		h.problems = problemErrors(h.problems, f.problems)
	}
	h.runs = append(h.runs, foldedRuns(folds, src.KeepRemoved)...)
	h.notes = versionNotes(src, folds, tally)
	return h, nil
}

// histPath is one path along a git ref: its versions, oldest first.
type histPath struct {
	name     string
	versions []source.File
	// deleted: the ref's tip has no version of the path.
	deleted bool
}

// newest is the path's newest version.
func (p histPath) newest() source.File { return p.versions[len(p.versions)-1] }

// groupPaths gathers the versions of each path in files (as
// [source.Git.Versions] lists them), in the order the paths first appear.
func groupPaths(files []source.File) []histPath {
	at := map[string]int{}
	var paths []histPath
	for _, f := range files {
		i, ok := at[f.Name]
		if !ok {
			i = len(paths)
			at[f.Name] = i
			paths = append(paths, histPath{name: f.Name, deleted: true})
		}
		paths[i].versions = append(paths[i].versions, f)
		if f.Tip {
			paths[i].deleted = false
		}
	}
	for i := range paths {
		slices.SortStableFunc(paths[i].versions, func(a, b source.File) int { return a.Version - b.Version })
	}
	return paths
}

// folded is a path's versions folded: its fold, the problems of its
// newest version and the key of the fold in the store.
type folded struct {
	path     histPath
	v        *model.FileVersions
	problems []archive.Problem
}

// decodeVersion reads one version of a file: its runs and problems.
type decodeVersion func(origin string, data []byte) ([]model.Run, []archive.Problem)

// chainKeys are the store keys of the folds of a path's versions: keys[j]
// is the key of the fold of the first j versions. reader names what reads
// the versions and how (the tool, the format, its options); each version
// is its blob id and its origin (messages name it).
func chainKeys(reader, options string, p histPath) [][32]byte {
	keys := make([][32]byte, len(p.versions)+1)
	keys[0] = store.RunKey("versions "+reader, options, []byte(p.name))
	for j, v := range p.versions {
		keys[j+1] = store.Hash(keys[j][:], []byte(v.Blob), []byte(v.Origin))
	}
	return keys
}

// foldLimit bounds the size of the store's entry of a fold of p's
// versions: its newest version and what was removed are at most all of
// them (see entryLimit).
func foldLimit(maxBytes int64, p histPath) int64 {
	var n int64
	for _, v := range p.versions {
		if strings.HasSuffix(v.Name, ".gz") {
			n += capped.Or(maxBytes)
		} else {
			n += v.Size
		}
	}
	return 8*n + 1<<20
}

// foldPath folds the versions of p, from the store's fold of the longest
// run of them it has (st may be nil), reading the other blobs from g.
func foldPath(ctx context.Context, g *source.Git, st *store.Store, keys [][32]byte, limit int64, p histPath, decode decodeVersion) (folded, error) {
	out := folded{path: p, v: &model.FileVersions{}}
	n := len(p.versions)
	newest := p.newest().Origin
	start := 0
	if st != nil {
		for j := n; j > 0; j-- {
			if e, ok := st.Entry(keys[j], limit); ok && e.Versions != nil {
				if j == n {
					out.v, out.problems = e.Versions, problemsFrom(e.Problems, newest)
					return out, nil
				}
				out.v, start = e.Versions, j
				break
			}
		}
	}
	var ids []string
	var at []int      // index in versions of ids[i]
	var missing []int // older versions whose blob the repository lacks
	for j := start; j < n; j++ {
		v := p.versions[j]
		if v.Err != nil {
			var mb *source.MissingBlob
			switch {
			case j == n-1:
				out.problems = []archive.Problem{{File: v.Origin, Msg: v.Err.Error(), Fatal: true}}
			case errors.As(v.Err, &mb):
				missing = append(missing, j)
			}
			continue
		}
		ids = append(ids, v.Blob)
		at = append(at, j)
	}
	err := streamDecode(ctx, g, ids, func(i int, data []byte) ([]model.Run, []archive.Problem) {
		return decode(p.versions[at[i]].Origin, data)
	}, func(i int, runs []model.Run, probs []archive.Problem) {
		j := at[i]
		if j == n-1 {
			out.problems = probs
		}
		if fatal(probs) {
			return
		}
		out.v.Add(p.versions[j].Origin, runs)
	})
	if err != nil {
		return out, err
	}
	if fatal(out.problems) && out.v.Origin != "" {
		// The newest version cannot be read: the newest that can stands.
		out.problems = append(out.problems, archive.Problem{File: newest, Msg: "the newest readable version is used instead: " + out.v.Origin})
	}
	if len(missing) > 0 {
		// A copy of a repository without its largest blobs (or a damaged
		// one) still has most versions: the fold reads those, and says
		// which it could not once, not one problem per version or a
		// failed build.
		out.problems = append(out.problems, archive.Problem{File: newest, Msg: fmt.Sprintf(
			"%d older versions of the file are not in the repository (a damaged clone, or a copy without its largest files?), such as %s; read without them",
			len(missing), p.versions[missing[0]].Origin)})
	}
	if st != nil {
		if err := st.Put(keys[n], store.Entry{Versions: out.v, Problems: problemsTo(out.problems, newest)}); err != nil {
			out.problems = append(out.problems, archive.Problem{File: newest, Msg: err.Error()})
		}
	}
	return out, nil
}

// streamDecode reads the blobs ids from g one at a time and decodes them
// on every core, a few ahead of the one consume takes: consume is called
// in order, on the calling goroutine, and each blob is dropped once
// decoded.
func streamDecode(ctx context.Context, g *source.Git, ids []string, decode func(i int, data []byte) ([]model.Run, []archive.Problem), consume func(i int, runs []model.Run, probs []archive.Problem)) error {
	if len(ids) == 0 {
		return nil
	}
	type result struct {
		runs  []model.Run
		probs []archive.Problem
	}
	workers := runtime.GOMAXPROCS(0)
	slots := make([]chan result, len(ids))
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	type job struct {
		i    int
		data []byte
	}
	jobs := make(chan job)
	// At most 2·workers versions are read or decoded ahead of the fold.
	ahead := make(chan struct{}, 2*workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				runs, probs := decode(j.i, j.data)
				slots[j.i] <- result{runs, probs}
			}
		})
	}
	readErr := make(chan error, 1)
	go func() {
		err := g.ReadBlobs(ctx, ids, func(i int, data []byte) error {
			select {
			case ahead <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			jobs <- job{i, data}
			return nil
		})
		close(jobs)
		readErr <- err
	}()
	// The reader's end is awaited, never cancelled, once every blob is
	// in: cancelling a read that is done would kill cat-file in its last
	// steps and turn a good read into an error.
	var err error
	readDone := false
	for i := range ids {
		var r result
		if readDone {
			r = <-slots[i]
		} else {
			select {
			case r = <-slots[i]:
			case err = <-readErr:
				readDone = true
				if err == nil {
					r = <-slots[i] // everything was read: the slot fills
				}
			}
		}
		if err != nil {
			break
		}
		<-ahead
		consume(i, r.runs, r.probs)
	}
	if err == nil && !readDone {
		err = <-readErr
	}
	cancel()
	wg.Wait()
	return err
}

// foldedRuns are what the folds give the dataset (FileVersions.Each).
func foldedRuns(fs []folded, keep bool) []laterRun {
	var out []laterRun
	for _, f := range fs {
		f.v.Each(keep, func(origin string, r model.Run) {
			out = append(out, laterRun{origin, r})
		})
	}
	return out
}

// removedTally counts what a source's newest versions no longer hold.
type removedTally struct {
	results, files int
	example        string
	// deleted counts the files of folder formats deleted since (their
	// results are not counted one by one).
	deleted        int
	deletedExample string
}

// versionNotes are the notes of a source's versions: one per cause, with
// how many and an example, so that a history of a thousand versions says
// each thing once.
func versionNotes(src config.Source, fs []folded, t removedTally) []string {
	var notes []string
	corrected, files, fields, fieldFiles := 0, 0, 0, 0
	history, historyFiles := 0, 0
	example, historyExample := "", ""
	for _, f := range fs {
		if n := f.v.HistoryResults(); n > 0 {
			history += n
			historyFiles++
			r := f.v.History[0]
			minExample(&historyExample, fmt.Sprintf("%s %s on %s at %s, last in %s", r.Results[0].Case, r.Results[0].Metric, r.Machine.Name, shortID(r.Artifact.ID), f.v.HistoryIn[0]))
		}
		if f.v.Corrected > 0 {
			corrected += f.v.Corrected
			files++
			minExample(&example, f.v.Correction)
		}
		if f.v.Fields > 0 {
			fields += f.v.Fields
			fieldFiles++
		}
		if n := f.v.RemovedResults(); n > 0 {
			t.results += n
			t.files++
			r := f.v.Removed[0]
			minExample(&t.example, fmt.Sprintf("%s %s on %s at %s, last in %s", r.Results[0].Case, r.Results[0].Metric, r.Machine.Name, shortID(r.Artifact.ID), f.v.RemovedIn[0]))
		}
	}
	if corrected > 0 {
		notes = append(notes, fmt.Sprintf("%s: later versions of %s correct %s of older versions (e.g. %s); the newest versions are used",
			src, plural(files, "file"), plural(corrected, "result"), example))
	}
	if history > 0 {
		notes = append(notes, fmt.Sprintf("%s: %s of artifacts that later versions of %s no longer list, older than every artifact they list, are kept as history (e.g. %s)",
			src, plural(history, "result"), plural(historyFiles, "file"), historyExample))
	}
	if fields > 0 {
		notes = append(notes, fmt.Sprintf("%s: versions of %s give different artifact metadata (%s); the newest versions' are used",
			src, plural(fieldFiles, "file"), plural(fields, "field")))
	}
	what := func() string {
		var parts []string
		if t.results > 0 {
			parts = append(parts, fmt.Sprintf("%s that later versions of %s no longer hold (e.g. %s)", plural(t.results, "result"), plural(t.files, "file"), t.example))
		}
		if t.deleted > 0 {
			parts = append(parts, fmt.Sprintf("%s deleted since (e.g. %s)", plural(t.deleted, "file"), t.deletedExample))
		}
		return strings.Join(parts, " and ")
	}
	switch {
	case t.results == 0 && t.deleted == 0:
	case src.KeepRemoved:
		notes = append(notes, fmt.Sprintf("%s: %s are kept (keep_removed = true)", src, what()))
	default:
		notes = append(notes, fmt.Sprintf("%s: %s are left out: the newest version of a file is what its maintainer meant; set keep_removed = true on the source to keep them",
			src, what()))
	}
	return notes
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprint(n) + " " + noun + "s"
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// minExample keeps the smaller of two examples, so that the one a note
// shows does not depend on the order files are read in.
func minExample(have *string, s string) {
	if *have == "" || s < *have {
		*have = s
	}
}
