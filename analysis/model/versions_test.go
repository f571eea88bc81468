package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// version is a version of a file for the fold's tests: per artifact (a
// letter), results "bench=value[,value…]" or "bench!error".
type version map[string][]string

func (v version) runs() []Run {
	var runs []Run
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for k := range v {
			if !yield(k) {
				return
			}
		}
	}) {
		r := Run{Artifact: Artifact{ID: id, Kind: KindCommit}, Machine: Machine{Name: "ci"}}
		for _, res := range v[id] {
			if name, msg, ok := strings.Cut(res, "!"); ok {
				r.Results = append(r.Results, Result{Case: TestCase{Benchmark: name}, Metric: "wall-time", Error: msg})
				continue
			}
			name, vals, _ := strings.Cut(res, "=")
			x := Result{Case: TestCase{Benchmark: name}, Metric: "wall-time", Unit: "ns"}
			for _, s := range strings.Split(vals, ",") {
				var f float64
				fmt.Sscan(s, &f)
				x.Samples = append(x.Samples, f)
			}
			r.Results = append(r.Results, x)
		}
		runs = append(runs, r)
	}
	return runs
}

// results lists runs' results as "artifact bench=values".
func results(runs []Run) []string {
	var out []string
	for _, r := range runs {
		for _, x := range r.Results {
			out = append(out, r.Artifact.ID+" "+x.Case.Benchmark+"="+strings.Trim(valuesText(&x), "[]"))
		}
	}
	slices.Sort(out)
	return out
}

func fold(vs ...version) *FileVersions {
	h := &FileVersions{}
	for i, v := range vs {
		h.Add(fmt.Sprintf("v%d", i+1), v.runs())
	}
	return h
}

// TestFileVersions: the rules of a file's versions (versions.go), each on
// the history that shows it.
func TestFileVersions(t *testing.T) {
	tests := []struct {
		name               string
		versions           []version
		delete             bool
		runs, hist, remove []string
		corrected          int
		correction         string
	}{
		{
			name:     "a correction: the newest value, counted and shown",
			versions: []version{{"a": {"parse=1000"}}, {"a": {"parse=900"}}},
			runs:     []string{"a parse=900"}, corrected: 1,
			correction: "parse wall-time on ci at a: [1000] → [900] (in v1)",
		},
		{
			name:     "a re-run appended to the samples is no correction",
			versions: []version{{"a": {"parse=0"}}, {"a": {"parse=0,0"}}, {"a": {"parse=0,0,1"}}},
			runs:     []string{"a parse=0 0 1"},
		},
		{
			name:     "a failure that became a value is a correction",
			versions: []version{{"a": {"parse!exit 1"}}, {"a": {"parse=5"}}},
			runs:     []string{"a parse=5"}, corrected: 1,
			correction: `parse wall-time on ci at a: error "exit 1" → [5] (in v1)`,
		},
		{
			name:     "a result deleted from a commit the file still holds is removed",
			versions: []version{{"a": {"parse=1", "spike=1400"}, "b": {"parse=2"}}, {"a": {"parse=1"}, "b": {"parse=2"}}},
			runs:     []string{"a parse=1", "b parse=2"}, remove: []string{"a spike=1400"},
		},
		{
			name:     "a file overwritten by each night's run keeps the nights before",
			versions: []version{{"a": {"parse=1"}}, {"b": {"parse=2"}}, {"c": {"parse=3"}}},
			runs:     []string{"c parse=3"}, hist: []string{"a parse=1", "b parse=2"},
		},
		{
			name:     "entries max-items-in-chart dropped as one was appended are history",
			versions: []version{{"a": {"x=1"}, "b": {"x=2"}, "c": {"x=3"}}, {"b": {"x=2"}, "c": {"x=3"}, "d": {"x=4"}}},
			runs:     []string{"b x=2", "c x=3", "d x=4"}, hist: []string{"a x=1"},
		},
		{
			name:     "an entry deleted among those the file holds is removed",
			versions: []version{{"a": {"x=1"}, "b": {"x=2"}, "c": {"x=3"}}, {"a": {"x=1"}, "c": {"x=3"}, "d": {"x=4"}}},
			runs:     []string{"a x=1", "c x=3", "d x=4"}, remove: []string{"b x=2"},
		},
		{
			name:     "a version that brings nothing new only removes, even the oldest",
			versions: []version{{"a": {"x=1"}, "b": {"x=2"}}, {"b": {"x=2"}}},
			runs:     []string{"b x=2"}, remove: []string{"a x=1"},
		},
		{
			name:     "a suite removed from every commit is removed",
			versions: []version{{"a": {"x=1", "connect=5"}, "b": {"x=2", "connect=6"}}, {"a": {"x=1"}, "b": {"x=2"}}},
			runs:     []string{"a x=1", "b x=2"}, remove: []string{"a connect=5", "b connect=6"},
		},
		{
			name:     "a result given again is back, and stays removed or history until then",
			versions: []version{{"a": {"x=1", "y=1"}}, {"a": {"x=1"}}, {"a": {"x=1"}, "b": {"x=2"}}, {"a": {"x=1", "y=1"}, "b": {"x=2"}}},
			runs:     []string{"a x=1", "a y=1", "b x=2"},
		},
		{
			name:     "a removed result that comes back changed is a correction",
			versions: []version{{"a": {"x=1", "y=1"}}, {"a": {"x=1"}}, {"a": {"x=1", "y=7"}}},
			runs:     []string{"a x=1", "a y=7"}, corrected: 1,
			correction: "y wall-time on ci at a: [1] → [7] (in v1)",
		},
		{
			name:     "a deleted file removed everything, history too",
			versions: []version{{"a": {"x=1"}}, {"b": {"x=2"}}},
			delete:   true,
			remove:   []string{"a x=1", "b x=2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := fold(tt.versions...)
			if tt.delete {
				h.Delete()
			}
			got := struct {
				Runs, Hist, Remove []string
				Corrected          int
				Correction         string
			}{results(h.Runs), results(h.History), results(h.Removed), h.Corrected, h.Correction}
			want := got
			want.Runs, want.Hist, want.Remove, want.Corrected, want.Correction = tt.runs, tt.hist, tt.remove, tt.corrected, tt.correction
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("fold (-want +got):\n%s", diff)
			}
			if h.RemovedResults() != len(tt.remove) || h.HistoryResults() != len(tt.hist) {
				t.Errorf("counts: %d removed, %d history", h.RemovedResults(), h.HistoryResults())
			}
			var kept, all []Run
			h.Each(false, func(_ string, r Run) { kept = append(kept, r) })
			h.Each(true, func(_ string, r Run) { all = append(all, r) })
			if diff := cmp.Diff(slices.Sorted(slices.Values(append(slices.Clone(tt.runs), tt.hist...))), results(kept), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("the dataset's results (-want +got):\n%s", diff)
			}
			if n := len(results(all)) - len(results(kept)); n != len(tt.remove) {
				t.Errorf("keep_removed adds %d results, want %d", n, len(tt.remove))
			}
		})
	}
}

