package demo

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// world is a compiled plan: everything Generate needs except the runs.
// Its size grows with the series and the planted changes, never with the
// number of commits.
type world struct {
	plan     Plan
	sched    *schedule
	machines []model.Machine // sorted by name
	slots    []slot
	cells    []cell // machine-major: cells[m*len(slots)+s]
	tries    []tryRun
	events   []Event
	// taken marks the commits that carry a plant (or fix one), so that
	// each planted change gets a commit of its own.
	taken map[int]bool
}

// cell is one series: a slot on a machine.
type cell struct {
	level   float64 // true level at the first commit
	sigma   float64 // relative noise of one sample
	seed    uint64
	bimodal float64 // distance of the upper level, 0 when unimodal
	steps   []change
	spikes  []change
	fails   []failure
}

type change struct {
	pos    int
	factor float64
}

type failure struct {
	pos int
	err string
}

type tryRun struct {
	art    model.Artifact
	base   int       // the baseline's main-line position
	factor []float64 // per cell; nil when nothing changes
}

// Generate calls emit for every run, in a deterministic order (artifact
// date, then id, then machine name). It streams: only the current run is
// built, so memory does not grow with the number of commits. An error from
// emit stops it and is returned as is.
//
// Runs are fresh values that emit may keep, but they share their
// read-only parts (test case parameters, machine labels, the context)
// with each other: emit must not modify them.
func (p Plan) Generate(emit func(model.Run) error) error {
	w, err := p.compile()
	if err != nil {
		return err
	}
	g := newSampler()
	t := 0
	for i := 0; i < w.sched.n; i++ {
		a := w.sched.artifact(i)
		for ; t < len(w.tries) && before(w.tries[t].art, a); t++ {
			if err := w.emitTry(g, &w.tries[t], emit); err != nil {
				return err
			}
		}
		for m := range w.machines {
			if err := emit(w.mainRun(g, i, a, m)); err != nil {
				return err
			}
		}
	}
	for ; t < len(w.tries); t++ {
		if err := w.emitTry(g, &w.tries[t], emit); err != nil {
			return err
		}
	}
	return nil
}

// before orders artifacts as model.Dataset does: by date, then id.
func before(a, b model.Artifact) bool {
	return cmp.Or(a.Date.Compare(b.Date), strings.Compare(a.ID, b.ID)) < 0
}

// Events lists the changes planted in the data, ordered by the date of
// their artifact (whole-history properties first). It is nil for a plan
// that does not validate.
func (p Plan) Events() []Event {
	w, err := p.compile()
	if err != nil {
		return nil
	}
	return w.events
}

func (p Plan) compile() (*world, error) {
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("plan %s: %w", p.Name, err)
	}
	w, err := p.build()
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", p.Name, err)
	}
	return w, nil
}

