package perfgate

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/receipt"
)

// compareOptions configures a comparison. perfgate takes its own options,
// not config's types, so that it stays a reader of receipts that any
// caller can drive: cmd turns perfpages.toml into them
// (config.CompareOptions().Budgets, config.BuildOptions().Metrics).
type compareOptions struct {
	// Budgets are the budgets by metric name (the config's
	// [budgets."metric"] sections); nil when there are none. A budget
	// without a direction takes the metric's; a metric without a budget
	// gets [budget.Default].
	Budgets map[string]budget.Budget
	// Metrics are the metrics the config describes ([metrics."name"]); a
	// metric's direction there is the default direction of its budget
	// (archives).
	Metrics map[string]model.Metric
	// Significance turns on Welch's t-test; nil leaves it off.
	Significance *budget.SignificancePolicy
	Tool         receipt.Tool
	// BaselinePath and CurrentPath go into the receipt's refs.
	BaselinePath, CurrentPath string
}

// comparison is a compare receipt with what rendering it needs.
type comparison struct {
	Receipt receipt.Compare
	// Units is the display unit of each delta key.
	Units map[string]string
	// Warnings are problems that did not stop the comparison (a host
	// mismatch, a unit that changed, a budget that matches nothing).
	Warnings []string
	// HostMismatch lists how the two machines differ (also in Warnings).
	HostMismatch []string
}

// compareRuns compares two run receipts as perfgate's compare does.
// wall_ms always gets a budget; cpu_ms, page_faults, ctx_switches,
// max_rss_kb, binary_bytes and throughput_per_s get one when both receipts
// have the metric. A [budgets.<metric>] section (perfgate's metric name)
// overrides threshold, warn factor, direction, statistic and noise
// settings; unset values take perfgate's defaults (0.20, 0.90, the
// metric's direction, median, no noise threshold, noise policy warn).
func compareRuns(base, cur *receipt.Run, opts compareOptions) *comparison {
	budgets := map[string]budget.Budget{}
	var inputs []budget.Input
	units := map[string]string{}
	for _, m := range receipt.Metrics {
		if !m.Budgeted {
			continue
		}
		bv, bok := base.Stats.Median(m.Name)
		cv, cok := cur.Stats.Median(m.Name)
		if !bok || !cok {
			continue
		}
		cb, ok := opts.Budgets[m.Name]
		b := budgetFor(cb, ok, m.Direction)
		budgets[m.Name] = b
		units[m.Name] = m.Unit
		bs, cs := base.Series(m.Name), cur.Series(m.Name)
		if b.Stat() == budget.P95 {
			if len(bs) > 0 {
				bv = budget.PercentileLinear(bs, 0.95)
			}
			if len(cs) > 0 {
				cv = budget.PercentileLinear(cs, 0.95)
			}
		}
		inputs = append(inputs, budget.Input{
			Metric: m.Name, Baseline: bv, Current: cv,
			CurrentCV:       cur.Stats.CV(m.Name),
			BaselineSamples: bs, CurrentSamples: cs,
		})
	}
	c := &comparison{Units: units}
	c.Receipt = newCompareReceipt(opts, cur.Bench,
		receipt.Ref{Path: opts.BaselinePath, RunID: base.Run.ID},
		receipt.Ref{Path: opts.CurrentPath, RunID: cur.Run.ID},
		budgets, budget.Compare(inputs, budgets, opts.Significance))
	c.HostMismatch = hostMismatch(base.Run.Host, cur.Run.Host)
	for _, r := range c.HostMismatch {
		c.Warnings = append(c.Warnings, "host mismatch: "+r)
	}
	return c
}

// budgetFor is the budget of a metric: b when it has one (ok), else
// perfgate's defaults; def is the metric's own direction.
func budgetFor(b budget.Budget, ok bool, def budget.Direction) budget.Budget {
	if !ok {
		b = budget.Default()
	}
	if b.Direction == "" {
		b.Direction = def
	}
	b.Statistic = b.Stat()
	return b
}

// newCompareReceipt assembles a receipt from the engine's result.
func newCompareReceipt(opts compareOptions, bench receipt.Bench, baseRef, curRef receipt.Ref, budgets map[string]budget.Budget, res budget.Result) receipt.Compare {
	r := receipt.Compare{
		Schema:      receipt.CompareSchema,
		Tool:        opts.Tool,
		Bench:       bench,
		BaselineRef: baseRef,
		CurrentRef:  curRef,
		Budgets:     map[string]receipt.Budget{},
		Deltas:      map[string]receipt.Delta{},
		Verdict:     verdictJSON(res.Verdict),
	}
	if r.Bench.Command == nil {
		r.Bench.Command = []string{}
	}
	for k, b := range budgets {
		wb := receipt.Budget{Threshold: b.Threshold, WarnThreshold: b.WarnThreshold, NoiseThreshold: b.NoiseThreshold, Direction: b.Direction}
		if p := b.Policy(); p != budget.NoiseIgnore {
			wb.NoisePolicy = p
		}
		r.Budgets[k] = wb
	}
	for k, d := range res.Deltas {
		r.Deltas[k] = deltaJSON(d)
	}
	return r
}

