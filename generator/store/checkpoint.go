package store

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/capped"
)

// The checkpoint: the dataset builder's state after the archives' runs,
// for the next build to resume from rather than add every run again. It
// is columnar and in parts (model.Builder.WriteStateLeaving): builder.ckpt holds
// the dataset-wide part — after the file's magic line and version, the
// length of the list of inputs it holds (8 bytes, little-endian), that
// list (a gob of []Held), the checkpoint's generation (16 random bytes),
// then the builder's dataset-wide state (runs, artifacts, machines,
// warnings: what every new run's merge reads) — and, for the i-th chunk
// of series (model.StateChunk series each, in key order), builder-<i>.ckpt
// the columns of its points, which are decoded into the dataset and
// dropped, and builder-<i>.floats their samples and iteration counts
// (model's checkpoint.go and floatcodec.go have the layout).
//
// Each chunk file is sealed, checked and versioned like every named file,
// its version naming the generation of the builder.ckpt it belongs to, so
// that a chunk of another checkpoint (a build killed between writing the
// chunks and the head) is never mixed in: it is not read, and the build
// adds every run again. Chunks are read and decoded on every core at once.

const checkpointName = "builder.ckpt"

// chunkName is the file of chunk i's columns, floatsName of its floats.
func chunkName(i int) string  { return fmt.Sprintf("builder-%d.ckpt", i) }
func floatsName(i int) string { return fmt.Sprintf("builder-%d.floats", i) }

// partVersion is the version of the part name of a chunk of the
// checkpoint of generation gen, kept with options.
func partVersion(name, options string, gen []byte) [32]byte {
	return version(Tool(), name, options+"\x00"+hex.EncodeToString(gen))
}

// Held is an input file a checkpoint holds, in the order the builder took
// them: its key, its origin, the problems found reading it, and the
// artifact of its run ("" when it has none).
type Held struct {
	Key    [32]byte
	Origin string
	// Place is where the file is in the project (its origin relative to
	// the config's folder, see config.Relative): a project moved whole
	// finds its files by it ("" in a checkpoint of an older build).
	Place    string
	Problems []Problem
	Artifact string
}

// HasCheckpoint reports whether the store lists a checkpoint under
// options (which Checkpoint may still find broken): a build without one
// decodes every file, and need not hash them all before it knows.
func (s *Store) HasCheckpoint(options string) bool {
	s.mu.Lock()
	e, ok := s.index[checkpointName]
	s.mu.Unlock()
	return ok && e.Version == version(Tool(), checkpointName, options)
}

// Checkpoint returns the inputs, the builder's dataset-wide state and a
// reader of its chunks (for model.ResumeBuilderFrom, safe to call on
// several goroutines; the parts are read into cols' and floats' memory
// when large enough) of the checkpoint kept with options (what it depends
// on besides its inputs: the builder checks its own options); false when
// there is none of that version, or it is broken. A chunk a part of which
// is missing, of another checkpoint or broken is false from chunk (a
// broken one is also a warning, and removed).
//
// A chunk's floats part comes with its file, open (model.ChunkParts.At):
// the resumed dataset reads its points' samples from there when they are
// asked for, rather than holding them (model's lazyfloats.go). It is not
// read at all when its identity on disk is the one a build checked
// (openTrusted): the chunk's columns list its segments' sums, each checked
// when the segment is read. The file is the one that was read and checked,
// or trusted: a later build's checkpoint
// replaces it by a rename, which leaves the open file as it was. It is
// closed when the dataset no longer refers to it (os.File's cleanup).
func (s *Store) Checkpoint(options string) (held []Held, state []byte, chunk func(i int, cols, floats []byte) (model.ChunkParts, bool), ok bool) {
	payload, ok := s.read(checkpointName, version(Tool(), checkpointName, options))
	if !ok {
		return nil, nil, nil, false
	}
	var gen []byte
	err := errors.New("the list of inputs ends early")
	if len(payload) >= 8 {
		if n := binary.LittleEndian.Uint64(payload); n <= uint64(len(payload)-8) && uint64(len(payload)-8)-n >= 16 {
			err = gob.NewDecoder(bytes.NewReader(payload[8 : 8+n])).Decode(&held)
			gen, state = payload[8+n:8+n+16], payload[8+n+16:]
		}
	}
	if err != nil {
		s.broken(checkpointName, err)
		return nil, nil, nil, false
	}
	chunk = func(i int, cols, floats []byte) (model.ChunkParts, bool) {
		cols, ok := s.readInto(chunkName(i), partVersion(chunkName(i), options, gen), cols)
		if !ok {
			return model.ChunkParts{}, false
		}
		name := floatsName(i)
		v := partVersion(name, options, gen)
		if f, n, ok := s.openTrusted(name, v); ok {
			return model.ChunkParts{Cols: cols, At: f, Off: payloadOffset(name), FloatsLen: n}, true
		}
		floats, f, ok := s.readOpen(name, v, floats, true)
		if !ok {
			return model.ChunkParts{}, false
		}
		return model.ChunkParts{Cols: cols, Floats: floats, At: f, Off: payloadOffset(name)}, true
	}
	return held, state, chunk, true
}

