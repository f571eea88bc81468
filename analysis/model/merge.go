package model

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"maps"
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
// copies of a file, from two files of one commit, from sources that
// overlap. (The versions of one file along a git ref are folded into
// what its newest version says before they reach the builder: see
// FileVersions.) The rules:
//
//  1. Identical results (same samples, iteration counts and error) are
//     merged without a word, wherever they come from.
//  2. Different results are a conflict: a warning, and the first added
//     is kept (sources in configuration order, files by name within a
//     folder). A run is compared with the result held at the time. On a
//     machine that pools runners (BuildOptions.Machines) a commit run on
//     two of them is expected: the first is kept as well, and the
//     dataset notes how many such results there were instead of warning.
//
// Artifact metadata (kind, date, parents, branch, PR, title, author,
// baseline) follows the same idea field by field: values from different
// runs that disagree are settled by value, not by reading order (the
// earliest date, the lowest PR number, otherwise the first in byte order)
// and warned about, except for the fields the project's history supplies
// anyway.

// runSource is where one added run came from.
type runSource struct {
	origin string
	pos    int // its place in the order of all runs (AddAt)
}

// claim is the run whose value a point holds, and where the point is.
type claim struct {
	run int32 // index into Builder.runs
	pt  int32 // index of the point in its seriesBuild
}

// sameResult reports whether p holds exactly r's values.
func sameResult(p *Point, r *Result) bool {
	return p.Failure() == r.Error && sameFloats(p.Samples(), r.Samples) && sameFloats(p.Iters(), r.Iters) && sameSummary(p.Summary(), r.Summary)
}

// resultSum is a hash of what sameResult compares of r, for a series
// whose points a builder does not hold (BuildOptions.Keep): two results
// with the same sum are taken as the same. A 64-bit hash makes two
// different results look the same once in 2⁶⁴ comparisons; the cost of
// that is a conflict not warned about in a shard alone.
func resultSum(r *Result) uint64 {
	var h maphash.Hash
	h.SetSeed(sumSeed)
	var buf [8]byte
	word := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	floats := func(xs []float64) {
		word(uint64(len(xs)))
		for _, x := range xs {
			word(math.Float64bits(x))
		}
	}
	floats(r.Samples)
	floats(r.Iters)
	if s := r.Summary; s != nil {
		word(1)
		floats([]float64{s.Mean, s.StdDev})
		word(uint64(s.N))
	} else {
		word(0)
	}
	h.WriteString(r.Error)
	return h.Sum64()
}

// sumSeed seeds resultSum: sums are compared within a build, never kept.
var sumSeed = maphash.MakeSeed()

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

// duplicate settles result r of run ri against the run held in c (rules
// 1 and 2 above). The duplicates of one file against one other are one
// warning (flushDuplicates): two files that hold the same commits and
// machine — a data.js per runner read without {machine} in the source's
// pattern — collide on every result, and one warning that says so and how
// to tell them apart serves the reader better than thousands.
func (b *Builder) duplicate(sb *seriesBuild, art int, c claim, ri int32, r *Result) {
	if sb.skeleton && sb.sums[c.pt] == resultSum(r) || !sb.skeleton && sameResult(sb.point(c.pt), r) {
		return
	}
	if n, ok := b.pooled[sb.s.Key.Machine]; ok {
		b.pooled[sb.s.Key.Machine] = n + 1 // a commit run on two runners of a pool: expected
		return
	}
	k := [2]string{b.runs[ri].origin, b.runs[c.run].origin}
	g := b.dups[k]
	if g == nil {
		if b.dups == nil {
			b.dups = map[[2]string]*dupGroup{}
		}
		g = &dupGroup{pos: b.pos, example: fmt.Sprintf("%s %s on %s at %s", r.Case, sb.s.Key.Metric, sb.s.Key.Machine, b.order[art])}
		b.dups[k] = g
	}
	g.n++
}

// dupGroup is the duplicates of one file against another: how many, the
// first, and the position of the run it came with.
type dupGroup struct {
	n       int
	pos     int
	example string
}

