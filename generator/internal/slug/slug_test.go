package slug

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"json-decode", "json-decode"},
		{"sort_1000.v2", "sort_1000.v2"},
		{"JSON-Decode", "json-decode-69e0bff2"},
		{"http router", "http-router-4b0e9a36"},
		{"../../etc/passwd", "etc-passwd-3754d6cb"},
		{"..", "5ec1f7e7"},
		{".", "cdb4ee2a"},
		{"", "e3b0c442"},
		{"<script>alert(1)</script>", "script-alert-1-script-5c140d35"},
		{"a\x00b", "a-b-59b271ae"},
		{"ベンチ", "b4292723"},
	}
	for _, tt := range tests {
		got := Name(tt.in)
		if got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := Name(strings.Repeat("a", 500))
	if len(long) > maxLen+9 {
		t.Errorf("Slug of a long name has %d bytes", len(long))
	}
	// A slug is always a single safe path segment.
	for _, in := range []string{"a/b", `a\b`, "../..", "...", "-.-", "a..b"} {
		s := Name(in)
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") || !filepath.IsLocal(s) {
			t.Errorf("Name(%q) = %q is not a safe segment", in, s)
		}
	}
}

func TestArtifact(t *testing.T) {
	sha := "0123456789abcdef0123456789abcdef01234567"
	if got := Artifact(sha); got != sha {
		t.Errorf("Artifact(sha) = %q", got)
	}
	if got := Artifact("v1.2.0"); got != "v1.2.0" {
		t.Errorf("Artifact(v1.2.0) = %q", got)
	}
	if got := Artifact("../v1"); strings.Contains(got, "/") {
		t.Errorf("Artifact(../v1) = %q", got)
	}
}
