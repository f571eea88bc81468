package generator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/contentdir"
	"github.com/perfpages/perfpages/generator/outdir"
	"github.com/perfpages/perfpages/generator/render"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/write"
)

// This file is a sharded build: Build with BuildOptions.Shard writes one
// shard's files and its partial site model (shardPart); Merge puts the
// shards' partial models together and writes the site.

// shardPart is what a shard's build gathers besides its files: its
// partial site model and the paths of the files its plan emitted.
type shardPart struct {
	p       *sitemodel.Partial
	collect *sitemodel.Collector
	mu      sync.Mutex
	paths   []string
}

// newShardPart starts the partial site model of shard sp, whose series
// are d's.
func (s *Site) newShardPart(sp shard.Spec, d *model.Dataset, cont *sitemodel.Content, k keys, warnings []error) *shardPart {
	p := sitemodel.NewPartial(sp.I, sp.N, d, warnings)
	p.Config = s.shardKey(cont)
	// Every series of every shard and every artifact's inputs: shards
	// that read other results disagree here.
	parts := [][]byte{[]byte(k.analysis)}
	for _, a := range k.artifacts {
		parts = append(parts, []byte(a))
	}
	p.Inputs = hashParts(parts...)
	return &shardPart{p: p, collect: p.Collect(d)}
}

// shardKey identifies what a sharded build's shards and merge must agree
// on: the perfpages binary and every setting that reaches a page (the
// site key), but not where each job writes (site.output, site.cache) or
// where the content folder is: each job of a matrix has its own folders,
// and only the merge reads the content.
func (s *Site) shardKey(cont *sitemodel.Content) string {
	c := *s.Config
	c.Site.Output, c.Site.Cache, c.Site.Content = "", "", ""
	t := *s
	t.Config = &c
	return t.siteKey(cont)
}

// emit wraps the renderer's emit to note the paths of the shard's files.
func (sp *shardPart) emit(next sitemodel.Emit) sitemodel.Emit {
	return func(o sitemodel.Output) error {
		sp.mu.Lock()
		sp.paths = append(sp.paths, route.File(o.Path))
		sp.mu.Unlock()
		return next(o)
	}
}

// write completes the partial site model with the shard's steps and
// files (their sums as w wrote them) and writes it into the shard's
// output folder.
func (sp *shardPart) write(w *write.Writer, res *analysis.Results) error {
	man := w.Manifest()
	slices.Sort(sp.paths)
	for _, p := range sp.paths {
		r, ok := man[p]
		if !ok {
			return fmt.Errorf("shard: %s was not written", p)
		}
		sp.p.Files = append(sp.p.Files, sitemodel.PartialOutput{Path: p, Sum: r.Sum})
	}
	sp.p.Steps = res.Steps()
	var buf bytes.Buffer
	if err := sp.p.Encode(&buf); err != nil {
		return fmt.Errorf("partial site model: %w", err)
	}
	return w.WriteFile(sitemodel.PartialFile, buf.Bytes())
}

// MergeOptions say what Merge merges and where to.
type MergeOptions struct {
	// Out is the site's output folder (default the config's
	// site.output); Shards are the output folders of build -shard, one
	// per shard.
	Out    string
	Shards []string
	Cold   bool // ignore the store: write every file anew
	Strict bool // fail on any warning
	// Timings: see BuildOptions.
	Timings io.Writer
}