// Spill returns a file in the store's folder that no name reaches (it is
// removed as soon as it is made), for a builder's samples as it adds
// them (model.BuildOptions.Spill): at L, 0.8 GB that a cold build
// otherwise held until it wrote its checkpoint. Its space is freed when
// it is closed, by its os.File's cleanup once nothing refers to it (the
// checkpoint's files take over its points, SaveCheckpoint). A build
// killed before the removal leaves a .tmp- file, which the next build's
// prune removes as it does those of a write.
func (s *Store) Spill() (*os.File, error) {
	f, err := os.CreateTemp(s.dir, ".tmp-spill-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// SaveCheckpoint keeps b's state, before b takes other runs, with the
// inputs held it holds, under options (see Checkpoint): the chunks first,
// then the head that names their generation. A failure is one of the
// store's warnings: the next build adds every run again.
//
// Once the checkpoint is kept, the .run entries of the inputs it holds are
// not: Prune removes them although this build read or wrote them. The
// checkpoint holds their runs, and a .run entry is what a build adds when
// the checkpoint does not hold its input (a file added since, kept until a
// checkpoint holds it). At M the entries were 111 MB beside the
// checkpoint's 131 MB, for the one case the checkpoint cannot serve: a
// file it holds changed or gone, or a run that makes the resumed builder
// diverge; such a build decodes the files again (see generator's
// checkpoint.go), as a cold build does.
func (s *Store) SaveCheckpoint(options string, held []Held, b *model.Builder) {
	var list bytes.Buffer
	if err := gob.NewEncoder(&list).Encode(held); err != nil {
		s.warn(fmt.Errorf("store %s: %w", checkpointName, err))
		return
	}
	gen := make([]byte, 16)
	rand.Read(gen)
	// The head is made as the state is written, after its chunks.
	var head bytes.Buffer
	prefix := len(magicOf(checkpointName)) + 32 + 8 + list.Len() + 16
	// b's points are left reading their samples from the floats files
	// written, open, as a resumed builder's (Checkpoint).
	err := b.WriteStateLeaving(&head, prefix, func(i int, cols, floats model.StatePart) (io.ReaderAt, int64, error) {
		if err := s.write(chunkName(i), partVersion(chunkName(i), options, gen), cols); err != nil {
			return nil, 0, err
		}
		name := floatsName(i)
		if err := s.write(name, partVersion(name, options, gen), floats); err != nil {
			return nil, 0, err
		}
		f, _, err := capped.OpenRegular(filepath.Join(s.dir, name), false)
		if err != nil {
			return nil, 0, nil // the samples stay where they are
		}
		return f, payloadOffset(name), nil
	})
	if err == nil {
		err = s.write(checkpointName, version(Tool(), checkpointName, options), func(w io.Writer, offset int) error {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(list.Len()))
			for _, part := range [][]byte{n[:], list.Bytes(), gen, head.Bytes()} {
				if _, err := w.Write(part); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		s.warn(err)
		return
	}
	s.mu.Lock()
	for _, h := range held {
		delete(s.used, h.Key)
	}
	s.mu.Unlock()
}
