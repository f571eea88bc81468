package foreign

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/internal/sourcespec"
)

func TestPattern(t *testing.T) {
	for _, tt := range []struct {
		pattern, path       string
		ok                  bool
		id, machine, prefix string
		pr                  int
		date                time.Time
	}{
		{pattern: "{sha}/{machine}.txt", path: "abc123/linux-x64.txt", ok: true, id: "abc123", machine: "linux-x64"},
		{pattern: "{sha}/{machine}.txt", path: "abc123/linux-x64.json", ok: false},
		{pattern: "{sha}/{machine}.txt", path: "x/abc123/linux.txt", ok: false},
		{pattern: "results/{date}-{sha}.json", path: "results/2026-11-20-abc.json", ok: true, id: "abc", date: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)},
		{pattern: "pr-{pr}/{id}/out.json", path: "pr-42/abc/out.json", ok: true, id: "abc", pr: 42},
		{pattern: "{*}/{sha}.txt", path: "anything/abc.txt", ok: true, id: "abc"},
		{pattern: "{sha}/criterion/", path: "abc/criterion/fib/new/sample.json", ok: true, id: "abc", prefix: "abc/criterion/"},
	} {
		p, err := ParsePattern("gobench", tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		def, prefix, ok := p.Match(tt.path)
		if ok != tt.ok || def.Artifact.ID != tt.id || def.Machine.Name != tt.machine || def.Artifact.PR != tt.pr || !def.Artifact.Date.Equal(tt.date) || prefix != tt.prefix {
			t.Errorf("%s on %s: %+v %q %v", tt.pattern, tt.path, def, prefix, ok)
		}
	}
	for _, bad := range []string{"", "{machine}.txt", "{sha}/{host}.txt", "{sha"} {
		if _, err := ParsePattern("gobench", bad); err == nil {
			t.Errorf("pattern %q accepted", bad)
		}
	}
	// A format that records its commit needs no {sha}: a data.js per
	// runner.
	p, err := ParsePattern("gab", "{machine}/data.js")
	if err != nil {
		t.Fatal(err)
	}
	if def, _, ok := p.Match("ubuntu-latest/data.js"); !ok || def.Machine.Name != "ubuntu-latest" || def.Artifact.ID != "" {
		t.Errorf("{machine}/data.js on ubuntu-latest/data.js: %+v, %v", def, ok)
	}
}

func TestDetectUnknown(t *testing.T) {
	_, err := Detect(Input{Name: "x.txt", Data: []byte("hello")})
	if err == nil || !strings.Contains(err.Error(), "x.txt: not a result file of any known format (tried ") {
		t.Errorf("error %v", err)
	}
}

// TestFormatNames: the formats registered here are the names config
// accepts (sourcespec.Formats, which config checks without importing this
// reader).
func TestFormatNames(t *testing.T) {
	if d := cmp.Diff(sourcespec.Formats, Names()); d != "" {
		t.Errorf("sourcespec.Formats (-) and the registered formats (+) differ:\n%s", d)
	}
}
