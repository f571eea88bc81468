package source

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/perfpages/perfpages/analysis/model"
)

func TestProjectHistory(t *testing.T) {
	r := newTestRepo(t)
	r.zone = time.FixedZone("CEST", 2*60*60) // dates must come back in UTC
	c1 := r.commit("Initial commit", put("main.go", "package main\n"))
	r.git("checkout", "-q", "-b", "a/b")
	f1 := r.commit("Add parser", put("parser.go", "package main\n"))
	f2 := r.commit("Fix tests\n\nThe tests assumed a map order.", put("parser_test.go", "package main\n"))
	r.git("checkout", "-q", "main")
	c2 := r.commit("Fix parser (#34)\n\n* Fix parser\n* Add test", put("fix.go", "package main\n"))
	m := r.merge("a/b", "Merge pull request #12 from a/b\n\nAdd a faster parser\n\nIt is faster.")
	c3 := r.commit("Update docs\n\nMentions (#99) in the body only.", put("README.md", "docs\n"))

	at := func(hour int) time.Time { return time.Date(2026, 3, 1, hour, 0, 0, 0, time.UTC) }
	commit := func(id string, hour int, parents []string, branch string, pr int, title string) model.Artifact {
		return model.Artifact{ID: id, Kind: model.KindCommit, Date: at(hour), Parents: parents,
			Branch: branch, PR: pr, Title: title, Author: "Ada Author"}
	}
	g := r.open()
	tests := []struct {
		branch string
		want   *History
	}{
		{
			branch: "main",
			want: &History{
				Main: []model.Artifact{
					commit(c1, 9, nil, "main", 0, "Initial commit"),
					commit(c2, 12, []string{c1}, "main", 34, "Fix parser (#34)"),
					commit(m, 13, []string{c2, f2}, "main", 12, "Add a faster parser"),
					commit(c3, 14, []string{m}, "main", 0, "Update docs"),
				},
				Other: []model.Artifact{
					commit(f1, 10, []string{c1}, "", 0, "Add parser"),
					commit(f2, 11, []string{f1}, "", 0, "Fix tests"),
				},
			},
		},
		{
			branch: "refs/heads/a/b",
			want: &History{
				Main: []model.Artifact{
					commit(c1, 9, nil, "a/b", 0, "Initial commit"),
					commit(f1, 10, []string{c1}, "a/b", 0, "Add parser"),
					commit(f2, 11, []string{f1}, "a/b", 0, "Fix tests"),
				},
			},
		},
		{
			branch: "", // HEAD, on main
			want: &History{
				Main: []model.Artifact{
					commit(c1, 9, nil, "main", 0, "Initial commit"),
					commit(c2, 12, []string{c1}, "main", 34, "Fix parser (#34)"),
					commit(m, 13, []string{c2, f2}, "main", 12, "Add a faster parser"),
					commit(c3, 14, []string{m}, "main", 0, "Update docs"),
				},
				Other: []model.Artifact{
					commit(f1, 10, []string{c1}, "", 0, "Add parser"),
					commit(f2, 11, []string{f1}, "", 0, "Fix tests"),
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run("branch "+tt.branch, func(t *testing.T) {
			got, err := g.ProjectHistory(context.Background(), tt.branch)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ProjectHistory(%q) mismatch (-want +got):\n%s", tt.branch, diff)
			}
		})
	}
}

func TestProjectHistoryDetachedHead(t *testing.T) {
	r := newTestRepo(t)
	c1 := r.commit("one")
	r.commit("two")
	r.git("checkout", "-q", "--detach", c1)
	g := r.open()
	got, err := g.ProjectHistory(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Main) != 1 || got.Main[0].ID != c1 || got.Main[0].Branch != "HEAD" {
		t.Errorf("ProjectHistory of a detached HEAD = %+v, want commit %s on branch HEAD", got.Main, c1)
	}
}

func TestTitleAndPR(t *testing.T) {
	tests := []struct {
		name          string
		subject, body string
		wantPR        int
		wantTitle     string
	}{
		{"github merge with title in body", "Merge pull request #12 from a/b", "Add a faster parser\n\nDetails", 12, "Add a faster parser"},
		{"github merge title after blank lines", "Merge pull request #7 from fork/topic", "\n\n  Speed up lexing  \n", 7, "Speed up lexing"},
		{"github merge without body", "Merge pull request #8 from a/b", "", 8, "Merge pull request #8 from a/b"},
		{"squash merge", "Fix parser (#34)", "* Fix parser", 34, "Fix parser (#34)"},
		{"squash merge of a revert", `Revert "Fix parser (#34)" (#40)`, "", 40, `Revert "Fix parser (#34)" (#40)`},
		{"bors auto merge", "Auto merge of #123456 - user:branch, r=reviewer", "Speed up trait selection\n\nLong text", 123456, "Speed up trait selection"},
		{"homu rollup merge", "Rollup merge of #99 - user:fix, r=me", "Fix a typo", 99, "Fix a typo"},
		{"bors without body", "Auto merge of #5 - u:b, r=x", "", 5, "Auto merge of #5 - u:b, r=x"},
		{"plain commit", "Update docs", "Mentions (#99) in the body.", 0, "Update docs"},
		{"number not at the end", "Fix (#34) parser", "", 0, "Fix (#34) parser"},
		{"no space before number", "Fix parser(#34)", "", 0, "Fix parser(#34)"},
		{"merge of a branch", "Merge branch 'main' into feature", "", 0, "Merge branch 'main' into feature"},
		{"huge number ignored", "Fix (#99999999999999999999)", "", 0, "Fix (#99999999999999999999)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, title := TitleAndPR(tt.subject, tt.body)
			if pr != tt.wantPR || title != tt.wantTitle {
				t.Errorf("TitleAndPR(%q, %q) = %d, %q; want %d, %q", tt.subject, tt.body, pr, title, tt.wantPR, tt.wantTitle)
			}
		})
	}
}

func TestParseProjectLog(t *testing.T) {
	const (
		c1 = "1111111111111111111111111111111111111111"
		c2 = "2222222222222222222222222222222222222222"
	)
	tests := []struct {
		name    string
		in      string
		want    []model.Artifact
		wantErr string
	}{
		{name: "empty", in: ""},
		{
			name: "body with anything but NUL",
			in: c2 + "\x00" + c1 + "\x00" + "2026-03-01T10:00:00-05:00\x00Zoë\x00Merge pull request #3 from x/y\x00" +
				"\n\nTitle \x1f odd\n\nmore\n\x00" +
				c1 + "\x00\x002026-03-01T09:00:00Z\x00Bo\x00root\x00\x00",
			want: []model.Artifact{
				{ID: c2, Kind: model.KindCommit, Date: time.Date(2026, 3, 1, 15, 0, 0, 0, time.UTC),
					Parents: []string{c1}, PR: 3, Title: "Title \x1f odd", Author: "Zoë"},
				{ID: c1, Kind: model.KindCommit, Date: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC),
					Title: "root", Author: "Bo"},
			},
		},
		{name: "truncated", in: c1 + "\x00\x002026-03-01T09:00:00Z\x00Bo\x00", wantErr: "ends in the middle of commit"},
		{name: "bad sha", in: "xyz\x00\x002026-03-01T09:00:00Z\x00Bo\x00s\x00b\x00", wantErr: "bad commit id"},
		{name: "bad parent", in: c1 + "\x00nope\x002026-03-01T09:00:00Z\x00Bo\x00s\x00b\x00", wantErr: "bad parent id"},
		{name: "bad date", in: c1 + "\x00\x00yesterday\x00Bo\x00s\x00b\x00", wantErr: "bad committer date"},
		{name: "trailing bytes", in: c1 + "\x00\x002026-03-01T09:00:00Z\x00Bo\x00s\x00b\x00junk", wantErr: "unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []model.Artifact
			err := parseProjectLog(bufioReader(tt.in), func(a model.Artifact) { got = append(got, a) })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
