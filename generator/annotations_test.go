package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
)

func TestParseAnnotations(t *testing.T) {
	const file = `distribution_changes:
  - artifact: 4bd1b1ef
    benchmark: http-router
    params: {routes: "1000"}
    metric: wall-time
    machine: arm
    note: new normal
acknowledged:
  - artifact: pr/1318
    note: fine
`
	got, err := ParseAnnotations("annotations.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := []analysis.Annotation{
		{Kind: analysis.DistributionChange, Artifact: "4bd1b1ef", Benchmark: "http-router", Params: analysis.Params{{Key: "routes", Value: "1000"}}, HasParams: true,
			Metric: "wall-time", Machine: "arm", Note: "new normal", Origin: "annotations.yaml:2"},
		{Kind: analysis.Acknowledged, Artifact: "pr/1318", Note: "fine", Origin: "annotations.yaml:9"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
}

func TestParseAnnotationsErrors(t *testing.T) {
	for _, tt := range []struct{ name, file, want string }{
		{"unknown key", "distribution_changes:\n  - artifact: x\n    benchmrk: y\n", "annotations.yaml:3: field benchmrk not found"},
		{"no artifact", "acknowledged:\n  - note: x\n", "annotations.yaml:2: acknowledged entry without an artifact"},
		{"not a list", "acknowledged: 3\n", "annotations.yaml:1:"},
		{"syntax", "acknowledged: [\n", "annotations.yaml:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseAnnotations("annotations.yaml", []byte(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if list, err := ParseAnnotations("empty.yaml", nil); err != nil || list != nil {
		t.Errorf("empty file: %v, %v", list, err)
	}
}

// The demo's annotations resolve against the demo's data and select the
// series they name.
func TestDemoAnnotations(t *testing.T) {
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	d, warnings, err := s.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		if strings.Contains(w.Error(), "annotation") {
			t.Errorf("warning: %v", w)
		}
	}
	if d.Annotations.Len() != 2 {
		t.Fatalf("%d annotations, want 2", d.Annotations.Len())
	}
	pr, ok := d.PRHead(1347)
	if !ok {
		t.Fatal("no PR #1347")
	}
	begins := 0
	for _, sr := range d.Series {
		if d.Annotations.BeginsChange(sr, pr) {
			begins++
			if sr.Key.Machine != "linux-arm64-graviton" || sr.Case.Benchmark != "http-router" || sr.Key.Params != "routes=1000" || sr.Key.Metric != "wall-time" {
				t.Errorf("distribution change selects %+v", sr.Key)
			}
		}
	}
	if begins != 1 {
		t.Errorf("distribution change selects %d series, want 1", begins)
	}
}

func TestAnnotateUnknownArtifact(t *testing.T) {
	d := analysis.NewBuilder(analysis.BuildOptions{}).Dataset()
	errs := d.Annotate([]analysis.Annotation{{Kind: analysis.Acknowledged, Artifact: "deadbeef", Origin: "a.yaml:3"}})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "a.yaml:3: unknown artifact") {
		t.Errorf("errors %v", errs)
	}
}

// Criterion's bootstrap results are kept in the cache folder beside the
// output; a second build reads them back, a broken file is a warning.
func TestAnalysisCache(t *testing.T) {
	dir := t.TempDir()
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	s.Tests = nil // not the process-wide demo cache
	out := filepath.Join(dir, "public")
	if _, err := s.Build(t.Context(), BuildOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".perfpages-cache", cacheFile)
	entries, err := loadTestCache(filepath.Dir(path))
	if err != nil || len(entries) == 0 {
		t.Fatalf("cache after the first build: %d entries, %v", len(entries), err)
	}
	first, _ := os.ReadFile(path)
	s.Tests = nil
	rep, err := s.Build(t.Context(), BuildOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w.Error(), "cache") {
			t.Errorf("warning: %v", w)
		}
	}
	if second, _ := os.ReadFile(path); !bytes.Equal(first, second) {
		t.Error("the cache changed on a rebuild of the same data")
	}
	if err := os.WriteFile(path, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Tests = nil
	rep, err = s.Build(t.Context(), BuildOptions{Out: out, Cold: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range rep.Warnings {
		found = found || strings.Contains(w.Error(), "analysis cache") && strings.Contains(w.Error(), "starting afresh")
	}
	if !found {
		t.Errorf("no warning about the broken cache in %v", rep.Warnings)
	}
	if entries, err := loadTestCache(filepath.Dir(path)); err != nil || len(entries) == 0 {
		t.Errorf("cache not rewritten: %d entries, %v", len(entries), err)
	}
}