// Merge writes the site of a sharded build into opts.Out: every shard's
// files, and every site-wide output (commit, PR and compare pages, the
// dashboard, lists, triage reports, regressions, feeds, sitemap,
// benchmark index, assets, content pages) planned from the shards'
// partial site models. The site is byte for byte the one Build writes of
// the same inputs and configuration without shards.
//
// It reads no results and runs no statistic (see sitemodel/partial.go).
// It refuses shards of different builds (another perfpages binary, other
// settings, other inputs), a shard missing or given twice. The output
// folder is checked, locked and replaced as Build's; it may be neither a
// shard's folder nor inside one.
func (s *Site) Merge(ctx context.Context, opts MergeOptions) (*Report, error) {
	out := opts.Out
	if out == "" {
		out = s.Config.Site.Output
	}
	rep := &Report{Out: out}
	t := &stages{w: opts.Timings, last: time.Now(), lastCPU: cpuTime()}
	if len(opts.Shards) == 0 {
		return rep, fmt.Errorf("merge: no shard folders")
	}
	protected := s.protected()
	for _, dir := range opts.Shards {
		protected = append(protected, outdir.Protected{Path: dir, What: "a shard's output folder"})
	}
	// The store keeps the manifest of the files written: the writer
	// carries over the files whose bytes did not change.
	absOut, unlock, st, err := s.takeOutput(out, protected, opts.Cold, rep)
	if err != nil {
		return rep, err
	}
	defer unlock()

	t.begin(ctx, "load")
	parts := make([]*sitemodel.Partial, len(opts.Shards))
	for i, dir := range opts.Shards {
		p, err := sitemodel.ReadPartial(dir)
		if err != nil {
			return rep, err
		}
		parts[i] = p
		defer p.Close() // the merge reads their comparisons as it plans
	}
	// The content: its problems are among the shards' warnings.
	var cont *sitemodel.Content
	if s.Content != nil {
		cont, _ = contentdir.Load(s.Content, s.ContentName)
	}
	copts, _ := analysis.ResolveOptions(s.Config.CompareOptions())
	data, name, aerr := s.annotations()
	merged, err := sitemodel.Merge(parts, opts.Shards, s.shardKey(cont), copts, func(d *model.Dataset) { s.annotate(d, data, name, aerr) })
	if err != nil {
		return rep, fmt.Errorf("merge: %w", err)
	}
	parts = nil
	t.done("load")
	rep.Warnings = append(rep.Warnings, merged.Warnings...)
	d := merged.Results.Dataset()
	rep.Notes, rep.Artifact, rep.Series = d.Notes, len(d.Artifacts), len(d.Series)
	if opts.Strict && len(rep.Warnings) > 0 {
		return rep, fmt.Errorf("%d problems: %w", len(rep.Warnings), ErrStrict)
	}

	w, err := write.New(out, write.Options{Fresh: opts.Cold, MaxFiles: s.Config.Site.MaxSiteFiles, MaxBytes: s.Config.Site.MaxSiteBytes, Searched: true})
	if err != nil {
		return rep, err
	}
	defer func() { rep.Warnings = append(rep.Warnings, w.Warnings()...) }()
	if st != nil {
		defer func() { rep.Warnings = append(rep.Warnings, st.Warnings()...) }()
		prev, _ := st.Outputs().Check(absOut)
		records := map[string]write.FileRecord{}
		for p, r := range prev {
			records[p] = fileRecord(r)
		}
		w.SetPrevious(records)
	}
	t.begin(ctx, "plan")
	popts := s.planOptions(cont, rep.Warnings)
	popts.Part = sitemodel.PartSiteWide
	plan := sitemodel.NewPlan(merged.Results, popts)
	rep.Warnings = append(rep.Warnings, plan.Warnings()...)
	r, err := render.New(plan.SiteView(), s.Themes, w)
	if err == nil {
		var stats sitemodel.Stats
		stats, err = plan.Run(ctx, r.Emit)
		rep.Pages = stats.Pages
	}
	if err == nil {
		err = r.Finish()
	}
	if err == nil {
		err = copyShardFiles(w, merged.Files, s.Config.Site.MaxInputBytes)
	}
	if err != nil {
		w.Abort()
		return rep, sizeError(err, d, s.Config)
	}
	t.done("plan+render")
	if err := pagesWarning(w.Bytes(), config.PagesMaxBytes, d, s.Config); err != nil {
		rep.Warnings = append(rep.Warnings, err)
	}
	rep.Files = w.Count()
	manifest := w.Manifest()
	if err := w.Commit(); err != nil {
		w.Abort()
		return rep, err
	}
	t.done("swap")
	if st != nil {
		for _, err := range []error{st.SaveOutputs(siteOutputs(manifest, absOut)), st.Prune()} {
			if err != nil {
				rep.Warnings = append(rep.Warnings, fmt.Errorf("store: %w", err))
			}
		}
	}
	return rep, nil
}

// copyShardFiles puts the shards' files into the site, each checked
// against the sum its shard wrote it with.
func copyShardFiles(w *write.Writer, files []sitemodel.MergedFile, maxBytes int64) error {
	for _, f := range files {
		name := filepath.Join(f.Dir, filepath.FromSlash(f.Path))
		fi, err := os.Lstat(name)
		if err != nil {
			return fmt.Errorf("shard %s: %w", f.Dir, err)
		}
		if !fi.Mode().IsRegular() || maxBytes > 0 && fi.Size() > maxBytes {
			return fmt.Errorf("shard %s: %s is not a file its shard wrote", f.Dir, f.Path)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("shard %s: %w", f.Dir, err)
		}
		if sha256.Sum256(data) != f.Sum {
			return fmt.Errorf("shard %s: %s changed since its shard wrote it", f.Dir, f.Path)
		}
		if err := w.WriteFile(f.Path, data); err != nil {
			return err
		}
	}
	return nil
}
