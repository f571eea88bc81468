// Package route is the site's URL table: the one definition of the path of
// every page and data file, used by the site model, the templates (through
// the model), the documents that link into the site (report) and the
// site's JavaScript (through [Table.Patterns], embedded in every page). It
// is part of the site model stage (see the architecture section of the
// README).
//
// URLs get pasted into issues, so they are stable: a path depends only on
// the name or id it is built from, never on what else the site holds.
// Names from the data reach paths only through [slug.Name]; a name that
// survives unchanged keeps itself as its path segment, others get a short
// hash. Two inputs must never claim one path: [Table] hands out the
// segments of benchmarks, artifacts and content pages, and when two
// distinct names would share one (a benchmark literally named
// "http-router-4b0e9a36" and one named "http router", a tag "V1.0" and a
// tag "v1.0-<hash>", a benchmark named "index.html", "about.md" and
// "about/index.md") it decides deterministically: the name that is its own
// slug keeps it, the other gets a longer hash; a content page that would
// shadow another page or one of the site's own routes is refused. Every
// such decision is reported as a warning that names the input file.
//
// Paths are site-relative ("commit/<sha>/"); a page's file is the path plus
// "index.html" when the path ends in a slash.
package route

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/slug"
)

// Top-level folders and files of the site's own routes. A content page may
// not take one of these names.
var reserved = []string{
	"assets", "bench", "commit", "commits", "compare", "data", "pr", "prs", "regressions", "triage",
	"404.html", "index.html", "index.xml", "sitemap.xml", "robots.txt", ".nojekyll",
}

// Table assigns path segments to the names and ids of one dataset and
// content folder. Build one with [New]; it is read-only afterwards and
// safe for concurrent use.
type Table struct {
	bench    map[string]string // benchmark name → segment
	legacy   map[string]string // benchmark name → the segment it had before safe names kept theirs
	artifact map[string]string // artifact id → segment
	page     map[string]string // content source → path ("about/"), "" when refused
	// Warnings are the decisions made to keep paths apart, each naming
	// the input that caused it.
	Warnings []error
}

// Input is what a table is built from. Origins name the files the names
// came from, for warnings; a missing origin is reported as "(unknown
// origin)".
type Input struct {
	Benchmarks []Named // benchmark names and their first archive
	Artifacts  []Named // artifact ids and their archive
	Pages      []Named // content pages: Name is the slug ("about", "guide/setup"), Origin the source file
}

// Named is a name from the data and the file it came from.
type Named struct {
	Name, Origin string
}

// New builds the table for in. The assignment depends only on the set of
// names, not on their order.
func New(in Input) *Table {
	t := &Table{bench: map[string]string{}, artifact: map[string]string{}, page: map[string]string{}}
	t.bench = assign("benchmark", in.Benchmarks, benchSlug, []string{"index.html"}, &t.Warnings)
	t.artifact = assign("artifact", in.Artifacts, slug.Artifact, nil, &t.Warnings)
	t.pages(in.Pages)
	// A benchmark whose name is safe as it is used to get the lower-case
	// slug with a hash (slug.Name): its old URL redirects to the new one.
	taken := map[string]bool{"index.html": true}
	for _, seg := range t.bench {
		taken[strings.ToLower(seg)] = true
	}
	t.legacy = map[string]string{}
	for name, seg := range t.bench {
		if old := slug.Name(name); old != seg && !taken[strings.ToLower(old)] {
			t.legacy[name] = old
		}
	}
	return t
}

// benchSlug is a benchmark's path segment: its name when that is safe as
// it is — ASCII letters of either case, digits, '-', '_' and '.', not
// starting with a dot, at most 64 bytes — else slug.Name's.
func benchSlug(name string) string {
	if len(name) == 0 || len(name) > 64 || name[0] == '.' || name == ".." {
		return slug.Name(name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return slug.Name(name)
		}
	}
	return name
}

// LegacyBench lists the benchmarks whose page moved (the old segment by
// name), for redirect pages at the old URLs.
func (t *Table) LegacyBench() map[string]string { return t.legacy }

