package planted

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/config"
)

// The pipeline a planted suite is scored through, in functions that do not
// depend on how the verdict is computed: a dataset (in memory, or through
// the generator's load path from archives), the comparisons of
// consecutive main-line commits that the commit pages show, and the steps
// of /regressions/.

// siteConfig is the perfpages.toml of a site over a directory of
// archives, with analysis model model ("" for the default).
func siteConfig(sigModel string) string {
	c := "[[sources]]\ndir = \"results\"\n"
	if sigModel != "" {
		c += fmt.Sprintf("\n[analysis]\nmodel = %q\n", sigModel)
	}
	return c
}

// inMemory builds the dataset of s's runs with the builder options a site
// with configuration cfg uses.
func inMemory(s *Suite, cfg *config.Config) *model.Dataset {
	b := model.NewBuilder(cfg.BuildOptions())
	for _, r := range s.Runs() {
		b.Add("planted", r)
	}
	return b.Dataset()
}

// wholeSite writes s as archives under a site folder with a perfpages.toml
// for model, and loads it as `perfpages build` does (generator.Open, then
// Site.Load).
func wholeSite(tb testing.TB, s *Suite, sigModel string) (*model.Dataset, *config.Config) {
	tb.Helper()
	dir := tb.TempDir()
	if err := s.WriteArchives(filepath.Join(dir, "results")); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(path, []byte(siteConfig(sigModel)), 0o644); err != nil {
		tb.Fatal(err)
	}
	site, err := generator.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	d, warnings, err := site.Load(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	for _, w := range warnings {
		tb.Errorf("loading the planted site: %v", w)
	}
	return d, site.Config
}

// parseConfig is the configuration of siteConfig(model).
func parseConfig(tb testing.TB, sigModel string) *config.Config {
	tb.Helper()
	cfg, err := config.Parse(config.FileName, []byte(siteConfig(sigModel)), tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// consecutive are the comparisons of every main-line commit with its
// parent, as the commit pages compute them (sitemodel's plan calls
// Comparer.Consecutive with the configuration's options).
func consecutive(d *model.Dataset, cfg *config.Config) []*analysis.Comparison {
	return analysis.NewComparer(d, cfg.CompareOptions()).Consecutive(0, len(d.MainLine))
}

// detectSteps are the steps a build shows on /regressions/.
func detectSteps(d *model.Dataset) []analysis.Step {
	return analysis.Steps(d, changepoint.DefaultOptions, nil)
}
