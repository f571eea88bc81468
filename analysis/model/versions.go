package model

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Versions of one file. A results branch keeps its files' history: a
// nightly job overwrites a file with each night's run, or with a
// corrected one; github-action-benchmark rewrites data.js with every push,
// each version repeating the entries before it (and, past
// max-items-in-chart, dropping the oldest); a maintainer deletes an
// outlier, a suite, a machine or a whole file. The newest version of a
// file is what the maintainer meant:
//
//  1. A result the newest version gives is its value, whatever older
//     versions said. Where an older version gave other values it is a
//     correction (Corrected, with one example), unless the newer values
//     only append to the older ones: a re-run of the same commit that the
//     tool added to its samples is not a correction.
//  2. A version speaks for the artifacts it holds. Results of an
//     artifact a newer version no longer holds at all, when that artifact
//     came before every artifact the newer version holds (in the order
//     artifacts first appear along the versions) and the newer version
//     brings an artifact of its own, are history the file let go of — the
//     night before in a file overwritten every night, entries
//     max-items-in-chart dropped as the action appended one — and stay
//     (History). A version that brings nothing new only removes.
//  3. Every other result a newer version dropped was removed (Removed):
//     a result of an artifact it still holds (an outlier, a suite, a
//     machine deleted), or of an artifact among those it holds (an entry
//     deleted from the middle). Removed results are left out of the site
//     unless the source keeps them (Result), and counted either way. A
//     file deleted since (Delete) removed everything its last version
//     held. Once history or removed, a result stays so until a version
//     gives it again.
//  4. Of an artifact's metadata, the newest version that sets a field
//     wins; a field a newer version changed is counted (Fields), but for
//     the parents, which a file that orders its entries (data.js) gives
//     anew when an entry before is removed.
//
// FileVersions folds the versions in order, oldest first, one at a time,
// so that memory holds the newest version and what was dropped, never
// the whole history; its state is kept between builds (the store's entry
// of a file's versions), and a new version is folded into it alone.

// FileVersions is the fold of the versions of one file, oldest first.
// Its exported fields are its state: a FileVersions made of them (read back
// from the store) folds further versions as the original would.
type FileVersions struct {
	// Origin names the newest version folded, for messages.
	Origin string
	// Runs are the newest version's runs, as it gives them (with the
	// artifact fields it leaves empty taken from older versions).
	Runs []Run
	// History and Removed hold the results older versions give and no
	// newer one does (rules 2 and 3), each with the value of the last
	// version that gave it: one run per artifact, machine, context and
	// that version, whose origin is HistoryIn[i] (RemovedIn[i]). Sorted by
	// artifact, machine, context, origin.
	History   []Run
	HistoryIn []string
	Removed   []Run
	RemovedIn []string
	// Seen lists the artifacts in the order they first appeared along the
	// versions (rule 2).
	Seen []string
	// Corrected counts the results a newer version changed (rule 1);
	// Correction describes the smallest, in byte order.
	Corrected  int
	Correction string
	// Fields counts the artifact fields a newer version changed.
	Fields int
	// Deleted is set when the file is gone from the ref's tip (Delete).
	Deleted bool

	rank map[string]int // of Seen, once made
}

// runKey identifies a run within a file's versions: its artifact,
// machine and context.
type runKey struct {
	artifact, machine, context string
}

func keyOf(r *Run) runKey { return runKey{r.Artifact.ID, r.Machine.Name, r.Context.String()} }

// caseKey identifies a result within its run.
type caseKey struct {
	benchmark, params, metric string
}

func caseOf(res *Result) caseKey {
	return caseKey{res.Case.Benchmark, res.Case.Params.String(), res.Metric}
}

// resultID identifies a result within a file's versions.
type resultID struct {
	runKey
	caseKey
}

// held is a result of a version: its run and its place in the run.
type held struct {
	run *Run
	res *Result
}

