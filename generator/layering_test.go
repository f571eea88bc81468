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

// The stages of perfpages and what each may import (issue 14). Data flows
// sources → dataset → analysis → site model → rendering → files; imports
// follow the types: the readers produce model.Run, declared in
// analysis/model, the leaf below the statistics, so they import the model
// stage; package analysis computes over the model, and the site renders
// both.
//
//	stage       packages                                       may import
//	toolkit     analysis/quantile, generator/internal/*,       (own stage)
//	            generator/{inert,outdir}, content, themes
//	model       analysis/model (runs, results, the dataset)    toolkit
//	statistics  analysis/{budget,criterion,zscore,             toolkit
//	            mannwhitney,changepoint}
//	analysis    analysis (comparisons, steps, verdicts)        toolkit, model, statistics
//	config      generator/config                               toolkit, model, statistics, analysis — no reader
//	readers     generator/{archive,source,demo,store}          toolkit, model
//	foreign     generator/{foreign,perfgate}                   toolkit, model, statistics, analysis, readers
//	evaluation  generator/planted                              toolkit, model, statistics, analysis, readers
//	site        generator/internal/slug, generator/route,      toolkit, model, statistics, analysis — no reader,
//	            generator/{report,sitemodel,site}              no config
//	build       generator, cmd/perfpages, e2e, scripts/action  everything
//
// The readers of the tools' formats and of perfgate's receipts need more
// than the model: generator/perfgate formats values with analysis and
// measures and gates with analysis/budget, and generator/foreign (which
// reads perfgate's receipts) checks a Criterion file's values against the
// range analysis/criterion accepts (MinValue, MaxValue). generator/planted
// scores what analysis says of the histories it makes.
//
// A package may always import packages of its own stage. Every package of
// the module must be in the table, so that a new one is placed on purpose.
var layerStages = []struct {
	name string
	pkgs []string // module-relative import paths; a trailing "/..." covers a tree
	may  []string // earlier stages it may import
}{
	{"toolkit", []string{"analysis/quantile", "generator/inert", "generator/internal/capped", "generator/internal/confined", "generator/internal/fileid", "generator/internal/mdtext/...", "generator/internal/nearest", "generator/internal/par", "generator/internal/readkit", "generator/internal/sourcespec", "generator/outdir", "content", "themes"}, nil},
	{"model", []string{"analysis/model"}, []string{"toolkit"}},
	{"statistics", []string{"analysis/budget", "analysis/criterion", "analysis/zscore", "analysis/mannwhitney", "analysis/changepoint"}, []string{"toolkit"}},
	{"analysis", []string{"analysis"}, []string{"toolkit", "model", "statistics"}},
	{"config", []string{"generator/config"}, []string{"toolkit", "model", "statistics", "analysis"}},
	{"readers", []string{"generator/archive", "generator/source", "generator/demo", "generator/store"}, []string{"toolkit", "model"}},
	{"foreign", []string{"generator/foreign", "generator/perfgate"}, []string{"toolkit", "model", "statistics", "analysis", "readers"}},
	{"evaluation", []string{"generator/planted"}, []string{"toolkit", "model", "statistics", "analysis", "readers"}},
	{"site", []string{"generator/internal/slug", "generator/route", "generator/report", "generator/sitemodel", "generator/site"}, []string{"toolkit", "model", "statistics", "analysis"}},
	{"build", []string{"generator", "cmd/perfpages", "e2e", "scripts/action"}, []string{"toolkit", "model", "statistics", "analysis", "config", "readers", "foreign", "evaluation", "site"}},
}

const module = "github.com/perfpages/perfpages/"

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
	may := map[string][]string{}
	for _, s := range layerStages {
		may[s.name] = append([]string{s.name}, s.may...)
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
			if to := stageOf(dep); !slices.Contains(may[from], to) {
				t.Errorf("%s (stage %s) imports %s (stage %s): %s may import only %s", pkg, from, dep, to, from, strings.Join(may[from], ", "))
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
		"generator/internal/mdtext/mdtest": "toolkit",
		"generator/internal/slug":          "site",
		"analysis":                         "analysis",
		"analysis/model":                   "model",
		"generator/planted":                "evaluation",
		"analysis/zscore":                  "statistics",
		"generator/config":                 "config",
		"generator/perfgate":               "foreign",
		"generator/store":                  "readers",
		"generator":                        "build",
		"generator/nosuch":                 "",
	} {
		if got := stageOf(pkg); got != want {
			t.Errorf("stageOf(%q) = %q, want %q", pkg, got, want)
		}
	}
}
