package generator

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/write"
)

// Bounds of the site. The input caps (max_input_bytes) bound what a
// build reads, not what it writes: a 3.6 MB archive naming 10,000
// benchmarks makes 30,000 files. So the site is bounded too, in files and
// bytes ([site] max_site_files, max_site_bytes), in two places:
//
//   - before anything is planned, checkSize counts the pages the site
//     cannot do without (one per main-line commit, pull request and
//     benchmark): a dataset already over the bound fails at once;
//   - while the site is written, the writer counts every file and byte,
//     so that a site which passes the first check but grows past the
//     bound (data files, comparisons) fails there, before the swap.
//
// Either way the error names the inputs the pages come from, the largest
// first, so that the user knows which archive to look at.

// checkSize fails when d alone needs more pages than the site may have.
func checkSize(d *model.Dataset, cfg *config.Config) error {
	prs := map[int]bool{}
	for _, a := range d.Artifacts {
		if a.PR != 0 {
			prs[a.PR] = true
		}
	}
	benches := map[string]bool{}
	for _, s := range d.Series {
		benches[s.Case.Benchmark] = true
	}
	if n := len(d.MainLine) + len(prs) + len(benches); n > cfg.Site.MaxSiteFiles {
		return fmt.Errorf("the site would have at least %d pages (%d commits, %d pull requests, %d benchmarks), over [site] max_site_files = %d: %s",
			n, len(d.MainLine), len(prs), len(benches), cfg.Site.MaxSiteFiles, largestInputs(d))
	}
	return nil
}

// pagesWarning is the warning of a site of n bytes, over limit (GitHub
// Pages' 1 GB, config.PagesMaxBytes) where the configuration allows more:
// Build and Merge give it alike, naming the inputs that made the site so
// large; nil for a site within it.
func pagesWarning(n, limit int64, d *model.Dataset, cfg *config.Config) error {
	if n <= limit || cfg.Site.MaxSiteBytes <= limit {
		return nil
	}
	return fmt.Errorf("the site is %s: GitHub Pages refuses sites over %s (other hosts may not); %s", capped.FormatBytes(n), capped.FormatBytes(limit), largestInputs(d))
}

// sizeError explains a *write.LimitError of the writer: which bound, and
// which inputs the pages come from.
func sizeError(err error, d *model.Dataset, cfg *config.Config) error {
	var le *write.LimitError
	if !errors.As(err, &le) {
		return err
	}
	key := "max_site_files"
	if le.What == "bytes" {
		key = "max_site_bytes"
	}
	return fmt.Errorf("%v ([site] %s = %d): %s", le, key, le.Limit, largestInputs(d))
}

// largestInputs names the inputs most of d's benchmarks and artifacts
// come from (by the file each was first read from), the largest first.
func largestInputs(d *model.Dataset) string {
	type input struct {
		name             string
		benches, commits int
	}
	by := map[string]*input{}
	get := func(name string) *input {
		if by[name] == nil {
			by[name] = &input{name: name}
		}
		return by[name]
	}
	seen := map[string]bool{}
	for _, s := range d.Series {
		if !seen[s.Case.Benchmark] {
			seen[s.Case.Benchmark] = true
			get(s.Origin).benches++
		}
	}
	for i := range d.Artifacts {
		get(d.ArtifactOrigin(i)).commits++
	}
	list := make([]*input, 0, len(by))
	for _, in := range by {
		list = append(list, in)
	}
	slices.SortFunc(list, func(a, b *input) int {
		return cmp.Or(cmp.Compare(b.benches+b.commits, a.benches+a.commits), strings.Compare(a.name, b.name))
	})
	var parts []string
	for _, in := range list[:min(3, len(list))] {
		name := cmp.Or(in.name, "(no file)")
		parts = append(parts, fmt.Sprintf("%s (%d benchmarks, %d artifacts)", name, in.benches, in.commits))
	}
	if len(list) > 3 {
		parts = append(parts, fmt.Sprintf("and %d more inputs", len(list)-3))
	}
	return "the pages come from " + strings.Join(parts, ", ") + "; raise the bound, or split or trim these inputs"
}
