package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// nightlyHistory is a history of commits runs of one machine, each with
// series results of samples samples (values with three decimals, as
// tools print them), and one more run: the nightly's.
func nightlyHistory(commits, series, samples int) (runs []Run, origins []string) {
	rng := rand.New(rand.NewPCG(26, 1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	level := make([]float64, series)
	for s := range level {
		level[s] = 1000 + 1000*rng.Float64()
	}
	for i := range commits + 1 {
		a := Artifact{ID: fmt.Sprintf("%040x", i+1), Kind: KindCommit, Branch: "main", Date: base.Add(time.Duration(i) * time.Hour)}
		if i > 0 {
			a.Parents = []string{fmt.Sprintf("%040x", i)}
		}
		r := Run{Artifact: a, Machine: Machine{Name: "m1", OS: "linux"}}
		xs := make([]float64, series*samples) // one array per run, as decoders make
		for s := range series {
			res := Result{Case: TestCase{Benchmark: fmt.Sprintf("b%03d", s/40), Params: Params{{"case", fmt.Sprint(s % 40)}}}, Metric: "wall-time", Unit: "ns"}
			res.Samples = xs[s*samples : (s+1)*samples : (s+1)*samples]
			for k := range res.Samples {
				res.Samples[k] = math.Round(level[s]*(1+0.05*rng.NormFloat64())*1000) / 1000
			}
			r.Results = append(r.Results, res)
		}
		runs = append(runs, r)
		origins = append(origins, fmt.Sprintf("results/m1/run%05d.json", i))
	}
	return runs, origins
}

// BenchmarkResume is a nightly build's load: the checkpoint of a history
// resumed, the new commit's run added, the dataset made. It reports the
// heap the resumed dataset holds per point ("heap-B/point": its points,
// their samples as the checkpoint encodes them), the memory a nightly
// build cannot avoid while the dataset is one value in memory
// (docs/internals.md, "Builds that scale"): at M, two million points; and
// the heap of the resumed builder before it makes the dataset
// ("builder-heap-B/point": with the builder's side columns). 400 series
// of 501 commits with 5 samples each, on the development machine: 43.6
// and 45.4 bytes a point (24 of them the point; the builder's run indices
// were 4 bytes a point before they were pieces, runList: 49.4), against
// 96.5 on 2717678, whose points were 48 bytes with their samples decoded
// into float64s.
//
//	go test ./analysis/model -run '^$' -bench Resume -benchtime 5x
func BenchmarkResume(b *testing.B) {
	const commits, series, samples = 500, 400, 5
	runs, origins := nightlyHistory(commits, series, samples)
	full := NewBuilder(BuildOptions{})
	for i := range commits {
		full.Add(origins[i], runs[i])
	}
	state, held := writeState(b, full, 0)
	// The floats parts as a store reads them: into new memory each build
	// (the resumed points refer to it).
	chunk := func(i int, scratch []byte) ([]byte, []byte, bool) {
		c, f, ok := held(i, scratch)
		return c, append([]byte(nil), f...), ok
	}
	pos := func(i int, origin string) (int, string, bool) { return i, origin, origins[i] == origin }
	points := float64((commits + 1) * series)
	var bytes, building uint64
	for b.Loop() {
		runtime.GC()
		var before, during, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rb, err := ResumeBuilder(BuildOptions{}, state, chunk, pos)
		if err != nil {
			b.Fatal(err)
		}
		rb.AddAt(commits, origins[commits], runs[commits])
		runtime.GC()
		runtime.ReadMemStats(&during)
		building = during.HeapAlloc - before.HeapAlloc
		d := rb.Dataset()
		runtime.GC()
		runtime.ReadMemStats(&after)
		if n := len(d.Series); n != series || len(d.Series[0].Points) != commits+1 {
			b.Fatalf("%d series of %d points", n, len(d.Series[0].Points))
		}
		bytes = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(d)
	}
	b.ReportMetric(float64(bytes)/points, "heap-B/point")
	b.ReportMetric(float64(building)/points, "builder-heap-B/point")
}