// index is a version's runs by key, and each run's results by case once
// asked for (a run whose results match the older version's one by one,
// as nearly all do from one version to the next, is never indexed).
type index struct {
	runs  map[runKey]*Run
	cases map[*Run]map[caseKey]*Result
}

func newIndex(runs []Run) *index {
	x := &index{runs: make(map[runKey]*Run, len(runs)), cases: map[*Run]map[caseKey]*Result{}}
	for i := range runs {
		x.runs[keyOf(&runs[i])] = &runs[i]
	}
	return x
}

// result is the result of run r with case c, or nil.
func (x *index) result(r *Run, c caseKey) *Result {
	m := x.cases[r]
	if m == nil {
		m = make(map[caseKey]*Result, len(r.Results))
		for j := range r.Results {
			m[caseOf(&r.Results[j])] = &r.Results[j]
		}
		x.cases[r] = m
	}
	return m[c]
}

// Add folds in the next version, newer than every version before it,
// from origin: its runs (a version that could not be read is not added:
// the newest readable version stands).
func (h *FileVersions) Add(origin string, runs []Run) {
	cur := newIndex(runs)
	seen := len(h.Seen)
	h.see(runs)
	// Only a version that brings an artifact of its own lets history go
	// (the night's run overwriting the last, the action appending an
	// entry and dropping the oldest); one that brings none only removes.
	brings := len(h.Seen) > seen
	if h.Origin == "" && !h.Deleted && len(h.Runs) == 0 && len(h.Removed) == 0 && len(h.History) == 0 {
		h.Origin, h.Runs = origin, runs
		return
	}
	h.fillArtifacts(runs, cur)
	// The artifacts the version holds, and the rank of its oldest.
	holds := map[string]bool{}
	oldest := len(h.Seen)
	if !brings {
		oldest = -1
	}
	for i := range runs {
		id := runs[i].Artifact.ID
		holds[id] = true
		oldest = min(oldest, h.rank[id])
	}
	var history, removed []dropped
	drop := func(d dropped) {
		if !holds[d.run.Artifact.ID] && h.rank[d.run.Artifact.ID] < oldest {
			history = append(history, d)
		} else {
			removed = append(removed, d)
		}
	}
	// The older live results: kept, corrected or dropped.
	for i := range h.Runs {
		o := &h.Runs[i]
		k := keyOf(o)
		n := cur.runs[k]
		if n != nil && sameRun(o, n) {
			continue
		}
		for j := range o.Results {
			res := &o.Results[j]
			c := caseOf(res)
			var nr *Result
			if n != nil {
				nr = cur.result(n, c)
			}
			if nr != nil {
				h.compare(resultID{k, c}, res, nr, h.Origin)
			} else {
				drop(dropped{held{o, res}, h.Origin})
			}
		}
	}
	// Results dropped before: given again by this version, or still
	// gone, as they were.
	again := func(runs []Run, origins []string, into *[]dropped) {
		for i := range runs {
			r := &runs[i]
			k := keyOf(r)
			n := cur.runs[k]
			for j := range r.Results {
				res := &r.Results[j]
				c := caseOf(res)
				if n != nil {
					if nr := cur.result(n, c); nr != nil {
						h.compare(resultID{k, c}, res, nr, origins[i])
						continue
					}
				}
				*into = append(*into, dropped{held{r, res}, origins[i]})
			}
		}
	}
	// A list no result joined or left is kept as it is: regrouping it
	// for every version cost a data.js history of 3,381 versions with a
	// few thousand removed results (risc0's) 26 of its 39 CPU-seconds
	// of folding.
	regiven := func(runs []Run) bool {
		for i := range runs {
			r := &runs[i]
			n := cur.runs[keyOf(r)]
			if n == nil {
				continue
			}
			for j := range r.Results {
				if cur.result(n, caseOf(&r.Results[j])) != nil {
					return true
				}
			}
		}
		return false
	}
	if len(history) > 0 || regiven(h.History) {
		again(h.History, h.HistoryIn, &history)
		h.History, h.HistoryIn = group(history)
	}
	if len(removed) > 0 || regiven(h.Removed) {
		again(h.Removed, h.RemovedIn, &removed)
		h.Removed, h.RemovedIn = group(removed)
	}
	h.Origin, h.Runs, h.Deleted = origin, runs, false
}

