package source

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Git reads one repository through the git command. Its methods are safe
// for concurrent use. Close it to stop the cat-file process it starts on
// first use.
type Git struct {
	// MaxFileBytes bounds the size of a file (blob) read from the
	// repository; 0 means the default, 64 MiB. A larger one is skipped unread,
	// its size known from cat-file's header, and comes back with
	// [File.Err] set. Set it before the first read.
	MaxFileBytes int64

	dir string   // absolute path of the repository, git's working directory
	git string   // the git executable
	env []string // git's environment

	mu     sync.Mutex // guards cat and closed
	cat    *catFile   // started by the first blob read
	closed bool

	shallowMu sync.Mutex
	shallow   map[string]bool // the clone's shallow commits; nil until known

	blobsRead, bytesRead atomic.Int64 // by cat-file (Reads)
}

// Reads says how many blobs, and how many bytes of them, g has read: what
// an incremental build did not find in its store.
func (g *Git) Reads() (blobs, bytes int64) { return g.blobsRead.Load(), g.bytesRead.Load() }

// ShallowError reports that a ref's history is cut short by a shallow
// clone, so results or commits would silently be missing.
type ShallowError struct {
	Repo string // the repository's folder
	Ref  string // the ref whose history is incomplete
}

func (e *ShallowError) Error() string {
	return fmt.Sprintf("git repository %s is a shallow clone, so the history of %s is incomplete: "+
		"fetch all of it with \"git fetch --unshallow\" (in GitHub Actions, use actions/checkout with \"fetch-depth: 0\")",
		e.Repo, e.Ref)
}

// RefError reports a ref, branch or notes ref that the repository lacks,
// usually because the clone did not fetch it.
type RefError struct {
	Repo string // the repository's folder
	Ref  string // the ref as asked for
	Fix  string // a command that fetches it
}

func (e *RefError) Error() string {
	what := "ref"
	if strings.HasPrefix(e.Ref, "refs/notes/") {
		what = "notes ref"
	}
	return fmt.Sprintf("%s %q not found in git repository %s: fetch it with %q", what, e.Ref, e.Repo, e.Fix)
}

// Variables that would make git read another repository than g.dir: set
// when perfpages runs inside a git hook, for example.
var repoEnv = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_COMMON_DIR=", "GIT_INDEX_FILE=",
	"GIT_NAMESPACE=", "GIT_OBJECT_DIRECTORY=", "GIT_ALTERNATE_OBJECT_DIRECTORIES="}

// OpenGit opens the repository at dir, a work tree (or a folder inside
// one) or a bare repository, for reading. It checks that git is installed
// and that dir is a repository.
func OpenGit(ctx context.Context, dir string) (*Git, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("opening git repository %s: git is not installed or not in PATH; install git to read git sources (%w)", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("opening git repository %s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("opening git repository %s: %w", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("opening git repository %s: not a directory", dir)
	}
	env := []string{"LC_ALL=C", "GIT_TERMINAL_PROMPT=0"}
	for _, kv := range os.Environ() {
		if !hasAnyPrefix(kv, repoEnv) && !strings.HasPrefix(kv, "LC_ALL=") && !strings.HasPrefix(kv, "GIT_TERMINAL_PROMPT=") {
			env = append(env, kv)
		}
	}
	g := &Git{dir: abs, git: bin, env: env}
	var stderr tailWriter
	cmd := g.command(ctx, "rev-parse", "--git-dir")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("opening git repository %s: %w", dir, ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "dubious ownership") {
			return nil, fmt.Errorf("opening git repository %s: git refuses a repository owned by another user; "+
				"trust it with \"git config --global --add safe.directory %s\" (git said: %s)", dir, abs, msg)
		}
		return nil, fmt.Errorf("%s is not a git repository (git said: %s)", dir, msg)
	}
	return g, nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Close stops the cat-file process. Using g after Close is an error.
func (g *Git) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil
	}
	g.closed = true
	if g.cat == nil {
		return nil
	}
	err := g.cat.close()
	g.cat = nil
	if err != nil {
		return fmt.Errorf("closing git repository %s: %w", g.dir, err)
	}
	return nil
}

// Config that would change the output we parse, overridden for every
// command. Unknown keys are ignored by older git versions.
var stableConfig = []string{
	"-c", "log.showSignature=false", // gpg output would interleave with the log
	"-c", "log.follow=false", // --follow breaks --full-history and merges
	"-c", "log.diffMerges=separate", // -m must diff merges against each parent
	"-c", "diff.relative=false", // paths must be relative to the top
	"-c", "color.ui=false",
}

