package generator

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The stages of perfpages and what each may import. Data flows through
// them in the order the README's architecture section draws; imports
// follow the types: the readers produce model.Run, declared in
// analysis/model, the leaf below the statistics, so they import the model
// stage; package analysis computes over the model; the content folder's
// reader produces the site model's Content, so it imports the site model;
// the site model reads the analysis' Results, render the site model's
// views, and write takes bytes from render through an interface of
// render's own.
//
//	stage       packages                                       may import
//	toolkit     analysis/quantile, generator/internal/*,       (own stage)
//	            internal/mdtext, generator/{inert,outdir},
//	            content, themes
//	model       analysis/model (runs, results, the dataset)    toolkit
//	statistics  analysis/{budget,criterion,zscore,             toolkit
//	            mannwhitney,changepoint}
//	analysis    analysis (comparisons, steps, verdicts)        toolkit, model, statistics
//	config      generator/config                               toolkit, model, statistics, analysis — no reader
//	readers     generator/{archive,source,demo,store}          toolkit, model
//	foreign     generator/{foreign,receipt}                    toolkit, model, statistics, readers
//	evaluation  generator/planted                              toolkit, model, statistics, analysis, readers, foreign
//	site model  generator/internal/slug, generator/route,      toolkit, model, statistics, analysis — no reader,
//	            generator/{report,sitemodel}                   no config, no content, render or write
//	content     generator/contentdir (the content folder's     toolkit, site model
//	            reader)
//	render      generator/render                               toolkit, model, analysis, site model — no
//	                                                           statistics, reader, config or content
//	write       generator/write                                toolkit (outdir) only
//	build       generator, cmd/perfpages,                      everything
//	            cmd/perfpages/internal/perfgate, e2e,
//	            scripts/action
//
// The readers of the tools' formats and of perfgate's receipts need more
// than the model: generator/receipt checks a receipt's statistics against
// its samples with analysis/budget, and generator/foreign checks a
// Criterion file's values against the range analysis/criterion accepts
// (MinValue, MaxValue). generator/planted scores what analysis says of the
// histories it makes.
//
// A package may always import packages of its own stage. Every package of
// the module must be in the table, so that a new one is placed on purpose.
var layerStages = []struct {
	name string
	pkgs []string // module-relative import paths; a trailing "/..." covers a tree
	may  []string // earlier stages it may import
}{
	{"toolkit", []string{"analysis/quantile", "generator/inert", "generator/internal/capped", "generator/internal/confined", "generator/internal/fileid", "internal/mdtext/...", "generator/internal/nearest", "generator/internal/par", "generator/internal/readkit", "generator/internal/sourcespec", "generator/outdir", "generator/shard", "content", "themes"}, nil},
	{"model", []string{"analysis/model"}, []string{"toolkit"}},
	{"statistics", []string{"analysis/budget", "analysis/criterion", "analysis/zscore", "analysis/mannwhitney", "analysis/changepoint"}, []string{"toolkit"}},
	{"analysis", []string{"analysis"}, []string{"toolkit", "model", "statistics"}},
	{"config", []string{"generator/config"}, []string{"toolkit", "model", "statistics", "analysis"}},
	{"readers", []string{"generator/archive", "generator/source", "generator/demo", "generator/store"}, []string{"toolkit", "model"}},
	{"foreign", []string{"generator/foreign", "generator/receipt"}, []string{"toolkit", "model", "statistics", "readers"}},
	{"evaluation", []string{"generator/planted"}, []string{"toolkit", "model", "statistics", "analysis", "readers", "foreign"}},
	{"site model", []string{"generator/internal/slug", "generator/route", "generator/report", "generator/sitemodel"}, []string{"toolkit", "model", "statistics", "analysis"}},
	{"content", []string{"generator/contentdir"}, []string{"toolkit", "site model"}},
	{"render", []string{"generator/render"}, []string{"toolkit", "model", "analysis", "site model"}},
	{"write", []string{"generator/write"}, []string{"toolkit"}},
	{"build", []string{"generator", "cmd/perfpages", "cmd/perfpages/internal/perfgate", "e2e", "scripts/action"}, []string{"toolkit", "model", "statistics", "analysis", "config", "readers", "foreign", "evaluation", "site model", "content", "render", "write"}},
}

