package fileid

import "time"

// The tick of a file system's clock: RacyWindow where times are kept in
// whole seconds (FAT, ext3, HFS+: both times of the file are whole
// seconds), FineWindow elsewhere (Linux keeps file times from a clock that
// ticks every 1–10 ms).
const (
	RacyWindow = 3 * time.Second
	FineWindow = 100 * time.Millisecond
)

// Racy reports whether a file last modified at mod and changed at changed
// could still change within the same tick at now, unseen by its identity
// (git's "racy" files): such a file must be read, not trusted on its
// identity, until it is older than the tick.
func Racy(now, mod, changed time.Time) bool {
	window := FineWindow
	if mod.Nanosecond() == 0 && changed.Nanosecond() == 0 {
		window = RacyWindow
	}
	return now.Sub(changed) < window || now.Sub(mod) < window
}
