package render

import (
	"strings"
	"testing"
)

func TestMarkdownRawHTML(t *testing.T) {
	md := markdown("/sub/")
	got, err := renderMarkdown(md, []byte("| a | b |\n|---|---|\n| x <br /> y | <script>alert(1)</script> |\n\n[c](/commit/x/) <img src=x onerror=alert(1)>\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"x <br /> y", `<a href="/sub/commit/x/">c</a>`, "<!-- raw HTML omitted -->"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{"<script>", "<img", "onerror"} {
		if strings.Contains(string(got), bad) {
			t.Errorf("raw HTML %q passed through:\n%s", bad, got)
		}
	}
}