// command returns git with args, running in g's repository; the context
// kills it.
func (g *Git) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.git, append(stableConfig[:len(stableConfig):len(stableConfig)], args...)...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	// Give up on the pipes soon after the process is killed, even if a
	// child of git still holds them.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// output runs git and returns its standard output.
func (g *Git) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := g.command(ctx, args...)
	var stdout bytes.Buffer
	var stderr tailWriter
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, g.commandError(ctx, args, stderr.String(), err)
	}
	return stdout.Bytes(), nil
}

// stream runs git and hands its standard output to read as it comes. When
// read fails the process is killed.
func (g *Git) stream(ctx context.Context, args []string, read func(*bufio.Reader) error) error {
	cmd := g.command(ctx, args...)
	var stderr tailWriter
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return g.commandError(ctx, args, "", err)
	}
	if err := cmd.Start(); err != nil {
		return g.commandError(ctx, args, "", err)
	}
	readErr := read(bufio.NewReaderSize(stdout, 64<<10))
	if readErr != nil {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return g.commandError(ctx, args, "", ctx.Err())
	case waitErr != nil && (readErr == nil || errors.As(waitErr, &exit) && exit.Exited()):
		// git failed by itself: its message explains any parse error
		// caused by the output it left unfinished.
		return g.commandError(ctx, args, stderr.String(), waitErr)
	}
	return readErr
}

// commandError describes a failed git command with its (trimmed) stderr.
func (g *Git) commandError(ctx context.Context, args []string, stderr string, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	if msg := strings.TrimSpace(stderr); msg != "" && ctx.Err() == nil {
		return fmt.Errorf("git %s in %s: %s (%w)", subcommand(args), g.dir, msg, err)
	}
	return fmt.Errorf("git %s in %s: %w", subcommand(args), g.dir, err)
}

// subcommand is the first word of args that is not a global option.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-c" || args[i] == "-C":
			i++
		case !strings.HasPrefix(args[i], "-"):
			return args[i]
		}
	}
	return "command"
}

// resolve returns the full sha of the commit ref names; "" means HEAD.
//
// A plain branch name that names no local ref falls back to the remote
// branch of that name: "perf-results" is origin/perf-results when the
// clone only has the remote-tracking branch (what actions/checkout and a
// plain git clone leave), so configs can name the branch as users think
// of it. origin wins; another remote is used when it is the only one with
// the branch; several are an error that names them. A local branch of
// the name always wins, as in git.
func (g *Git) resolve(ctx context.Context, ref string) (string, error) {
	sha, _, err := g.resolveRef(ctx, ref)
	return sha, err
}

// resolveRef is resolve, also returning the remote-tracking ref it fell
// back to ("" when ref named a commit by itself).
func (g *Git) resolveRef(ctx context.Context, ref string) (sha, remote string, err error) {
	if ref == "" {
		ref = "HEAD"
	}
	if strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n") {
		return "", "", fmt.Errorf("git repository %s: invalid ref %q", g.dir, ref)
	}
	sha, ok, err := g.commitOf(ctx, ref)
	switch {
	case err != nil:
		return "", "", err
	case ok:
		return sha, "", nil
	case ref == "HEAD":
		return "", "", fmt.Errorf("git repository %s has no commits: HEAD does not name a commit", g.dir)
	}
	remote, err = g.remoteBranch(ctx, ref)
	if err != nil {
		return "", "", err
	}
	if remote == "" {
		return "", "", &RefError{Repo: g.dir, Ref: ref, Fix: fetchFix(ref)}
	}
	sha, ok, err = g.commitOf(ctx, remote)
	switch {
	case err != nil:
		return "", "", err
	case !ok:
		return "", "", &RefError{Repo: g.dir, Ref: remote, Fix: fetchFix(remote)}
	}
	return sha, remote, nil
}

// commitOf returns the full sha of the commit rev names, and false when
// it names none.
func (g *Git) commitOf(ctx context.Context, rev string) (string, bool, error) {
	out, err := g.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		var exit *exec.ExitError
		if ctx.Err() == nil && errors.As(err, &exit) && exit.ExitCode() == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	sha := strings.TrimSpace(string(out))
	if !isObjectID(sha) {
		return "", false, fmt.Errorf("git rev-parse in %s: unexpected output %q for %s", g.dir, sha, rev)
	}
	return sha, true, nil
}

