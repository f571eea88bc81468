package foreign

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
	"github.com/perfpages/perfpages/generator/receipt"
)

// perfgate run receipts (perfgate.run.v1, perfgate's docs/DESIGN.md), as
// `perfpages run` and perfgate itself write them. One receipt is one run
// of one bench:
//
//   - the bench name is the benchmark (no parameters);
//   - every perfgate metric the measured samples carry (wall_ms, cpu_ms,
//     max_rss_kb, page_faults, …, and throughput_per_s when the bench has
//     work units: work_units ÷ seconds of each sample, 0 for a sample of
//     0 ms, as perfgate computes it) is a metric of the same name, with
//     perfgate's display unit ("ms", "KB", "bytes", "count", "uj", "/s")
//     and perfgate's direction (throughput higher is better, everything
//     else lower);
//   - the samples are the per-sample values of the non-warm-up samples, in
//     run order: the values perfgate's own statistics summarize (the
//     receipt's stats are not read);
//   - a measured sample that exited non-zero or timed out is kept (perfgate
//     keeps it in its statistics) and reported as a problem; when every
//     measured sample failed, the results carry the failure as their error;
//   - the host gives the machine's os, arch, cores and memory; its
//     hostname_hash, when present, names the machine "host-" + its first
//     12 hex digits unless the caller names it;
//   - the receipt records no commit: the artifact comes from Defaults, its
//     date from run.started_at when Defaults has none.
//
// The receipt's types (its schema id, host, metric table and throughput
// rule) are generator/receipt's, declared once there. The decoding (of
// parseJSON's tree, as every reader here decodes) is this reader's own
// and more forgiving than receipt.ReadRun, which validates a receipt for
// `check` and rejects it whole: a malformed sample is dropped with a
// problem (with its line), and fields the reader does not use (tool,
// stats, ended_at) are not required.
func init() {
	register(Format{Name: "perfgate", Read: readPerfgate, Sniff: sniffPerfgate})
}

func sniffPerfgate(in Input) bool {
	trimmed := bytes.TrimLeft(in.Data, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(trimmed, []byte(`"`+receipt.RunSchema+`"`)) {
		return false
	}
	root, _, p := parseJSON(in.Name, trimmed, readkit.JSONOptions{Duplicates: true})
	var head struct {
		Schema string `json:"schema"`
	}
	return p == nil && readkit.Decode(root, &head) == nil && head.Schema == receipt.RunSchema
}

// perfgateSample is the part of a sample that is not a metric, with
// pointers where receipt.Sample has values, so that a missing exit_code
// is told from 0.
type perfgateSample struct {
	ExitCode *int32 `json:"exit_code"`
	Warmup   bool   `json:"warmup"`
	TimedOut bool   `json:"timed_out"`
}

func readPerfgate(in Input, def Defaults) (_ []model.Run, all []archive.Problem) {
	doc := bytes.TrimPrefix(in.Data, []byte("\ufeff"))
	root, end, perr := parseJSON(in.Name, doc, readkit.JSONOptions{Trailing: true, Duplicates: true, NumberText: true, Partial: true})
	if err := asvCheck(doc, root, end, perr, readkit.Map); err != nil {
		return nil, []archive.Problem{fatal(in.Name, max(err.line, 1), "%s", err.msg)}
	}
	fields := map[string]asvMember{}
	for _, m := range asvMembers(root) {
		if m.Dup {
			return nil, []archive.Problem{fatal(in.Name, m.Line, "field %q appears twice", m.Key)}
		}
		fields[m.Key] = m
	}
	schema, ok := fields["schema"]
	if !ok || schema.Val.Kind != readkit.String || schema.Val.Text != receipt.RunSchema {
		what := "no schema field"
		if ok {
			what = "schema is " + asvShortText(readkit.Source(doc, schema.Val))
		}
		return nil, []archive.Problem{fatal(in.Name, schema.Line, "%s: not a %s receipt", what, receipt.RunSchema)}
	}

	var bench struct {
		Name      *string `json:"name"`
		WorkUnits *uint64 `json:"work_units"`
	}
	be, ok := fields["bench"]
	if !ok {
		return nil, []archive.Problem{fatal(in.Name, 0, `missing field "bench"`)}
	}
	if err := readkit.Decode(be.Val, &bench); err != nil {
		return nil, []archive.Problem{fatal(in.Name, be.Line, "bench: %s", asvTypeMsg(err))}
	}
	if bench.Name == nil || strings.TrimSpace(*bench.Name) == "" {
		return nil, []archive.Problem{fatal(in.Name, be.Line, "bench.name is missing or empty")}
	}
	name := *bench.Name

	var problems []archive.Problem
	var run struct {
		StartedAt *string      `json:"started_at"`
		Host      receipt.Host `json:"host"`
	}
	if re, ok := fields["run"]; !ok {
		problems = append(problems, problem(in.Name, 0, `missing field "run": no host or start time`))
	} else if err := readkit.Decode(re.Val, &run); err != nil {
		problems = append(problems, problem(in.Name, re.Line, "run: %s; host and start time ignored", asvTypeMsg(err)))
		run.StartedAt, run.Host = nil, receipt.Host{}
	}

	se, ok := fields["samples"]
	if !ok || se.Val.Kind == readkit.Null {
		return nil, append(problems, fatal(in.Name, 0, `missing field "samples"`))
	}
	if se.Val.Kind != readkit.List {
		return nil, append(problems, fatal(in.Name, se.Val.Line, "samples: not a JSON array"))
	}
	elems := se.Val.Elems()

	dropped := 0
	defer func() { all = withDropped(all, in.Name, dropped) }()
	values := map[string][]float64{}
	measured, failed, warmups := 0, 0, 0
	var firstFailure string
	for i, el := range elems {
		var s perfgateSample
		if el.Kind != readkit.Map {
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d] is not an object; dropped", i))
			continue
		}
		if err := readkit.Decode(el, &s); err != nil {
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d]: %s; dropped", i, asvTypeMsg(err)))
			continue
		}
		wall, err := perfgateU64(doc, el, "wall_ms")
		switch {
		case err != nil:
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d].wall_ms: %v; sample dropped", i, err))
			continue
		case wall == nil:
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d] has no wall_ms; dropped", i))
			continue
		case s.ExitCode == nil:
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d] has no exit_code; dropped", i))
			continue
		}
		if s.Warmup {
			warmups++
			continue
		}
		measured++
		if why := perfgateFailure(s); why != "" {
			failed++
			if firstFailure == "" {
				firstFailure = why
			}
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "bench %s: sample %d %s; kept, as perfgate's statistics keep it", name, i+1, why))
		}
		for _, pm := range receipt.Metrics {
			switch pm.Name {
			case "throughput_per_s":
				if bench.WorkUnits != nil {
					values[pm.Name] = append(values[pm.Name], receipt.Throughput(*bench.WorkUnits, *wall))
				}
				continue
			case "wall_ms":
				values[pm.Name] = append(values[pm.Name], float64(*wall))
				continue
			}
			v, err := perfgateU64(doc, el, pm.Name)
			if err != nil {
				problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d].%s: %v; value dropped", i, pm.Name, err))
				continue
			}
			if v != nil {
				values[pm.Name] = append(values[pm.Name], float64(*v))
			}
		}
	}
	if measured == 0 {
		what := "no samples"
		if warmups > 0 {
			what = fmt.Sprintf("all %d usable samples are warm-ups", warmups)
		}
		return nil, append(problems, fatal(in.Name, se.Line, "bench %s: no measured samples (%s)", name, what))
	}
	var errText string
	if failed == measured {
		errText = fmt.Sprintf("every measured sample failed (first: %s)", firstFailure)
	}

	r := model.Run{
		Artifact: def.Artifact,
		Machine:  perfgateMachine(in.Name, run.Host, def.Machine, &problems),
		Context:  def.Context,
	}
	r.Artifact.Parents = append([]string(nil), def.Artifact.Parents...)
	if r.Artifact.Date.IsZero() && run.StartedAt != nil {
		if t, err := time.Parse(time.RFC3339Nano, *run.StartedAt); err == nil {
			r.Artifact.Date = t.UTC()
		} else {
			problems = append(problems, problem(in.Name, 0, "run.started_at %q is not an RFC 3339 time; the run has no date", *run.StartedAt))
		}
	}
	for _, pm := range receipt.Metrics {
		xs := values[pm.Name]
		if len(xs) == 0 {
			continue
		}
		r.Results = append(r.Results, model.Result{
			Case:      model.TestCase{Benchmark: name, Category: model.Primary},
			Metric:    pm.Name,
			Unit:      pm.Unit,
			Samples:   xs,
			Error:     errText,
			Direction: model.Direction(pm.Direction),
		})
	}
	return []model.Run{r}, problems
}

