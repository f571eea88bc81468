// Package content holds the Markdown pages of the demo site: the home
// page's introduction (_index.md), the pages linked from the navigation,
// and maintainers' notes on triage weeks (triage/<yyyy-mm-dd>.md). A real
// site has its own content/ folder next to perfpages.toml; these pages
// describe the generated demo data (generator/demo).
package content

import "embed"

// FS is the demo site's content folder.
//
//go:embed all:*.md all:triage
var FS embed.FS
