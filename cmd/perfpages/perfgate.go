package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/cmd/perfpages/internal/perfgate"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/outdir"
	"github.com/perfpages/perfpages/generator/receipt"
)

// The perfgate commands, as EffortlessMetrics/perfgate has them: run
// measures a command into a run receipt, check judges a run against its
// baseline under budgets, export prints receipts as CSV or JSON Lines,
// promote makes a run the baseline.

func tool() receipt.Tool { return receipt.Tool{Name: "perfpages", Version: version()} }

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	name := fs.String("name", "", "bench name: lower-case letters, digits, _ . - and /, at most 64 characters (required)")
	repeat := fs.Int("repeat", 5, "number of measured samples")
	warmup := fs.Int("warmup", 0, "number of warm-up samples, run first and left out of the statistics")
	var workUnits *uint64
	fs.Func("work-units", "units of work one run of the command does; adds throughput_per_s", func(s string) error {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return errors.New("want a non-negative integer")
		}
		workUnits = &v
		return nil
	})
	timeout := fs.Duration("timeout", 0, "kill a sample and its process group after this long, e.g. 30s (0: no limit)")
	out := fs.String("out", "perfgate.json", "run receipt to write")
	cwd := fs.String("cwd", "", "working directory of the command (default: the current one)")
	allowNonzero := fs.Bool("allow-nonzero", false, "exit 0 even when a measured sample exits non-zero or times out")
	outputCap := fs.Int("output-cap", perfgate.DefaultOutputCap, "bytes of each sample's stdout and stderr kept in the receipt (at most 1048576, 1 MiB)")
	// Not parse: flags end at the command, whose own flags are its own
	// ("run -name x ./bench -v").
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errReported
	}
	if *name == "" {
		fs.Usage()
		return errors.New("run: -name is required")
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("run: no command given: put it after --")
	}
	if err := perfgate.CheckOutputCap(*outputCap); err != nil {
		return fmt.Errorf("run: -output-cap %w", err)
	}
	res, err := perfgate.Run(ctx, perfgate.RunOptions{
		Name:      *name,
		Command:   fs.Args(),
		Cwd:       *cwd,
		Repeat:    *repeat,
		Warmup:    *warmup,
		WorkUnits: workUnits,
		Timeout:   *timeout,
		OutputCap: *outputCap,
		Tool:      tool(),
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("run: %w; no receipt written", err)
		}
		return fmt.Errorf("run: %w", err)
	}
	if err := perfgate.WriteJSON(*out, res.Receipt); err != nil {
		return fmt.Errorf("run: writing the receipt: %w", err)
	}
	st := res.Receipt.Stats
	fmt.Fprintf(stdout, "wrote %s: %s, %d samples (%d warm-up), wall_ms median %d (min %d, max %d)\n",
		*out, *name, *repeat, *warmup, st.WallMs.Median, st.WallMs.Min, st.WallMs.Max)
	if len(res.Failures) > 0 && !*allowNonzero {
		return fmt.Errorf("run: benchmark command failed: %s (the receipt records it; -allow-nonzero accepts this)", strings.Join(res.Failures, ", "))
	}
	return nil
}

