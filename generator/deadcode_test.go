package generator

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDeadcodeAllowlist keeps the module free of dead code: every function
// that golang.org/x/tools/cmd/deadcode finds unreachable from
// cmd/perfpages must be listed in testdata/deadcode-allow.txt (API that a
// package documents as such), and every listed function must still be
// unreachable, so the list stays exact. The test runs an installed deadcode
// (PATH or GOPATH/bin) and skips without one (fetching it would need the
// network), except in CI (PERFPAGES_CI, set by .ci/run), where it fails.
// It analyses the whole module, so -short skips it too.
func TestDeadcodeAllowlist(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: deadcode loads the whole program")
	}
	bin := deadcodeBinary()
	if bin == "" {
		// .ci/run installs it and sets PERFPAGES_CI: there a missing
		// deadcode is a broken CI, not a reason to pass.
		if os.Getenv("PERFPAGES_CI") != "" {
			t.Fatal("deadcode is not installed, and PERFPAGES_CI is set (.ci/run installs it)")
		}
		t.Skip("deadcode is not installed (go install golang.org/x/tools/cmd/deadcode@latest)")
	}
	cmd := exec.Command(bin, "-f", `{{range .Funcs}}{{$.Path}} {{.Name}}{{"\n"}}{{end}}`, "./cmd/perfpages")
	cmd.Dir = ".." // the module root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	var dead []string
	for line := range strings.Lines(string(out)) {
		if line = strings.TrimSpace(line); line != "" {
			dead = append(dead, strings.TrimPrefix(line, module))
		}
	}
	allowed := readAllowlist(t, filepath.Join("testdata", "deadcode-allow.txt"))
	for _, f := range dead {
		if !slices.Contains(allowed, f) {
			t.Errorf("%s is unreachable from cmd/perfpages: delete it, move it to a _test.go file, or document it as API and list it in testdata/deadcode-allow.txt", f)
		}
	}
	for _, f := range allowed {
		if !slices.Contains(dead, f) {
			t.Errorf("testdata/deadcode-allow.txt lists %s, which the build now calls (or which is gone): remove the line", f)
		}
	}
}

// deadcodeBinary is the path of an installed deadcode command, or "".
func deadcodeBinary() string {
	if p, err := exec.LookPath("deadcode"); err == nil {
		return p
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return ""
	}
	for dir := range strings.SplitSeq(strings.TrimSpace(string(gopath)), string(os.PathListSeparator)) {
		p := filepath.Join(dir, "bin", "deadcode")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// readAllowlist reads "package function" lines, skipping blank lines and
// # comments.
func readAllowlist(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(strings.Fields(line)) != 2 {
			t.Fatalf("%s:%d: want \"package function\", got %q", path, n, line)
		}
		list = append(list, strings.Join(strings.Fields(line), " "))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}
