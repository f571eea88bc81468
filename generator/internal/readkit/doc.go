// Package readkit is what every reader of input files shares, written
// once: the line of a byte offset, the [Problem] that names a file and a
// line, the [ValidUTF8] pass, lenient JSON for files that Python wrote
// ([Lenient]: bare NaN and Infinity), and a JSON parser that records the
// line of every value ([ParseJSON]) into the tree ([Node]) that the
// archive codecs (JSON, YAML, TOML) and the foreign JSON readers build.
// Every JSON reader parses with ParseJSON, so that lines, caps and
// syntax errors are worked out in one place; a reader walks the tree, or
// fills a Go value from it ([Decode]), and quotes a value's text from it
// ([Source]). A file cut short still gives what it holds
// ([JSONOptions.Partial]).
//
// It sits at the start of the sources stage (see the architecture section
// of the README), under generator/archive, generator/foreign,
// generator/source and generator/receipt, and imports none of them: a
// reader may use any of it, it uses no reader.
//
// One edge rule holds for every position: a byte belongs to the line it is
// on, and a newline to the line it ends ([LineAt]). An error found after
// reading n bytes (encoding/json's SyntaxError.Offset) is on the line of
// the last byte read ([ErrorLine]), so a truncated file is reported at its
// last line, not at the empty line after its final newline.
package readkit
