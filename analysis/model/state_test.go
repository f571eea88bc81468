package model

import "io"

// The state's API as most tests call it: chunks held in memory.

// WriteState is WriteStateLeaving with every chunk's samples left where
// they are.
func (b *Builder) WriteState(w io.Writer, offset int, chunk func(i int, cols, floats StatePart) error) error {
	return b.WriteStateLeaving(w, offset, func(i int, cols, floats StatePart) (io.ReaderAt, int64, error) {
		return nil, 0, chunk(i, cols, floats)
	})
}

// ResumeBuilder is ResumeBuilderFrom with chunk(i, scratch) returning
// chunk i's parts, the columns in scratch's memory when large enough; the
// points refer to the floats parts.
func ResumeBuilder(opts BuildOptions, state []byte, chunk func(i int, scratch []byte) (cols, floats []byte, ok bool), pos func(run int, origin string) (int, string, bool)) (*Builder, error) {
	return ResumeBuilderFrom(opts, state, func(i int, cols, _ []byte) (ChunkParts, bool) {
		c, f, ok := chunk(i, cols)
		return ChunkParts{Cols: c, Floats: f}, ok
	}, pos)
}
