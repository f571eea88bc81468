package perfgate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/receipt"
)

// TestPromote: without -normalize the bytes are copied; with it, only
// run.id and the two timestamps change and everything else (host, order,
// unknown fields, number spelling) is kept.
func TestPromote(t *testing.T) {
	dir := t.TempDir()
	src := receiptTestdataPath("run.json")
	orig := receiptTestdata(t, "run.json")

	plain := filepath.Join(dir, "baselines", "parse-large.json")
	if err := Promote(src, plain, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(plain); string(got) != string(orig) {
		t.Error("promote without -normalize changed the bytes")
	}

	norm := filepath.Join(dir, "baselines", "norm.json")
	if err := Promote(src, norm, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(norm)
	r, err := receipt.ReadRun(norm, got)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := receipt.ReadRun(src, orig)
	want := *o
	want.Run.ID, want.Run.StartedAt, want.Run.EndedAt = "baseline", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"
	if diff := cmp.Diff(&want, r); diff != "" {
		t.Errorf("normalized receipt (-want +got):\n%s", diff)
	}
	for _, keep := range []string{`"provenance": {`, `"mean": 102.0,`, `"max": 10000.0`, `"memory_bytes": 17179869184`} {
		if !strings.Contains(string(got), keep) {
			t.Errorf("normalized file lost %s:\n%s", keep, got)
		}
	}
	if i, j := strings.Index(string(got), `"schema"`), strings.Index(string(got), `"provenance"`); i > j {
		t.Error("member order changed")
	}
	// Normalizing twice changes nothing.
	again, err := normalizeRun(got)
	if err != nil || string(again) != string(got) {
		t.Errorf("normalizeRun is not idempotent: %v", err)
	}
}

func TestPromoteErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "perfgate.compare.v1"}`), 0o644)
	tests := []struct {
		src, want string
	}{
		{filepath.Join(dir, "missing.json"), "missing.json: no such file or directory"},
		{bad, `bad.json: schema is "perfgate.compare.v1", want perfgate.run.v1`},
	}
	for _, tt := range tests {
		err := Promote(tt.src, filepath.Join(dir, "out.json"), true)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Promote(%s) = %v, want %q", tt.src, err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); err == nil {
		t.Error("a failed promote wrote the destination")
	}
	if _, err := normalizeRun([]byte(`{"schema": "x"}`)); err == nil {
		t.Error("normalizeRun without run succeeded")
	}
	if _, err := normalizeRun([]byte(`[1]`)); err == nil {
		t.Error("normalizeRun of an array succeeded")
	}
}
