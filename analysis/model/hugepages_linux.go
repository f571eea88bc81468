package model

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks the kernel for huge pages for the memory of s, which
// is about to be written in full for the first time: where transparent
// huge pages are on request (madvise, the default of most distributions
// and of GitHub's runners), a resumed dataset's points otherwise fault
// their memory in 4 KiB at a time (at L, 1.2 GB of points: 4.4 of a
// nightly build's 19 CPU-s of load were those first writes). Only the
// 2 MiB-aligned part inside s is advised; an error is ignored (the
// advice is only that).
func adviseHuge[T any](s []T) {
	const huge = 2 << 20
	var zero T
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + uintptr(len(b))) &^ (huge - 1)
	if hi <= lo {
		return
	}
	syscall.Madvise(b[lo-start:hi-start], syscall.MADV_HUGEPAGE)
}