func deltaJSON(d budget.Delta) receipt.Delta {
	out := receipt.Delta{
		Baseline: d.Baseline, Current: d.Current, Ratio: d.Ratio, Pct: d.Pct, Regression: d.Regression,
		CV: d.CV, NoiseThreshold: d.NoiseThreshold, Status: d.Status,
	}
	if d.Statistic != budget.Median && d.Statistic != "" {
		out.Statistic = d.Statistic
	}
	if s := d.Significance; s != nil {
		p := s.PValue
		out.Significance = &receipt.Significance{
			Test: s.Test, PValue: &p, Alpha: s.Alpha, Significant: s.Significant,
			BaselineSamples: uint32(s.BaselineSamples), CurrentSamples: uint32(s.CurrentSamples),
			CILower: s.CILower, CIUpper: s.CIUpper,
		}
	}
	return out
}

func verdictJSON(v budget.Verdict) receipt.Verdict {
	reasons := v.Reasons
	if reasons == nil {
		reasons = []string{}
	}
	return receipt.Verdict{
		Status:  v.Status,
		Counts:  receipt.Counts{Pass: uint32(v.Counts.Pass), Warn: uint32(v.Counts.Warn), Fail: uint32(v.Counts.Fail), Skip: uint32(v.Counts.Skip)},
		Reasons: reasons,
	}
}

// resultKey names a result of a perfpages archive in a comparison:
// "<benchmark>/<metric>", or "<benchmark>{<k>=<v>,…}/<metric>" when the
// test case has parameters (sorted by key). A value or key holding one of
// `{},=/"` or a space is quoted Go-style, so distinct results never share
// a key.
func resultKey(tc model.TestCase, metric string) string {
	var b strings.Builder
	b.WriteString(tc.Benchmark)
	if len(tc.Params) > 0 {
		b.WriteByte('{')
		for i, p := range tc.Params {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quoteKeyPart(p.Key))
			b.WriteByte('=')
			b.WriteString(quoteKeyPart(p.Value))
		}
		b.WriteByte('}')
	}
	b.WriteByte('/')
	b.WriteString(metric)
	return b.String()
}

func quoteKeyPart(s string) string {
	if s == "" || strings.ContainsAny(s, "{},=/\" \t\n\r\\") {
		return strconv.Quote(s)
	}
	return s
}

// archiveResult is one usable result of an archive.
type archiveResult struct {
	key     string
	metric  string
	unit    string
	samples []float64
}

// archiveResults returns the results of run that have samples and no
// error, keyed by resultKey; duplicates after the first are reported.
func archiveResults(run *model.Run, path string) (map[string]archiveResult, []string) {
	out := map[string]archiveResult{}
	var warnings []string
	for _, r := range run.Results {
		if r.Error != "" || len(r.Samples) == 0 {
			continue
		}
		k := resultKey(r.Case, r.Metric)
		if _, dup := out[k]; dup {
			warnings = append(warnings, fmt.Sprintf("%s: result %s appears twice; the first one is compared", path, k))
			continue
		}
		out[k] = archiveResult{key: k, metric: r.Metric, unit: r.Unit, samples: r.Samples}
	}
	return out, warnings
}

