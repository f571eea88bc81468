package perfgate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/receipt"
)

// Host mismatch policies of a check.
const (
	HostMismatchWarn   = "warn"   // report it as a warning (default)
	HostMismatchError  = "error"  // fail the check (exit 1)
	HostMismatchIgnore = "ignore" // say nothing
)

// Artifact file names of a check, written into CheckOptions.OutDir.
const (
	compareFile = "compare.json"
	reportFile  = "report.json"
	commentFile = "comment.md"
)

// DefaultOutDir is where a check writes its artifacts by default.
const DefaultOutDir = "artifacts/perfgate"

// CheckOptions configures a check.
type CheckOptions struct {
	// BaselinePath is the baseline: a run receipt or a perfpages archive.
	// Empty means baselines/<bench>.json for a run receipt (perfgate's
	// default location).
	BaselinePath string
	// CurrentPath is the current run: a run receipt or an archive, of the
	// same kind as the baseline.
	CurrentPath string
	// Budgets and Metrics are the config's [budgets] and [metrics] (see
	// [compareOptions]); nil means perfgate's defaults.
	Budgets      map[string]budget.Budget
	Metrics      map[string]model.Metric
	Significance *budget.SignificancePolicy
	// RequireBaseline makes a missing baseline an error.
	RequireBaseline bool
	// HostMismatch is warn (default), error or ignore.
	HostMismatch string
	// OutDir receives compare.json, report.json and comment.md; "" writes
	// nothing.
	OutDir string
	Tool   receipt.Tool
	// MaxInputBytes bounds the size of each input (0:
	// archive.DefaultMaxBytes); see [ReadInput].
	MaxInputBytes int64
}

// CheckResult is the outcome of a check.
type CheckResult struct {
	// Compare is nil when there was no baseline.
	Compare  *receipt.Compare
	Report   Report
	Markdown string
	// Warnings are for the log: host mismatches, archive problems, a
	// missing baseline.
	Warnings []string
	// NoBaseline is set when the baseline file does not exist.
	NoBaseline bool
	// Files are the artifacts written, in order.
	Files []string
}

// Exit codes of a check (perfgate's).
const (
	ExitPass       = 0 // pass, skip, warn without fail-on-warn, no baseline
	ExitError      = 1 // tool error
	ExitFail       = 2 // a budget failed
	ExitWarnAsFail = 3 // a budget warned and fail-on-warn is set
)

// ExitCode is the exit status the verdict calls for.
func (r *CheckResult) ExitCode(failOnWarn bool) int {
	if r.NoBaseline || r.Compare == nil {
		return ExitPass
	}
	switch r.Compare.Verdict.Status {
	case budget.Fail:
		return ExitFail
	case budget.Warn:
		if failOnWarn {
			return ExitWarnAsFail
		}
	}
	return ExitPass
}

