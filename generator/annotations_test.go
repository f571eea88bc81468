package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/outdir"
	"github.com/perfpages/perfpages/generator/store"
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
	want := []model.Annotation{
		{Kind: model.DistributionChange, Artifact: "4bd1b1ef", Benchmark: "http-router", Params: model.Params{{Key: "routes", Value: "1000"}}, HasParams: true,
			Metric: "wall-time", Machine: "arm", Note: "new normal", Origin: "annotations.yaml:2"},
		{Kind: model.Acknowledged, Artifact: "pr/1318", Note: "fine", Origin: "annotations.yaml:9"},
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
	if testing.Short() {
		t.Skip("-short: builds the demo site")
	}
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
	d := model.NewBuilder(model.BuildOptions{}).Dataset()
	errs := d.Annotate([]model.Annotation{{Kind: model.Acknowledged, Artifact: "deadbeef", Origin: "a.yaml:3"}})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "a.yaml:3: unknown artifact") {
		t.Errorf("errors %v", errs)
	}
}

// Criterion's bootstrap results are kept in the store beside the output;
// a second build reads them back, a broken file is a warning and is
// rebuilt, and a cold build does not read them (that the values of
// another perfpages are not read is the store's TestVersions).
func TestAnalysisCache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the demo site several times")
	}
	dir := t.TempDir()
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	s.Tests = nil // not the process-wide demo cache
	out := filepath.Join(dir, "public")
	build := func(cold bool) *Report {
		t.Helper()
		s.Tests = nil
		rep, err := s.Build(t.Context(), BuildOptions{Out: out, Cold: cold})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	build(false)
	st := openTestStore(t, dir, out)
	path := filepath.Join(st.Dir(), testsValue+".gob")
	var saved []analysis.CachedTest
	if !st.Load(testsValue, "", &saved) || len(saved) == 0 {
		t.Fatalf("cache after the first build: %d entries", len(saved))
	}
	first, _ := os.ReadFile(path)
	os.WriteFile(filepath.Join(dir, "public", "extra"), nil, 0o644) // not up to date: rebuilt
	for _, w := range build(false).Warnings {
		if strings.Contains(w.Error(), "store") {
			t.Errorf("warning: %v", w)
		}
	}
	readable := func() bool {
		var saved []analysis.CachedTest
		st := openTestStore(t, dir, out)
		return st.Load(testsValue, "", &saved) && len(st.Warnings()) == 0
	}

	// One flipped bit: a warning, never a wrong p-value.
	bad := bytes.Clone(first)
	bad[len(bad)/2] ^= 1
	os.WriteFile(path, bad, 0o644)
	os.WriteFile(filepath.Join(dir, "public", "extra"), nil, 0o644)
	found := false
	for _, w := range build(false).Warnings {
		found = found || strings.Contains(w.Error(), path) && strings.Contains(w.Error(), "rebuilt")
	}
	if !found {
		t.Errorf("no warning about the broken cache")
	}
	if !readable() {
		t.Error("the broken cache was not rewritten")
	}

	// A cold build reads nothing kept: a broken cache goes unread.
	os.WriteFile(path, bad, 0o644)
	for _, w := range build(true).Warnings {
		if strings.Contains(w.Error(), "store") {
			t.Errorf("a cold build read the store: %v", w)
		}
	}
}

// openTestStore opens the store of the output out built in dir (whose
// cache is the default one).
func openTestStore(t *testing.T, dir, out string) *store.Store {
	t.Helper()
	abs, err := outdir.Resolve(out)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, ".perfpages-cache"), abs)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// testStoreDir is the folder of the store of the output out built in dir.
func testStoreDir(t *testing.T, dir, out string) string {
	t.Helper()
	abs, err := outdir.Resolve(out)
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, ".perfpages-cache")
	return filepath.Join(cache, store.FolderName(cache, abs))
}
