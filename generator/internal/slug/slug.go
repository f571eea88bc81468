// Package slug turns names from benchmark data into safe, stable URL path
// segments. The site and the documents that link to it (reports, feeds)
// share it so that their URLs agree.
package slug

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
)

// maxSlug bounds a path segment made from data, well under every file
// system's 255-byte name limit.
const maxLen = 64

// Name turns a name from the data (a benchmark, a tag) into one safe path
// segment: lower-case ASCII letters, digits, '-', '_' and '.', never "." or
// "..", never starting with a dot, at most 64+9 bytes. A name that does not
// survive unchanged gets a short hash of the original appended, so two
// names never share a slug and the slug of a name never changes between
// builds (URLs get pasted into issues).
func Name(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9', r == '_', r == '.':
			b.WriteRune(r)
			dash = false
		case 'A' <= r && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
			dash = false
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
		if b.Len() >= maxLen {
			break
		}
	}
	s := strings.Trim(b.String(), "-.")
	s = strings.ReplaceAll(s, "..", "-")
	if s == name && s != "" {
		return s
	}
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:4])
	if s == "" {
		return h
	}
	return s + "-" + h
}

// Artifact is the path segment of an artifact: the id itself for git
// object ids (stable, what people expect in /commit/<sha>/), else a Name.
func Artifact(id string) string {
	if model.IsSHA(id) {
		return id
	}
	return Name(id)
}

// Metric is the anchor of a metric's section on a comparison page.
func Metric(name string) string { return "metric-" + Name(name) }
