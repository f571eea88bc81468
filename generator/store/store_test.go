package store

import (
	"crypto/sha256"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/perfpages/perfpages/analysis"
)

func sampleEntry() Entry {
	return Entry{
		Problems: []Problem{{Line: 3, Msg: `unknown field "colour"`}, {Msg: "whole file", Fatal: false}},
		Runs: []analysis.Run{{
			Artifact: analysis.Artifact{ID: strings.Repeat("a", 40), Kind: analysis.KindCommit, Date: time.Date(2026, 9, 7, 10, 0, 0, 5, time.UTC),
				Parents: []string{strings.Repeat("b", 40)}, Branch: "main", PR: 12, Title: "Speed up (#12) ✓", Author: "A", Baseline: ""},
			Machine: analysis.Machine{Name: "linux", OS: "linux", Arch: "amd64", CPU: "EPYC", Cores: 16, MemoryBytes: 1 << 35,
				Labels: analysis.Params{{Key: "rack", Value: "7"}}},
			Context: analysis.Params{{Key: "toolchain", Value: "go1.26"}},
			Results: []analysis.Result{
				{Case: analysis.TestCase{Benchmark: "json-decode", Category: analysis.Primary, Params: analysis.Params{{Key: "size", Value: "large"}}},
					Metric: "wall-time", Unit: "ns", Samples: []float64{1203.5, math.Inf(1), math.Copysign(0, -1), 5e-324}, Iters: []float64{1, 2, 3, 4}},
				{Case: analysis.TestCase{Benchmark: "tls"}, Metric: "wall-time", Unit: "ns", Error: "exit status 2"},
				{Case: analysis.TestCase{Benchmark: "json-decode"}, Metric: "throughput", Unit: "MB/s", Direction: analysis.HigherIsBetter, Samples: []float64{1},
					Summary: &analysis.SampleSummary{Mean: 6.764403985612581e-3, StdDev: 0.0020886163795779695, N: 139}},
				{Case: analysis.TestCase{Benchmark: "zero"}, Metric: "throughput", Unit: "iter/s", Samples: []float64{2}, Summary: &analysis.SampleSummary{}},
			},
		}, {Artifact: analysis.Artifact{ID: "v1.0", Kind: analysis.KindTag}}},
	}
}

func TestEntryRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k := RunKey("perfpages", "opts", []byte("the archive"))
	if _, ok := s.Entry(k); ok {
		t.Fatal("an empty store has an entry")
	}
	want := sampleEntry()
	if err := s.Put(k, want); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Entry(k)
	if !ok {
		t.Fatal("the entry just stored is not there")
	}
	if d := cmp.Diff(want, got, cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("entry read back differs (-want +got):\n%s", d)
	}
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
}

// A damaged or foreign .run file is a warning, is removed, and reads as
// missing: the input is decoded again, nothing wrong is trusted.
func TestEntryCorrupt(t *testing.T) {
	s, _ := Open(t.TempDir())
	k := RunKey("perfpages", "", []byte("x"))
	if err := s.Put(k, sampleEntry()); err != nil {
		t.Fatal(err)
	}
	path := s.runPath(k)
	data, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{
		"flipped byte":  append(append([]byte{}, data[:40]...), append([]byte{data[40] ^ 1}, data[41:]...)...),
		"truncated":     data[:len(data)/2],
		"other version": append([]byte("perfpages run v0\n"), data[len(runMagic):]...),
		// v1 entries have no summaries: read as v2 they would lose them.
		"v1 entry": append([]byte("perfpages run v1\n"), data[len(runMagic):]...),
		"empty":    nil,
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := Open(filepath.Dir(s.dir))
			os.WriteFile(path, bad, 0o644)
			if _, ok := s.Entry(k); ok {
				t.Fatal("a damaged entry was read")
			}
			if len(s.Warnings()) != 1 || !strings.Contains(s.Warnings()[0].Error(), path) {
				t.Errorf("warnings %v, want one naming %s", s.Warnings(), path)
			}
			if _, err := os.Stat(path); err == nil {
				t.Error("the damaged entry is still there")
			}
		})
	}
}

// Fuzz the decoder: any bytes under a good checksum decode or fail,
// without a panic or an allocation beyond the input's size.
func FuzzDecodeEntry(f *testing.F) {
	f.Add(encodeEntry("", sampleEntry()))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err == nil {
			// What decodes encodes back to the same bytes.
			if got := encodeEntry("", e); string(got) != string(b) {
				t.Skip() // non-canonical varints decode too; fine
			}
		}
	})
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	a, b := RunKey("x", "", []byte("a")), RunKey("x", "", []byte("b"))
	s.Put(a, Entry{})
	s.Put(b, Entry{})
	// The next build uses only a.
	s2, _ := Open(dir)
	if _, ok := s2.Entry(a); !ok {
		t.Fatal("entry a is gone")
	}
	if err := s2.Prune(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s2.runPath(b)); err == nil {
		t.Error("the unused entry b survived the prune")
	}
	if _, err := os.Stat(s2.runPath(a)); err != nil {
		t.Error("the used entry a was pruned")
	}
}

func TestOtherVersionRemoved(t *testing.T) {
	// store-v1 is the store before results had summaries (issue 12).
	for _, old := range []string{"store-v0", "store-v1"} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, old, "runs"), 0o755)
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, old)); err == nil {
			t.Errorf("the store of another version (%s) is still there", old)
		}
		if len(s.Warnings()) != 1 || !strings.Contains(s.Warnings()[0].Error(), old) {
			t.Errorf("warnings: %v", s.Warnings())
		}
	}
}

func TestGobFiles(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	o := Outputs{"index.html": {Key: "k", Size: 3, Sum: sha256.Sum256([]byte("abc"))}}
	if err := s.SaveOutputs(o); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(o, s.Outputs()); d != "" {
		t.Errorf("outputs read back differ:\n%s", d)
	}
	os.WriteFile(filepath.Join(s.dir, "outputs.gob"), []byte("perfpages outputs v1\ngarbage!"), 0o644)
	if got := s.Outputs(); got != nil {
		t.Errorf("garbage read as %v", got)
	}
	if len(s.Warnings()) != 1 {
		t.Errorf("warnings: %v", s.Warnings())
	}
}
