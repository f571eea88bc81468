package generator

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/render"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/write"
)

// historyRuns makes the runs of a history out of seed, the kind real
// repositories have and tidy fixtures do not: dates shuffled (weeks back
// and forth, equal dates), PR numbers on several commits, on merge
// commits and on commits off the main line, merges anywhere, parents that
// are no artifact, a commit in two PRs, commits without results (gaps), try runs against
// missing baselines, tags, failed results, zeros and steps of orders of
// magnitude. Half the seeds give a project history (BuildOptions.History,
// as [project] does, sometimes lacking a commit the results have); the
// others leave the main line to the archives' own branches and parents.
func historyRuns(seed uint64) ([]model.Run, model.BuildOptions) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	id := func(n int) string { return fmt.Sprintf("%040x", uint64(n)*0x9e3779b97f4a7c15+7) }
	start := time.Date(2024, 8, 12, 9, 0, 0, 0, time.UTC)
	date := func(i int) time.Time {
		d := start.Add(time.Duration(i) * 36 * time.Hour)
		switch r.IntN(6) {
		case 0: // weeks back
			d = d.Add(-time.Duration(r.IntN(30)) * 24 * time.Hour)
		case 1: // weeks ahead
			d = d.Add(time.Duration(r.IntN(30)) * 24 * time.Hour)
		case 2: // the same moment as the start
			d = start
		}
		return d
	}
	pr := func() int {
		if r.IntN(3) == 0 {
			return 0
		}
		return 1 + r.IntN(5) // few numbers: PRs on several commits
	}
	n := 1 + r.IntN(24)
	var main, other []model.Artifact
	for i := range n {
		a := model.Artifact{ID: id(i), Kind: model.KindCommit, Date: date(i), Branch: "main", PR: pr(), Title: fmt.Sprintf("commit %d", i)}
		switch {
		case i > 0 && r.IntN(8) != 0:
			a.Parents = []string{main[i-1].ID}
		case r.IntN(2) == 0:
			a.Parents = []string{id(1000 + i)} // a parent nobody has
		}
		if r.IntN(4) == 0 { // a merge commit naming a PR
			a.Parents = append(a.Parents, id(500+i))
			a.PR = 1 + r.IntN(5)
			a.Title = fmt.Sprintf("Merge pull request #%d from fork/branch", a.PR)
		}
		main = append(main, a)
		if r.IntN(3) == 0 { // a commit off the main line, often in a PR
			o := model.Artifact{ID: id(500 + i), Kind: model.KindCommit, Date: date(i), Branch: "topic", PR: pr(), Parents: []string{a.ID}}
			if r.IntN(2) == 0 {
				o.Title = fmt.Sprintf("Merge pull request #%d from other/branch", o.PR)
				o.Parents = append(o.Parents, id(700+i))
			}
			other = append(other, o)
		}
	}
	opts := model.BuildOptions{Value: model.Auto}
	if r.IntN(2) == 0 {
		opts.History, opts.Other = main, other
		if r.IntN(3) == 0 && len(opts.History) > 1 { // the project's history lacks a commit the results have
			opts.History = append(opts.History[:1:1], opts.History[2:]...)
		}
	}
	var arts []model.Artifact
	for _, a := range append(append([]model.Artifact(nil), main...), other...) {
		if r.IntN(5) == 0 {
			continue // a gap: no results
		}
		if r.IntN(4) == 0 {
			a.Date = date(r.IntN(n)) // the archive's date disagrees with the project's
		}
		arts = append(arts, a)
	}
	for i := range r.IntN(5) { // try runs, some against a missing baseline
		base := id(r.IntN(n + 3))
		arts = append(arts, model.Artifact{ID: id(900 + i), Kind: model.KindTry, Date: date(r.IntN(n)), PR: 1 + r.IntN(6), Baseline: base, Title: "try"})
	}
	if r.IntN(3) == 0 {
		arts = append(arts, model.Artifact{ID: "v1.0", Kind: model.KindTag, Date: date(r.IntN(n)), PR: pr()})
	}
	r.Shuffle(len(arts), func(i, j int) { arts[i], arts[j] = arts[j], arts[i] })
	var runs []model.Run
	for _, a := range arts {
		run := model.Run{Artifact: a, Machine: model.Machine{Name: []string{"ci", "arm"}[r.IntN(2)]}}
		for _, b := range []string{"parse", "render"} {
			if r.IntN(6) == 0 {
				continue
			}
			res := model.Result{Case: model.TestCase{Benchmark: b}, Metric: "wall-time", Unit: "ns"}
			switch r.IntN(10) {
			case 0:
				res.Error = "exit status 1"
			case 1:
				res.Samples = []float64{0}
			default:
				base := 100.0
				if r.IntN(5) == 0 {
					base *= 1000 // a step of three orders of magnitude
				}
				for range 1 + r.IntN(4) {
					res.Samples = append(res.Samples, base*(1+r.Float64()/10))
				}
			}
			run.Results = append(run.Results, res)
		}
		runs = append(runs, run)
		if r.IntN(6) == 0 { // the commit again, in another PR
			again := run
			again.Artifact.PR = 1 + r.IntN(6)
			runs = append(runs, again)
		}
	}
	return runs, opts
}

// buildHistory builds and writes the whole site of seed's history: the
// dataset, steps, the plan and every page rendered and written, as Build
// does after loading.
func buildHistory(t *testing.T, seed uint64) error {
	runs, opts := historyRuns(seed)
	b := model.NewBuilder(opts)
	for i, run := range runs {
		b.Add(fmt.Sprintf("run%d.json", i), run)
	}
	d := b.Dataset()
	steps, _ := detectSteps(nil, d, stepOptions{config.Default()})
	res := analysis.Analyze(d, analysis.AnalyzeOptions{Compare: analysis.DefaultOptions, Steps: steps, Tests: analysis.NewTestCache()})
	out := filepath.Join(t.TempDir(), "public")
	w, err := write.New(out, write.Options{})
	if err != nil {
		return err
	}
	plan := sitemodel.NewPlan(res, sitemodel.Options{Title: "fuzz", BasePath: "/", Repository: "https://github.com/a/b",
		TriageFilter: analysis.DefinitelyRelevantFilter,
		Content:      &sitemodel.Content{TriageNotes: map[string]sitemodel.ContentPage{}}, Warnings: d.Warnings})
	r, err := render.New(plan.SiteView(), nil, w)
	if err == nil {
		_, err = plan.Run(context.Background(), r.Emit)
	}
	if err == nil {
		err = r.Finish()
	}
	if err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// FuzzHistory builds the site of random histories (historyRuns): no
// history may fail a build or panic anywhere in it. A panic the planner
// or a page recovers is reported as a *par.PanicError and fails the test
// as loudly as one that is not.
func FuzzHistory(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377} {
		f.Add(binary.LittleEndian.AppendUint64(nil, seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var seed [8]byte
		copy(seed[:], data)
		err := buildHistory(t, binary.LittleEndian.Uint64(seed[:]))
		var pe *par.PanicError
		if errors.As(err, &pe) {
			t.Fatalf("panic: %v\n%s", pe.Value, pe.Stack)
		}
		if err != nil {
			t.Fatal(err)
		}
	})
}