// sameRun reports whether n gives exactly o's results, in o's order.
func sameRun(o, n *Run) bool {
	if len(o.Results) != len(n.Results) {
		return false
	}
	for j := range o.Results {
		x, y := &o.Results[j], &n.Results[j]
		if x.Case.Benchmark != y.Case.Benchmark || x.Metric != y.Metric || !slices.Equal(x.Case.Params, y.Case.Params) || !sameValues(x, y) {
			return false
		}
	}
	return true
}

// see ranks the artifacts of runs that appear for the first time.
func (h *FileVersions) see(runs []Run) {
	if h.rank == nil {
		h.rank = make(map[string]int, len(h.Seen))
		for i, id := range h.Seen {
			h.rank[id] = i
		}
	}
	for i := range runs {
		id := runs[i].Artifact.ID
		if _, ok := h.rank[id]; !ok {
			h.rank[id] = len(h.Seen)
			h.Seen = append(h.Seen, id)
		}
	}
}

// dropped is a result a version no longer gives, and the origin of the
// last version that gave it.
type dropped struct {
	held
	origin string
}

// Delete records that the file is gone from the ref's tip: everything its
// newest version held is removed, and what it had let go of (History)
// with it.
func (h *FileVersions) Delete() {
	if h.Deleted {
		return
	}
	var removed []dropped
	add := func(runs []Run, origin func(i int) string) {
		for i := range runs {
			for j := range runs[i].Results {
				removed = append(removed, dropped{held{&runs[i], &runs[i].Results[j]}, origin(i)})
			}
		}
	}
	add(h.Removed, func(i int) string { return h.RemovedIn[i] })
	add(h.History, func(i int) string { return h.HistoryIn[i] })
	add(h.Runs, func(int) string { return h.Origin })
	h.Removed, h.RemovedIn = group(removed)
	h.History, h.HistoryIn, h.Runs, h.Deleted = nil, nil, nil, true
}

// group makes runs of the results ds: grouped by artifact, machine,
// context and origin, in a stable order, with each run's origin.
func group(ds []dropped) ([]Run, []string) {
	type key struct {
		artifact, machine, context, origin string
	}
	groups := map[key]int{}
	var runs []Run
	var origins []string
	for _, d := range ds {
		r := d.run
		g := key{r.Artifact.ID, r.Machine.Name, r.Context.String(), d.origin}
		i, ok := groups[g]
		if !ok {
			i = len(runs)
			groups[g] = i
			runs = append(runs, Run{Artifact: r.Artifact, Machine: r.Machine, Context: r.Context})
			origins = append(origins, d.origin)
		}
		runs[i].Results = append(runs[i].Results, *d.res)
	}
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
		slices.SortFunc(runs[i].Results, func(a, b Result) int {
			return cmp.Or(strings.Compare(a.Case.Benchmark, b.Case.Benchmark), strings.Compare(a.Case.Params.String(), b.Case.Params.String()), strings.Compare(a.Metric, b.Metric))
		})
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := &runs[a], &runs[b]
		return cmp.Or(strings.Compare(x.Artifact.ID, y.Artifact.ID), strings.Compare(x.Machine.Name, y.Machine.Name),
			strings.Compare(x.Context.String(), y.Context.String()), strings.Compare(origins[a], origins[b]))
	})
	var outRuns []Run
	var outOrigins []string
	for _, i := range order {
		outRuns = append(outRuns, runs[i])
		outOrigins = append(outOrigins, origins[i])
	}
	return outRuns, outOrigins
}

