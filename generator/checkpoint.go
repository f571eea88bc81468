package generator

import (
	"context"
	"encoding/json"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/store"
)

// The checkpoint. Decoding a stored entry per archive and adding its
// results to the builder again means two million results at M for the
// sake of a nightly build's few thousand (BenchmarkLoad measures such a
// load from nothing). The store keeps instead the builder's state after
// the archives' runs with the list of the archive files it holds
// (store.Checkpoint); the next build resumes from it and decodes and adds
// only the files it does not hold, at their places in the order of files.
// It falls back to adding every file when
//
//   - a file the checkpoint holds is gone or changed, or the files it
//     holds are in another order;
//   - the tool, the archive options or the builder's options changed;
//   - the resumed builder diverges (model.Builder.Diverged: a new run
//     of an old artifact, …);
//   - the checkpoint is broken (a warning of the store; it is written
//     again).
//
// Runs of other tools' formats are added after the archives' on every
// build (they are not in the checkpoint), except the result files of a
// folder read file by file (asv's, see folderInput): those are inputs
// like the archives, held by the checkpoint at their places.
//
// A checkpoint is rewritten when it was not used, or when the files it
// does not hold are more than checkpointSlack allows: a nightly build of
// one commit reads it but does not write it (at M it is 130 MB, in a head
// and chunks of 256 series' columns and samples that a build reads on
// every core; see Columns in package store). The store keeps a file's
// decoded runs (its .run entry) only while no checkpoint holds the file:
// a build that falls back to adding every file decodes again those the
// last checkpoint held, as a cold build does, and the store is the
// checkpoint, not the checkpoint and a copy of every run (at M 131 MB
// instead of 242 MB).
//
// A shard's builder holds its benchmarks' points alone (load's keep,
// model.BuildOptions.Keep), and so does its checkpoint: a shard's store
// keeps its series' points and samples and the other series' names, and
// a checkpoint of one shard is not resumed by another (the rule is part
// of the builder's options).
//
// The files' keys need not read the files: a folder source is listed
// unread and each archive keyed by the hash the store kept for its
// identity on disk (fileSums, filesums.go), so a nightly build reads the
// new archives and none of the others.

// checkpointSlack is how many files a build may add to a checkpoint
// before it writes a new one: at least 16, or 1 in 16 of what it holds.
func checkpointSlack(held int) int { return max(16, held/16) }

// checkpointOptions is what a checkpoint depends on besides its files and
// the tool: the archive options (the builder checks its own options).
func checkpointOptions(aopts archive.Options) string {
	o, _ := json.Marshal(aopts)
	return string(o)
}

// archives is what addArchives did.
type archives struct {
	b        *model.Builder
	inputs   map[string][][32]byte // artifact id → keys of its inputs, in order
	problems []error
	resumed  bool         // from the store's checkpoint
	held     []store.Held // what a checkpoint of b holds
	decoded  int          // files decoded, not taken from the store
}

// fileInput is the checkpoint's record of file f (version v, store key
// key, place in the project place): its problems probs and the artifact
// of its run r (nil for none).
func fileInput(f input, key [32]byte, place string, r *model.Run, probs []archive.Problem) store.Held {
	in := store.Held{Key: key, Origin: f.Origin, Place: place, Problems: problemsTo(probs, f.Origin)}
	if r != nil {
		in.Artifact = r.Artifact.ID
	}
	return in
}

// hold records the next file, in: its key among its artifact's inputs,
// its problems probs among the build's warnings, itself among what a
// checkpoint holds.
func (a *archives) hold(in store.Held, probs []archive.Problem) {
	if in.Artifact != "" {
		a.inputs[in.Artifact] = append(a.inputs[in.Artifact], in.Key)
	}
	a.problems = problemErrors(a.problems, probs)
	a.held = append(a.held, in)
}

// addArchives adds the runs of the archive files to a new builder,
// resuming from the store's checkpoint when it can (st may be nil). File
// i's run is at position i. place is where a file of that origin is in
// the project (config.Relative): a checkpoint's files are matched by
// their content and their place, so that a project moved whole, or a CI
// cache restored into a workspace at another path, resumes.
func addArchives(files []input, opts model.BuildOptions, aopts archive.Options, st *store.Store, sums *fileSums, place func(origin string) string) archives {
	if st == nil {
		return addAll(files, opts, aopts, nil, nil, nil, place)
	}
	if !st.HasCheckpoint(checkpointOptions(aopts)) {
		// Nothing to resume (a cold build): each file is read, hashed
		// and decoded in one go and dropped, rather than every file read
		// and hashed first and held until it is decoded (at the asv
		// layout's M, 684 MB held at once).
		return addAll(files, opts, aopts, nil, st, sums, place)
	}
	keys := make([][32]byte, len(files))
	par.Each(context.Background(), len(files), func(i int) error {
		o := aopts
		o.DefaultArtifact = files[i].Artifact
		keys[i] = inputKey(&files[i], o, sums)
		return nil
	})

	if a, ok := resumeArchives(files, keys, opts, aopts, st, place); ok {
		return a
	}
	return addAll(files, opts, aopts, keys, st, nil, place)
}

