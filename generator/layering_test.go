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
// follow the types: the readers produce analysis.Run, the model declared in
// analysis, so they import the model stage, and the site renders it.
//
//	stage       packages                                       may import
//	toolkit     analysis/quantile, generator/internal/*,       (own stage)
//	            internal/mdtext, generator/{inert,outdir},
//	            content, themes
//	statistics  analysis/{budget,criterion,zscore,             toolkit
//	            mannwhitney,changepoint}
//	model       analysis (model types, comparisons, options)   toolkit, statistics
//	config      generator/config                               toolkit, statistics, model — no reader
//	readers     generator/{archive,foreign,source,receipt,     toolkit, statistics, model — not config
//	            demo,planted,store}
//	site        generator/internal/slug, generator/route,      toolkit, statistics, model — no reader,
//	            generator/{report,sitemodel,site}              no config
//	build       generator, cmd/perfpages,                      everything
//	            cmd/perfpages/internal/perfgate, e2e,
//	            scripts/action
//
// A package may always import packages of its own stage. Every package of
// the module must be in the table, so that a new one is placed on purpose.
var layerStages = []struct {
	name string
	pkgs []string // module-relative import paths; a trailing "/..." covers a tree
	may  []string // earlier stages it may import
}{
	{"toolkit", []string{"analysis/quantile", "generator/inert", "generator/internal/capped", "generator/internal/confined", "generator/internal/fileid", "internal/mdtext/...", "generator/internal/nearest", "generator/internal/par", "generator/internal/readkit", "generator/internal/sourcespec", "generator/outdir", "content", "themes"}, nil},
	{"statistics", []string{"analysis/budget", "analysis/criterion", "analysis/zscore", "analysis/mannwhitney", "analysis/changepoint"}, []string{"toolkit"}},
	{"model", []string{"analysis"}, []string{"toolkit", "statistics"}},
	{"config", []string{"generator/config"}, []string{"toolkit", "statistics", "model"}},
	{"readers", []string{"generator/archive", "generator/foreign", "generator/source", "generator/receipt", "generator/demo", "generator/planted", "generator/store"}, []string{"toolkit", "statistics", "model"}},
	{"site", []string{"generator/internal/slug", "generator/route", "generator/report", "generator/sitemodel", "generator/site"}, []string{"toolkit", "statistics", "model"}},
	{"build", []string{"generator", "cmd/perfpages", "cmd/perfpages/internal/perfgate", "e2e", "scripts/action"}, []string{"toolkit", "statistics", "model", "config", "readers", "site"}},
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
		"internal/mdtext/mdtest":          "toolkit",
		"generator/internal/slug":         "site",
		"analysis":                        "model",
		"analysis/zscore":                 "statistics",
		"generator/config":                "config",
		"generator/receipt":               "readers",
		"cmd/perfpages/internal/perfgate": "build",
		"generator":                       "build",
		"generator/nosuch":                "",
	} {
		if got := stageOf(pkg); got != want {
			t.Errorf("stageOf(%q) = %q, want %q", pkg, got, want)
		}
	}
}