// RemovedResults and HistoryResults count the results of Removed and
// History.
func (h *FileVersions) RemovedResults() int { return count(h.Removed) }
func (h *FileVersions) HistoryResults() int { return count(h.History) }

func count(runs []Run) int {
	n := 0
	for _, r := range runs {
		n += len(r.Results)
	}
	return n
}

// Each calls fn with each run the file gives the dataset, and the origin
// of the version it came from: the newest version's runs, the history it
// let go of, and with keepRemoved the results later versions removed.
func (h *FileVersions) Each(keepRemoved bool, fn func(origin string, r Run)) {
	for _, r := range h.Runs {
		fn(h.Origin, r)
	}
	for i, r := range h.History {
		fn(h.HistoryIn[i], r)
	}
	if keepRemoved {
		for i, r := range h.Removed {
			fn(h.RemovedIn[i], r)
		}
	}
}

// compare counts a correction of result id from older (in origin) to
// newer (rule 1).
func (h *FileVersions) compare(id resultID, older, newer *Result, origin string) {
	if sameValues(older, newer) || appended(older, newer) {
		return
	}
	h.Corrected++
	ex := fmt.Sprintf("%s %s on %s at %s: %s → %s (in %s)", TestCase{Benchmark: id.benchmark}.String()+paramsSuffix(id.params), id.metric, id.machine,
		shortID(id.artifact), valuesText(older), valuesText(newer), origin)
	minExample(&h.Correction, ex)
}

func paramsSuffix(p string) string {
	if p == "" {
		return ""
	}
	return " " + p
}

// sameValues reports whether two results hold the same values.
func sameValues(x, y *Result) bool {
	return x.Error == y.Error && sameFloats(x.Samples, y.Samples) && sameFloats(x.Iters, y.Iters) && sameSummary(x.Summary, y.Summary)
}

// appended reports whether newer is older with more samples after its
// own (a re-run the tool added): the summary may change with them.
func appended(older, newer *Result) bool {
	if older.Error != newer.Error || len(newer.Samples) <= len(older.Samples) || !sameFloats(older.Samples, newer.Samples[:len(older.Samples)]) {
		return false
	}
	if len(older.Iters) == 0 && len(newer.Iters) == 0 {
		return true
	}
	return len(newer.Iters) == len(newer.Samples) && len(older.Iters) == len(older.Samples) && sameFloats(older.Iters, newer.Iters[:len(older.Iters)])
}

// valuesText shows a result's values in a note: its error, or up to three
// samples.
func valuesText(r *Result) string {
	if r.Error != "" {
		return "error " + strconv.Quote(r.Error)
	}
	parts := make([]string, 0, min(len(r.Samples), 4))
	for i, x := range r.Samples {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// fillArtifacts gives the artifacts of the new version's runs (cur) the
// fields it leaves empty from the older versions' (rule 4), and counts
// the fields it changed.
func (h *FileVersions) fillArtifacts(runs []Run, cur *index) {
	older := map[string]*Artifact{}
	for i := range h.Runs {
		if n := cur.runs[keyOf(&h.Runs[i])]; n != nil && sameArtifact(&n.Artifact, &h.Runs[i].Artifact) {
			continue // the same metadata: nothing to fill or count
		}
		older[h.Runs[i].Artifact.ID] = &h.Runs[i].Artifact
	}
	changed := map[string]bool{} // artifact id and field, counted once
	for i := range runs {
		a := &runs[i].Artifact
		o := older[a.ID]
		if o == nil {
			continue
		}
		for _, f := range artifactFields {
			k, ok := f.key(a), f.key(o)
			switch {
			case ok == "":
			case k == "":
				f.copy(a, o)
			case k != ok && f.name != "parents" && !changed[a.ID+"\x00"+f.name]:
				changed[a.ID+"\x00"+f.name] = true
				h.Fields++
			}
		}
	}
}
