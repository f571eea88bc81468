package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEConfiguration: the README's example perfpages.toml is a valid
// configuration (unknown keys are errors, so a renamed key fails here).
func TestREADMEConfiguration(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n## Configuration\n")
	if !ok {
		t.Fatal("the README has no Configuration section")
	}
	_, block, ok := strings.Cut(rest, "```toml\n")
	if !ok {
		t.Fatal("the Configuration section has no toml block")
	}
	block, _, _ = strings.Cut(block, "```")
	dir := t.TempDir()
	path := filepath.Join(dir, "perfpages.toml")
	if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatalf("the README's configuration: %v", err)
	}
	if o := c.StepOptions("instructions:u"); o.WidthMultiple != 6 || o.Window != 50 {
		t.Errorf("instructions:u step options %+v, want width_multiple 6 over [analysis.steps]", o)
	}
}

// TestREADMEFractionError: the README quotes the error of a threshold
// written as a percentage number as Load gives it.
func TestREADMEFractionError(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "perfpages.toml")
	os.WriteFile(path, []byte("[budgets.wall-time]\nthreshold = 10\n[[sources]]\ndir = \"results\"\n"), 0o644)
	_, err = Load(path)
	if err == nil {
		t.Fatal("threshold = 10: no error")
	}
	msg := "perfpages.toml: " + strings.TrimPrefix(strings.TrimPrefix(err.Error(), path+": "), "perfpages.toml: ")
	if !strings.Contains(string(readme), "`"+msg+"`") {
		t.Errorf("the README does not quote the error %q", msg)
	}
}
