package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// rssChild names the config a child process of TestMemoryPerBadFile
// builds.
const rssChild = "PERFPAGES_TEST_RSS_CONFIG"

// TestMemoryPerBadFile builds sites holding hostile files in a child
// process (this test binary, run again) under `prlimit --as` and checks
// the child's peak RSS, so that a regression shows as a failed test rather
// than as a test process that runs out of memory:
//
//   - at the default limit (64 MiB), a 200 KB .json.gz that inflates to
//     200 MB and a 180 MB plain archive (sparse: it is never read) are
//     skipped with warnings naming them, the good archive beside them is
//     built, and the peak stays far below what inflating or decoding them
//     would take (before the caps: 550 MB and over 11 GB);
//   - at max_input_bytes = 8 MiB, the files that cost the most per byte
//     while staying under the size limit (tiny JSON values, TOML dotted
//     keys and YAML flow lists at the separator cap, a foreign file of
//     tiny entries) peak at a small multiple of the limit. GOMAXPROCS=1
//     makes that a per-file figure: a build decodes GOMAXPROCS files at
//     once.
func TestMemoryPerBadFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds sites under memory limits")
	}
	if cfg := os.Getenv(rssChild); cfg != "" {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"build", "-config", cfg, "-out", filepath.Join(filepath.Dir(cfg), "public")}, &stdout, &stderr)
		fmt.Fprint(os.Stdout, stdout.String())
		fmt.Fprint(os.Stderr, stderr.String())
		if err != nil {
			fmt.Fprintln(os.Stderr, "build:", err)
			os.Exit(1)
		}
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit is not installed")
	}
	t.Run("default limit", func(t *testing.T) {
		dir := rssSite(t, "")
		gzipBomb(t, filepath.Join(dir, "results", "bomb.json.gz"), 200)
		huge := filepath.Join(dir, "results", "huge.json")
		f, err := os.Create(huge)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(180 << 20); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if st, _ := os.Stat(filepath.Join(dir, "results", "bomb.json.gz")); st.Size() > 300<<10 {
			t.Fatalf("the bomb is %d bytes, want about 200 KB", st.Size())
		}
		stdout, stderr, rss := rssBuild(t, prlimit, dir)
		for _, want := range []string{
			"perfpages: warning: " + filepath.Join(dir, "results", "bomb.json.gz") + ": gzip data inflates beyond 64 MiB, the limit per input file (max_input_bytes); file skipped\n",
			"perfpages: warning: " + huge + ": 180 MiB, over the limit of 64 MiB per input file (max_input_bytes); file skipped\n",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr does not say\n%s\nstderr:\n%s", want, stderr)
			}
		}
		if !strings.Contains(stdout, "from 1 artifacts") {
			t.Errorf("stdout = %q, want the good archive built", stdout)
		}
		// Gunzip holds at most the limit and a half: 64 MiB + 32 MiB.
		if rss > 256<<20 {
			t.Errorf("peak RSS %d MiB, want under 256 MiB", rss>>20)
		}
		t.Logf("peak RSS %d MiB", rss>>20)
	})
	t.Run("worst files under the limit", func(t *testing.T) {
		const limit = 8 << 20
		dir := rssSite(t, "[site]\nmax_input_bytes = "+strconv.Itoa(limit)+"\n\n")
		write := func(name, data string) {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		head := `{"schema": "perfpages.run.v1", "artifact": {"id": "2222222222222222222222222222222222222222"}, "machine": {"name": "m"}, "results": [`
		write("results/empties.json", head+strings.Repeat("[],", (limit-200)/3)+"[]]}")
		var toml strings.Builder
		toml.WriteString("schema = \"perfpages.run.v1\"\n[meta]\n")
		for i := range 6000 { // 60,000 separators, the cap being 65,536
			fmt.Fprintf(&toml, "k%d.a.a.a.a.a.a.b = 1\n", i) // 8 tables deep
		}
		write("results/dotted.toml", toml.String())
		write("results/pairs.yaml", "schema: perfpages.run.v1\nmeta: ["+strings.Repeat("{a: b},", 20_000)+"1]\n")
		write("foreign/3333333333333333333333333333333333333333/2026-01-03/m.json",
			`{"context": {"host_name": "m"}, "benchmarks": [`+strings.Repeat("1,", 60_000)+`{"name": "BM_x", "run_type": "iteration", "iterations": 10, "real_time": 5, "cpu_time": 5, "time_unit": "ns"}]}`)
		appendFile(t, filepath.Join(dir, "perfpages.toml"), "\n[[sources]]\ndir = \"foreign\"\nformat = \"googlebench\"\nartifact = \"{sha}/{date}/{machine}.json\"\n")
		stdout, stderr, rss := rssBuild(t, prlimit, dir)
		for _, want := range []string{"empties.json:1: more than 262144 values", "dotted.toml:2: unknown field", "pairs.yaml:2: unknown field", "m.json:1: benchmark entry is not an object"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, stderr)
			}
		}
		if !strings.Contains(stdout, "from 2 artifacts") {
			t.Errorf("stdout = %q, want the good archive and the foreign file built", stdout)
		}
		// About 30 MiB of runtime, templates and site, then the file.
		if rss > 32<<20+12*limit {
			t.Errorf("peak RSS %d MiB, want under %d MiB: 32 MiB and 12 times the limit", rss>>20, (32<<20+12*limit)>>20)
		}
		t.Logf("peak RSS %d MiB", rss>>20)
	})
}

