package contentdir

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		name, in string
		want     FrontMatter
		body     string
		err      string
	}{
		{"none", "# Hi\n", FrontMatter{}, "# Hi\n", ""},
		{"yaml", "---\ntitle: About\nweight: 2\nmenu: true\n---\nbody\n", FrontMatter{Title: "About", Weight: 2, Menu: true}, "body\n", ""},
		{"toml", "+++\ntitle = \"About\"\ndraft = true\n+++\nbody\n", FrontMatter{Title: "About", Draft: true}, "body\n", ""},
		{"crlf", "---\r\ntitle: A\r\n---\r\nbody\r\n", FrontMatter{Title: "A"}, "body\n", ""},
		{"empty yaml", "---\n---\nbody", FrontMatter{}, "body", ""},
		{"unknown yaml key", "---\ntitle: A\ntitel: B\n---\n", FrontMatter{}, "", `page.md:3: front matter: unknown key "titel"`},
		{"unknown toml key", "+++\ntitel = \"B\"\n+++\n", FrontMatter{}, "", `page.md: front matter: unknown key "titel"`},
		{"bad toml", "+++\ntitle = \n+++\n", FrontMatter{}, "", "page.md:2: front matter:"},
		{"unclosed", "---\ntitle: A\n", FrontMatter{}, "", "page.md:1: front matter opened with --- is never closed"},
		{"bad yaml type", "---\nweight: heavy\n---\n", FrontMatter{}, "", "page.md:2: front matter: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, body, err := ParseFrontMatter("page.md", []byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, fm); d != "" {
				t.Errorf("front matter (-want +got):\n%s", d)
			}
			if string(body) != tt.body {
				t.Errorf("body = %q, want %q", body, tt.body)
			}
		})
	}
}

func FuzzParseFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ntitle: A\n---\nx", "+++\ntitle = \"A\"\n+++\n", "# x", "---\n", "+++\n+++", "---\n---"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, body, err := ParseFrontMatter("f.md", data)
		if err != nil && !strings.HasPrefix(err.Error(), "f.md") {
			t.Errorf("error does not name the file: %v", err)
		}
		if err == nil && len(body) > len(data) {
			t.Errorf("body longer than the input")
		}
	})
}