// Check compares a current run with its baseline under the config's
// budgets and writes the artifacts: compare.json (when there is a
// baseline), report.json and comment.md, the way `perfgate check` does
// (its no-baseline handling, findings and comment). A baseline file that
// does not exist is not an error unless RequireBaseline is set: the report
// then warns with the reason no_baseline.
func Check(opts CheckOptions) (*CheckResult, error) {
	if opts.CurrentPath == "" {
		return nil, errors.New("no current run given")
	}
	switch opts.HostMismatch {
	case "":
		opts.HostMismatch = HostMismatchWarn
	case HostMismatchWarn, HostMismatchError, HostMismatchIgnore:
	default:
		return nil, fmt.Errorf("host mismatch policy %q: want warn, error or ignore", opts.HostMismatch)
	}
	cur, err := receipt.Load(opts.CurrentPath, opts.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	res := &CheckResult{}
	res.Warnings = append(res.Warnings, cur.Problems...)

	basePath := opts.BaselinePath
	if basePath == "" {
		if cur.Kind != receipt.KindRun {
			return nil, fmt.Errorf("%s is %s: name its baseline with -baseline", opts.CurrentPath, cur.Kind)
		}
		basePath = filepath.Join("baselines", cur.Run.Bench.Name+".json")
	}
	bench := benchName(cur)

	base, err := receipt.Load(basePath, opts.MaxInputBytes)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		if opts.RequireBaseline {
			return nil, fmt.Errorf("%s: no baseline for bench '%s' (-require-baseline)", basePath, bench)
		}
		res.NoBaseline = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("no baseline found for bench '%s' at %s, skipping comparison", bench, basePath))
		res.Report = noBaselineReport(bench)
		rows := currentValues(cur)
		res.Markdown = noBaselineMarkdown(bench, rows, res.Warnings)
		return res, res.write(opts.OutDir)
	}
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, base.Problems...)
	if base.Kind != cur.Kind {
		return nil, fmt.Errorf("baseline %s is %s but current %s is %s: compare like with like", basePath, base.Kind, opts.CurrentPath, cur.Kind)
	}

	copts := compareOptions{
		Budgets:      opts.Budgets,
		Metrics:      opts.Metrics,
		Significance: opts.Significance,
		Tool:         opts.Tool,
		BaselinePath: basePath,
		CurrentPath:  opts.CurrentPath,
	}
	var cmp *comparison
	if cur.Kind == receipt.KindRun {
		cmp = compareRuns(base.Run, cur.Run, copts)
	} else {
		cmp = compareArchives(base.Archive, cur.Archive, copts)
	}
	if len(cmp.HostMismatch) > 0 && opts.HostMismatch == HostMismatchError {
		return nil, fmt.Errorf("host mismatch (-host-mismatch error): %s", strings.Join(cmp.HostMismatch, "; "))
	}
	for _, w := range cmp.Warnings {
		if opts.HostMismatch == HostMismatchIgnore && strings.HasPrefix(w, "host mismatch: ") {
			continue
		}
		res.Warnings = append(res.Warnings, w)
	}
	if cur.Kind == receipt.KindRun {
		if cv := cur.Run.Stats.CV("wall_ms"); cv != nil && *cv > highNoiseCV {
			res.Warnings = append(res.Warnings, fmt.Sprintf("high noise detected (wall_ms CV %s > 30%%): raise -repeat or run on a quieter machine", analysis.FormatPercent(*cv, 1)))
		}
	}
	res.Compare = &cmp.Receipt
	res.Report = newReport(res.Compare, checkWording)
	res.Markdown = markdown(res.Compare, cmp.Units)
	return res, res.write(opts.OutDir)
}

// highNoiseCV is the wall-time coefficient of variation above which
// perfgate suggests a better measurement.
const highNoiseCV = 0.30

func benchName(in *receipt.Input) string {
	if in.Kind == receipt.KindRun {
		return in.Run.Bench.Name
	}
	return in.Archive.Artifact.ID
}

// currentValues lists an input's values (medians) for the no-baseline
// comment.
func currentValues(in *receipt.Input) []valueRow {
	if in.Kind == receipt.KindRun {
		return runValues(in.Run)
	}
	return archiveValues(in.Archive)
}

// write writes the artifacts into dir. Without a baseline a compare.json
// left by an earlier check is removed, so that the folder never pairs a
// fresh report with a stale comparison.
func (r *CheckResult) write(dir string) error {
	if dir == "" {
		return nil
	}
	cmpPath := filepath.Join(dir, compareFile)
	if r.Compare != nil {
		if err := WriteJSON(cmpPath, r.Compare); err != nil {
			return pathError(cmpPath, err)
		}
		r.Files = append(r.Files, cmpPath)
	} else if err := os.Remove(cmpPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return pathError(cmpPath, err)
	}
	repPath := filepath.Join(dir, reportFile)
	if err := WriteJSON(repPath, r.Report); err != nil {
		return pathError(repPath, err)
	}
	mdPath := filepath.Join(dir, commentFile)
	if err := WriteFile(mdPath, []byte(r.Markdown)); err != nil {
		return pathError(mdPath, err)
	}
	r.Files = append(r.Files, repPath, mdPath)
	return nil
}
