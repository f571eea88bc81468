package receipt

import (
	"github.com/perfpages/perfpages/analysis/budget"
)

// Schema ids of perfgate's receipts.
const (
	RunSchema     = "perfgate.run.v1"
	CompareSchema = "perfgate.compare.v1"
	ReportSchema  = "perfgate.report.v1"
)

// Tool names the program that wrote a receipt.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Host describes the machine a run happened on.
type Host struct {
	OS          string  `json:"os"`
	Arch        string  `json:"arch"`
	CPUCount    *uint32 `json:"cpu_count,omitempty"`
	MemoryBytes *uint64 `json:"memory_bytes,omitempty"`
	// HostnameHash is the hex SHA-256 of the host name: it tells machines
	// apart without publishing their names.
	HostnameHash string `json:"hostname_hash,omitempty"`
}

// RunMeta identifies one run.
type RunMeta struct {
	ID        string `json:"id"`
	StartedAt string `json:"started_at"` // RFC 3339
	EndedAt   string `json:"ended_at"`   // RFC 3339
	Host      Host   `json:"host"`
}

// Bench is what was measured and how.
type Bench struct {
	Name      string   `json:"name"`
	Cwd       string   `json:"cwd,omitempty"`
	Command   []string `json:"command"` // argv, no shell parsing
	Repeat    uint32   `json:"repeat"`
	Warmup    uint32   `json:"warmup"`
	WorkUnits *uint64  `json:"work_units,omitempty"`
	TimeoutMs *uint64  `json:"timeout_ms,omitempty"`
}

// Sample is one execution of the command.
type Sample struct {
	WallMs   uint64 `json:"wall_ms"`
	ExitCode int32  `json:"exit_code"`
	Warmup   bool   `json:"warmup"`
	TimedOut bool   `json:"timed_out"`
	// CPUMs is user + system CPU time in ms.
	CPUMs          *uint64 `json:"cpu_ms,omitempty"`
	PageFaults     *uint64 `json:"page_faults,omitempty"`
	CtxSwitches    *uint64 `json:"ctx_switches,omitempty"`
	MaxRSSKB       *uint64 `json:"max_rss_kb,omitempty"`
	IOReadBytes    *uint64 `json:"io_read_bytes,omitempty"`
	IOWriteBytes   *uint64 `json:"io_write_bytes,omitempty"`
	NetworkPackets *uint64 `json:"network_packets,omitempty"`
	EnergyUJ       *uint64 `json:"energy_uj,omitempty"`
	BinaryBytes    *uint64 `json:"binary_bytes,omitempty"`
	// Stdout and Stderr are the first bytes of the command's output
	// (8192 by default), decoded as UTF-8 with invalid bytes replaced.
	Stdout *string `json:"stdout,omitempty"`
	Stderr *string `json:"stderr,omitempty"`
}

// U64Summary summarizes an integer metric over the measured samples:
// budget's summary, declared once there.
type U64Summary = budget.U64Summary

// F64Summary summarizes a real-valued metric (throughput).
type F64Summary = budget.F64Summary

// Stats are the summaries of a run. Only wall_ms is always present.
type Stats struct {
	WallMs         U64Summary  `json:"wall_ms"`
	CPUMs          *U64Summary `json:"cpu_ms,omitempty"`
	PageFaults     *U64Summary `json:"page_faults,omitempty"`
	CtxSwitches    *U64Summary `json:"ctx_switches,omitempty"`
	MaxRSSKB       *U64Summary `json:"max_rss_kb,omitempty"`
	IOReadBytes    *U64Summary `json:"io_read_bytes,omitempty"`
	IOWriteBytes   *U64Summary `json:"io_write_bytes,omitempty"`
	NetworkPackets *U64Summary `json:"network_packets,omitempty"`
	EnergyUJ       *U64Summary `json:"energy_uj,omitempty"`
	BinaryBytes    *U64Summary `json:"binary_bytes,omitempty"`
	ThroughputPerS *F64Summary `json:"throughput_per_s,omitempty"`
}