func (p Plan) build() (*world, error) {
	p.Start = p.Start.UTC()
	sched, err := newSchedule(p)
	if err != nil {
		return nil, err
	}
	w := &world{plan: p, sched: sched, taken: map[int]bool{}}
	w.machines = slices.Clone(p.Machines)
	slices.SortFunc(w.machines, func(a, b model.Machine) int { return strings.Compare(a.Name, b.Name) })

	var plants []plant
	if p.Suite == SuiteDemo {
		plants = demoPlants
		w.slots = expand(demoBenchmarks, 0)
		if p.SeriesPerMachine != 0 && p.SeriesPerMachine != len(w.slots) {
			return nil, fmt.Errorf("the demo suite has %d series per machine, but the plan asks for %d", len(w.slots), p.SeriesPerMachine)
		}
	} else {
		w.slots = expand(syntheticBenchmarks(p.SeriesPerMachine, p.Seed), p.SeriesPerMachine)
		plants = syntheticPlants
	}

	w.cells = make([]cell, len(w.machines)*len(w.slots))
	for m, mach := range w.machines {
		for s := range w.slots {
			w.cells[m*len(w.slots)+s] = newCell(p.Seed, mach, &w.slots[s])
		}
	}

	// Positions of the events' artifacts; titles are only final once every
	// plant has named its commits.
	var at []int
	for _, pl := range plants {
		evs, pos, err := w.plant(pl)
		if err != nil {
			return nil, err
		}
		w.events = append(w.events, evs...)
		at = append(at, pos...)
	}
	for i, pos := range at {
		if pos < 0 {
			continue
		}
		a := w.sched.artifact(pos)
		w.events[i].Artifact, w.events[i].Date, w.events[i].PR, w.events[i].Title = a.ID, a.Date, a.PR, a.Title
	}
	for i := range w.cells {
		c := &w.cells[i]
		slices.SortStableFunc(c.steps, func(a, b change) int { return cmp.Compare(a.pos, b.pos) })
	}

	if p.Suite == SuiteDemo {
		if err := w.addTries(demoTries); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(w.events, func(a, b Event) int { return a.Date.Compare(b.Date) })
	return w, nil
}

// Machine factors: the ARM machine runs the same code with a few more
// instructions, more slowly, with a little more memory.
func machineFactor(m model.Machine, k metricKind) float64 {
	if m.Arch != "arm64" {
		return 1
	}
	switch k {
	case mInstructions:
		return 1.07
	case mWallTime:
		return 1.25
	case mThroughput:
		return 1 / 1.25
	default:
		return 1.03
	}
}

func newCell(seed uint64, m model.Machine, s *slot) cell {
	h := hashString(seed, m.Name+"\x00"+s.tc.Benchmark+"\x00"+s.params+"\x00"+metrics[s.metric].name)
	c := cell{seed: h}
	// Each series gets its own level (±6 %) and noise (×0.8–1.2), as real
	// test cases do.
	c.level = s.level * machineFactor(m, s.metric) * (0.94 + 0.12*unit(mix(h^saltLevel)))
	u := unit(mix(h ^ saltSigma))
	switch s.metric {
	case mInstructions:
		c.sigma = 0.00005 + 0.00015*u // 0.005–0.02 %
	default:
		c.sigma = s.sigma * (0.8 + 0.4*u)
	}
	return c
}

// resolve finds the main-line position of a plant, the first free commit
// from the planned time on, with need more commits after it (the fix of a
// failure, the return from a spike). A fractional plant that does not fit
// a short history is left out (false); a calendar plant that does not fit
// in its week is an error.
func (w *world) resolve(at when, need int) (int, bool, error) {
	n := w.sched.n
	if at.frac > 0 {
		pos := w.free(int(at.frac*float64(n)), need)
		return pos, pos >= 1 && pos+need < n, nil
	}
	start := w.plan.Start.AddDate(0, 0, 7*at.week)
	t := start.AddDate(0, 0, at.day).Add(time.Duration(at.hour) * time.Hour)
	pos := w.free(w.sched.search(t), need)
	if pos+need >= n || !w.sched.date(pos).Before(start.AddDate(0, 0, 7)) {
		return 0, false, fmt.Errorf("no main-line commit in week %d at or after %s (followed by %d more) for a planted change; the plan needs more commits",
			at.week, t.Format(time.RFC3339), need)
	}
	return pos, true, nil
}

// free returns the first position from pos on where pos…pos+need are not
// taken yet.
func (w *world) free(pos, need int) int {
	for ; pos < w.sched.n; pos++ {
		ok := true
		for k := range need + 1 {
			ok = ok && !w.taken[pos+k]
		}
		if ok {
			break
		}
	}
	return pos
}

// plant applies pl to the cells and returns its events with the
// main-line position of each (-1 for a property of the whole history).
func (w *world) plant(pl plant) ([]Event, []int, error) {
	pos, span := -1, max(pl.span, 1)
	if pl.kind != KindBimodal {
		// A failure needs the commit that fixes it, a spike the commit
		// that is back to normal.
		need := 0
		switch pl.kind {
		case KindFailure:
			need = span
		case KindSpike:
			need = 1
		}
		p, ok, err := w.resolve(pl.at, need)
		if err != nil || !ok {
			return nil, nil, err
		}
		pos = p
		for k := range need + 1 {
			w.taken[pos+k] = true
		}
		if pl.title != "" {
			w.setTitle(pos, pl.title)
		}
		if pl.fixTitle != "" {
			w.setTitle(pos+span, pl.fixTitle)
		}
	}
	var evs []Event
	var at []int
	for _, e := range pl.effects {
		m, err := parseMatcher(e)
		if err != nil {
			return nil, nil, err
		}
		hit := false
		for mi, mach := range w.machines {
			for s := range w.slots {
				sl := &w.slots[s]
				if !m.match(mach.Name, sl.tc, metrics[sl.metric].name) {
					continue
				}
				hit = true
				c := &w.cells[mi*len(w.slots)+s]
				switch pl.kind {
				case KindSpike:
					c.spikes = append(c.spikes, change{pos, 1 + e.size})
				case KindFailure:
					for k := range span {
						c.fails = append(c.fails, failure{pos + k, pl.note})
					}
				case KindAdded:
					sl.from = pos
				case KindRemoved:
					sl.to = pos
				case KindBimodal:
					// Tight levels, so that the two modes stand apart.
					c.bimodal, c.sigma = e.size, min(c.sigma, e.size/8)
				default:
					c.steps = append(c.steps, change{pos, 1 + e.size})
				}
			}
		}
		if !hit {
			continue
		}
		ev := Event{Kind: pl.kind, Benchmark: star(e.bench), Params: star(e.params), Metric: star(e.metric),
			Machine: star(e.machine), Size: e.size, Significant: e.sig, Note: pl.note}
		// One event per failing commit, one for any other change.
		commits := 1
		if pl.kind == KindFailure {
			commits = span
		}
		for k := range commits {
			evs = append(evs, ev)
			at = append(at, pos+k)
		}
	}
	return evs, at, nil
}

func star(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

func (w *world) setTitle(pos int, title string) {
	if _, ok := w.sched.titles[pos]; !ok {
		w.sched.titles[pos] = title
	}
}

// addTries adds the open PRs' try runs: each is based on a main-line
// commit, dated after it, and shows the baseline's levels times its own
// changes.
func (w *world) addTries(prs []tryPR) error {
	for k, pr := range prs {
		number := 0
		for j, spec := range pr.runs {
			pos, _, err := w.resolve(spec.base, 0)
			if err != nil {
				return err
			}
			if j == 0 {
				number = w.sched.openPR(pos, k)
			}
			base := w.sched.artifact(pos)
			t := tryRun{base: pos, art: model.Artifact{
				ID:       w.sched.sha("try", number, j),
				Kind:     model.KindTry,
				Date:     base.Date.Add(spec.after),
				Parents:  []string{base.ID},
				Branch:   pr.branch,
				PR:       number,
				Title:    pr.title,
				Author:   pr.author,
				Baseline: base.ID,
			}}
			ev := Event{Artifact: t.art.ID, Date: t.art.Date, PR: number, Title: pr.title, Kind: spec.kind, Note: spec.note}
			if spec.kind == KindNone {
				ev.Benchmark, ev.Params, ev.Metric, ev.Machine = "*", "*", "*", "*"
				w.events = append(w.events, ev)
			}
			for _, e := range spec.effects {
				m, err := parseMatcher(e)
				if err != nil {
					return err
				}
				if t.factor == nil {
					t.factor = make([]float64, len(w.cells))
					for i := range t.factor {
						t.factor[i] = 1
					}
				}
				for mi, mach := range w.machines {
					for s, sl := range w.slots {
						if m.match(mach.Name, sl.tc, metrics[sl.metric].name) {
							t.factor[mi*len(w.slots)+s] *= 1 + e.size
						}
					}
				}
				ev.Benchmark, ev.Params, ev.Metric, ev.Machine = star(e.bench), star(e.params), star(e.metric), star(e.machine)
				ev.Size, ev.Significant = e.size, e.sig
				w.events = append(w.events, ev)
			}
			w.tries = append(w.tries, t)
		}
	}
	slices.SortFunc(w.tries, func(a, b tryRun) int {
		return cmp.Or(a.art.Date.Compare(b.art.Date), strings.Compare(a.art.ID, b.art.ID))
	})
	return nil
}

// levelAt is the series' true level at main-line position i, without
// spikes.
func (c *cell) levelAt(i int) float64 {
	l := c.level
	for _, s := range c.steps {
		if s.pos > i {
			break
		}
		l *= s.factor
	}
	return l
}

func (c *cell) spikeAt(i int) float64 {
	f := 1.0
	for _, s := range c.spikes {
		if s.pos == i {
			f *= s.factor
		}
	}
	return f
}

func (c *cell) failureAt(i int) string {
	for _, f := range c.fails {
		if f.pos == i {
			return f.err
		}
	}
	return ""
}

func (s *slot) active(i int) bool { return s.from <= i && i < s.to }

func (w *world) newRun(a model.Artifact, m int, pos int) (model.Run, []float64) {
	n := 0
	for s := range w.slots {
		if w.slots[s].active(pos) {
			n++
		}
	}
	run := model.Run{Artifact: a, Machine: w.machines[m], Context: w.plan.Context, Results: make([]model.Result, 0, n)}
	return run, make([]float64, n*w.plan.Samples)
}

func (w *world) result(s int) model.Result {
	sl := &w.slots[s]
	return model.Result{Case: sl.tc, Metric: metrics[sl.metric].name, Unit: metrics[sl.metric].unit}
}

// iters sets the iteration counts of r when the plan asks for them: linear
// sampling with d chosen, as Criterion's warm-up would, so that a sample
// takes about a millisecond at the series' first level.
func (w *world) iters(r *model.Result, s int, c *cell) {
	sl := &w.slots[s]
	if sl.metric != mWallTime || len(r.Samples) == 0 || !slices.ContainsFunc(w.plan.Iters, func(sel string) bool {
		bench, params, _ := strings.Cut(sel, " ")
		m, err := parseMatcher(effect{bench: bench, params: params})
		return err == nil && m.match("", sl.tc, "")
	}) {
		return
	}
	d := max(1, math.Round(1e6/c.level))
	r.Iters = make([]float64, len(r.Samples))
	for j := range r.Iters {
		r.Iters[j] = d * float64(j+1)
	}
}

func (w *world) mainRun(g *sampler, i int, a model.Artifact, m int) model.Run {
	run, buf := w.newRun(a, m, i)
	k := w.plan.Samples
	seed := hashAt(w.plan.Seed, saltSample, i)
	for s := range w.slots {
		if !w.slots[s].active(i) {
			continue
		}
		c := &w.cells[m*len(w.slots)+s]
		r := w.result(s)
		if err := c.failureAt(i); err != "" {
			r.Error = err
		} else {
			r.Samples, buf = buf[:k:k], buf[k:]
			g.fill(r.Samples, c, w.slots[s].metric, c.levelAt(i)*c.spikeAt(i), seed)
			w.iters(&r, s, c)
		}
		run.Results = append(run.Results, r)
	}
	return run
}

func (w *world) emitTry(g *sampler, t *tryRun, emit func(model.Run) error) error {
	k := w.plan.Samples
	seed := hashString(w.plan.Seed, t.art.ID)
	for m := range w.machines {
		run, buf := w.newRun(t.art, m, t.base)
		for s := range w.slots {
			if !w.slots[s].active(t.base) {
				continue
			}
			i := m*len(w.slots) + s
			c := &w.cells[i]
			level := c.levelAt(t.base)
			if t.factor != nil {
				level *= t.factor[i]
			}
			r := w.result(s)
			r.Samples, buf = buf[:k:k], buf[k:]
			g.fill(r.Samples, c, w.slots[s].metric, level, seed)
			w.iters(&r, s, c)
			run.Results = append(run.Results, r)
		}
		if err := emit(run); err != nil {
			return err
		}
	}
	return nil
}

// sampler draws samples around a level. Its PCG is reseeded for every
// result from the series and the artifact, so a sample does not depend on
// what was generated before it.
type sampler struct {
	pcg *rand.PCG
	r   *rand.Rand
}

func newSampler() *sampler {
	pcg := rand.NewPCG(0, 0)
	return &sampler{pcg: pcg, r: rand.New(pcg)}
}

const (
	page     = 4096 // max-rss is counted in pages
	tailProb = 0.02 // chance of a heavy-tailed wall-time or throughput sample
)

func (g *sampler) fill(dst []float64, c *cell, k metricKind, level float64, seed uint64) {
	g.pcg.Seed(c.seed, seed)
	r := g.r
	noise := func() float64 { return max(1+c.sigma*r.NormFloat64(), 0.5) }
	// An interrupted sample: a context switch, a page fault storm.
	tail := func() float64 {
		if r.Float64() < tailProb {
			return 1.05 + 0.1*r.ExpFloat64()
		}
		return 1
	}
	switch k {
	case mInstructions:
		for j := range dst {
			dst[j] = max(math.Round(level*noise()), 1)
		}
	case mMaxRSS:
		for j := range dst {
			dst[j] = max(math.Round(level*noise()/page), 1) * page
		}
	case mThroughput:
		for j := range dst {
			dst[j] = math.Round(level*noise()/tail()*100) / 100
		}
	case mWallTime:
		if c.bimodal != 0 && r.Uint64()&1 == 1 {
			level *= 1 + c.bimodal
		}
		for j := range dst {
			x := level * noise() * tail()
			if level >= 1e4 {
				dst[j] = math.Round(x)
			} else {
				dst[j] = math.Round(x*10) / 10
			}
		}
	}
}
