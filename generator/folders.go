package generator

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/foreign"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
)

// Folders read file by file. asv keeps one result file per commit in a
// folder beside two kinds of file they share (benchmarks.json, each
// machine's machine.json). Read as one input, the folder had one store
// key: a new result file changed it, and every file was read and decoded
// again (1,000 of them at the asv-layout M, a minute) before the artifact
// keys could tell that only one commit was new. A format that reads a
// folder file by file (foreign.Format.Open) is instead read like the
// archives of a directory: each result file is an input of its own, with
// its own store key, in the checkpoint (addArchives) at its place among
// the source's files, and decoded only when the store does not have it.
//
// A result file's key is its bytes (or, in a git history, its blob id),
// its path in the folder (asv takes the environment and the machine from
// it), the folder's defaults, and the bytes of every shared file of the
// folder: a changed benchmarks.json (a benchmark added or changed: its
// version decides which old results still count) reads every file again,
// as it must. The shared files are small, and read on every build (the
// folder is opened: their problems are the build's warnings every time);
// the result files only when new or changed. What depends on all the
// folder's files (asv's "no usable results", "no benchmarks.json") is
// said after the files are added (folderInput.finish), from which files
// gave a run.

// input is one file a build decodes into at most one run, keeps in the
// store under its own key and in the checkpoint: an archive, or a result
// file of a folder read file by file.
type input struct {
	source.File
	folder *folderInput // nil for an archive
	rel    string       // the file's slash-separated path in folder
	// sum is the SHA-256 of the bytes of an archive listed unread
	// (source.List), when summed (see fileSums).
	sum    [32]byte
	summed bool
}

// archiveInputs are archive files as inputs.
func archiveInputs(files []source.File) []input {
	out := make([]input, len(files))
	for i, f := range files {
		out[i] = input{File: f}
	}
	return out
}

// folderInput is an open folder of a format read file by file.
type folderInput struct {
	name     string // the folder, for messages
	format   string
	def      foreign.Defaults
	maxBytes int64
	options  string // the defaults and caps, for keys
	shared   [32]byte
	folder   foreign.Folder
	problems []archive.Problem // of the shared files
}

// openFolder opens the folder name of format f: files are its files by
// slash-separated path in it (Data nil for a git blob not read yet, whose
// id is in blobs). It returns the folder's result files as inputs, in
// the order of their paths; shared files of a git source are read from g.
func openFolder(ctx context.Context, f foreign.Format, name string, files map[string]source.File, def foreign.Defaults, maxBytes int64, g *source.Git) (*folderInput, []input, error) {
	fi := &folderInput{name: name, format: f.Name, def: def, maxBytes: maxBytes,
		options: fmt.Sprintf("%+v max-bytes=%d", def, maxBytes)}
	shared := map[string][]byte{}
	blobs := map[string]string{}
	var rels []string
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		file := files[rel]
		switch {
		case f.Shared(rel):
			shared[rel] = file.Data
			switch {
			case file.Data == nil && file.Blob != "":
				blobs[rel] = file.Blob
			case file.Data == nil && file.Load != nil:
				// Listed unread (source.List): shared files are read
				// whenever the folder is opened.
				data, err := file.Load()
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", file.Origin, err)
				}
				shared[rel] = data
			}
		case f.Wants(rel):
			rels = append(rels, rel)
		}
	}
	if len(blobs) > 0 {
		if err := readFiles(ctx, g, shared, blobs); err != nil {
			return nil, nil, err
		}
	}
	parts := [][]byte{}
	for _, rel := range slices.Sorted(maps.Keys(shared)) {
		parts = append(parts, []byte(rel), shared[rel])
	}
	fi.shared = store.Hash(parts...)
	fi.folder, fi.problems = f.Open(name, shared, rels, maxBytes, def)
	inputs := make([]input, len(rels))
	for i, rel := range rels {
		inputs[i] = input{File: files[rel], folder: fi, rel: rel}
	}
	return fi, inputs, nil
}

// key is the store key of the folder's file in (see the top of this file).
func (fi *folderInput) key(in input) [32]byte {
	return store.RunKey("foreign "+fi.format+" file", fi.options, []byte(in.rel), fi.shared[:], contentKey(in))
}

// read decodes the folder's file in, whose bytes are data.
func (fi *folderInput) read(in input, data []byte) ([]model.Run, []archive.Problem) {
	return fi.folder.ReadFile(in.rel, data)
}

// finish returns the folder's problems once its files are added: those of
// its shared files, then what depends on all its files; files and held
// are the build's inputs and what addArchives made of each.
func (fi *folderInput) finish(files []input, held []store.Held) []archive.Problem {
	var used []string
	for i, f := range files {
		if f.folder == fi && held[i].Artifact != "" {
			used = append(used, f.rel)
		}
	}
	return append(slices.Clip(fi.problems), fi.folder.Finish(used)...)
}

// foldFolders folds the problems of each folder's files that share a
// cause (foreign.Folder.Fold) in errs, the build's warnings from its
// inputs in the order of the files: a folder of a thousand result files
// that all name a benchmark its benchmarks.json lacks is one warning, in
// a cold build and a nightly one alike (held files' problems come from
// the checkpoint in the same order).
func foldFolders(errs []error, folders []*folderInput) []error {
	if len(folders) == 0 {
		return errs
	}
	// owners[i] is the folder whose file errs[i] is about (the longest
	// folder name its file starts with), nil for any other problem.
	owners := make([]*folderInput, len(errs))
	byFolder := map[*folderInput][]archive.Problem{}
	for i, e := range errs {
		p, ok := e.(archive.Problem)
		if !ok {
			continue
		}
		for _, fi := range folders {
			if strings.HasPrefix(p.File, fi.name+string(filepath.Separator)) && (owners[i] == nil || len(fi.name) > len(owners[i].name)) {
				owners[i] = fi
			}
		}
		if fi := owners[i]; fi != nil {
			byFolder[fi] = append(byFolder[fi], p)
		}
	}
	for fi, ps := range byFolder {
		byFolder[fi] = fi.folder.Fold(ps)
	}
	out := make([]error, 0, len(errs))
	for i, e := range errs {
		fi := owners[i]
		if fi == nil {
			out = append(out, e)
			continue
		}
		// A folder's folded problems take the places of its first ones.
		if ps := byFolder[fi]; len(ps) > 0 {
			out = append(out, ps[0])
			byFolder[fi] = ps[1:]
		}
	}
	return out
}
