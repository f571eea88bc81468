package perfgate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
)

// receiptTestdata reads a receipt of generator/receipt's testdata: the
// run and compare receipts the format's tests and the commands' share.
func receiptTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(receiptTestdataPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func receiptTestdataPath(name string) string {
	return filepath.Join("..", "..", "..", "..", "generator", "receipt", "testdata", name)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func u64p(v uint64) *uint64   { return &v }
func f64p(v float64) *float64 { return &v }
func u32p(v uint32) *uint32   { return &v }

// approx compares real-valued statistics within a relative 1e-9.
var approx = cmpopts.EquateApprox(0, 1e-9)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "out.json")
	if err := WriteJSON(p, map[string]any{"b": 1, "a": "<x>"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "{\n  \"a\": \"<x>\",\n  \"b\": 1\n}\n"; string(got) != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}
