package generator

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadSkipsFilesOverTheLimit: with site.max_input_bytes, a plain file
// over the limit, a gzip bomb and a git blob over it are each skipped
// with a warning that names the file, and everything else is read.
func TestLoadSkipsFilesOverTheLimit(t *testing.T) {
	root := t.TempDir()
	archive := func(sha, date string, extra string) string {
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + sha + `", "date": "` + date + `"}, "machine": {"name": "m"},
 "results": [{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [1, 2, 3]}]` + extra + `}`
	}
	write := func(name string, data []byte) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	padding := `, "padding": "` + strings.Repeat(" ", 8000) + `"`
	write("results/good.json", []byte(archive(sha1, "2026-09-01T00:00:00Z", "")))
	write("results/big.json", []byte(archive(strings.Repeat("2", 40), "2026-09-02T00:00:00Z", padding)))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(archive(strings.Repeat("3", 40), "2026-09-03T00:00:00Z", padding)))
	zw.Close()
	write("results/bomb.json.gz", z.Bytes())
	write("bench/"+strings.Repeat("4", 40)+"/2026-09-04/ci.txt", []byte("BenchmarkParse-8 \t1000\t5 ns/op\n"))
	write("bench/"+strings.Repeat("5", 40)+"/2026-09-05/ci.txt", []byte("BenchmarkParse-8 \t1000\t5 ns/op\n"+strings.Repeat("# padding\n", 1000)))
	repo := newGitRepo(t, filepath.Join(root, "repo"))
	repo.write("r/good.json", archive(strings.Repeat("6", 40), "2026-09-06T00:00:00Z", ""))
	repo.write("r/big.json", archive(strings.Repeat("7", 40), "2026-09-07T00:00:00Z", padding))
	repo.git("add", ".")
	repo.git("commit", "-qm", "results")
	write("perfpages.toml", []byte(`[site]
max_input_bytes = 4096

[[sources]]
dir = "results"

[[sources]]
dir = "bench"
format = "gobench"
artifact = "{sha}/{date}/{machine}.txt"

[[sources]]
git = "repo"
ref = "main"
path = "r"
`))
	d, warnings := loadConfig(t, filepath.Join(root, "perfpages.toml"))
	var got []string
	for _, w := range warnings {
		got = append(got, strings.ReplaceAll(w.Error(), root+string(filepath.Separator), ""))
	}
	want := []string{
		"results/big.json: 8.1 KiB, over the limit of 4 KiB per input file (max_input_bytes); file skipped",
		filepath.FromSlash("bench/5555555555555555555555555555555555555555/2026-09-05/ci.txt") + ": 9.8 KiB, over the limit of 4 KiB per input file (max_input_bytes); file skipped",
		"main@" + repo.git("rev-parse", "--short=7", "HEAD") + ":r/big.json: 8.1 KiB, over the limit of 4 KiB per input file (max_input_bytes); file skipped",
		"results/bomb.json.gz: gzip data inflates beyond 4 KiB, the limit per input file (max_input_bytes); file skipped",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var ids []string
	for _, a := range d.Artifacts {
		ids = append(ids, a.ID[:1])
	}
	if diff := cmp.Diff([]string{"1", "4", "6"}, ids); diff != "" {
		t.Errorf("artifacts read (-want +got):\n%s", diff)
	}
}
