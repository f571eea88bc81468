//go:build !linux

package model

// adviseHuge does nothing where there is no madvise (see the Linux one).
func adviseHuge[T any]([]T) {}
