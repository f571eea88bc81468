// Package e2e holds the real-browser end-to-end tests of the built site.
//
// It sits after the last stage of the build (see the architecture section
// of the README) and checks the files the way a reader meets them: the
// tests build the embedded demo site into a temporary folder, serve it over
// HTTP and drive headless Chromium through chromedp over the dashboard, a
// commit page, a PR page, a benchmark page, a triage week, a content page
// and 404.html. They require that charts draw, the row filter works, the
// console stays free of errors, no request leaves the site, every internal
// link resolves and the comparison tables are readable without JavaScript.
// On the smallest page of every kind that draws charts they also require
// that the theme's custom ECharts build (scripts/echarts) registers every
// series type, component and renderer the charts ask for and nothing more,
// and that the page costs at most 250 KB gzip to open.
//
// The package has no code of its own; everything is in its tests. The
// browser tests skip themselves when Chromium is not installed (.ci/run
// installs it with apt-get); set PERFPAGES_CHROMIUM to the path of another
// Chromium or Chrome binary to use that one instead.
package e2e
