package source

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// Versions returns every version of every archive file under dir (a
// folder relative to the repository root, "" for all) along ref's history
// ("" for HEAD), unread: each distinct blob of a path once, in commit order
// oldest first and by path within a commit, with its Blob and Size, so
// that a caller reads only the blobs it has not seen ([Git.ReadBlobs]).
// Files that a nightly job overwrote in later commits, and files deleted
// since, therefore still count; a blob committed again at its path is
// returned once. A nil isArchive accepts every path.
//
// File.Version orders the versions of one path: it is the position along
// the log (1 for the oldest commit) of the last commit that wrote the blob
// to that path, so that of two versions the one the ref's tip (or the
// latest commit before the file's deletion) has is the newest, even when
// a commit brought back an older blob. A merge counts as writing what it
// takes from one side (-m diffs it against each parent), so the version a
// merge keeps is newer than both sides'. File.Tip marks the version the
// ref's tip has at the path: a path none of whose versions is the tip's
// was deleted since.
//
// Every commit reachable from ref is searched, merged branches and merge
// commits included; a parent comes before its children, and commits are
// otherwise in commit-date order. Symbolic links and submodules are
// skipped. Origin is "<ref>@<short commit>:<path>", Artifact is empty (the
// commit belongs to the results branch, not to the benchmarked project).
// A blob over g.MaxFileBytes has Err set: the caller reports it and does
// not read it.
func (g *Git) Versions(ctx context.Context, ref, dir string, isArchive func(string) bool) ([]File, error) {
	pathspec, err := historyPathspec(dir)
	if err != nil {
		return nil, fmt.Errorf("git repository %s: %w", g.dir, err)
	}
	sha, err := g.resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	if ref == "" {
		ref = "HEAD"
	}
	if err := g.checkComplete(ctx, ref, sha); err != nil {
		return nil, err
	}
	args := []string{"log", "-z", "--no-color", "--format=%H",
		"--raw", "--no-abbrev", "--no-renames", "--diff-filter=AMT",
		"--root", "-m", "--full-history", "--date-order", "--reverse", sha}
	if pathspec != "" {
		args = append(args, "--", pathspec)
	}
	var versions []rawEntry
	type version struct{ path, blob string }
	seen := map[version]int{} // → index in versions
	err = g.stream(ctx, args, func(r *bufio.Reader) error {
		return parseRawLog(r, func(e rawEntry) {
			if i, ok := seen[version{e.path, e.blob}]; ok {
				versions[i].seq = e.seq
				return
			}
			if isArchive != nil && !isArchive(e.path) {
				return
			}
			seen[version{e.path, e.blob}] = len(versions)
			versions = append(versions, e)
		})
	})
	if err != nil {
		return nil, err
	}
	if len(versions) == 0 {
		return nil, nil
	}
	tip, err := g.tree(ctx, sha, pathspec)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(versions))
	for i, v := range versions {
		ids[i] = v.blob
	}
	sizes, err := g.sizes(ctx, ids)
	if err != nil {
		return nil, err
	}
	limit := capped.Or(g.MaxFileBytes)
	files := make([]File, len(versions))
	for i, v := range versions {
		files[i] = File{
			Name:    v.path,
			Origin:  ref + "@" + short(v.commit) + ":" + v.path,
			Version: v.seq,
			Blob:    v.blob,
			Tip:     tip[v.path] == v.blob,
		}
		files[i].Size, files[i].Err = fileSize(v.blob, sizes[i], limit)
	}
	return files, nil
}

// tree returns the blob of every regular file under pathspec ("" for
// all) in commit sha's tree, by path.
func (g *Git) tree(ctx context.Context, sha, pathspec string) (map[string]string, error) {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", sha}
	if pathspec != "" {
		args = append(args, "--", pathspec)
	}
	out, err := g.output(ctx, args...)
	if err != nil {
		return nil, err
	}
	blobs := map[string]string{}
	for _, line := range strings.Split(string(out), "\x00") {
		if line == "" {
			continue
		}
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || !isObjectID(f[2]) {
			return nil, fmt.Errorf("git ls-tree in %s: unexpected line %q", g.dir, truncate(line))
		}
		if f[1] == "blob" {
			blobs[path] = f[2]
		}
	}
	return blobs, nil
}

// historyPathspec turns History's folder into a git pathspec: relative to
// the repository root wherever git runs, and literal, so that '*' or ':'
// in a folder name mean nothing special.
func historyPathspec(dir string) (string, error) {
	p := strings.ReplaceAll(dir, "\\", "/")
	if strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("path %q must be relative to the repository root", dir)
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("path %q is outside the repository", dir)
	}
	if p == "." {
		return "", nil
	}
	return ":(top,literal)" + p, nil
}

// rawEntry is a file version that a commit added or changed; seq is the
// commit's position in the log, from 1.
type rawEntry struct {
	commit, path, blob string
	seq                int
}

// parseRawLog reads the output of
//
//	git log -z --format=%H --raw --no-abbrev --no-renames
//
// and calls fn for every regular file a commit added or changed, in the
// log's commit order and by path within a commit. It reads the output as it
// comes, one NUL-terminated token at a time: a commit id (preceded by a
// newline after the first), then pairs of ":<modes> <ids> <status>" and a
// path. Deletions, symbolic links and submodules are left out.
func parseRawLog(r *bufio.Reader, fn func(rawEntry)) error {
	var commit string
	seq := 0
	var batch []rawEntry
	flush := func() {
		slices.SortStableFunc(batch, func(a, b rawEntry) int { return strings.Compare(a.path, b.path) })
		for _, e := range batch {
			fn(e)
		}
		batch = batch[:0]
	}
	for {
		tok, err := r.ReadString(0)
		if err == io.EOF {
			if strings.TrimLeft(tok, "\n") != "" {
				return fmt.Errorf("git log output ends in the middle of %q", truncate(tok))
			}
			flush()
			return nil
		}
		if err != nil {
			return err
		}
		tok = strings.TrimLeft(tok[:len(tok)-1], "\n")
		switch {
		case tok == "":
		case strings.HasPrefix(tok, ":"):
			if commit == "" {
				return fmt.Errorf("git log output: file entry %q before any commit", truncate(tok))
			}
			p, err := r.ReadString(0)
			if err != nil {
				return fmt.Errorf("git log output: entry %q of commit %s has no path", truncate(tok), commit)
			}
			p = p[:len(p)-1]
			blob, ok, err := parseRawMeta(tok)
			if err != nil {
				return fmt.Errorf("git log output for commit %s, %s: %w", commit, p, err)
			}
			if ok {
				batch = append(batch, rawEntry{commit: commit, path: p, blob: blob, seq: seq})
			}
		case isObjectID(tok):
			// git repeats a merge's header once per parent (-m).
			if tok != commit {
				flush()
				commit = tok
				seq++
			}
		default:
			return fmt.Errorf("git log output: unexpected %q", truncate(tok))
		}
	}
}

// parseRawMeta reads ":<old mode> <new mode> <old id> <new id> <status>"
// and returns the new blob id and whether it is a regular file.
func parseRawMeta(meta string) (blob string, ok bool, err error) {
	f := strings.Fields(meta[1:])
	if len(f) != 5 || !isObjectID(f[2]) || !isObjectID(f[3]) {
		return "", false, fmt.Errorf("malformed entry %q", truncate(meta))
	}
	switch f[1] {
	case "100644", "100755", "100664":
	default:
		// 000000 deleted, 120000 symbolic link, 160000 submodule.
		return "", false, nil
	}
	if strings.Trim(f[3], "0") == "" {
		return "", false, nil
	}
	return f[3], true, nil
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