// compareArchives compares two perfpages archives result by result. Every
// test case and metric present on both sides with samples (and no error)
// is one delta keyed by [resultKey]; each archive is one machine in one
// context, so results pair by test case and metric, and a differing
// machine or context is reported as a host mismatch. A metric gets a
// budget when the config has [budgets."<metric name>"] or, when the config
// has no [budgets] section at all, the default budget (0.20 / 0.90); its
// direction defaults to the [metrics] config's, else the unit's (units
// ending in /s are higher-is-better). The median or p95 is taken over the
// samples; the current samples' coefficient of variation feeds the noise
// policy.
func compareArchives(base, cur *model.Run, opts compareOptions) *comparison {
	bres, w1 := archiveResults(base, opts.BaselinePath)
	cres, w2 := archiveResults(cur, opts.CurrentPath)
	c := &comparison{Units: map[string]string{}}
	c.Warnings = append(append(c.Warnings, w1...), w2...)

	budgets := map[string]budget.Budget{}
	var inputs []budget.Input
	maxSamples := 0
	matched := false
	for _, k := range slices.Sorted(maps.Keys(cres)) {
		cr := cres[k]
		br, ok := bres[k]
		if !ok {
			continue
		}
		matched = true
		if br.unit != cr.unit {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unit changed from %q to %q; not compared", k, br.unit, cr.unit))
			continue
		}
		cb, has := opts.Budgets[cr.metric]
		if !has && opts.Budgets != nil {
			continue
		}
		b := budgetFor(cb, has, archiveDirection(cr.metric, cr.unit, opts.Metrics))
		budgets[k] = b
		c.Units[k] = cr.unit
		maxSamples = max(maxSamples, len(cr.samples))
		in := budget.Input{Metric: k, BaselineSamples: br.samples, CurrentSamples: cr.samples}
		if b.Stat() == budget.P95 {
			in.Baseline, in.Current = budget.PercentileLinear(br.samples, 0.95), budget.PercentileLinear(cr.samples, 0.95)
		} else {
			in.Baseline, in.Current = budget.MedianF64(br.samples), budget.MedianF64(cr.samples)
		}
		if mean, sd, ok := budget.MeanStddev(cr.samples); ok {
			if cv, ok := budget.CV(mean, sd); ok {
				in.CurrentCV = &cv
			}
		}
		inputs = append(inputs, in)
	}
	if matched && len(budgets) == 0 && opts.Budgets != nil {
		c.Warnings = append(c.Warnings, fmt.Sprintf("no [budgets] section matches a metric of these archives (budgets: %s; metrics: %s)",
			strings.Join(slices.Sorted(maps.Keys(opts.Budgets)), ", "), strings.Join(metricNames(cres), ", ")))
	}
	if !matched {
		c.Warnings = append(c.Warnings, "the archives have no test case and metric in common")
	}

	bench := receipt.Bench{Name: cur.Artifact.ID, Command: []string{}, Repeat: uint32(maxSamples)}
	c.Receipt = newCompareReceipt(opts, bench,
		receipt.Ref{Path: opts.BaselinePath, RunID: base.Artifact.ID},
		receipt.Ref{Path: opts.CurrentPath, RunID: cur.Artifact.ID},
		budgets, budget.Compare(inputs, budgets, opts.Significance))
	c.HostMismatch = machineMismatch(base, cur)
	for _, r := range c.HostMismatch {
		c.Warnings = append(c.Warnings, "host mismatch: "+r)
	}
	return c
}

func metricNames(rs map[string]archiveResult) []string {
	set := map[string]bool{}
	for _, r := range rs {
		set[r.metric] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// archiveDirection is the default direction of an archive metric: the
// [metrics] config's, else the unit's.
func archiveDirection(metric, unit string, cfg map[string]model.Metric) budget.Direction {
	m := cfg[metric]
	if m.Direction != "" {
		return budget.Direction(m.Direction)
	}
	if unit == "" {
		unit = m.Unit
	}
	if model.DefaultMetric(metric, unit).Direction == model.HigherIsBetter {
		return budget.Higher
	}
	return budget.Lower
}

// machineMismatch compares the machines and contexts of two archives.
func machineMismatch(base, cur *model.Run) []string {
	var reasons []string
	bm, cm := base.Machine, cur.Machine
	if bm.Name != cm.Name {
		reasons = append(reasons, fmt.Sprintf("machine mismatch: baseline=%s, current=%s", bm.Name, cm.Name))
	}
	// A field only one archive states is not a difference.
	var bh, ch receipt.Host
	if bm.OS != "" && cm.OS != "" {
		bh.OS, ch.OS = bm.OS, cm.OS
	}
	if bm.Arch != "" && cm.Arch != "" {
		bh.Arch, ch.Arch = bm.Arch, cm.Arch
	}
	if bm.Cores > 0 && cm.Cores > 0 {
		b, c := uint32(bm.Cores), uint32(cm.Cores)
		bh.CPUCount, ch.CPUCount = &b, &c
	}
	if bm.MemoryBytes > 0 && cm.MemoryBytes > 0 {
		b, c := uint64(bm.MemoryBytes), uint64(cm.MemoryBytes)
		bh.MemoryBytes, ch.MemoryBytes = &b, &c
	}
	reasons = append(reasons, hostMismatch(bh, ch)...)
	if b, c := base.Context.String(), cur.Context.String(); b != c {
		reasons = append(reasons, fmt.Sprintf("context mismatch: baseline={%s}, current={%s}", b, c))
	}
	return reasons
}
