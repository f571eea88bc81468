package foreign

import (
	"bytes"
	"encoding/json"
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
// rule) are generator/receipt's, declared once there. The decoding is
// this reader's own and more forgiving than receipt.ReadRun, which
// validates a receipt for `check` and rejects it whole: a malformed sample
// is dropped with a problem (with its line), and fields the reader does
// not use (tool, stats, ended_at) are not required.
func init() {
	register(Format{Name: "perfgate", Read: readPerfgate, Sniff: sniffPerfgate})
}

func sniffPerfgate(in Input) bool {
	trimmed := bytes.TrimLeft(in.Data, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(trimmed, []byte(`"`+receipt.RunSchema+`"`)) {
		return false
	}
	var head struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(trimmed, &head) == nil && head.Schema == receipt.RunSchema
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
	lx := readkit.NewLines(doc)
	entries, serr := asvObject(lx, 0, doc, true)
	if serr != nil {
		return nil, []archive.Problem{fatal(in.Name, serr.line, "%s", serr.msg)}
	}
	fields := map[string]asvEntry{}
	for _, e := range entries {
		if e.Dup {
			return nil, []archive.Problem{fatal(in.Name, e.Line, "field %q appears twice", e.Key)}
		}
		fields[e.Key] = e
	}
	schema, ok := fields["schema"]
	var id string
	if !ok || json.Unmarshal(schema.Raw, &id) != nil || id != receipt.RunSchema {
		what := "no schema field"
		if ok {
			what = "schema is " + asvShort(schema.Raw)
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
	if err := json.Unmarshal(be.Raw, &bench); err != nil {
		return nil, []archive.Problem{fatal(in.Name, be.Line, "bench: %s", asvTypeError(err))}
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
	} else if err := json.Unmarshal(re.Raw, &run); err != nil {
		problems = append(problems, problem(in.Name, re.Line, "run: %s; host and start time ignored", asvTypeError(err)))
		run.StartedAt, run.Host = nil, receipt.Host{}
	}

	se, ok := fields["samples"]
	if !ok || asvIsNull(se.Raw) {
		return nil, append(problems, fatal(in.Name, 0, `missing field "samples"`))
	}
	elems, serr := asvArray(lx, se.Off, se.Raw)
	if serr != nil {
		return nil, append(problems, fatal(in.Name, serr.line, "samples: %s", serr.msg))
	}

	dropped := 0
	defer func() { all = withDropped(all, in.Name, dropped) }()
	values := map[string][]float64{}
	measured, failed, warmups := 0, 0, 0
	var firstFailure string
	for i, el := range elems {
		var s perfgateSample
		var m map[string]json.RawMessage
		if el.Raw[0] != '{' || json.Unmarshal(el.Raw, &m) != nil || m == nil {
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d] is not an object; dropped", i))
			continue
		}
		if err := json.Unmarshal(el.Raw, &s); err != nil {
			problems = keep(problems, &dropped, problem(in.Name, el.Line, "samples[%d]: %s; dropped", i, asvTypeError(err)))
			continue
		}
		wall, err := perfgateU64(m, "wall_ms")
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
			v, err := perfgateU64(m, pm.Name)
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

// perfgateU64 reads an optional unsigned integer field of a sample.
func perfgateU64(m map[string]json.RawMessage, key string) (*uint64, error) {
	raw, ok := m[key]
	if !ok || asvIsNull(raw) {
		return nil, nil
	}
	var v uint64
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s is not a non-negative integer", asvShort(raw))
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
