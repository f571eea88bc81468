//go:build unix

package capped

import "syscall"

// openNoFollow makes an open fail on a symbolic link and never wait on a
// named pipe or device.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
