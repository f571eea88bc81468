package route

import (
	"strings"
	"testing"

	"github.com/perfpages/perfpages/generator/internal/slug"
)

// Names that slug alike get distinct paths, the clean one keeps its own,
// and the other's input is named in a warning.
func TestCollisions(t *testing.T) {
	hashed := slug.Name("http router") // "http-router-4b0e9a36"
	tag := slug.Name("V1.0")           // "v1.0-<hash>"
	tb := New(Input{
		Benchmarks: []Named{{"http router", "results/a.json"}, {hashed, "results/b.json"}, {"index.html", "results/c.json"}, {"json-decode", "results/a.json"}},
		Artifacts:  []Named{{"V1.0", "results/v1.json"}, {tag, "results/v2.json"}, {strings.Repeat("a", 40), "results/x.json"}},
		Pages:      []Named{{"about", "content/about.md"}, {"about", "content/about/index.md"}, {"404.html", "content/404.html.md"}, {"guide/setup", "content/guide/setup.md"}},
	})
	if got := tb.Bench(hashed); got != "bench/"+hashed+"/" {
		t.Errorf("the clean name %q lost its path: %s", hashed, got)
	}
	if got := tb.Bench("http router"); got == tb.Bench(hashed) || !strings.HasPrefix(got, "bench/http-router-") {
		t.Errorf("http router → %s, the same as %s", got, tb.Bench(hashed))
	}
	if got := tb.Bench("index.html"); got == "bench/index.html/" {
		t.Errorf("a benchmark named index.html takes %s, beside the benchmarks' index", got)
	}
	if got := tb.Bench("json-decode"); got != "bench/json-decode/" {
		t.Errorf("json-decode → %s", got)
	}
	if tb.Commit("V1.0") == tb.Commit(tag) {
		t.Errorf("tags V1.0 and %s share %s", tag, tb.Commit(tag))
	}
	if tb.Commit(tag) != "commit/"+tag+"/" {
		t.Errorf("the clean tag lost its path: %s", tb.Commit(tag))
	}
	if got := tb.Page("content/about.md"); got != "about/" {
		t.Errorf("about.md → %q", got)
	}
	if got := tb.Page("content/about/index.md"); got != "" {
		t.Errorf("about/index.md also got %q", got)
	}
	if got := tb.Page("content/404.html.md"); got != "" {
		t.Errorf("404.html.md got %q, shadowing the site's 404 page", got)
	}
	if got := tb.Page("content/guide/setup.md"); got != "guide/setup/" {
		t.Errorf("guide/setup.md → %q", got)
	}
	all := ""
	for _, w := range tb.Warnings {
		all += w.Error() + "\n"
	}
	for _, want := range []string{"results/a.json", "results/c.json", "results/v1.json", "content/about/index.md", "content/404.html.md"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning names %s:\n%s", want, all)
		}
	}
}

// The assignment does not depend on the order of the input.
func TestOrderIndependent(t *testing.T) {
	names := []Named{{"b x", "2"}, {slug.Name("b x"), "1"}, {"a", "3"}, {"B X", "4"}}
	a := New(Input{Benchmarks: names})
	rev := []Named{names[3], names[2], names[1], names[0]}
	b := New(Input{Benchmarks: rev})
	for _, n := range names {
		if a.Bench(n.Name) != b.Bench(n.Name) {
			t.Errorf("%q: %s vs %s", n.Name, a.Bench(n.Name), b.Bench(n.Name))
		}
	}
}

func TestPatterns(t *testing.T) {
	var tb Table
	p := Patterns()
	if got := fill(p["series"], "bench", "x", "chunk", "3"); got != SeriesData("x", 3) {
		t.Errorf("series pattern %q fills to %q, want %q", p["series"], got, SeriesData("x", 3))
	}
	if got := fill(p["pack"], "pack", "7", "chunk", "3"); got != PackData(7, 3) || got != "data/packs/7/3.json.gz" {
		t.Errorf("pack pattern %q fills to %q, want %q", p["pack"], got, PackData(7, 3))
	}
	if got := fill(p["commit"], "id", strings.Repeat("f", 40)); got != tb.Commit(strings.Repeat("f", 40)) {
		t.Errorf("commit pattern %q", got)
	}
}

// FuzzRoutes: no two distinct names of one kind share a path, whatever
// they are, and every path is one safe segment.
func FuzzRoutes(f *testing.F) {
	f.Add("http router", slug.Name("http router"), "index.html", "V1.0", slug.Name("V1.0"))
	f.Add("a", "A", "..", ".", "")
	f.Fuzz(func(t *testing.T, a, b, c, d, e string) {
		names := []string{a, b, c, d, e}
		var in Input
		for i, n := range names {
			in.Benchmarks = append(in.Benchmarks, Named{n, string(rune('a' + i))})
			in.Artifacts = append(in.Artifacts, Named{n, string(rune('a' + i))})
		}
		tb := New(in)
		bench, art := map[string]string{}, map[string]string{}
		for _, n := range names {
			for kind, m := range map[string]map[string]string{"bench": bench, "artifact": art} {
				seg := tb.BenchSegment(n)
				if kind == "artifact" {
					seg = tb.ArtifactSegment(n)
				}
				if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "/\\\x00") {
					t.Fatalf("%s %q: unsafe segment %q", kind, n, seg)
				}
				if kind == "bench" && seg == "index.html" {
					t.Fatalf("benchmark %q takes index.html", n)
				}
				if other, ok := m[seg]; ok && other != n {
					t.Fatalf("%s names %q and %q share %q", kind, other, n, seg)
				}
				m[seg] = n
			}
		}
	})
}
