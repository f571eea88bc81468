package render

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/themes"
)

// TestScriptZCapped: the rows the script builds from the data explain a
// capped z-score in the words of the rows the generator writes
// (report.ZCapped; e2e's pre-rendered rows test compares whole rows).
func TestScriptZCapped(t *testing.T) {
	js, err := fs.ReadFile(themes.Default, "static/js/site.js")
	if err != nil {
		t.Fatal(err)
	}
	if want := "var Z_CAPPED = " + strconv.Quote(report.ZCapped) + ";"; !strings.Contains(string(js), want) {
		t.Errorf("site.js lacks %s", want)
	}
}