// TestFileVersionsArtifacts: of an artifact's metadata the newest version
// that sets a field wins, and a field a newer version changed counts once.
func TestFileVersionsArtifacts(t *testing.T) {
	v := func(title, author string) []Run {
		return []Run{{Artifact: Artifact{ID: "a", Kind: KindCommit, Title: title, Author: author}, Machine: Machine{Name: "ci"},
			Results: []Result{{Case: TestCase{Benchmark: "x"}, Metric: "m", Samples: []float64{1}}}}}
	}
	h := &FileVersions{}
	h.Add("v1", v("first", "ada"))
	h.Add("v2", v("second", ""))
	h.Add("v3", v("second", ""))
	if a := h.Runs[0].Artifact; a.Title != "second" || a.Author != "ada" || h.Fields != 1 {
		t.Errorf("artifact %+v, %d fields changed; want title second, author ada, 1", a, h.Fields)
	}
}

// TestFileVersionsResume: a fold made of another's exported fields (what
// the store keeps) folds further versions exactly as the original does.
func TestFileVersionsResume(t *testing.T) {
	vs := []version{
		{"a": {"x=1", "y=1"}, "b": {"x=2"}},
		{"a": {"x=1"}, "b": {"x=2,3"}, "c": {"x=4"}},
		{"b": {"x=2,3"}, "c": {"x=5"}, "d": {"x=6"}},
		{"b": {"x=2,3"}, "d": {"x=6"}, "e": {"x=7", "y=1"}},
	}
	want := fold(vs...)
	for cut := 1; cut < len(vs); cut++ {
		h := fold(vs[:cut]...)
		copied := &FileVersions{Origin: h.Origin, Runs: h.Runs, History: h.History, HistoryIn: h.HistoryIn, Removed: h.Removed,
			RemovedIn: h.RemovedIn, Seen: h.Seen, Corrected: h.Corrected, Correction: h.Correction, Fields: h.Fields, Deleted: h.Deleted}
		for i := cut; i < len(vs); i++ {
			copied.Add(fmt.Sprintf("v%d", i+1), vs[i].runs())
		}
		if diff := cmp.Diff(want, copied, cmpopts.IgnoreUnexported(FileVersions{})); diff != "" {
			t.Errorf("resumed after %d versions (-want +got):\n%s", cut, diff)
		}
	}
}
