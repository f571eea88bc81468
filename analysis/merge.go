package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// How the Builder settles results and artifact metadata that several runs
// give.
//
// The same result (series × artifact) may arrive more than once: from
// every version of a file along a results branch's history, from copies
// of a file, from a github-action-benchmark data.js whose every version
// repeats the whole history. The rules:
//
//  1. Identical results (same samples, iteration counts and error) are
//     merged without a word, wherever they come from.
//  2. Versions of one file ([Version] with the same File): the newest
//     version's result is used, whatever order the runs are added in. That
//     is a correction, not a problem: it is a note (Dataset.Notes), one per
//     file, and so does not fail a strict build. A result that only older
//     versions hold is kept, with a note too.
//  3. Different results from different files are a conflict: a warning,
//     and the first added is kept (sources in configuration order, files
//     by name within a folder, oldest first along a git ref). A run is
//     compared with the result held at the time, so a third file that
//     agrees with a version since superseded goes unmentioned. Two paths
//     on a results branch are two files, even when one replaced the
//     other (git log runs with --no-renames).
//
// Artifact metadata (kind, date, parents, branch, PR, title, author,
// baseline) follows the same idea field by field: within one file the
// newest version that sets a field wins; values from different files that
// disagree are settled by value, not by reading order (the earliest date,
// the lowest PR number, otherwise the first in byte order) and warned
// about, except for the fields the project's history supplies anyway.

// Version places a run among the versions of one stored file.
type Version struct {
	// File names the file the same way in all its versions (a path in a
	// git repository's history, say); "" for a file with no other
	// versions.
	File string
	// Seq orders the versions of File: a larger Seq is newer.
	Seq int
}

// runSource is where one added run came from.
type runSource struct {
	origin string
	v      Version
	pos    int // its place in the order of all runs (AddVersionAt)
}

// claim is the run whose value a point holds, and where the point is.
type claim struct {
	run int32 // index into Builder.runs
	pt  int32 // index of the point in its seriesBuild
}

// fileState gathers what the versions of one file did, for its note.
type fileState struct {
	old       bool  // restored by ResumeBuilder
	newest    int32 // run index of the newest version added
	several   bool  // versions with different Seq were added
	changed   int   // results a version changed relative to another
	changedEx string
	fields    int // artifact fields a version changed
	kept      int // results only older versions hold
	keptEx    string
}

// file returns the state of v's file, noting run ri as one of its
// versions.
func (b *Builder) file(v Version, ri int32) *fileState {
	f := b.files[v.File]
	if f == nil {
		f = &fileState{newest: ri}
		b.files[v.File] = f
	}
	if seq := b.runs[f.newest].v.Seq; v.Seq != seq {
		f.several = true
		if v.Seq > seq {
			f.newest = ri
		}
	}
	return f
}

// sameResult reports whether p holds exactly r's values.
func sameResult(p *Point, r *Result) bool {
	return p.Error == r.Error && sameFloats(p.Samples, r.Samples) && sameFloats(p.Iters, r.Iters) && sameSummary(p.Summary, r.Summary)
}

func sameSummary(x, y *SampleSummary) bool {
	if x == nil || y == nil {
		return x == y
	}
	return sameFloats([]float64{x.Mean, x.StdDev}, []float64{y.Mean, y.StdDev}) && x.N == y.N
}

