//go:build !unix

package capped

// Elsewhere the checks before and after OpenRegular's open stand alone.
const (
	openNonBlocking = 0
	openNoFollow    = 0
)