// flushDuplicates makes the duplicates found so far warnings, one per
// pair of files, in the order of their first.
func (b *Builder) flushDuplicates() {
	for _, k := range slices.SortedFunc(maps.Keys(b.dups), func(x, y [2]string) int {
		return cmp.Or(cmp.Compare(b.dups[x].pos, b.dups[y].pos), cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
	}) {
		g, dup, first := b.dups[k], k[0], k[1]
		var err error
		if g.n == 1 {
			err = fmt.Errorf("%s: duplicate result for %s (first in %s); keeping the first", dup, g.example, first)
		} else {
			err = fmt.Errorf("%s: %d duplicate results of %s, such as %s; keeping the first. Files that hold the same commits on the same machine are usually two runners' results: give each its machine (a {machine} placeholder in the source's artifact pattern, such as \"{machine}/data.js\", or the machine in the archives)", dup, g.n, first, g.example)
		}
		b.warnings = append(b.warnings, posWarning{g.pos, err})
	}
	b.dups = nil
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
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

// artifactClaim is what one run says about an artifact (runs that say
// the same are one claim).
type artifactClaim struct {
	run int32 // the first run that made the claim
	a   Artifact
}

// claimArtifact records what run ri says about its artifact.
func (b *Builder) claimArtifact(ri int32, a Artifact) {
	if _, ok := b.origin[a.ID]; !ok {
		b.origin[a.ID] = b.runs[ri].origin
		b.claims[a.ID] = nil
	}
	claims := b.claims[a.ID]
	for i := range claims {
		if sameArtifact(&claims[i].a, &a) {
			return
		}
	}
	b.claims[a.ID] = append(claims, artifactClaim{run: ri, a: a})
}

func sameArtifact(x, y *Artifact) bool {
	for _, f := range artifactFields {
		if f.key(x) != f.key(y) {
			return false
		}
	}
	return true
}

// disagreement counts the artifacts whose archives disagree on one field,
// with the first of them: one cause, warned once (disagreements warns).
type disagreement struct {
	n       int
	example string
}

// resolveArtifact merges the claims about artifact id (see the rules
// above); h is what the project history knows of it, if anything. A
// disagreement is counted in found, by field.
func (b *Builder) resolveArtifact(id string, h *Artifact, found map[string]*disagreement) Artifact {
	claims := b.claims[id]
	a := Artifact{ID: id}
	for _, field := range artifactFields {
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
			origin := b.runs[c.run].origin
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
		chain := false // the parents are parts of one chain (see below)
		if field.name == "parents" && len(values) > 1 {
			for i, v := range values {
				p := v.c.a.Parents[0]
				if !slices.ContainsFunc(values, func(w value) bool {
					return w.c != v.c && !b.claimedAncestor(w.c.a.Parents[0], p, id)
				}) && !b.claimedAncestor(id, p, "") {
					values[0], values[i], chain = values[i], values[0], true
					break
				}
			}
		}
		field.copy(&a, &values[0].c.a)
		if len(values) == 1 || chain || h != nil && field.history != nil && field.history(h) {
			continue
		}
		var list []string
		for _, v := range values {
			list = append(list, field.show(&v.c.a)+" in "+v.origin)
		}
		d := found[field.name]
		if d == nil {
			d = &disagreement{example: fmt.Sprintf("artifact %s: archives disagree on its %s: %s; using %s, the %s", id, field.name, strings.Join(list, ", "), field.show(&a), field.rule)}
			found[field.name] = d
		}
		d.n++
	}
	return a
}

// The parents of an artifact that runs disagree on. github-action-benchmark
// records none: each entry gets the entry before it in its own data.js
// (package foreign), and the data.js files of several runners or suites
// (planetarium/libplanet's six, awslabs/mountpoint-s3's nineteen) list
// different parts of the main line — a job skipped, failed or added later
// — so that for one commit they name different earlier commits, each
// right as far as its file goes. When one candidate descends from all the
// others along the parents the runs claim, and does not itself descend
// from the commit, it is the nearest and the truest, and the candidates
// are parts of one chain: no disagreement (resolveArtifact). Others warn,
// and are settled by the field's rule: the action appends entries in the
// order its jobs finish, so two runners can list two commits in opposite
// orders, each claiming the other as parent. (Dates cannot say which is
// nearest: the action dates an entry by its commit's author date, which
// can go backwards; taking the latest made cycles of libplanet's main
// line.)

// claimedAncestor reports whether artifact anc is from, or an ancestor of
// it along the parents any run claims, looking at most maxAncestors
// artifacts back, and never through artifact not (the one whose parents
// are being settled: its own claims are what is in question).
func (b *Builder) claimedAncestor(anc, from, not string) bool {
	const maxAncestors = 1000
	if from == not {
		return false
	}
	seen := map[string]bool{from: true, not: true}
	queue := []string{from}
	for len(queue) > 0 && len(seen) <= maxAncestors {
		id := queue[0]
		queue = queue[1:]
		if id == anc {
			return true
		}
		for _, c := range b.claims[id] {
			for _, p := range c.a.Parents {
				if !seen[p] {
					seen[p] = true
					queue = append(queue, p)
				}
			}
		}
	}
	return false
}

// disagreements warns once per field the archives disagree on: the
// artifact's own message when it is the only one, else how many and the
// first (files that each make up a field — github-action-benchmark gives
// each commit the previous entry of its own data.js as parent — disagree
// on hundreds of commits for one reason).
func (b *Builder) disagreements(found map[string]*disagreement) {
	for _, field := range artifactFields {
		d := found[field.name]
		switch {
		case d == nil:
		case d.n == 1:
			b.warnf("%s", d.example)
		default:
			b.warnf("archives disagree on the %s of %d artifacts, each settled by its rule (e.g. %s)", field.name, d.n, d.example)
		}
	}
}