// Run is a perfgate.run.v1 receipt.
type Run struct {
	Schema  string   `json:"schema"`
	Tool    Tool     `json:"tool"`
	Run     RunMeta  `json:"run"`
	Bench   Bench    `json:"bench"`
	Samples []Sample `json:"samples"`
	Stats   Stats    `json:"stats"`
}

// Ref points at one side of a comparison.
type Ref struct {
	Path  string `json:"path,omitempty"`
	RunID string `json:"run_id,omitempty"`
}

// Budget is the budget of one metric as a compare receipt records it.
type Budget struct {
	Threshold      float64  `json:"threshold"`
	WarnThreshold  float64  `json:"warn_threshold"`
	NoiseThreshold *float64 `json:"noise_threshold,omitempty"`
	// NoisePolicy is omitted when it is "ignore".
	NoisePolicy budget.NoisePolicy `json:"noise_policy,omitempty"`
	Direction   budget.Direction   `json:"direction"`
}

// Significance is Welch's t-test of a metric's two sample series.
type Significance struct {
	Test            string   `json:"test"`
	PValue          *float64 `json:"p_value"`
	Alpha           float64  `json:"alpha"`
	Significant     bool     `json:"significant"`
	BaselineSamples uint32   `json:"baseline_samples"`
	CurrentSamples  uint32   `json:"current_samples"`
	CILower         *float64 `json:"ci_lower,omitempty"`
	CIUpper         *float64 `json:"ci_upper,omitempty"`
}

// Delta is the comparison of one metric.
type Delta struct {
	Baseline       float64  `json:"baseline"`
	Current        float64  `json:"current"`
	Ratio          float64  `json:"ratio"`
	Pct            float64  `json:"pct"`
	Regression     float64  `json:"regression"`
	CV             *float64 `json:"cv,omitempty"`
	NoiseThreshold *float64 `json:"noise_threshold,omitempty"`
	// Statistic is omitted when it is "median".
	Statistic    budget.Statistic `json:"statistic,omitempty"`
	Significance *Significance    `json:"significance,omitempty"`
	Status       budget.Status    `json:"status"`
}

// Counts counts metrics by status.
type Counts struct {
	Pass uint32 `json:"pass"`
	Warn uint32 `json:"warn"`
	Fail uint32 `json:"fail"`
	Skip uint32 `json:"skip"`
}

// Verdict is the outcome of a comparison.
type Verdict struct {
	Status  budget.Status `json:"status"`
	Counts  Counts        `json:"counts"`
	Reasons []string      `json:"reasons"`
}

// Compare is a perfgate.compare.v1 receipt. Budgets and Deltas are
// keyed by metric: a perfgate metric name (wall_ms, …) when run receipts
// were compared, a result key ("<benchmark>{<params>}/<metric>") when
// archives were.
type Compare struct {
	Schema      string            `json:"schema"`
	Tool        Tool              `json:"tool"`
	Bench       Bench             `json:"bench"`
	BaselineRef Ref               `json:"baseline_ref"`
	CurrentRef  Ref               `json:"current_ref"`
	Budgets     map[string]Budget `json:"budgets"`
	Deltas      map[string]Delta  `json:"deltas"`
	Verdict     Verdict           `json:"verdict"`
}

// Metric describes one of perfgate's metrics (crates/perfgate-types).
type Metric struct {
	Name      string
	Direction budget.Direction
	Unit      string // display unit of the Markdown comment
	// Budgeted metrics get a budget in a comparison when both receipts
	// have them, as in perfgate's compare and check; the others never do.
	Budgeted bool
}

// Metrics are perfgate's eleven metrics in their (alphabetical) order.
var Metrics = []Metric{
	{"binary_bytes", budget.Lower, "bytes", true},
	{"cpu_ms", budget.Lower, "ms", true},
	{"ctx_switches", budget.Lower, "count", true},
	{"energy_uj", budget.Lower, "uj", false},
	{"io_read_bytes", budget.Lower, "bytes", false},
	{"io_write_bytes", budget.Lower, "bytes", false},
	{"max_rss_kb", budget.Lower, "KB", true},
	{"network_packets", budget.Lower, "count", false},
	{"page_faults", budget.Lower, "count", true},
	{"throughput_per_s", budget.Higher, "/s", true},
	{"wall_ms", budget.Lower, "ms", true},
}

