package store

import (
	"os"
	"path/filepath"
	"time"
)

// Output is what the store remembers of a file of the site.
type Output struct {
	// Key is the key of the inputs the file was made from (the plan's
	// output key), "" when it has none.
	Key string
	// Size, Time and Sum describe the file as written: a file that no
	// longer matches them was changed by someone else and is not reused.
	Size int64
	Time time.Time
	Sum  [32]byte
}

// Outputs is the manifest of the last build's site, by path (slash
// separated, relative to the site's root).
type Outputs map[string]Output

const outputsMagic = "perfpages outputs v1\n"

// Outputs returns the manifest of the last build, nil when there is none.
func (s *Store) Outputs() Outputs {
	var o Outputs
	if !s.loadGob("outputs.gob", outputsMagic, &o) {
		return nil
	}
	return o
}

// SaveOutputs records the manifest of the site just built.
func (s *Store) SaveOutputs(o Outputs) error { return s.saveGob("outputs.gob", outputsMagic, o) }

// Check keeps the entries whose file under root still has the recorded
// size and time, and reports whether every file did.
func (o Outputs) Check(root string) (Outputs, bool) {
	out := make(Outputs, len(o))
	all := true
	for p, e := range o {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != e.Size || !fi.ModTime().Equal(e.Time) {
			all = false
			continue
		}
		out[p] = e
	}
	return out, all
}

// State is what a build leaves for the next one to decide it has nothing
// to do: the fingerprint of its inputs and what it reported.
type State struct {
	Fingerprint [32]byte
	// Out is the output folder the state is about.
	Out string
	// Warnings and Notes are what the build printed, to print again.
	Warnings, Notes []string
	// Pages and Files are its counts, Artifacts and Series its dataset's.
	Pages, Files, Artifacts, Series int
}

const stateMagic = "perfpages state v1\n"

// State returns the state of the last successful build, if any.
func (s *Store) State() (State, bool) {
	var st State
	ok := s.loadGob("state.gob", stateMagic, &st)
	return st, ok
}

// SaveState records the state of a successful build.
func (s *Store) SaveState(st State) error { return s.saveGob("state.gob", stateMagic, st) }

// ClearState forgets the last build's state (a build is under way: if it
// fails, the next one must not believe nothing changed).
func (s *Store) ClearState() { os.Remove(filepath.Join(s.dir, "state.gob")) }

// LoadValue reads the value the last build saved under name (a gob), and
// reports whether there was a good one.
func (s *Store) LoadValue(name string, v any) bool {
	return s.loadGob(name+".gob", "perfpages "+name+" v1\n", v)
}

// SaveValue saves v under name for the next build.
func (s *Store) SaveValue(name string, v any) error {
	return s.saveGob(name+".gob", "perfpages "+name+" v1\n", v)
}
