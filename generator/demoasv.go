package generator

import (
	"bufio"
	gitsha "crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/demo"
)

// The demo in asv's layout. `perfpages demo -format asv` writes a plan's
// main line as asv would have recorded it (asv's results layout, as
// asv/results.py writes it), so that perfpages and `asv publish` can be run
// on the same data (scripts/asv-compare.sh):
//
//	results/benchmarks.json                 every benchmark: type, unit, version
//	results/<machine>/machine.json          the machine
//	results/<machine>/<sha8>-<env>.json     one result file per commit (format version 2)
//	project.fi                              the commits, as a git fast-import stream
//	asv.conf.json, perfpages.toml           asv's and perfpages' configurations
//
// Each series of the plan is one asv benchmark without parameters (asv
// publish writes a graph per benchmark): wall-time becomes a time
// benchmark in seconds with its samples and asv's statistics, max-rss a
// peakmemory benchmark in bytes, instruction counts and throughput track
// benchmarks with their units, one value each as asv keeps them. A failed
// result is asv's null. asv places results in history through the
// project's git repository, so the commit ids are those of real commits:
// project.fi makes them (`git fast-import`), one a result file, each the
// child of the one before, dated as the results.

// ASVEnv is the environment of the demo's asv results.
const ASVEnv = "virtualenv-py3.12"

// asvDemoAuthor signs the commits of project.fi.
const asvDemoAuthor = "perfpages demo <demo@perfpages.invalid>"

// ASVPlan is plan as asv results: one machine running every series (asv
// keeps one results folder per machine; so `perfpages demo -size M -format
// asv` writes one file per commit).
func ASVPlan(plan demo.Plan) demo.Plan {
	series := plan.SeriesPerMachine * len(plan.Machines)
	m := plan.Machines[len(plan.Machines)-1]
	plan.Machines = []model.Machine{m}
	if plan.Suite == demo.SuiteSynthetic {
		plan.SeriesPerMachine = series
	}
	return plan
}

// asvBench is one benchmark of the demo's benchmarks.json.
type asvBench struct {
	name, typ, unit, version string
}

// asvBenchOf names the asv benchmark of a result and says how asv would
// record it: its type and unit, and the factor from the result's unit to
// asv's (nanoseconds to seconds).
func asvBenchOf(r *model.Result) (b asvBench, scale float64) {
	var vals []string
	for _, p := range r.Case.Params {
		vals = append(vals, p.Value)
	}
	module := strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(r.Case.Benchmark)
	class, prefix := "Track", "track"
	b.typ, b.unit, scale = "track", r.Unit, 1
	switch r.Metric {
	case "wall-time":
		class, prefix = "Time", "time"
		b.typ, b.unit = "time", "seconds"
		if r.Unit == "ns" {
			scale = 1e-9
		}
	case "max-rss":
		class, prefix = "Memory", "peakmem"
		b.typ, b.unit = "peakmemory", "bytes"
	default:
		name, _, _ := strings.Cut(r.Metric, ":") // instructions:u
		class = strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToUpper(name[:1]) + name[1:])
	}
	method := prefix
	if len(vals) > 0 {
		method += "_" + strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(strings.Join(vals, "_"))
	}
	b.name = module + "." + class + "." + method
	sum := sha256.Sum256([]byte(b.name))
	b.version = hex.EncodeToString(sum[:])
	return b, scale
}

// gitCommitID is the id git gives the commit of an empty tree with parent
// (none when ""), author and committer asvDemoAuthor at unix time t and
// message msg: what `git fast-import` makes of the same commit.
func gitCommitID(parent string, t int64, msg string) string {
	var b strings.Builder
	b.WriteString("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n")
	if parent != "" {
		b.WriteString("parent " + parent + "\n")
	}
	fmt.Fprintf(&b, "author %s %d +0000\ncommitter %s %d +0000\n\n%s", asvDemoAuthor, t, asvDemoAuthor, t, msg)
	h := gitsha.New()
	fmt.Fprintf(h, "commit %d\x00", b.Len())
	h.Write([]byte(b.String()))
	return hex.EncodeToString(h.Sum(nil))
}

