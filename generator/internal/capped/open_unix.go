//go:build unix

package capped

import "syscall"

// Flags of OpenRegular's open: never wait on a named pipe or device, never
// make a terminal the controlling one, and (for files perfpages keeps)
// fail on a symbolic link.
const (
	openNonBlocking = syscall.O_NONBLOCK | syscall.O_NOCTTY
	openNoFollow    = syscall.O_NOFOLLOW
)