// RefRead says which ref and commit a git source reads for the ref it was
// given, and why when another could have been meant: a build prints it,
// so that a local build never reads a stale remote-tracking branch
// without a word.
type RefRead struct {
	Asked  string // the ref as given ("" is HEAD)
	Ref    string // the ref read: "refs/heads/perf-results", "refs/remotes/origin/perf-results", or Asked when it names no ref (a sha, HEAD~2)
	Commit string // its commit's full sha
	Date   string // the commit's committer date, YYYY-MM-DD (UTC)
	// Note says why Ref was read when the name could mean another ref:
	// only the remote-tracking branch exists (as of the last fetch), or
	// the local branch read differs from origin's.
	Note string
}

// String is the read in one line: "perf-results → refs/remotes/origin/
// perf-results at 1a2b3c4 (2026-11-20): <note>".
func (r RefRead) String() string {
	asked := r.Asked
	if asked == "" {
		asked = "HEAD"
	}
	s := asked
	if r.Ref != asked {
		s += " → " + r.Ref
	}
	s += " at " + short(r.Commit)
	if r.Date != "" {
		s += " (" + r.Date + ")"
	}
	if r.Note != "" {
		s += ": " + r.Note
	}
	return s
}

// Resolve returns what [Git.History], [Git.Versions] and
// [Git.ProjectHistory] read for ref now ("" for HEAD), and why. A branch
// name that only the remote has is read as origin's remote-tracking
// branch, as of the last fetch; a local branch wins over origin's, as in
// git, and when the two differ the note says by how many commits.
func (g *Git) Resolve(ctx context.Context, ref string) (RefRead, error) {
	sha, remote, err := g.resolveRef(ctx, ref)
	if err != nil {
		return RefRead{}, err
	}
	r := RefRead{Asked: ref, Ref: cmp.Or(ref, "HEAD"), Commit: sha}
	if out, err := g.output(ctx, "show", "-s", "--format=%cI", sha); err == nil {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out))); err == nil {
			r.Date = t.UTC().Format(time.DateOnly)
		}
	}
	if remote != "" {
		r.Ref = remote
		name := strings.TrimPrefix(remote, "refs/remotes/")
		remoteName, _, _ := strings.Cut(name, "/")
		r.Note = fmt.Sprintf("there is no local branch %s, so the remote-tracking branch %s is read, as of the last fetch (git fetch %s %s for the newest)", ref, name, remoteName, ref)
		return r, nil
	}
	// The full name of what was read: a branch (HEAD's too), a tag, a
	// notes ref; a sha or HEAD~2 has none.
	if out, err := g.output(ctx, "rev-parse", "--symbolic-full-name", r.Ref); err == nil {
		if full := strings.TrimSpace(string(out)); strings.HasPrefix(full, "refs/") && !strings.Contains(full, "\n") {
			r.Ref = full
		}
	}
	branch, ok := strings.CutPrefix(r.Ref, "refs/heads/")
	if !ok {
		return r, nil
	}
	osha, ok, err := g.commitOf(ctx, "refs/remotes/origin/"+branch)
	if err != nil || !ok || osha == sha {
		return r, nil
	}
	out, err := g.output(ctx, "rev-list", "--left-right", "--count", sha+"..."+osha)
	if err != nil {
		return r, nil
	}
	var here, there int
	if _, err := fmt.Sscan(string(out), &here, &there); err != nil {
		return r, nil
	}
	read := "the local branch " + branch + " is read, as git reads it"
	switch {
	case here == 0:
		r.Note = fmt.Sprintf("%s; origin/%s (at %s) is %s ahead of it: to read them, fast-forward it (git fetch origin %s:%s, or git pull where it is checked out)", read, branch, short(osha), commits(there), branch, branch)
	case there == 0:
		r.Note = fmt.Sprintf("%s; it is %s ahead of origin/%s (at %s), not pushed yet", read, commits(here), branch, short(osha))
	default:
		r.Note = fmt.Sprintf("%s; it and origin/%s (at %s) have diverged: %s only here, %s only there", read, branch, short(osha), commits(here), commits(there))
	}
	return r, nil
}

