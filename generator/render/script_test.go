package render

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/themes"
)

// TestScriptZCapped: the rows the script builds from the data explain a
// capped z-score in the words of the rows the generator writes
// (report.ZCapped; e2e's pre-rendered rows test compares whole rows).
func TestScriptZCapped(t *testing.T) {
	js, err := fs.ReadFile(themes.Default, "script/20-format.js")
	if err != nil {
		t.Fatal(err)
	}
	if want := "var Z_CAPPED = " + strconv.Quote(report.ZCapped) + ";"; !strings.Contains(string(js), want) {
		t.Errorf("script/20-format.js lacks %s", want)
	}
}

// TestSiteScript: js/site.js is the theme's script/*.js files in name
// order inside one function; a user theme's file replaces the default's of
// the same name or adds one, and its static/js/site.js replaces them all.
func TestSiteScript(t *testing.T) {
	funcs := (&Renderer{site: &sitemodel.SiteView{}}).funcs()
	script := func(user fstest.MapFS) string {
		t.Helper()
		th, err := LoadTheme([]fs.FS{user, themes.Default}, funcs)
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, f := range th.static {
			if f.path == "js/site.js" {
				found = append(found, string(f.data))
			}
		}
		if len(found) != 1 {
			t.Fatalf("%d static files js/site.js, want 1", len(found))
		}
		return found[0]
	}

	def := script(fstest.MapFS{})
	if !strings.HasPrefix(def, "(function () {\n// perfpages: progressive enhancement") || !strings.HasSuffix(def, "\n})();\n") {
		t.Errorf("the default script is not its parts inside one function:\n%.80s\n…\n%s", def, def[max(0, len(def)-80):])
	}
	if !strings.Contains(def, "var Z_CAPPED = ") {
		t.Error("the default script lacks script/20-format.js")
	}

	mine := script(fstest.MapFS{
		"script/20-format.js": {Data: []byte("var MINE = 1;\n")},
		"script/95-extra.js":  {Data: []byte("var EXTRA = 2;\n")},
		"script/notes.txt":    {Data: []byte("NOTES\n")},
	})
	if strings.Contains(mine, "var Z_CAPPED") || strings.Contains(mine, "NOTES") {
		t.Error("the user's script/20-format.js did not replace the default's, or a file not .js was joined")
	}
	mi, ei, ci := strings.Index(mine, "var MINE = 1;"), strings.Index(mine, "var EXTRA = 2;"), strings.Index(mine, "function copyButton(")
	if mi < 0 || ei < 0 || ci < 0 || !(mi < ci && ci < ei) {
		t.Errorf("the parts are not in name order: 20-format.js at %d, 90-copy.js at %d, 95-extra.js at %d", mi, ci, ei)
	}

	if whole := script(fstest.MapFS{"static/js/site.js": {Data: []byte("whole")}}); whole != "whole" {
		t.Errorf("a user's static/js/site.js did not replace the script: %.80q", whole)
	}
}
