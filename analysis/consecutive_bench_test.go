package analysis

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

var (
	benchDataMu sync.Mutex
	benchData   = map[synthPlan]*model.Dataset{}
)

func benchDataset(b *testing.B, p synthPlan) *model.Dataset {
	b.Helper()
	benchDataMu.Lock()
	defer benchDataMu.Unlock()
	if d, ok := benchData[p]; ok {
		return d
	}
	d := synthDataset(p)
	benchData[p] = d
	return d
}

// BenchmarkConsecutive is the site's commit pages on one core: every
// series compared at a run of consecutive main-line positions in the
// middle of the line (full history windows), by Consecutive in chunks of
// 32 positions and, for comparison, by Compare pair by pair (fewer
// positions: it is slow). S is 100 commits × 200 series, M 1,000 × 2,000,
// 5 samples per result. "summary" is rustc-perf's model alone, "full"
// adds the z-score and the Mann–Whitney test. ns/series-cmp is wall time
// per series and comparison, cpu-ns/series-cmp the process's CPU time.
func BenchmarkConsecutive(b *testing.B) {
	for _, size := range []struct {
		name            string
		commits, series int
		positions       int // positions measured per iteration
	}{
		{"S", 100, 200, 96},
		{"M", 1000, 2000, 256},
	} {
		p := synthPlan{commits: size.commits, series: size.series, samples: 5, seed: 42}
		for _, mode := range []string{"summary", "full"} {
			for _, how := range []string{"Consecutive", "Compare"} {
				b.Run(size.name+"/"+mode+"/"+how, func(b *testing.B) {
					d := benchDataset(b, p)
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
					c := NewComparer(d, DefaultOptions)
					n := size.positions
					if how == "Compare" {
						n = max(n/16, 4)
					}
					from := max(1, len(d.MainLine)/2-n/2)
					to := from + n
					runtime.GC() // the dataset's garbage is not the comparisons' cost
					wall, cpu := time.Now(), cpuTime()
					for b.Loop() {
						if how == "Compare" {
							for q := from; q < to; q++ {
								if mode == "summary" {
									c.Summary(d.MainLine[q-1], d.MainLine[q])
								} else {
									c.Compare(d.MainLine[q-1], d.MainLine[q])
								}
							}
							continue
						}
						for q := from; q < to; q += 32 {
							if mode == "summary" {
								c.ConsecutiveSummary(q, min(q+32, to))
							} else {
								c.Consecutive(q, min(q+32, to))
							}
						}
					}
					cmps := float64(b.N * n * len(d.Series))
					b.ReportMetric(float64(time.Since(wall).Nanoseconds())/cmps, "ns/series-cmp")
					b.ReportMetric(float64(cpuTime()-cpu)/cmps, "cpu-ns/series-cmp")
				})
			}
		}
	}
}
