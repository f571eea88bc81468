package zscore

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// docGraph is the example of Conbench's Commit.commit_ancestry_query
// docstring (newest at the top):
//
//	G      (main)
//	|  E2  (rebased branch)
//	|  C2
//	| /
//	|/
//	F
//	|  E   (branch)
//	D  |
//	|  C
//	| /
//	|/
//	B
//	A
//
// A rebase keeps the commits' timestamps, so C2 and E2 are older than F:
// ancestry is decided by branch and fork point, not by time alone.
func docGraph() []Commit {
	h := func(n int) time.Time { return time.Date(2024, 1, 1, n, 0, 0, 0, time.UTC) }
	return []Commit{
		{"A", h(1), "main", "A"},
		{"B", h(2), "main", "B"},
		{"C", h(3), "branch", "B"},
		{"D", h(4), "main", "D"},
		{"E", h(5), "branch", "B"},
		{"F", h(6), "main", "F"},
		{"C2", h(3), "branch", "F"},
		{"E2", h(5), "branch", "F"},
		{"G", h(9), "main", "G"},
	}
}

func TestAncestry(t *testing.T) {
	fixture := repoCommits(fakeCommits())
	tests := []struct {
		name     string
		commits  []Commit
		baseline string
		limit    int
		want     []string
	}{
		{"docstring A", docGraph(), "A", 0, []string{"A"}},
		{"docstring B", docGraph(), "B", 0, []string{"B", "A"}},
		{"docstring C", docGraph(), "C", 0, []string{"C", "B", "A"}},
		{"docstring D", docGraph(), "D", 0, []string{"D", "B", "A"}},
		{"docstring E", docGraph(), "E", 0, []string{"E", "C", "B", "A"}},
		{"docstring F", docGraph(), "F", 0, []string{"F", "D", "B", "A"}},
		{"docstring C2", docGraph(), "C2", 0, []string{"C2", "F", "D", "B", "A"}},
		{"docstring E2", docGraph(), "E2", 0, []string{"E2", "C2", "F", "D", "B", "A"}},
		{"docstring G", docGraph(), "G", 0, []string{"G", "F", "D", "B", "A"}},
		{"limit counts commits, branch first", docGraph(), "E2", 3, []string{"E2", "C2", "F"}},
		{"limit inside the branch", docGraph(), "E2", 1, []string{"E2"}},
		{"negative limit means the default", docGraph(), "G", -1, []string{"G", "F", "D", "B", "A"}},
		{
			// Conbench's fixture: the branch rebased onto 44444.
			"fixture fffff", fixture, "fffff", 0,
			[]string{"fffff", "eeeee", "44444", "33333", "22222", "11111"},
		},
		{"fixture 66666", fixture, "66666", 0, []string{"66666", "55555", "44444", "33333", "22222", "11111"}},
		{
			"equal timestamps by id",
			[]Commit{{"b", time.Unix(1, 0), "", "b"}, {"a", time.Unix(1, 0), "", "a"}, {"c", time.Unix(2, 0), "", "c"}}, "c", 0,
			[]string{"c", "a", "b"},
		},
		{
			"first of duplicate ids counts",
			[]Commit{{"x", time.Unix(5, 0), "", "x"}, {"x", time.Unix(1, 0), "", "x"}, {"y", time.Unix(3, 0), "", "y"}}, "y", 0,
			[]string{"y"},
		},
		{
			"commits without time are skipped",
			[]Commit{{"x", time.Time{}, "", "x"}, {"y", time.Unix(3, 0), "", "y"}}, "y", 0,
			[]string{"y"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Ancestry(tt.commits, tt.baseline, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Ancestry(%q) mismatch (-want +got):\n%s", tt.baseline, diff)
			}
		})
	}
}

func TestAncestryLimitDefault(t *testing.T) {
	var commits []Commit
	for i := range 150 {
		id := string(rune('a'+i/26)) + string(rune('a'+i%26))
		commits = append(commits, Commit{id, time.Unix(int64(i), 0), "", id})
	}
	got, err := Ancestry(commits, commits[149].ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != DefaultCommits || got[0] != commits[149].ID || got[99] != commits[50].ID {
		t.Errorf("got %d commits %s…%s, want %d commits %s…%s",
			len(got), got[0], got[len(got)-1], DefaultCommits, commits[149].ID, commits[50].ID)
	}
}

func TestAncestryErrors(t *testing.T) {
	at := time.Unix(10, 0)
	tests := []struct {
		name     string
		commits  []Commit
		baseline string
		want     string
	}{
		{"unknown baseline", docGraph(), "Z", `baseline commit "Z" is unknown`},
		{"empty id", docGraph(), "", `baseline commit "" is unknown`},
		{"no timestamp", []Commit{{ID: "sha"}}, "sha", `baseline commit "sha" has no timestamp`},
		{"no fork point", []Commit{{ID: "x", Time: at}}, "x", `baseline commit "x" has no fork point`},
		{
			"unknown fork point", []Commit{{"x", at, "pr", "gone"}}, "x",
			`fork point "gone" of baseline commit "x" is unknown`,
		},
		{
			"fork point without timestamp", []Commit{{"x", at, "pr", "fp"}, {ID: "fp", ForkPoint: "fp"}}, "x",
			`fork point "fp" of baseline commit "x" has no timestamp`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Ancestry(tt.commits, tt.baseline, 0)
			if err == nil {
				t.Fatalf("Ancestry = %v, want error %q", got, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q, want %q", err, tt.want)
			}
		})
	}
}

func TestGraphReuse(t *testing.T) {
	g := NewGraph(docGraph())
	for _, c := range docGraph() {
		want, _ := Ancestry(docGraph(), c.ID, 4)
		got, err := g.Ancestry(c.ID, 4)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: graph differs from one-off (-one-off +graph):\n%s", c.ID, diff)
		}
	}
}
