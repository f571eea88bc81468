package source

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// History is the benchmarked project's history along a branch.
type History struct {
	// Main is the branch's first-parent chain, oldest first: the commits
	// the branch itself moved through.
	Main []model.Artifact
	// Other holds the commits reachable from the branch that are not on
	// its first-parent chain (the commits of merged PR branches), oldest
	// first. Their Branch is empty.
	Other []model.Artifact
}

// ProjectHistory reads the history of branch ("" for HEAD) with one git
// log. Every artifact has ID = full sha, Kind = commit, Date = committer
// date in UTC, Parents = full parent shas, Author = author name, and Title
// and PR read from the message as GitHub and bors write it:
//
//   - "Merge pull request #N from owner/branch": PR N, Title the first
//     non-empty line of the body (GitHub puts the PR title there), else the
//     subject;
//   - "Auto merge of #N - user:branch, r=…" and "Rollup merge of #N - …"
//     (bors, homu): PR N, Title the body's first non-empty line;
//   - a subject ending in " (#N)" (a squash merge): PR N, Title the
//     subject, suffix kept, as rustc-perf's triage shows it;
//   - otherwise PR 0 and Title the subject.
//
// Main artifacts have Branch = branch (without "refs/heads/").
func (g *Git) ProjectHistory(ctx context.Context, branch string) (*History, error) {
	tip, err := g.resolve(ctx, branch)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(branch, "refs/heads/")
	if branch == "" {
		name, err = g.currentBranch(ctx)
		if err != nil {
			return nil, err
		}
	}
	if err := g.checkComplete(ctx, branch, tip); err != nil {
		return nil, err
	}
	// Newest first, never a parent before its child: reversed, it is
	// oldest first with parents first.
	var all []model.Artifact
	args := []string{"log", "-z", "--no-color", "--encoding=UTF-8", "--date-order",
		"--format=%H%x00%P%x00%cI%x00%an%x00%s%x00%b", tip}
	err = g.stream(ctx, args, func(r *bufio.Reader) error {
		return parseProjectLog(r, func(a model.Artifact) { all = append(all, a) })
	})
	if err != nil {
		return nil, err
	}
	slices.Reverse(all)

	byID := make(map[string]int, len(all))
	for i, a := range all {
		byID[a.ID] = i
	}
	onMain := map[string]bool{}
	var chain []int
	for id := tip; ; {
		i, ok := byID[id]
		if !ok || onMain[id] {
			break
		}
		onMain[id] = true
		chain = append(chain, i)
		if len(all[i].Parents) == 0 {
			break
		}
		id = all[i].Parents[0]
	}
	h := &History{Main: make([]model.Artifact, 0, len(chain)), Other: make([]model.Artifact, 0, len(all)-len(chain))}
	for _, i := range slices.Backward(chain) {
		a := all[i]
		a.Branch = name
		h.Main = append(h.Main, a)
	}
	for _, a := range all {
		if !onMain[a.ID] {
			h.Other = append(h.Other, a)
		}
	}
	return h, nil
}

// currentBranch names the branch HEAD is on, or "HEAD" when detached.
func (g *Git) currentBranch(ctx context.Context) (string, error) {
	out, err := g.output(ctx, "rev-parse", "--abbrev-ref", "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// projectFields is the number of NUL-terminated fields per commit of
// ProjectHistory's log format.
const projectFields = 6

// parseProjectLog reads the output of
//
//	git log -z --format=%H%x00%P%x00%cI%x00%an%x00%s%x00%b
//
// as it comes: six NUL-terminated fields per commit, which is unambiguous
// since no field can hold a NUL. It calls fn for each commit.
func parseProjectLog(r *bufio.Reader, fn func(model.Artifact)) error {
	var f [projectFields]string
	for n := 0; ; n++ {
		for i := range f {
			tok, err := r.ReadString(0)
			if err == io.EOF {
				if i == 0 && tok == "" {
					return nil
				}
				if i == 0 {
					return fmt.Errorf("git log output: unexpected %q after %d commits", truncate(tok), n)
				}
				return fmt.Errorf("git log output ends in the middle of commit %s", f[0])
			}
			if err != nil {
				return err
			}
			f[i] = tok[:len(tok)-1]
		}
		a, err := projectArtifact(f)
		if err != nil {
			return fmt.Errorf("git log output: %w", err)
		}
		fn(a)
	}
}

// projectArtifact builds the artifact for one commit's fields.
func projectArtifact(f [projectFields]string) (model.Artifact, error) {
	sha := strings.TrimLeft(f[0], "\n")
	if !isObjectID(sha) {
		return model.Artifact{}, fmt.Errorf("bad commit id %q", truncate(sha))
	}
	var parents []string
	for _, p := range strings.Fields(f[1]) {
		if !isObjectID(p) {
			return model.Artifact{}, fmt.Errorf("commit %s: bad parent id %q", sha, truncate(p))
		}
		parents = append(parents, p)
	}
	date, err := time.Parse(time.RFC3339, f[2])
	if err != nil {
		return model.Artifact{}, fmt.Errorf("commit %s: bad committer date %q", sha, truncate(f[2]))
	}
	subject := clean(f[4])
	pr, title := TitleAndPR(subject, f[5])
	return model.Artifact{
		ID:      sha,
		Kind:    model.KindCommit,
		Date:    date.UTC(),
		Parents: parents,
		PR:      pr,
		Title:   title,
		Author:  clean(f[3]),
	}, nil
}

var (
	githubMerge = regexp.MustCompile(`^Merge pull request #([0-9]+) from \S`)
	borsMerge   = regexp.MustCompile(`^(?:Auto|Rollup) merge of #([0-9]+) - `)
	squashMerge = regexp.MustCompile(` \(#([0-9]+)\)$`)
)

// TitleAndPR reads the PR number and title from a commit message, as
// GitHub ("Merge pull request #N from …", squash "… (#N)") and bors
// ("Auto merge of #N - …") write them; 0 and the subject otherwise.
func TitleAndPR(subject, body string) (int, string) {
	if m := githubMerge.FindStringSubmatch(subject); m != nil {
		return PRNumber(m[1]), firstNonEmpty(body, subject)
	}
	if m := borsMerge.FindStringSubmatch(subject); m != nil {
		return PRNumber(m[1]), firstNonEmpty(body, subject)
	}
	if m := squashMerge.FindStringSubmatch(subject); m != nil {
		return PRNumber(m[1]), subject
	}
	return 0, subject
}

// PRNumber parses a PR number, 0 when it is not one.
func PRNumber(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<31-1 {
		return 0
	}
	return n
}

// firstNonEmpty is the first non-blank line of body, else fallback.
func firstNonEmpty(body, fallback string) string {
	for line := range strings.Lines(body) {
		if s := clean(line); s != "" {
			return s
		}
	}
	return fallback
}

// clean trims space and replaces invalid UTF-8, which a commit made with a
// legacy encoding may hold.
func clean(s string) string {
	return strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
}
