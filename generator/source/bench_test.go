package source

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func itoa(i int) string { return strconv.Itoa(i) }

// fastImport feeds a git fast-import stream to the repository.
func fastImport(t testing.TB, r *testRepo, stream string) {
	t.Helper()
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = r.dir
	cmd.Env = r.env()
	cmd.Stdin = strings.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
}

// benchRepo is a results branch of commits nightly runs, each adding two
// archives of about 2 KB and overwriting results/latest.json: 3 blobs per
// commit.
func benchRepo(b *testing.B, commits int) *testRepo {
	r := newTestRepo(b)
	var s strings.Builder
	archive := func(i int, machine string) string {
		var a strings.Builder
		fmt.Fprintf(&a, `{"schema":"perfpages.run.v1","artifact":{"id":"%040x"},"machine":{"name":%q},"results":[`, i, machine)
		for k := 0; k < 20; k++ {
			if k > 0 {
				a.WriteByte(',')
			}
			fmt.Fprintf(&a, `{"benchmark":"bench-%d","metric":"wall-time","unit":"ns","samples":[%d,%d,%d]}`, k, 1000+i+k, 1001+i, 999+k)
		}
		a.WriteString("]}\n")
		return a.String()
	}
	file := func(path, data string) {
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", path, len(data), data)
	}
	for i := 0; i < commits; i++ {
		msg := "nightly " + itoa(i)
		fmt.Fprintf(&s, "commit refs/heads/perf-results\ncommitter Bot <bot@example.com> %d +0000\ndata %d\n%s\n",
			1767225600+i*86400, len(msg), msg)
		file(fmt.Sprintf("results/%05d/linux.json", i), archive(i, "linux"))
		file(fmt.Sprintf("results/%05d/macos.json", i), archive(i, "macos"))
		file("results/latest.json", archive(i, "latest"))
		if i%10 == 0 {
			file("README.md", "readme "+itoa(i)+"\n")
		}
		s.WriteString("\n")
	}
	fastImport(b, r, s.String())
	return r
}

// BenchmarkHistory reads 3,000 blobs of about 2 KB from 1,000 commits, the
// size at which the git command (git log and one git cat-file --batch) was
// measured against go-git before choosing it: go-git took several times as
// long and added 19 modules. It measures the pipelined cat-file reads
// again.
func BenchmarkHistory(b *testing.B) {
	r := benchRepo(b, 1000)
	g := openGit(b, r.dir)
	ctx := context.Background()
	for b.Loop() {
		files, err := g.History(ctx, "perf-results", "results", isJSON)
		if err != nil {
			b.Fatal(err)
		}
		if len(files) != 3000 {
			b.Fatalf("History returned %d files, want 3000", len(files))
		}
	}
}

func BenchmarkProjectHistory(b *testing.B) {
	r := benchRepo(b, 1000)
	g := openGit(b, r.dir)
	ctx := context.Background()
	for b.Loop() {
		h, err := g.ProjectHistory(ctx, "perf-results")
		if err != nil {
			b.Fatal(err)
		}
		if len(h.Main) != 1000 {
			b.Fatalf("ProjectHistory returned %d commits, want 1000", len(h.Main))
		}
	}
}