// asvNum writes x as Python's json module would.
func asvNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e16 {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// asvQuantile is the q-quantile of sorted xs by linear interpolation.
func asvQuantile(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	lo := math.Floor(h)
	if int(lo) >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[int(lo)] + (h-lo)*(xs[int(lo)+1]-xs[int(lo)])
}

// asvRow is a benchmark's row of a version 2 result file (result_columns
// asvColumns), trailing nulls left out as asv does.
func asvRow(r *model.Result, b asvBench, scale float64, started int64) string {
	var w strings.Builder
	if r.Error != "" || len(r.Samples) == 0 {
		fmt.Fprintf(&w, "[null, [], %q, %d, 0.5]", b.version, started)
		return w.String()
	}
	xs := make([]float64, len(r.Samples))
	for i, x := range r.Samples {
		xs[i] = x * scale
	}
	if b.typ != "time" {
		fmt.Fprintf(&w, "[[%s], [], %q, %d, 0.25]", asvNum(xs[0]), b.version, started)
		return w.String()
	}
	sorted := slices.Sorted(slices.Values(xs))
	dur := 0.0
	for _, x := range xs {
		dur += x
	}
	fmt.Fprintf(&w, "[[%s], [], %q, %d, %s, [%s], [%s], [%s], [%s], [1], [%d], [[", asvNum(asvQuantile(sorted, 0.5)), b.version, started,
		asvNum(math.Round(dur*1e5)/1e5+0.1), asvNum(sorted[0]), asvNum(sorted[len(sorted)-1]),
		asvNum(asvQuantile(sorted, 0.25)), asvNum(asvQuantile(sorted, 0.75)), len(xs))
	for i, x := range xs {
		if i > 0 {
			w.WriteString(", ")
		}
		w.WriteString(asvNum(x))
	}
	w.WriteString("]]]")
	return w.String()
}

// asvColumns are the result_columns of asv's format version 2.
var asvColumns = []string{"result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"}

// WriteASV writes the main line of a demo plan (see ASVPlan) in asv's
// layout under dir (see the top of this file) and returns the number of
// result files. It streams, holding one run at a time.
func WriteASV(dir string, plan demo.Plan) (int, error) {
	if err := plan.Validate(); err != nil {
		return 0, err
	}
	if len(plan.Machines) != 1 {
		return 0, fmt.Errorf("asv layout: the plan has %d machines, want 1 (see ASVPlan)", len(plan.Machines))
	}
	m := plan.Machines[0]
	results := filepath.Join(dir, "results")
	mdir := filepath.Join(results, m.Name)
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return 0, err
	}
	machine := map[string]any{
		"machine": m.Name, "os": m.OS, "arch": m.Arch, "cpu": m.CPU,
		"num_cpu": strconv.Itoa(m.Cores), "ram": strconv.FormatInt(m.MemoryBytes>>10, 10),
	}
	mj, _ := json.MarshalIndent(withVersion(machine), "", "    ")
	if err := os.WriteFile(filepath.Join(mdir, "machine.json"), append(mj, '\n'), 0o644); err != nil {
		return 0, err
	}
	paramsJSON, _ := json.Marshal(withPython(machine))
	columnsJSON, _ := json.Marshal(asvColumns)

	fi, err := os.Create(filepath.Join(dir, "project.fi"))
	if err != nil {
		return 0, err
	}
	defer fi.Close()
	fw := bufio.NewWriter(fi)
	benches := map[string]asvBench{}
	parent, n := "", 0
	err = plan.Generate(func(r model.Run) error {
		if r.Artifact.Kind != model.KindCommit {
			return nil // try runs are no commits of the main line
		}
		t := r.Artifact.Date.Unix()
		msg := r.Artifact.Title + "\n"
		id := gitCommitID(parent, t, msg)
		fmt.Fprintf(fw, "commit refs/heads/main\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s", n+1, asvDemoAuthor, t, asvDemoAuthor, t, len(msg), msg)
		if n > 0 {
			fmt.Fprintf(fw, "from :%d\n", n)
		}
		fw.WriteString("\n")
		parent = id

		ms := r.Artifact.Date.UnixMilli()
		var w strings.Builder
		fmt.Fprintf(&w, `{"commit_hash": %q, "env_name": %q, "date": %d, "params": %s, "python": "3.12", "requirements": {}, "env_vars": {}, "result_columns": %s, "results": {`,
			id, ASVEnv, ms, paramsJSON, columnsJSON)
		for i := range r.Results {
			res := &r.Results[i]
			b, scale := asvBenchOf(res)
			benches[b.name] = b
			if i > 0 {
				w.WriteString(", ")
			}
			fmt.Fprintf(&w, "%q: %s", b.name, asvRow(res, b, scale, ms+int64(i)*250))
		}
		w.WriteString(`}, "durations": {}, "version": 2}`)
		name := filepath.Join(mdir, id[:8]+"-"+ASVEnv+".json")
		if err := os.WriteFile(name, []byte(w.String()), 0o644); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return n, err
	}
	if err := fw.Flush(); err != nil {
		return n, err
	}
	suite := map[string]any{"version": 2}
	for _, b := range benches {
		suite[b.name] = map[string]any{
			"code": "def " + b.name[strings.LastIndexByte(b.name, '.')+1:] + "(self):\n    run()", "min_run_count": 2,
			"name": b.name, "number": 0, "param_names": []string{}, "params": [][]string{}, "repeat": 0, "rounds": 2,
			"sample_time": 0.01, "timeout": 60.0, "type": b.typ, "unit": b.unit, "version": b.version, "warmup_time": -1,
		}
	}
	sj, _ := json.MarshalIndent(suite, "", "    ")
	if err := os.WriteFile(filepath.Join(results, "benchmarks.json"), append(sj, '\n'), 0o644); err != nil {
		return n, err
	}
	conf := fmt.Sprintf(`{
    "version": 1,
    "project": "perfpages-%s",
    "project_url": "https://example.invalid/",
    "repo": "project.git",
    "branches": ["main"],
    "environment_type": "virtualenv",
    "results_dir": "results",
    "html_dir": "asv-html"
}
`, strings.ToLower(plan.Name))
	if err := os.WriteFile(filepath.Join(dir, "asv.conf.json"), []byte(conf), 0o644); err != nil {
		return n, err
	}
	cfg := fmt.Sprintf("# Generated by perfpages demo -size %s -format asv.\n[site]\ntitle = \"perfpages %s data set (asv layout)\"\n\n[[sources]]\ndir = \"results\"\nformat = \"asv\"\n", plan.Name, plan.Name)
	return n, os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(cfg), 0o644)
}

func withVersion(m map[string]any) map[string]any {
	out := map[string]any{"version": 1}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func withPython(m map[string]any) map[string]any {
	out := map[string]any{"python": "3.12"}
	for k, v := range m {
		out[k] = v
	}
	return out
}
