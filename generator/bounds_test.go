package generator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
)

// The site is bounded in files, not only in input bytes: one small
// archive naming many benchmarks fails the build before anything is
// written, and the error names it; a site that only grows past the bound
// while it is written fails there, naming the same.
func TestSiteBounds(t *testing.T) {
	var results []string
	for i := range 150 {
		results = append(results, fmt.Sprintf(`{"benchmark": "b%03d", "metric": "wall-time", "unit": "ns", "samples": [1]}`, i))
	}
	archive := `{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + sha1 + `", "kind": "commit", "date": "2026-09-07T10:00:00Z", "branch": "main"},
 "machine": {"name": "m"},
 "results": [` + strings.Join(results, ",\n") + `]}`
	for name, tt := range map[string]struct {
		files int
		want  string
	}{
		"pages": {100, "the site would have at least 151 pages (1 commits, 0 pull requests, 150 benchmarks), over [site] max_site_files = 100"},
		"files": {200, "the site would have more than 200 files ([site] max_site_files = 200)"},
	} {
		t.Run(name, func(t *testing.T) {
			b := siteRun(t, fmt.Sprintf("-- perfpages.toml --\n[site]\nmax_site_files = %d\n\n[[sources]]\ndir = \"results\"\n-- results/many.json --\n%s\n", tt.files, archive), false)
			if b.err == nil || !strings.Contains(b.err.Error(), tt.want) || !strings.Contains(b.err.Error(), "results/many.json (150 benchmarks, 1 artifacts)") {
				t.Fatalf("build = %v, want an error saying %q and naming results/many.json", b.err, tt.want)
			}
		})
	}
}

// TestPagesWarning: a site over GitHub Pages' limit is a warning naming the
// inputs that made it large (Build and Merge give the same), unless the
// configuration does not allow it anyway.
func TestPagesWarning(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	for i, origin := range []string{"results/a.json", "results/b.json"} {
		b.Add(origin, model.Run{
			Artifact: model.Artifact{ID: fmt.Sprintf("%040d", i), Kind: model.KindCommit, Date: time.Date(2026, 9, 7, i, 0, 0, 0, time.UTC), Branch: "main"},
			Machine:  model.Machine{Name: "m"},
			Results:  []model.Result{{Case: model.TestCase{Benchmark: "b"}, Metric: "wall-time", Unit: "ns", Samples: []float64{1}}},
		})
	}
	d := b.Dataset()
	cfg := &config.Config{}
	cfg.Site.MaxSiteBytes = 2 << 30
	if err := pagesWarning(1000, 1000, d, cfg); err != nil {
		t.Errorf("a site at the limit: %v", err)
	}
	err := pagesWarning(1500, 1000, d, cfg)
	if err == nil || !strings.Contains(err.Error(), "the site is 1.5 KiB: GitHub Pages refuses sites over 1000 bytes") || !strings.Contains(err.Error(), "results/a.json") {
		t.Errorf("a site over the limit: %v", err)
	}
	cfg.Site.MaxSiteBytes = 1000
	if err := pagesWarning(1500, 1000, d, cfg); err != nil {
		t.Errorf("a site the configuration bounds anyway: %v", err)
	}
}
