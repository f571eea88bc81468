package generator

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/render"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/write"
)

// The build benchmarks are the scale harness's figures (scripts/scale.sh
// prints them for one run with wall time, CPU and RSS) as Go benchmarks:
// a whole build from archives on disk, cold, after one more commit (the
// nightly case) and with nothing changed. S is quick; M builds a whole
// site per figure, so run it once (go test -bench 'Build/M' -benchtime 1x).
//
//	go test ./generator -run '^$' -bench 'Build|Plan' -benchtime 1x

// benchDirs holds one generated data set per size, shared by the
// benchmarks of a run.
var (
	benchDirsMu sync.Mutex
	benchDirs   = map[string]string{}
)

// removeBenchData removes the generated data sets (they outlive one
// sub-benchmark, so b.TempDir does not fit).
func removeBenchData() {
	benchDirsMu.Lock()
	defer benchDirsMu.Unlock()
	for size, dir := range benchDirs {
		os.RemoveAll(dir)
		delete(benchDirs, size)
	}
}

func benchData(b *testing.B, size string) string {
	b.Helper()
	benchDirsMu.Lock()
	defer benchDirsMu.Unlock()
	if dir, ok := benchDirs[size]; ok {
		return dir
	}
	dir, err := os.MkdirTemp("", "perfpages-bench-"+size+"-")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := writeDemo(dir, size, "json", true); err != nil {
		b.Fatal(err)
	}
	benchDirs[size] = dir
	return dir
}

// newestCommit returns the archives of the data set's newest commit (their
// names start with its date).
func newestCommit(b *testing.B, dir string) []string {
	b.Helper()
	var files []string
	filepath.WalkDir(filepath.Join(dir, "results"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	stamp := func(p string) string { return filepath.Base(p)[:min(17, len(filepath.Base(p)))] }
	newest := ""
	for _, f := range files {
		newest = max(newest, stamp(f))
	}
	return slices.DeleteFunc(files, func(f string) bool { return stamp(f) != newest })
}

// hold moves files aside (and back with the returned function).
func hold(b *testing.B, files []string) func() {
	b.Helper()
	for _, f := range files {
		if err := os.Rename(f, f+".held"); err != nil {
			b.Fatal(err)
		}
	}
	return func() {
		for _, f := range files {
			if err := os.Rename(f+".held", f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func benchBuild(b *testing.B, dir, out string) *Report {
	b.Helper()
	s, err := Open(filepath.Join(dir, "perfpages.toml"))
	if err != nil {
		b.Fatal(err)
	}
	rep, err := s.Build(context.Background(), BuildOptions{Out: out})
	if err != nil {
		b.Fatal(err)
	}
	return rep
}

func siteBytes(b *testing.B, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return err
	})
	return n
}

// BenchmarkBuild measures whole builds: cold (no site, no store), +1 (the
// site and store of the data set without its newest commit, then the
// commit added) and unchanged (the same input again: no file written).
func BenchmarkBuild(b *testing.B) {
	b.Cleanup(removeBenchData)
	for _, size := range []string{"S", "M"} {
		b.Run(size+"/cold", func(b *testing.B) {
			dir := benchData(b, size)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				out := b.TempDir()
				site := filepath.Join(out, "site")
				b.StartTimer()
				benchBuild(b, dir, site)
				b.StopTimer()
				b.ReportMetric(float64(siteBytes(b, site))/1e6, "site-MB")
				os.RemoveAll(out)
				b.StartTimer()
			}
		})
		b.Run(size+"/plus1", func(b *testing.B) {
			dir := benchData(b, size)
			site := filepath.Join(b.TempDir(), "site")
			last := newestCommit(b, dir)
			var rep *Report
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				back := hold(b, last)
				benchBuild(b, dir, site)
				back()
				b.StartTimer()
				rep = benchBuild(b, dir, site)
			}
			b.ReportMetric(float64(rep.Comparisons), "comparisons")
			b.ReportMetric(float64(rep.Files-rep.Kept), "files-not-kept")
		})
		b.Run(size+"/unchanged", func(b *testing.B) {
			dir := benchData(b, size)
			site := filepath.Join(b.TempDir(), "site")
			benchBuild(b, dir, site)
			for b.Loop() {
				if rep := benchBuild(b, dir, site); !rep.UpToDate {
					b.Fatal("an unchanged build was not up to date")
				}
			}
		})
	}
}

// BenchmarkPlan is the site model stage alone on a dataset in memory:
// every page, row and data file planned (none rendered or written), as a
// cold build does.
func BenchmarkPlan(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			d := dataset(b, size)
			var pages int
			for b.Loop() {
				plan := sitemodel.NewPlan(analysis.Analyze(d, analysis.AnalyzeOptions{Compare: analysis.DefaultOptions, Tests: analysis.NewTestCache()}), sitemodel.Options{Title: size, BasePath: "/"})
				stats, err := plan.Run(context.Background(), func(sitemodel.Output) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				pages = stats.Pages
			}
			b.ReportMetric(float64(pages), "pages")
		})
	}
}

// BenchmarkSite is the site model, render and write stages of a cold
// build on an analysed dataset in memory: every page and data file
// planned, rendered and written into a new folder (the analysis'
// comparisons, which the plan asks for chunk by chunk, included; the
// steps and headline verdicts not). It reports the CPU time per site
// beside the wall time, and the wall time the plan waited for the
// comparisons of consecutive commits.
//
//	go test ./generator -run '^$' -bench 'Site/M' -benchtime 1x
func BenchmarkSite(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		b.Run(size, func(b *testing.B) {
			d := dataset(b, size)
			var cpu int64
			var consecutive time.Duration
			for b.Loop() {
				b.StopTimer()
				res := analysis.Analyze(d, analysis.AnalyzeOptions{Compare: analysis.DefaultOptions, Tests: analysis.NewTestCache()})
				res.Steps() // the steps and headline verdicts, as a build's analysis stage
				out := filepath.Join(b.TempDir(), "site")
				w, err := write.New(out, write.Options{Fresh: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				c0 := cpuTime()
				plan := sitemodel.NewPlan(res, sitemodel.Options{Title: size, BasePath: "/"})
				r, err := render.New(plan.SiteView(), nil, w)
				if err != nil {
					b.Fatal(err)
				}
				stats, err := plan.Run(context.Background(), r.Emit)
				if err != nil {
					b.Fatal(err)
				}
				consecutive += stats.Consecutive
				if err := r.Finish(); err != nil {
					b.Fatal(err)
				}
				if err := w.Commit(); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
				b.StopTimer()
				os.RemoveAll(filepath.Dir(out))
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/1e9/float64(b.N), "cpu-s/op")
			b.ReportMetric(consecutive.Seconds()/float64(b.N), "consecutive-s/op")
		})
	}
}