// addAll adds the runs of every file to a new builder. Without keys, each
// file's key is computed as it is decoded, its hash recorded in sums (for
// the next build) when sums is not nil.
func addAll(files []input, opts model.BuildOptions, aopts archive.Options, keys [][32]byte, st *store.Store, sums *fileSums, place func(string) string) archives {
	if st != nil {
		// The samples go to a file as they are added, and to the
		// checkpoint's files once it is written (model's lazyfloats.go).
		if f, err := st.Spill(); err == nil {
			opts.Spill = f
		}
	}
	b := model.NewBuilder(opts)
	a := archives{b: b, inputs: map[string][][32]byte{}}
	// The checkpoint saved below holds every file: no .run entry is
	// written (see store.SaveCheckpoint).
	a.decoded = decodeAll(files, keys, sums, aopts, st, false, func(i int, r *model.Run, key [32]byte, probs []archive.Problem) {
		if r != nil {
			b.AddAt(i, files[i].Origin, *r)
		}
		a.hold(fileInput(files[i], key, place(files[i].Origin), r, probs), probs)
	})
	if st != nil {
		st.SaveCheckpoint(checkpointOptions(aopts), a.held, b) // before b takes other runs
	}
	return a
}

// resumeArchives resumes from the store's checkpoint and adds the files it
// does not hold; false when it cannot (see The checkpoint above).
func resumeArchives(files []input, keys [][32]byte, opts model.BuildOptions, aopts archive.Options, st *store.Store, place func(origin string) string) (archives, bool) {
	options := checkpointOptions(aopts)
	inputs, state, chunk, ok := st.Checkpoint(options)
	if !ok {
		return archives{}, false
	}
	// Match the checkpoint's files, in order, to this build's, by their
	// content and place (their origin in a checkpoint of an older build).
	type ident struct {
		key   [32]byte
		place string
	}
	at := make(map[ident]int, len(inputs))
	for j, in := range inputs {
		p := in.Place
		if p == "" {
			p = in.Origin
		}
		at[ident{in.Key, p}] = j
	}
	held := make([]int, len(files)) // file → its input in the checkpoint, or -1
	places := make([]string, len(files))
	next := 0
	var runPos []int // the checkpoint's runs → file positions
	for i, f := range files {
		held[i], places[i] = -1, place(f.Origin)
		j, ok := at[ident{keys[i], places[i]}]
		if !ok {
			j, ok = at[ident{keys[i], f.Origin}]
		}
		if !ok {
			continue
		}
		if j != next {
			return archives{}, false
		}
		held[i], next = j, next+1
		if inputs[j].Artifact != "" {
			runPos = append(runPos, i)
		}
	}
	if next != len(inputs) {
		return archives{}, false
	}
	// The state names its runs by their origins then, the checkpoint's
	// files'; the builder takes the files' origins now.
	release := holdGC()
	b, err := model.ResumeBuilderFrom(opts, state, chunk, func(run int, origin string) (int, string, bool) {
		if run >= len(runPos) || inputs[held[runPos[run]]].Origin != origin {
			return 0, "", false
		}
		return runPos[run], files[runPos[run]].Origin, true
	})
	release()
	if err != nil {
		return archives{}, false
	}
	// The new files, decoded and added at their positions.
	var fresh []input
	var freshKeys [][32]byte
	var freshAt []int
	for i, f := range files {
		if held[i] < 0 {
			fresh = append(fresh, f)
			freshKeys = append(freshKeys, keys[i])
			freshAt = append(freshAt, i)
		}
	}
	a := archives{b: b, inputs: map[string][][32]byte{}, resumed: true}
	type decoded struct {
		run   *model.Run
		probs []archive.Problem
	}
	got := make([]decoded, len(fresh))
	// The new files' .run entries are kept until a checkpoint holds them:
	// not written when this build writes one.
	rewrite := len(fresh) > checkpointSlack(len(inputs))
	a.decoded = decodeAll(fresh, freshKeys, nil, aopts, st, !rewrite, func(k int, r *model.Run, _ [32]byte, probs []archive.Problem) {
		i := freshAt[k]
		if r != nil {
			b.AddAt(i, files[i].Origin, *r)
		}
		got[k] = decoded{r, probs}
	})
	if err := b.Diverged(); err != nil {
		return archives{}, false
	}
	// Problems and inputs in the order of files.
	k := 0
	for i, f := range files {
		if j := held[i]; j >= 0 {
			// Held where the file is now: the builder's runs have its
			// origin now, which the next resume checks the checkpoint's
			// against (a moved project's, once its checkpoint is
			// written again).
			in := inputs[j]
			in.Origin, in.Place = f.Origin, places[i]
			a.hold(in, problemsFrom(in.Problems, f.Origin))
			continue
		}
		d := got[k]
		k++
		a.hold(fileInput(f, keys[i], places[i], d.run, d.probs), d.probs)
	}
	if rewrite {
		st.SaveCheckpoint(options, a.held, b)
	}
	return a, true
}
