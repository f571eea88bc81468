// Package nearest finds the name a misspelt one was meant to be: the
// "did you mean" of a configuration key that names a metric, machine or
// benchmark the results do not have ([budgets.walltime] for wall-time).
//
// It is the one place such suggestions are made, so that every message
// suggests by the same rule: the edit distance (Levenshtein: insertions,
// deletions and substitutions of one character) between the two names
// with case, '-', '_', '.', ' ' and ':' set aside, since those are what
// names are most often written differently by (wall_time, WallTime,
// wall-time); a name that differs only in them is at distance 0 but never
// equal.
package nearest

import (
	"strings"
	"unicode"
)

// Name returns the candidate nearest to name, and false when none is
// near enough to suggest: within a third of the longer name's length
// (at least 1, so that "walltime" finds "wall-time" and "cpu-ns" finds
// "cpu-ms", but "rss" does not find "wall-time"), or one of which the
// other is a prefix ("instructions" for "instructions:u"). Ties go to
// the candidate first in sorted order, so the answer does not depend on
// the order of candidates.
func Name(name string, candidates []string) (string, bool) {
	key := fold(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == name {
			return c, true
		}
		ck := fold(c)
		d := distance(key, ck)
		if d > limit(key, ck) && !prefix(key, ck) {
			continue
		}
		if bestDist < 0 || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best, bestDist >= 0
}

// limit is the largest distance at which two folded names are still
// taken for one another.
func limit(a, b []rune) int {
	n := max(len(a), len(b)) / 3
	return max(n, 1)
}

// prefix reports whether one folded name begins the other, the shorter
// being at least 3 characters long.
func prefix(a, b []rune) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 3 && string(b[:len(a)]) == string(a)
}

// fold is name without case and separators.
func fold(name string) []rune {
	out := make([]rune, 0, len(name))
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' || r == ':' || unicode.IsSpace(r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// distance is the Levenshtein distance of a and b, in one row of
// memory.
func distance(a, b []rune) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(b)]
}