// commits is "1 commit" or "n commits".
func commits(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// ResolveNotes is [Git.Resolve] for the notes ref [Git.Notes] reads.
func (g *Git) ResolveNotes(ctx context.Context, notesRef string) (RefRead, error) {
	r, err := g.Resolve(ctx, expandNotesRef(notesRef))
	r.Asked = notesRef
	return r, err
}

// remoteBranch returns the remote-tracking ref ("refs/remotes/origin/x")
// that stands for the branch name when the repository has no ref of that
// name (see resolve), or "" when there is none.
func (g *Git) remoteBranch(ctx context.Context, name string) (string, error) {
	if !isBranchName(name) {
		return "", nil
	}
	out, err := g.output(ctx, "for-each-ref", "--format=%(refname)", "refs/remotes/*/"+name)
	if err != nil {
		return "", err
	}
	refs := strings.Fields(string(out))
	switch {
	case len(refs) == 0:
		return "", nil
	case slices.Contains(refs, "refs/remotes/origin/"+name):
		return "refs/remotes/origin/" + name, nil
	case len(refs) == 1:
		return refs[0], nil
	}
	var names []string
	for _, r := range refs {
		names = append(names, strings.TrimPrefix(r, "refs/remotes/"))
	}
	return "", fmt.Errorf("git repository %s has no branch %q but several remotes do (%s): name one, such as %q",
		g.dir, name, strings.Join(names, ", "), names[0])
}

// isBranchName reports whether ref is a plain branch name, not a full ref
// or a revision expression (HEAD~2, v1^{}, main@{1}, a:b).
func isBranchName(ref string) bool {
	return ref != "HEAD" && !strings.HasPrefix(ref, "refs/") && !strings.HasPrefix(ref, "/") &&
		!strings.ContainsAny(ref, "~^:@{}?*[\\ ") && !isObjectID(ref)
}

// fetchFix is the command that fetches ref from origin. A branch is
// fetched as origin/<branch>, which resolve finds under the plain name.
func fetchFix(ref string) string {
	switch {
	case strings.HasPrefix(ref, "refs/remotes/origin/"):
		return "git fetch origin " + strings.TrimPrefix(ref, "refs/remotes/origin/")
	case strings.HasPrefix(ref, "origin/"):
		return "git fetch origin " + strings.TrimPrefix(ref, "origin/")
	case isBranchName(ref):
		return "git fetch origin " + ref
	}
	return "git fetch origin " + ref + ":" + ref
}

// checkComplete returns a *ShallowError when the history of sha (named ref
// by the user) reaches a commit whose parents a shallow clone left out. A
// shallow clone is fine when the ref's history is complete: a results
// branch fetched in full into a CI checkout of depth 1, for example.
func (g *Git) checkComplete(ctx context.Context, ref, sha string) error {
	shallow, err := g.shallowCommits(ctx)
	if err != nil || len(shallow) == 0 {
		return err
	}
	if ref == "" {
		ref = "HEAD"
	}
	return g.stream(ctx, []string{"rev-list", sha}, func(r *bufio.Reader) error {
		for {
			line, err := r.ReadString('\n')
			if shallow[strings.TrimSpace(line)] {
				return &ShallowError{Repo: g.dir, Ref: ref}
			}
			if err != nil {
				return nil
			}
		}
	})
}

// shallowCommits returns the set of commits at the edge of a shallow
// clone, empty for a complete clone.
func (g *Git) shallowCommits(ctx context.Context) (map[string]bool, error) {
	g.shallowMu.Lock()
	defer g.shallowMu.Unlock()
	if g.shallow != nil {
		return g.shallow, nil
	}
	out, err := g.output(ctx, "rev-parse", "--is-shallow-repository", "--git-path", "shallow")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("git rev-parse in %s: unexpected output %q", g.dir, out)
	}
	set := map[string]bool{}
	if strings.TrimSpace(lines[0]) == "true" {
		path := strings.TrimSpace(lines[1])
		if !filepath.IsAbs(path) {
			path = filepath.Join(g.dir, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, &ShallowError{Repo: g.dir, Ref: "every ref"}
		}
		for _, id := range strings.Fields(string(data)) {
			set[id] = true
		}
		if len(set) == 0 {
			return nil, &ShallowError{Repo: g.dir, Ref: "every ref"}
		}
	}
	g.shallow = set
	return set, nil
}

// isObjectID reports whether s is a full SHA-1 or SHA-256 object id.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// short is how messages name a commit.
func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// tailWriter keeps the last few kilobytes written to it: the end of git's
// stderr, where the fatal message is.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4 << 10

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > tailMax {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-tailMax:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