// perfgateU64 reads an optional unsigned integer field of a sample, an
// object of doc.
func perfgateU64(doc []byte, sample *readkit.Node, key string) (*uint64, error) {
	n := sample.Last(key)
	if n == nil || n.Kind == readkit.Null {
		return nil, nil
	}
	var v uint64
	if err := readkit.Decode(n, &v); err != nil {
		return nil, fmt.Errorf("%s is not a non-negative integer", asvShortText(readkit.Source(doc, n)))
	}
	return &v, nil
}

// perfgateFailure says why a sample failed, or "" when it did not.
func perfgateFailure(s perfgateSample) string {
	switch {
	case s.TimedOut:
		return "timed out"
	case s.ExitCode != nil && *s.ExitCode != 0:
		return fmt.Sprintf("exited with code %d", *s.ExitCode)
	}
	return ""
}

// perfgateMachine describes the receipt's host; the caller's machine fills
// what the receipt does not say.
func perfgateMachine(file string, h receipt.Host, def model.Machine, problems *[]archive.Problem) model.Machine {
	m := def
	m.Labels = append(model.Params(nil), def.Labels...)
	if h.OS != "" {
		m.OS = h.OS
	}
	if h.Arch != "" {
		m.Arch = h.Arch
	}
	if h.CPUCount != nil && *h.CPUCount > 0 && *h.CPUCount <= math.MaxInt32 {
		m.Cores = int(*h.CPUCount)
	}
	if h.MemoryBytes != nil {
		if *h.MemoryBytes > math.MaxInt64 {
			*problems = append(*problems, problem(file, 0, "run.host.memory_bytes %d is out of range; ignored", *h.MemoryBytes))
		} else {
			m.MemoryBytes = int64(*h.MemoryBytes)
		}
	}
	if hash := strings.ToLower(h.HostnameHash); m.Name == "" && len(hash) >= 12 && model.IsSHA(hash[:12]) {
		m.Name = "host-" + hash[:12]
	}
	return m
}