// rssSite writes a site folder with a config (toml before its sources)
// and one good archive.
func rssSite(t *testing.T, toml string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(toml+"[[sources]]\ndir = \"results\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := `{"schema": "perfpages.run.v1", "artifact": {"id": "1111111111111111111111111111111111111111", "date": "2026-01-01T00:00:00Z"},
 "machine": {"name": "m"}, "results": [{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [1, 2, 3]}]}`
	if err := os.WriteFile(filepath.Join(dir, "results", "good.json"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func appendFile(t *testing.T, name, s string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// gzipBomb writes a valid archive padded with mib MiB of spaces as a
// multi-member gzip stream: one MiB of spaces compresses to 1 KB, so the
// file takes mib KB, and writing it takes no time.
func gzipBomb(t *testing.T, name string, mib int) {
	t.Helper()
	member := func(data []byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	spaces := member(bytes.Repeat([]byte(" "), 1<<20))
	var out bytes.Buffer
	out.Write(member([]byte(`{"schema": "perfpages.run.v1", "artifact": {"id": "2222222222222222222222222222222222222222", "date": "2026-01-02T00:00:00Z"},
 "machine": {"name": "m"}, "results": [{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [1]}], "padding": "`)))
	for range mib {
		out.Write(spaces)
	}
	out.Write(member([]byte(`"}`)))
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rssBuild builds the site in dir in a child process limited to 2 GiB of
// address space (the Go runtime reserves far more than it uses; 1 GiB is
// too little even for an empty build) and returns its output and peak
// RSS in bytes.
func rssBuild(t *testing.T, prlimit, dir string) (stdout, stderr string, rss int64) {
	t.Helper()
	cmd := exec.Command(prlimit, "--as="+strconv.Itoa(2<<30), os.Args[0], "-test.run=^TestMemoryPerBadFile$")
	cmd.Env = append(os.Environ(), rssChild+"="+filepath.Join(dir, "perfpages.toml"), "GOMAXPROCS=1", "GOGC=100", "GOMEMLIMIT=off")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("child build: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage")
	}
	return out.String(), errb.String(), ru.Maxrss << 10 // Linux reports kilobytes
}

// check and export read their inputs under the same limit as a build:
// -max-input-bytes, else for check the config's site.max_input_bytes.
func TestCheckExportMaxInputBytes(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "perfpages.toml")
	if err := os.WriteFile(cfg, []byte("[site]\nmax_input_bytes = 1024\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	const tooLarge = "perfpages: current_pass.json: 1.2 KiB, over the limit of 1 KiB per input file (max_input_bytes)\n"
	tests := []struct {
		name string
		args []string
		want string // stderr; "" for success
	}{
		{"check: flag", []string{"check", "-baseline", "baseline.json", "-current", "current_pass.json", "-out-dir", out, "-max-input-bytes", "1024"}, tooLarge},
		{"check: config", []string{"check", "-baseline", "baseline.json", "-current", "current_pass.json", "-out-dir", out, "-config", cfg}, tooLarge},
		{"check: flag over config", []string{"check", "-baseline", "baseline.json", "-current", "current_pass.json", "-out-dir", out, "-config", cfg, "-max-input-bytes", "4096"}, ""},
		{"check: negative", []string{"check", "-current", "current_pass.json", "-max-input-bytes", "-1"}, "perfpages: check: -max-input-bytes -1: want a size in bytes\n"},
		{"export: flag", []string{"export", "-format", "csv", "-max-input-bytes", "1024", "current_pass.json"}, tooLarge},
		{"export: default", []string{"export", "-format", "csv", "current_pass.json"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := perfgateCLI(t, tt.args...)
			if tt.want == "" {
				if code != 0 {
					t.Errorf("exit status %d, stderr %q; want success", code, stderr)
				}
				return
			}
			if code != 1 || stderr != tt.want {
				t.Errorf("exit status %d, stderr %q; want 1, %q", code, stderr, tt.want)
			}
		})
	}
}
