//go:build !unix

package capped

// openNoFollow: elsewhere the Lstat before the open and the check through
// the descriptor after it stand alone.
const openNoFollow = 0
