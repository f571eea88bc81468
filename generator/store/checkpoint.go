package store

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"

	"github.com/perfpages/perfpages/analysis/model"
)

// The checkpoint (builder.ckpt): the dataset builder's state after the
// archives' runs, for the next build to resume from rather than add every
// run again. After the file's magic line and version: the length of the
// list of inputs it holds (8 bytes, little-endian), that list (a gob of
// []Held), then the builder's state (model.Builder.WriteState), whose
// columns are used in place where the file was read.

const checkpointName = "builder.ckpt"

// Held is an input file a checkpoint holds, in the order the builder took
// them: its key, its origin, the problems found reading it, and the
// artifact of its run ("" when it has none).
type Held struct {
	Key      [32]byte
	Origin   string
	Problems []Problem
	Artifact string
}

// Checkpoint returns the inputs and the builder's state (for
// model.ResumeBuilder) of the checkpoint kept with options (what it
// depends on besides its inputs: the builder checks its own options);
// false when there is none of that version, or it is broken.
func (s *Store) Checkpoint(options string) (held []Held, state []byte, ok bool) {
	payload, ok := s.read(checkpointName, version(Tool(), checkpointName, options))
	if !ok {
		return nil, nil, false
	}
	err := errors.New("the list of inputs ends early")
	if len(payload) >= 8 {
		if n := binary.LittleEndian.Uint64(payload); n <= uint64(len(payload)-8) {
			err = gob.NewDecoder(bytes.NewReader(payload[8 : 8+n])).Decode(&held)
			state = payload[8+n:]
		}
	}
	if err != nil {
		s.broken(checkpointName, err)
		return nil, nil, false
	}
	return held, state, true
}

// SaveCheckpoint keeps b's state, before b takes other runs, with the
// inputs held it holds, under options (see Checkpoint). A failure is one
// of the store's warnings: the next build adds every run again.
func (s *Store) SaveCheckpoint(options string, held []Held, b *model.Builder) {
	var list bytes.Buffer
	if err := gob.NewEncoder(&list).Encode(held); err != nil {
		s.warn(fmt.Errorf("store %s: %w", checkpointName, err))
		return
	}
	err := s.write(checkpointName, version(Tool(), checkpointName, options), func(w io.Writer, offset int) error {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(list.Len()))
		if _, err := w.Write(n[:]); err != nil {
			return err
		}
		if _, err := w.Write(list.Bytes()); err != nil {
			return err
		}
		return b.WriteState(w, offset+8+list.Len())
	})
	if err != nil {
		s.warn(err)
	}
}
