package sitemodel

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
)

// GroupWarnings groups problems by kind: the message without the input it
// is about (the "file:line: " it starts with, quoted names and numbers).
// Each group keeps its count and the first few messages verbatim, in input
// order; identical messages count once per occurrence but are shown once.
// Groups are ordered by first occurrence.
//
// A history of a thousand versions of a file can say the same thing a
// thousand times: a build reports each kind once, with a count, so that a
// real problem is not buried.
func GroupWarnings(errs []error, first int) []WarningGroup {
	var out []WarningGroup
	idx := map[string]int{}
	for _, e := range errs {
		msg := e.Error()
		kind := WarningKind(msg)
		i, ok := idx[kind]
		if !ok {
			i = len(out)
			idx[kind] = i
			out = append(out, WarningGroup{Kind: kind})
		}
		g := &out[i]
		g.Count++
		if len(g.First) < first && !slices.Contains(g.First, msg) {
			g.First = append(g.First, msg)
		}
	}
	return out
}

var (
	// A leading location: "path:12:3: ", "path: ", "demo:x.json: ".
	locRe    = regexp.MustCompile(`^(?:[^\s:]+:)+(?:\d+:)*\s`)
	quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)
	numberRe = regexp.MustCompile(`\b[0-9a-f]{7,40}\b|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?`)
)

// WarningKind is the kind of a warning: its message with the location it
// starts with, quoted strings and numbers (and commit ids) blanked out.
func WarningKind(msg string) string {
	k := locRe.ReplaceAllString(msg, "")
	k = quotedRe.ReplaceAllString(k, `"…"`)
	k = numberRe.ReplaceAllString(k, "N")
	return strings.TrimSpace(k)
}

// More is the number of warnings of the group not shown verbatim.
func (g WarningGroup) More() int {
	n := g.Count - len(g.First)
	return max(n, 0)
}

// WarningTotal is the number of warnings in groups.
func WarningTotal(groups []WarningGroup) int {
	n := 0
	for _, g := range groups {
		n += g.Count
	}
	return n
}

// hashKey is the hex SHA-256 of parts, separated so that no two lists of
// parts share a key.
func hashKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