func sameFloats(x, y []float64) bool {
	return slices.EqualFunc(x, y, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
}

// minExample keeps the smaller of two examples, so that the one a note
// shows does not depend on the order runs are added in.
func minExample(have *string, s string) {
	if *have == "" || s < *have {
		*have = s
	}
}

// duplicate settles result r of run ri against the run held in c (rules 1
// to 3 above).
func (b *Builder) duplicate(sb *seriesBuild, art int, c claim, ri int32, r *Result) {
	rk := resultKey{sb.s, art}
	p := sb.point(c.pt)
	held, cur := b.runs[c.run], b.runs[ri]
	same := sameResult(p, r)
	switch {
	case cur.v.File != "" && cur.v.File == held.v.File && cur.v.Seq != held.v.Seq:
		older, newer := held, cur
		if cur.v.Seq < held.v.Seq {
			older, newer = cur, held
		}
		if !same {
			f := b.files[cur.v.File]
			f.changed++
			minExample(&f.changedEx, fmt.Sprintf("%s %s on %s at %s, %s in %s", r.Case, rk.series.Key.Metric, rk.series.Key.Machine, shortID(b.order[rk.artifact]), showResult(p, r, cur == newer), older.origin))
		}
		if cur == newer {
			p.Samples, p.Iters, p.Error, p.Summary = r.Samples, r.Iters, r.Error, r.Summary
			sb.reduce(p)
			sb.runs[c.pt] = ri
		}
	case same:
	default:
		b.warnf("%s: duplicate result for %s %s on %s at %s (first in %s); keeping the first", cur.origin, r.Case, rk.series.Key.Metric, rk.series.Key.Machine, b.order[rk.artifact], held.origin)
	}
}

// showResult describes the older of the point and the result: what a
// newer version changed.
func showResult(p *Point, r *Result, pointIsOlder bool) string {
	samples, errText := r.Samples, r.Error
	if pointIsOlder {
		samples, errText = p.Samples, p.Error
	}
	if errText != "" {
		return "error " + strconv.Quote(errText)
	}
	parts := make([]string, 0, min(len(samples), 4))
	for i, x := range samples {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return "was [" + strings.Join(parts, " ") + "]"
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// keptOlder counts, per file, the results that only older versions of it
// hold: their claim is not the file's newest version.
func (b *Builder) keptOlder() {
	multi := false
	for _, f := range b.files {
		multi = multi || f.several
	}
	if !multi {
		return
	}
	for _, sb := range b.series {
		for pt, run := range sb.runs {
			v := b.runs[run].v
			if v.File == "" {
				continue
			}
			f := b.files[v.File]
			if v.Seq < b.runs[f.newest].v.Seq {
				f.kept++
				minExample(&f.keptEx, fmt.Sprintf("%s %s on %s at %s, in %s", sb.s.Case, sb.s.Key.Metric, sb.s.Key.Machine, shortID(b.order[sb.point(int32(pt)).Artifact]), b.runs[run].origin))
			}
		}
	}
}

// notes are the files' notes, sorted.
func (b *Builder) notes() []string {
	b.keptOlder()
	var notes []string
	for _, f := range b.files {
		newest := b.runs[f.newest].origin
		if f.changed > 0 {
			notes = append(notes, fmt.Sprintf("%s: the newest version of the file corrects %s of older versions (e.g. %s); using the newest",
				newest, plural(f.changed, "result"), f.changedEx))
		}
		if f.fields > 0 {
			notes = append(notes, fmt.Sprintf("%s: versions of the file give different artifact metadata (%s); using the newest version's",
				newest, plural(f.fields, "field")))
		}
		if f.kept > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s only older versions of the file hold are kept (e.g. %s)",
				newest, plural(f.kept, "result"), f.keptEx))
		}
	}
	slices.Sort(notes)
	return notes
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// artifactField is one field of Artifact, for merging.
type artifactField struct {
	name string
	// key is the value in a form that compares (equal and ordered) as the
	// rule wants; "" when the field is not set.
	key  func(*Artifact) string
	show func(*Artifact) string
	copy func(dst, src *Artifact)
	// rule says which of conflicting values is kept: the smallest key.
	rule string
	// history is set for fields the project history overrides when it
	// knows the commit, so conflicts about them need no warning.
	history func(h *Artifact) bool
}

func stringField(name string, get func(*Artifact) *string, history bool) artifactField {
	f := artifactField{
		name: name,
		key:  func(a *Artifact) string { return *get(a) },
		show: func(a *Artifact) string { return strconv.Quote(*get(a)) },
		copy: func(dst, src *Artifact) { *get(dst) = *get(src) },
		rule: "first in byte order",
	}
	if history {
		f.history = func(h *Artifact) bool { return *get(h) != "" }
	}
	return f
}

// dateKey orders as time does (UTC, fixed width).
const dateKey = "2006-01-02T15:04:05.000000000Z"

var artifactFields = [...]artifactField{
	{
		name: "kind", rule: "first in byte order",
		key:  func(a *Artifact) string { return string(a.Kind) },
		show: func(a *Artifact) string { return string(a.Kind) },
		copy: func(dst, src *Artifact) { dst.Kind = src.Kind },
	},
	{
		name: "date", rule: "earliest",
		key: func(a *Artifact) string {
			if a.Date.IsZero() {
				return ""
			}
			return a.Date.UTC().Format(dateKey)
		},
		show:    func(a *Artifact) string { return a.Date.Format(time.RFC3339) },
		copy:    func(dst, src *Artifact) { dst.Date = src.Date },
		history: func(h *Artifact) bool { return !h.Date.IsZero() },
	},
	{
		name: "parents", rule: "first in byte order",
		key:     func(a *Artifact) string { return strings.Join(a.Parents, " ") },
		show:    func(a *Artifact) string { return "[" + strings.Join(a.Parents, " ") + "]" },
		copy:    func(dst, src *Artifact) { dst.Parents = src.Parents },
		history: func(h *Artifact) bool { return len(h.Parents) > 0 },
	},
	stringField("branch", func(a *Artifact) *string { return &a.Branch }, false),
	{
		name: "pr", rule: "lowest",
		key: func(a *Artifact) string {
			if a.PR == 0 {
				return ""
			}
			return fmt.Sprintf("%020d", a.PR)
		},
		show:    func(a *Artifact) string { return strconv.Itoa(a.PR) },
		copy:    func(dst, src *Artifact) { dst.PR = src.PR },
		history: func(h *Artifact) bool { return h.PR != 0 },
	},
	stringField("title", func(a *Artifact) *string { return &a.Title }, true),
	stringField("author", func(a *Artifact) *string { return &a.Author }, false),
	stringField("baseline", func(a *Artifact) *string { return &a.Baseline }, false),
}

// artifactClaim is what one file (all its versions), or one run not
// from a versioned file, says about an artifact.
type artifactClaim struct {
	run int32 // the newest run that made the claim
	a   Artifact
	// from is, per field, the run the value came from.
	from [len(artifactFields)]int32
}

// claimArtifact records what run ri says about its artifact.
func (b *Builder) claimArtifact(ri int32, a Artifact) {
	if _, ok := b.origin[a.ID]; !ok {
		b.origin[a.ID] = b.runs[ri].origin
		b.claims[a.ID] = nil
	}
	claims := b.claims[a.ID]
	v := b.runs[ri].v
	if v.File == "" {
		for i := range claims {
			if b.runs[claims[i].run].v.File == "" && sameArtifact(&claims[i].a, &a) {
				return
			}
		}
	} else if i := slices.IndexFunc(claims, func(c artifactClaim) bool { return b.runs[c.run].v.File == v.File }); i >= 0 {
		b.mergeVersion(&claims[i], ri, &a)
		return
	}
	c := artifactClaim{run: ri, a: a}
	for f := range c.from {
		c.from[f] = ri
	}
	b.claims[a.ID] = append(claims, c)
}

// mergeVersion merges what run ri, a version of c's file, says about the
// artifact into c: per field, the newest version that sets it wins.
func (b *Builder) mergeVersion(c *artifactClaim, ri int32, a *Artifact) {
	seq := b.runs[ri].v.Seq
	if seq > b.runs[c.run].v.Seq {
		c.run = ri
	}
	for f, field := range artifactFields {
		k := field.key(a)
		if k == "" {
			continue
		}
		have, from := field.key(&c.a), b.runs[c.from[f]].v.Seq
		switch {
		case have == "":
			field.copy(&c.a, a)
			c.from[f] = ri
		case have == k:
			if seq > from {
				c.from[f] = ri
			}
		default:
			b.files[b.runs[ri].v.File].fields++
			if seq > from {
				field.copy(&c.a, a)
				c.from[f] = ri
			}
		}
	}
}

func sameArtifact(x, y *Artifact) bool {
	for _, f := range artifactFields {
		if f.key(x) != f.key(y) {
			return false
		}
	}
	return true
}

// resolveArtifact merges the claims about artifact id (see the rules
// above); h is what the project history knows of it, if anything.
func (b *Builder) resolveArtifact(id string, h *Artifact) Artifact {
	claims := b.claims[id]
	a := Artifact{ID: id}
	for f, field := range artifactFields {
		type value struct {
			c      *artifactClaim
			origin string
		}
		var values []value
		for i := range claims {
			c := &claims[i]
			k := field.key(&c.a)
			if k == "" {
				continue
			}
			origin := b.runs[c.from[f]].origin
			j := slices.IndexFunc(values, func(v value) bool { return field.key(&v.c.a) == k })
			switch {
			case j < 0:
				values = append(values, value{c, origin})
			case origin < values[j].origin:
				values[j].origin = origin
			}
		}
		if len(values) == 0 {
			continue
		}
		slices.SortFunc(values, func(x, y value) int { return strings.Compare(field.key(&x.c.a), field.key(&y.c.a)) })
		field.copy(&a, &values[0].c.a)
		if len(values) == 1 || h != nil && field.history != nil && field.history(h) {
			continue
		}
		var list []string
		for _, v := range values {
			list = append(list, field.show(&v.c.a)+" in "+v.origin)
		}
		b.warnf("artifact %s: archives disagree on its %s: %s; using %s, the %s", id, field.name, strings.Join(list, ", "), field.show(&a), field.rule)
	}
	return a
}