// assign gives each distinct name a segment. A name whose slug is itself
// ("json-decode", a full sha) keeps it; a name that needed rewriting keeps
// its slug unless that is taken by another name, reserved, or already
// given; then it gets a longer hash of itself, which no clean name can
// equal in practice (and the loop keeps going until it is unique).
func assign(kind string, names []Named, slugOf func(string) string, reserved []string, warnings *[]error) map[string]string {
	byName := map[string]string{} // name → origin (first, by origin order)
	var list []string
	for _, n := range names {
		if o, ok := byName[n.Name]; !ok {
			byName[n.Name] = n.Origin
			list = append(list, n.Name)
		} else if n.Origin != "" && (o == "" || n.Origin < o) {
			byName[n.Name] = n.Origin
		}
	}
	slices.Sort(list)
	out := make(map[string]string, len(list))
	// Segments are told apart without case: a site is also served from
	// file systems that ignore it.
	taken := map[string]string{} // lower-case segment → name
	for _, r := range reserved {
		taken[strings.ToLower(r)] = ""
	}
	// Clean names first: they own their slug.
	for _, name := range list {
		if s := slugOf(name); s == name && !isTaken(taken, s) {
			out[name], taken[strings.ToLower(s)] = s, name
		}
	}
	for _, name := range list {
		if _, ok := out[name]; ok {
			continue
		}
		s := slugOf(name)
		if other, ok := taken[strings.ToLower(s)]; ok {
			why := "a route of the site"
			if other != "" {
				why = fmt.Sprintf("%s %q", kind, other)
			}
			for n := 8; ; n += 4 {
				s2 := longSlug(s, name, n)
				if _, ok := taken[strings.ToLower(s2)]; !ok {
					*warnings = append(*warnings, fmt.Errorf("%s: %s %q would have the URL segment %q of %s; it gets %q instead", origin(byName[name]), kind, name, s, why, s2))
					s = s2
					break
				}
			}
		}
		out[name], taken[strings.ToLower(s)] = s, name
	}
	return out
}

func isTaken(taken map[string]string, s string) bool {
	_, ok := taken[strings.ToLower(s)]
	return ok
}

// longSlug is s (a slug of name) with a hash of name of n hex digits
// instead of its short one.
func longSlug(s, name string, n int) string {
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:])
	if n > len(h) {
		n = len(h)
	}
	// Drop a short hash slug.Name appended, keep the readable part.
	if i := strings.LastIndexByte(s, '-'); i > 0 && len(s)-i-1 == 8 && isHex(s[i+1:]) {
		s = s[:i]
	} else if len(s) == 8 && isHex(s) {
		s = ""
	}
	if s == "" {
		return h[:n]
	}
	return s + "-" + h[:n]
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

func origin(o string) string {
	if o == "" {
		return "(unknown origin)"
	}
	return o
}

// pages claims content pages' paths: the first by source name wins a
// path; a page under one of the site's routes, or on a path another page
// took, is refused with a warning.
func (t *Table) pages(pages []Named) {
	sorted := slices.Clone(pages)
	slices.SortFunc(sorted, func(a, b Named) int { return strings.Compare(a.Origin, b.Origin) })
	owner := map[string]string{}
	for _, p := range sorted {
		first, _, _ := strings.Cut(p.Name, "/")
		switch {
		case p.Name == "" || slices.Contains(reserved, first):
			t.Warnings = append(t.Warnings, fmt.Errorf("%s: the URL /%s/ belongs to the site's own pages; page skipped (rename the file)", origin(p.Origin), p.Name))
			t.page[p.Origin] = ""
		case owner[p.Name] != "":
			t.Warnings = append(t.Warnings, fmt.Errorf("%s: %s already has the URL /%s/; page skipped (rename one of them)", origin(p.Origin), owner[p.Name], p.Name))
			t.page[p.Origin] = ""
		default:
			owner[p.Name] = p.Origin
			t.page[p.Origin] = p.Name + "/"
		}
	}
}

// Page is the path of the content page read from source, or "" when it was
// refused.
func (t *Table) Page(source string) string { return t.page[source] }

// BenchSegment is the path segment of a benchmark.
func (t *Table) BenchSegment(name string) string {
	if s, ok := t.bench[name]; ok {
		return s
	}
	return benchSlug(name)
}

// ArtifactSegment is the path segment of an artifact id: the id itself for
// git object ids.
func (t *Table) ArtifactSegment(id string) string {
	if s, ok := t.artifact[id]; ok {
		return s
	}
	return slug.Artifact(id)
}

// The site's pages and data files: every path is one of these patterns
// with its {placeholders} filled in, by the functions below in Go and by
// the site's script from [Patterns].
const (
	Home        = ""
	BenchIndex  = "bench/"
	TriageIndex = "triage/"
	TriageFeed  = "triage/index.xml"
	NotFound    = "404.html"
	Sitemap     = "sitemap.xml"
	NoJekyll    = ".nojekyll"
	Marker      = ".perfpages-site"
	MetaData    = "data/meta.json"
	// ChartOptions are the options of every kind of chart (go-echarts).
	ChartOptions = "assets/charts.json"

	CommitsIndex = "commits/"
	PRsIndex     = "prs/"
	CompareIndex = "compare/"
	// Regressions lists the open step changes, RegressionsFeed is their
	// Atom feed.
	Regressions     = "regressions/"
	RegressionsFeed = "regressions/feed.xml"

	patCommit       = "commit/{id}/"
	patCommitsPage  = "commits/{page}/"
	patPRsPage      = "prs/{page}/"
	patCompare      = "compare/{base}...{head}/"
	patPR           = "pr/{pr}/"
	patBench        = "bench/{bench}/"
	patTriage       = "triage/{week}/"
	patTriageMD     = "triage/{week}.md"
	patSeriesData   = "data/series/{bench}/{chunk}.json.gz"
	patSeriesIndex  = "data/index/{bench}.json.gz"
	patPackData     = "data/packs/{pack}/{chunk}.json.gz"
	patArtifactData = "data/artifacts/{chunk}.json.gz"
	patRowsData     = "data/rows/{base}...{head}.json.gz"
)