const module = "github.com/perfpages/perfpages/"

// stageMay lists the stages a package of stage from may import: its own
// and those the table names.
func stageMay(from string) []string {
	for _, s := range layerStages {
		if s.name == from {
			return append([]string{s.name}, s.may...)
		}
	}
	return nil
}

// mayImport reports whether a package of stage from may import one of
// stage to.
func mayImport(from, to string) bool { return slices.Contains(stageMay(from), to) }

// stageOf is the stage of a module-relative package path, "" if none.
func stageOf(pkg string) string {
	for _, s := range layerStages {
		for _, p := range s.pkgs {
			if p == pkg || strings.HasSuffix(p, "/...") && strings.HasPrefix(pkg+"/", strings.TrimSuffix(p, "...")) {
				return s.name
			}
		}
	}
	return ""
}

// TestLayering runs `go list -deps -json ./...` and fails on any import
// the stage table does not allow (test files are not counted: a test may
// drive its package with anything).
func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = ".." // the module root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkg, ok := strings.CutPrefix(p.ImportPath, module)
		if !ok {
			continue // the standard library and other modules
		}
		seen++
		from := stageOf(pkg)
		if from == "" {
			t.Errorf("%s is in no stage: add it to the table in layering_test.go", pkg)
			continue
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if to := stageOf(dep); !mayImport(from, to) {
				t.Errorf("%s (stage %s) imports %s (stage %s): %s may import only %s", pkg, from, dep, to, from, strings.Join(stageMay(from), ", "))
			}
		}
	}
	if seen < 20 {
		t.Errorf("go list gave %d packages of the module; want them all", seen)
	}
}

// TestStageOf checks the table's lookup, so that a typo in it cannot make
// TestLayering pass by placing nothing.
func TestStageOf(t *testing.T) {
	for pkg, want := range map[string]string{
		"internal/mdtext/mdtest":          "toolkit",
		"generator/internal/slug":         "site model",
		"generator/sitemodel":             "site model",
		"generator/contentdir":            "content",
		"generator/render":                "render",
		"generator/write":                 "write",
		"analysis":                        "analysis",
		"analysis/model":                  "model",
		"generator/planted":               "evaluation",
		"analysis/zscore":                 "statistics",
		"generator/config":                "config",
		"generator/receipt":               "foreign",
		"generator/store":                 "readers",
		"cmd/perfpages/internal/perfgate": "build",
		"generator":                       "build",
		"generator/nosuch":                "",
	} {
		if got := stageOf(pkg); got != want {
			t.Errorf("stageOf(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// TestStagesAgainstTheFlow checks that the table forbids what goes
// against the flow, so that a loosened row cannot make TestLayering pass:
// the site model reads results and renders and writes nothing, render
// neither reads nor writes, the writer knows no page, and no earlier
// stage reaches a later one.
func TestStagesAgainstTheFlow(t *testing.T) {
	for _, x := range [][2]string{
		{"site model", "render"}, {"site model", "write"}, {"site model", "content"}, {"site model", "readers"}, {"site model", "config"},
		{"content", "render"}, {"content", "write"}, {"content", "readers"}, {"content", "statistics"},
		{"render", "write"}, {"render", "content"}, {"render", "readers"}, {"render", "statistics"}, {"render", "config"},
		{"write", "render"}, {"write", "site model"}, {"write", "model"}, {"write", "statistics"},
		{"readers", "site model"}, {"readers", "config"}, {"readers", "statistics"}, {"readers", "analysis"},
		{"model", "statistics"}, {"model", "analysis"}, {"model", "site model"}, {"toolkit", "model"},
	} {
		if mayImport(x[0], x[1]) {
			t.Errorf("stage %s may import stage %s", x[0], x[1])
		}
	}
	for _, s := range layerStages {
		for _, m := range s.may {
			if stageMay(m) == nil {
				t.Errorf("stage %s may import %q, which is no stage", s.name, m)
			}
		}
	}
}
