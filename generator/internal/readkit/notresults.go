package readkit

import "bytes"

// Messages of [NotResults], a contract of sorts: they give the fix.
const (
	LFSPointerMsg = "is a Git LFS pointer, not the results: run `git lfs pull` (or check out with lfs: true)"
	UTF16Msg      = "is UTF-16 encoded: save it as UTF-8 (PowerShell's > writes UTF-16; use Out-File -Encoding utf8)"
)

// NotResults returns a fatal problem naming file when data is not text a
// reader can parse but what a common mistake leaves in its place, and nil
// otherwise:
//
//   - a Git LFS pointer ("version https://git-lfs.github.com/spec/v1",
//     an oid and a size): the repository stores the results in LFS and
//     the checkout did not fetch them (actions/checkout without lfs: true,
//     a clone without git-lfs installed);
//   - UTF-16, with a byte order mark (FF FE, FE FF) or without one, its
//     ASCII characters each followed or preceded by a NUL byte: what
//     Windows PowerShell 5's `>` and Out-File write.
//
// Every reader would otherwise report either as a syntax error at line 1,
// which says nothing of the fix. It is the first look every reader takes
// at a file's bytes (after gunzip): archive.Decode, foreign.Read for every
// foreign format, and perfgate.ReadInput for check and export.
func NotResults(file string, data []byte) *Problem {
	switch {
	case isLFSPointer(data):
		return &Problem{File: file, Msg: LFSPointerMsg, Fatal: true}
	case isUTF16(data):
		return &Problem{File: file, Msg: UTF16Msg, Fatal: true}
	}
	return nil
}

// isLFSPointer: a pointer file starts with its version line and is under
// 1024 bytes (the Git LFS specification); hawser was LFS's early name.
func isLFSPointer(data []byte) bool {
	if len(data) >= 1024 {
		return false
	}
	for _, v := range []string{"version https://git-lfs.github.com/spec/", "version https://hawser.github.com/spec/"} {
		if bytes.HasPrefix(data, []byte(v)) {
			return true
		}
	}
	return false
}

// isUTF16 looks for a UTF-16 byte order mark, or for NUL bytes beside
// three quarters or more of the first 256 characters: in UTF-16, every
// ASCII character (all of JSON's and a benchmark log's syntax) has a NUL
// high byte, which UTF-8 text never holds.
func isUTF16(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return true
	}
	sample := data[:min(len(data), 512)]
	pairs := len(sample) / 2
	if pairs < 2 {
		return false
	}
	le, be := 0, 0
	for i := 0; i+1 < len(sample); i += 2 {
		switch lo, hi := sample[i], sample[i+1]; {
		case lo != 0 && hi == 0:
			le++
		case lo == 0 && hi != 0:
			be++
		}
	}
	return le*4 >= pairs*3 || be*4 >= pairs*3
}