// MetricByName returns the perfgate metric called name.
func MetricByName(name string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// u64 returns the sample's value of an integer metric, or nil.
func (s *Sample) u64(metric string) *uint64 {
	switch metric {
	case "wall_ms":
		return &s.WallMs
	case "cpu_ms":
		return s.CPUMs
	case "page_faults":
		return s.PageFaults
	case "ctx_switches":
		return s.CtxSwitches
	case "max_rss_kb":
		return s.MaxRSSKB
	case "io_read_bytes":
		return s.IOReadBytes
	case "io_write_bytes":
		return s.IOWriteBytes
	case "network_packets":
		return s.NetworkPackets
	case "energy_uj":
		return s.EnergyUJ
	case "binary_bytes":
		return s.BinaryBytes
	}
	return nil
}

// u64Field returns where Stats keeps the summary of an optional integer
// metric (nil for wall_ms and throughput, which are kept differently).
func (s *Stats) u64Field(metric string) **U64Summary {
	switch metric {
	case "cpu_ms":
		return &s.CPUMs
	case "page_faults":
		return &s.PageFaults
	case "ctx_switches":
		return &s.CtxSwitches
	case "max_rss_kb":
		return &s.MaxRSSKB
	case "io_read_bytes":
		return &s.IOReadBytes
	case "io_write_bytes":
		return &s.IOWriteBytes
	case "network_packets":
		return &s.NetworkPackets
	case "energy_uj":
		return &s.EnergyUJ
	case "binary_bytes":
		return &s.BinaryBytes
	}
	return nil
}

// Median returns the summary median of a metric, and whether the run has
// the metric.
func (s *Stats) Median(metric string) (float64, bool) {
	switch metric {
	case "wall_ms":
		return float64(s.WallMs.Median), true
	case "throughput_per_s":
		if s.ThroughputPerS == nil {
			return 0, false
		}
		return s.ThroughputPerS.Median, true
	}
	f := s.u64Field(metric)
	if f == nil || *f == nil {
		return 0, false
	}
	return float64((*f).Median), true
}

// CV returns the coefficient of variation of a metric, when its summary
// has a positive mean and a standard deviation.
func (s *Stats) CV(metric string) *float64 {
	var cv float64
	var ok bool
	switch metric {
	case "wall_ms":
		cv, ok = s.WallMs.CV()
	case "throughput_per_s":
		if s.ThroughputPerS != nil {
			cv, ok = s.ThroughputPerS.CV()
		}
	default:
		if f := s.u64Field(metric); f != nil && *f != nil {
			cv, ok = (*f).CV()
		}
	}
	if !ok {
		return nil
	}
	return &cv
}

// Series returns the per-sample values of a metric over the measured
// (non-warm-up) samples: what p95 and the significance test use. A sample
// without the metric contributes nothing; throughput needs work units.
func (r *Run) Series(metric string) []float64 {
	var xs []float64
	for i := range r.Samples {
		s := &r.Samples[i]
		if s.Warmup {
			continue
		}
		if metric == "throughput_per_s" {
			if r.Bench.WorkUnits == nil {
				return nil
			}
			xs = append(xs, Throughput(*r.Bench.WorkUnits, s.WallMs))
			continue
		}
		if v := s.u64(metric); v != nil {
			xs = append(xs, float64(*v))
		}
	}
	return xs
}

// Throughput is work units per second of one sample, 0 for a sample that
// took no measurable time (perfgate's docs/DESIGN.md: not infinity).
func Throughput(work, wallMs uint64) float64 {
	secs := float64(wallMs) / 1000
	if secs <= 0 {
		return 0
	}
	return float64(work) / secs
}
