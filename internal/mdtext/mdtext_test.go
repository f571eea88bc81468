package mdtext_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/internal/mdtext"
	"github.com/perfpages/perfpages/internal/mdtext/mdtest"
)

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"json-decode":              "json-decode",
		"  padded  ":               "padded",
		"two\nlines\r\nthree":      `two\nlines\r\nthree`,
		"tab\there":                `tab\there`,
		"esc\x1b[31mred":           `esc\x1b[31mred`,
		"nul\x00c1\u0085sep\u2028": `nul\x00c1\u0085sep\u2028`,
		"rlo\u202etxt.exe":         `rlo\u202etxt.exe`,
		"bad\xffutf8":              `bad\xffutf8`,
	} {
		if got := mdtext.Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// Ordinary names are left alone.
		{"json-decode", "json-decode"},
		{"wall_ms_warn", "wall_ms_warn"},
		{"instructions:u", "instructions:u"},
		{"go1.26 size=large", "go1.26 size=large"},
		{"json-decode{size=small}/wall-time_warn", "json-decode{size=small}/wall-time_warn"},
		{"Speed up the parser (#12)", "Speed up the parser (#12)"},
		{"no baseline found for bench 'x' at missing.json, skipping comparison", "no baseline found for bench 'x' at missing.json, skipping comparison"},
		// Markup that could start anywhere.
		{"[click](https://evil.example)", `\[click\](https\://evil.example)`},
		{"![i](x.png)", `!\[i\](x.png)`},
		{"<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"a *b* _c_ `d` ~e~ | f & g $x$", "a \\*b\\* \\_c\\_ \\`d\\` \\~e\\~ \\| f \\& g \\$x\\$"},
		{`back\slash`, `back\\slash`},
		{"_lead and trail_", `\_lead and trail\_`},
		{"snake__case", `snake\_\_case`},
		// Blocks that could open at the start of a line.
		{"# Pwned", `\# Pwned`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"=== setext", `\=== setext`},
		{"1. first", `1\. first`},
		{"12) twelfth", `12\) twelfth`},
		{"> quote", `\> quote`},
		{"mid # - + = 1. are fine", "mid # - + = 1. are fine"},
		// Autolinks and mentions.
		{"see www.evil.com or WWW.EVIL.COM", `see www\.evil.com or WWW\.EVIL.COM`},
		{"ftp://x.org", `ftp\://x.org`},
		{"@admin and me@example.com", "@\u200Badmin and me@\u200Bexample.com"},
		// Normalised to one line.
		{"  two\nlines  ", `two\\nlines`},
	} {
		if got := mdtext.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	for _, tt := range []struct{ in, code, cell string }{
		{"json-decode", "`json-decode`", "`json-decode`"},
		{"a`b", "``a`b``", "``a`b``"},
		{"``x", "``` ``x ```", "``` ``x ```"},
		{"x`", "`` x` ``", "`` x` ``"},
		{"a|b", "`a|b`", "`a\\|b`"},
		{`a\|b`, "`a\\|b`", "`a\\\\|b`"},
		{"two\nlines", "`two\\nlines`", "`two\\nlines`"},
		{"  ", "", ""},
		{"@admin <b>", "`@admin <b>`", "`@admin <b>`"},
	} {
		if got := mdtext.Code(tt.in); got != tt.code {
			t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.code)
		}
		if got := mdtext.CodeCell(tt.in); got != tt.cell {
			t.Errorf("CodeCell(%q) = %q, want %q", tt.in, got, tt.cell)
		}
	}
}

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://x.github.io/bench/compare/a...b/#metric-wall-time": "https://x.github.io/bench/compare/a...b/#metric-wall-time",
		"https://x/a b)[c](d)<e>":                                   "https://x/a%20b%29%5Bc%5D%28d%29%3Ce%3E",
		"https://x/é\n":                                             "https://x/%C3%A9%0A",
	} {
		if got := mdtext.URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

// contexts are the places the writers put data: each holds one %s, and
// what fills it is a fragment made by Text, Code or CodeCell.
var contexts = []struct {
	name   string
	format string
	fn     func(string) string
	code   bool
}{
	{"text at line start", "%s [#7](https://e.example/pull/7) [(Comparison Link)](https://e.example/c/)\n", mdtext.Text, false},
	{"text in a sentence", "Finished benchmarking %s against x: [URL](https://e.example/c/).\n", mdtext.Text, false},
	{"text in a list item", "**Warnings:**\n- %s\n", mdtext.Text, false},
	{"text in a quoted list", "> [!WARNING]\n> Failed:\n> - `x` %s on m: `e`\n", mdtext.Text, false},
	{"text in a heading link", "### [%s](https://e.example/c/#metric-x)\nnext\n", mdtext.Text, false},
	{"text in a table header", "| (%s) | mean |\n|:--:|:--:|\n| a <br /> b | 1.0%% |\n", mdtext.Text, false},
	{"text in a table cell", "| metric | value |\n|---|---:|\n| `m` | 1 %s |\n", mdtext.Text, false},
	{"code in a quoted list", "> - %s wall-time on m: `e`\n", mdtext.Code, true},
	{"code after bold", "**Bench:** %s\n\nnext\n", mdtext.Code, true},
	{"code in a table cell", "| metric | value |\n|---|---:|\n| %s | 1 ms |\n", mdtext.CodeCell, true},
}

// FuzzFragments checks every way a writer places data against goldmark
// with GitHub's extensions: the document has the shape it has with a
// plain word in the same place, and shows the fuzzed string.
func FuzzFragments(f *testing.F) {
	for _, s := range []string{
		"json-decode", "# Pwned [x](https://evil) ![i](https://evil/i.png) @admin <img src=x onerror=alert(1)>",
		"a|b", "`", "``a`", `a\|b\`, "- [ ] task", "1. x", "    indented", "www.evil.com", "me@example.com",
		"*a* _b_ ~c~ **d**", "&amp; &#60;", "<http://x>", "[^1]", "---", "===", "> q", "| a | b |", "\\", "$x$",
		"a\nb", "<details>", "\x00", "\xff", "@", "x_", "_", "evil\u202etxt.exe", "\x1b[31mred\u2066",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range contexts {
			frag := c.fn(s)
			if mdtext.Line(s) == "" {
				if frag != "" {
					t.Errorf("%s: %q gives %q, want nothing", c.name, s, frag)
				}
				continue
			}
			clean := fmt.Sprintf(c.format, c.fn("QXQ"))
			hostile := fmt.Sprintf(c.format, frag)
			want := map[string]string{"QXQ": mdtest.Shown(s, c.code)}
			if p := mdtest.Check([]byte(hostile), []byte(clean), want, []string{"https://e.example/"}); p != "" {
				t.Errorf("%s: %q as %q:\n%s\nMarkdown:\n%s", c.name, s, frag, p, hostile)
			}
		}
	})
}

func TestFragmentsKeepNamesReadable(t *testing.T) {
	// The names of the demo data and of perfgate's metrics need no
	// escaping: the Markdown source reads like the rendered text.
	for _, s := range []string{"json-decode", "instructions:u", "max-rss", "wall_ms", "throughput_per_s", "linux-x64-1", "go1.26", "size=large"} {
		if got := mdtext.Text(s); got != s || strings.Contains(mdtext.Code(s), `\`) {
			t.Errorf("Text(%q) = %q", s, got)
		}
	}
}
