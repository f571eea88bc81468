// Package contentdir reads a site's content folder: the Markdown pages of
// content/, the home page's introduction (content/_index.md) and the
// maintainers' triage notes (content/triage/<yyyy-mm-dd>.md), each with
// its YAML or TOML front matter. It hands the site model its
// [sitemodel.Content]; rendering the Markdown is package render's.
//
// It is a reader beside the results' sources, and feeds the site model
// stage (see the architecture section of the README).
package contentdir

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/sitemodel"
)

// reservedSlugs are the site's own top-level routes; a content page must
// not shadow them.
var reservedSlugs = []string{"assets", "bench", "commit", "compare", "data", "pr", "triage", "404", "index.xml", "sitemap.xml"}

var weekFile = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.md$`)

// MaxFileSize caps a content page: a Markdown page over 8 MiB is not
// something a person wrote, and reading one must not exhaust memory. Larger
// files are skipped with a warning.
const MaxFileSize = 8 << 20

// Load reads every .md file of fsys. name is the folder's name for
// messages. A page with a problem is skipped and the problem returned; the
// other pages are kept, in the order of their front matter's weight, then
// of their URL.
//
// fsys should be a content folder opened with generator/internal/confined,
// which keeps reads inside the folder (no symbolic link to /etc/passwd is
// ever followed) and never opens a named pipe or device; Load itself
// also skips, with a warning, any entry that is not a regular file
// or is over [MaxFileSize], whatever fsys is.
func Load(fsys fs.FS, name string) (*sitemodel.Content, []error) {
	c := &sitemodel.Content{TriageNotes: map[string]sitemodel.ContentPage{}}
	// weighted is a page and the weight that orders it.
	type weighted struct {
		sitemodel.ContentPage
		weight int
	}
	var pages []weighted
	var problems []error
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", path.Join(name, p), err))
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src := path.Join(name, p)
		if !d.Type().IsRegular() {
			problems = append(problems, fmt.Errorf("%s: not a regular file, skipped", src))
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > MaxFileSize {
			if err == nil {
				err = fmt.Errorf("%d bytes, over the limit of %d MiB", info.Size(), MaxFileSize>>20)
			}
			problems = append(problems, fmt.Errorf("%s: %v, skipped", src, err))
			return nil
		}
		data, err := readCapped(fsys, p, MaxFileSize)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %v", src, err))
			return nil
		}
		fm, body, err := ParseFrontMatter(src, data)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		if fm.Draft {
			return nil
		}
		page := sitemodel.ContentPage{Source: src, Title: fm.Title, Description: fm.Description, Menu: fm.Menu, Body: body}
		switch {
		case p == "_index.md":
			c.Home = &page
			return nil
		case path.Dir(p) == "triage":
			if !weekFile.MatchString(path.Base(p)) {
				problems = append(problems, fmt.Errorf("%s: triage notes must be named triage/<yyyy-mm-dd>.md after the week's Monday", src))
				return nil
			}
			c.TriageNotes[strings.TrimSuffix(path.Base(p), ".md")] = page
			return nil
		}
		name := strings.TrimSuffix(p, ".md")
		name = strings.TrimSuffix(strings.TrimSuffix(name, "/index"), "/_index")
		var parts []string
		for _, part := range strings.Split(name, "/") {
			parts = append(parts, slug.Name(part))
		}
		page.Slug = strings.Join(parts, "/")
		if slices.Contains(reservedSlugs, parts[0]) {
			problems = append(problems, fmt.Errorf("%s: the URL /%s/ is reserved for the site's own pages; rename the file", src, page.Slug))
			return nil
		}
		if page.Title == "" {
			page.Title = firstHeading(body, parts[len(parts)-1])
		}
		pages = append(pages, weighted{page, fm.Weight})
		return nil
	})
	if err != nil {
		problems = append(problems, fmt.Errorf("%s: %v", name, err))
	}
	slices.SortFunc(pages, func(a, b weighted) int {
		if a.weight != b.weight {
			return a.weight - b.weight
		}
		return strings.Compare(a.Slug, b.Slug)
	})
	for _, p := range pages {
		c.Pages = append(c.Pages, p.ContentPage)
	}
	return c, problems
}

// readCapped reads the file p of fsys, failing when it holds more than
// max bytes (it may have grown since it was listed).
func readCapped(fsys fs.FS, p string, max int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("more than the limit of %d MiB", max>>20)
	}
	return data, nil
}

func firstHeading(body []byte, fallback string) string {
	for _, line := range strings.Split(string(body), "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return fallback
}