func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	baseline := fs.String("baseline", "", "baseline run receipt or perfpages archive (default for a receipt: baselines/<bench>.json)")
	current := fs.String("current", "", "current run receipt or perfpages archive (required)")
	configPath := fs.String("config", "", "config file with [budgets] (default: perfpages.toml here when it exists, else perfgate's defaults)")
	failOnWarn := fs.Bool("fail-on-warn", false, "exit 3 when the verdict is warn")
	requireBaseline := fs.Bool("require-baseline", false, "fail (exit 1) when the baseline does not exist")
	outDir := fs.String("out-dir", perfgate.DefaultOutDir, "folder for compare.json, report.json and comment.md")
	alpha := fs.Float64("significance-alpha", 0, "run Welch's t-test on the samples at this level, e.g. 0.05 (0: off)")
	minSamples := fs.Int("significance-min-samples", budget.DefaultMinSamples, "fewest samples per side for the t-test")
	requireSig := fs.Bool("require-significance", false, "treat a warn or fail that is not significant as pass (alpha 0.05 unless -significance-alpha)")
	withinNoise := fs.Bool("fail-within-noise", false, "fail on a regression over budget even when Welch's test of the samples cannot tell it from the runs' noise (perfgate's rule; by default such a regression warns)")
	hostMismatch := fs.String("host-mismatch", perfgate.HostMismatchWarn, "when the two runs come from different machines: warn, error or ignore")
	maxInput := fs.Int64("max-input-bytes", 0, "largest input file, in bytes (default: the config's site.max_input_bytes, 64 MiB)")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	if *current == "" {
		fs.Usage()
		return errors.New("check: -current is required")
	}
	if *alpha < 0 || *alpha >= 1 {
		return fmt.Errorf("check: -significance-alpha %v: want a level between 0 and 1", *alpha)
	}
	if *minSamples < 2 {
		return fmt.Errorf("check: -significance-min-samples %d: want at least 2", *minSamples)
	}
	// A fail stands only when the samples tell it from the runs' noise
	// (Welch's test at alpha, 0.05 by default), unless -fail-within-noise
	// keeps perfgate's rule; -significance-alpha and -require-significance
	// are perfgate's own options.
	var sig *budget.SignificancePolicy
	if *alpha > 0 || *requireSig || !*withinNoise {
		a := *alpha
		if a == 0 {
			a = 0.05
		}
		sig = &budget.SignificancePolicy{Alpha: a, MinSamples: *minSamples, Require: *requireSig, FailOnlyDistinguishable: !*withinNoise,
			Quiet: *alpha == 0 && !*requireSig}
		if sig.Quiet {
			// Only the fail rule asks: 3 runs a side can show a change
			// (perfgate's run repeats 5 times by default, under its 8).
			sig.MinSamples = 3
		}
	}
	// -out-dir receives three files of fixed names, rewritten on every
	// check; it may be any folder (even inside a site, to publish them
	// with it) but not a plain file or the inside of .git. Checked before
	// anything is read.
	if *outDir != "" {
		if err := outdir.CheckFolder(*outDir); err != nil {
			return fmt.Errorf("check: -out-dir: %w", err)
		}
	}
	cfg, err := budgetConfig(*configPath)
	if err != nil {
		return err
	}
	if *maxInput < 0 {
		return fmt.Errorf("check: -max-input-bytes %d: want a size in bytes", *maxInput)
	}
	res, err := perfgate.Check(perfgate.CheckOptions{
		MaxInputBytes:   cmp.Or(*maxInput, cfg.Site.MaxInputBytes),
		BaselinePath:    *baseline,
		CurrentPath:     *current,
		Budgets:         cfg.CompareOptions().Budgets,
		Metrics:         cfg.BuildOptions().Metrics,
		Significance:    sig,
		RequireBaseline: *requireBaseline,
		HostMismatch:    *hostMismatch,
		OutDir:          *outDir,
		Tool:            tool(),
	})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		say(stderr, "perfpages: warning: ", w)
	}
	fmt.Fprint(stdout, res.Markdown)
	code := res.ExitCode(*failOnWarn)
	if code == perfgate.ExitPass {
		return nil
	}
	v := res.Compare.Verdict
	msg := fmt.Sprintf("check: budget verdict %s", v.Status)
	if code == perfgate.ExitWarnAsFail {
		msg += " with -fail-on-warn"
	}
	if len(v.Reasons) > 0 {
		msg += " (" + strings.Join(v.Reasons, ", ") + ")"
	}
	return &exitError{code: code, msg: msg}
}

// budgetConfig loads -config, else perfpages.toml in the working folder
// when it exists, else the defaults.
func budgetConfig(path string) (*config.Config, error) {
	if path == "" {
		if _, err := os.Stat(config.FileName); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return config.Default(), nil
			}
			return nil, err
		}
		path = config.FileName
	}
	return config.Load(path)
}

func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	format := fs.String("format", "", "csv or jsonl (required)")
	maxInput := fs.Int64("max-input-bytes", 0, "largest input file, in bytes (default 64 MiB)")
	if err := parse(fs, args, 1<<20); err != nil {
		return err
	}
	if *format != perfgate.FormatCSV && *format != perfgate.FormatJSONL {
		fs.Usage()
		return fmt.Errorf("export: -format %q: want csv or jsonl", *format)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("export: no receipts given")
	}
	var runs []*receipt.Run
	var cmps []*receipt.Compare
	var first string
	if *maxInput < 0 {
		return fmt.Errorf("export: -max-input-bytes %d: want a size in bytes", *maxInput)
	}
	for _, path := range fs.Args() {
		data, kind, err := receipt.ReadInput(path, *maxInput)
		if err != nil {
			return err
		}
		switch kind {
		case receipt.KindRun:
			r, err := receipt.ReadRun(path, data)
			if err != nil {
				return err
			}
			runs = append(runs, r)
		case receipt.KindCompare:
			c, err := receipt.ReadCompare(path, data)
			if err != nil {
				return err
			}
			cmps = append(cmps, c)
		default:
			return fmt.Errorf("%s: is %s; export takes perfgate run or compare receipts", path, kind)
		}
		if first == "" {
			first = path
		}
		if len(runs) > 0 && len(cmps) > 0 {
			return fmt.Errorf("export: %s is %s but %s is not: export one kind at a time", path, kind, first)
		}
	}
	if len(runs) > 0 {
		return perfgate.ExportRuns(stdout, *format, runs)
	}
	return perfgate.ExportCompares(stdout, *format, cmps)
}

func cmdPromote(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("promote", stderr)
	normalize := fs.Bool("normalize", false, `set run.id to "baseline" and both timestamps to 1970-01-01T00:00:00Z`)
	if err := parse(fs, args, 2); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errors.New("promote: want a run receipt and a destination")
	}
	if err := perfgate.Promote(fs.Arg(0), fs.Arg(1), *normalize); err != nil {
		return err
	}
	how := ""
	if *normalize {
		how = " (normalized)"
	}
	fmt.Fprintf(stdout, "promoted %s to %s%s\n", fs.Arg(0), fs.Arg(1), how)
	return nil
}