// Patterns are the URL patterns the site's script builds paths with,
// relative to the base path.
func Patterns() map[string]string {
	return map[string]string{
		"commit": patCommit, "compare": patCompare, "pr": patPR, "bench": patBench, "triage": patTriage,
		"series": patSeriesData, "seriesIndex": patSeriesIndex, "pack": patPackData, "artifacts": patArtifactData, "rows": patRowsData, "meta": MetaData, "charts": ChartOptions,
	}
}

// fill replaces {k} by v for each pair of kv.
func fill(pattern string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		pattern = strings.Replace(pattern, "{"+kv[i]+"}", kv[i+1], 1)
	}
	return pattern
}

// Commit is a main-line commit's page.
func (t *Table) Commit(id string) string { return fill(patCommit, "id", t.ArtifactSegment(id)) }

// Compare is the comparison page of two artifacts.
func (t *Table) Compare(base, head string) string {
	return fill(patCompare, "base", t.ArtifactSegment(base), "head", t.ArtifactSegment(head))
}

// CompareForm is the compare form with a pair filled in, for a pair the
// site may not pre-render: its query names the artifacts by id, as the
// form's own fields (base, head) do when it is submitted.
func CompareForm(base, head string) string {
	return CompareIndex + "?" + url.Values{"base": {base}, "head": {head}}.Encode()
}

// CommitsPage is page n (from 1, the oldest commits) of the list of
// commits; PRsPage of PRs.
func CommitsPage(n int) string { return fill(patCommitsPage, "page", strconv.Itoa(n)) }

// PRsPage: see CommitsPage.
func PRsPage(n int) string { return fill(patPRsPage, "page", strconv.Itoa(n)) }

// BenchAt is the page of a benchmark's segment.
func BenchAt(segment string) string { return fill(patBench, "bench", segment) }

// CommitAt is the page at an artifact segment (a short sha's redirect).
func CommitAt(segment string) string { return fill(patCommit, "id", segment) }

// PR is a PR's page.
func PR(n int) string { return fill(patPR, "pr", strconv.Itoa(n)) }

// Bench is a benchmark's page.
func (t *Table) Bench(name string) string { return fill(patBench, "bench", t.BenchSegment(name)) }

// Triage is a week's report (monday as yyyy-mm-dd).
func Triage(monday string) string { return fill(patTriage, "week", monday) }

// TriageMarkdown is a week's report as Markdown.
func TriageMarkdown(monday string) string { return fill(patTriageMD, "week", monday) }

// Asset is a static file of the theme.
func Asset(p string) string { return "assets/" + p }

// SeriesData is a benchmark's series data file of one chunk of main-line
// positions.
func SeriesData(benchSegment string, chunk int) string {
	return fill(patSeriesData, "bench", benchSegment, "chunk", strconv.Itoa(chunk))
}

// PackData is the series data file of a pack of benchmarks of few series
// (shard.Pack), which share their data files, at one chunk.
func PackData(pack, chunk int) string {
	return fill(patPackData, "pack", strconv.Itoa(pack), "chunk", strconv.Itoa(chunk))
}

// SeriesIndex is the index of a benchmark's series (what their rows share).
func SeriesIndex(benchSegment string) string { return fill(patSeriesIndex, "bench", benchSegment) }

// ArtifactData is the data file of the main-line artifacts of one chunk.
func ArtifactData(chunk int) string { return fill(patArtifactData, "chunk", strconv.Itoa(chunk)) }

// RowsData is the rows file of a comparison that is not between
// consecutive main-line commits.
func (t *Table) RowsData(base, head string) string {
	return fill(patRowsData, "base", t.ArtifactSegment(base), "head", t.ArtifactSegment(head))
}

// File is the file a path is written to: index.html inside a folder path.
func File(p string) string {
	if p == "" || strings.HasSuffix(p, "/") {
		return p + "index.html"
	}
	return p
}

// ForDataset returns the input of a table for a dataset: its benchmarks
// and artifacts with the archives they came from.
func ForDataset(d *model.Dataset) Input {
	var in Input
	seen := map[string]bool{}
	for _, s := range d.Series {
		if !seen[s.Case.Benchmark] {
			seen[s.Case.Benchmark] = true
			in.Benchmarks = append(in.Benchmarks, Named{s.Case.Benchmark, s.Origin})
		}
	}
	for i, a := range d.Artifacts {
		in.Artifacts = append(in.Artifacts, Named{a.ID, d.ArtifactOrigin(i)})
	}
	return in
}
