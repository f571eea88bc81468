package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"

	"github.com/perfpages/perfpages/generator/config"
)

// actionFile is the part of action.yml the tests look at.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name string            `yaml:"name"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) (actionFile, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a, string(data)
}

// knobs are variables the scripts read that the action does not set:
// tests and local runs use them.
var knobs = []string{"PP_RETRY_DELAY", "PP_GIT_NAME", "PP_GIT_EMAIL", "PP_BASE_SEARCH", "PP_REMOTE"}

// TestActionYAML: every input action.yml uses is declared and every
// declared one used; each mode's step runs a script that exists and sets
// exactly the PP_ variables the script reads.
func TestActionYAML(t *testing.T) {
	a, text := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q", a.Runs.Using)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(text, -1) {
		used[m[1]] = true
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but never used", name)
		}
	}
	scripts := 0
	for _, step := range a.Runs.Steps {
		m := regexp.MustCompile(`scripts/action/([a-z]+)\.sh`).FindStringSubmatch(step.Run)
		if m == nil {
			continue
		}
		scripts++
		data, err := os.ReadFile(filepath.Join(moduleRoot(t), "scripts", "action", m[1]+".sh"))
		if err != nil {
			t.Errorf("step %q: %v", step.Name, err)
			continue
		}
		var read, set []string
		for _, v := range regexp.MustCompile(`\bPP_[A-Z_]+\b`).FindAllString(string(data), -1) {
			if !slices.Contains(read, v) && !slices.Contains(knobs, v) {
				read = append(read, v)
			}
		}
		for k := range step.Env {
			if strings.HasPrefix(k, "PP_") {
				set = append(set, k)
			}
		}
		slices.Sort(read)
		slices.Sort(set)
		if !slices.Equal(read, set) {
			t.Errorf("step %q sets %v; %s.sh reads %v", step.Name, set, m[1], read)
		}
	}
	if scripts != 6 {
		t.Errorf("%d steps run scripts, want 6 (key, install, record, build, merge, comment)", scripts)
	}
}

// fenced returns the fenced code blocks of lang in text after marker.
func fenced(t *testing.T, text, marker, lang string) []string {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("README lacks %q", marker)
	}
	var blocks []string
	re := regexp.MustCompile("(?ms)^( *)```" + lang + "\n(.*?)^ *```")
	for _, m := range re.FindAllStringSubmatch(text[i:], -1) {
		indent := m[1]
		var b strings.Builder
		for _, l := range strings.SplitAfter(m[2], "\n") {
			b.WriteString(strings.TrimPrefix(l, indent))
		}
		blocks = append(blocks, b.String())
	}
	return blocks
}

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// readmeConfig is the README's perfpages.toml for a new user, with OWNER
// and REPO filled in.
func readmeConfig(t *testing.T) string {
	t.Helper()
	blocks := fenced(t, readme(t), "**Ten minutes, from nothing.**", "toml")
	if len(blocks) == 0 {
		t.Fatal("README's ten-minute path has no perfpages.toml")
	}
	return strings.NewReplacer("OWNER", "example", "REPO", "proj").Replace(blocks[0])
}

type workflow struct {
	Jobs map[string]struct {
		Steps []struct {
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflows: the README's workflow and this repository's workflows
// parse, give the action only inputs it has and a valid mode, and check
// out full history where the action reads it.
func TestWorkflows(t *testing.T) {
	a, _ := readAction(t)
	files := map[string]string{}
	blocks := fenced(t, readme(t), "**Ten minutes, from nothing.**", "yaml")
	if len(blocks) == 0 {
		t.Fatal("README's ten-minute path has no workflow")
	}
	files["README's workflow"] = blocks[0]
	paths, _ := filepath.Glob(filepath.Join(moduleRoot(t), ".github", "workflows", "*.yml"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(data)
	}
	modes := map[string]bool{}
	for name, text := range files {
		var w workflow
		if err := yaml.Unmarshal([]byte(text), &w); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for job, j := range w.Jobs {
			fullHistory := false
			for _, s := range j.Steps {
				if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["fetch-depth"] == "0" {
					fullHistory = true
				}
				if s.Uses != "./" && !strings.HasPrefix(s.Uses, "perfpages/perfpages@") {
					continue
				}
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("%s, job %s: the action has no input %q", name, job, k)
					}
				}
				mode := s.With["mode"]
				if mode != "record" && mode != "build" && mode != "comment" {
					t.Errorf("%s, job %s: mode %q", name, job, mode)
				}
				modes[name+" "+mode] = true
				if !fullHistory {
					t.Errorf("%s, job %s: the action runs without actions/checkout's fetch-depth: 0 before it", name, job)
				}
			}
		}
	}
	for _, mode := range []string{"record", "build", "comment"} {
		if !modes["README's workflow "+mode] {
			t.Errorf("the README's workflow does not %s", mode)
		}
	}
	if _, err := config.Parse("perfpages.toml", []byte(readmeConfig(t)), "/repo"); err != nil {
		t.Errorf("the README's perfpages.toml: %v", err)
	}
}

// TestNetlify: netlify.toml parses, its command is valid shell, and it
// does not need this repository (no go run ./cmd/…).
func TestNetlify(t *testing.T) {
	needTools(t)
	var n struct {
		Build struct {
			Command     string            `toml:"command"`
			Publish     string            `toml:"publish"`
			Environment map[string]string `toml:"environment"`
		} `toml:"build"`
	}
	if _, err := toml.DecodeFile(filepath.Join(moduleRoot(t), "netlify.toml"), &n); err != nil {
		t.Fatal(err)
	}
	if n.Build.Publish != "public" || !strings.Contains(n.Build.Command, "go install \"github.com/perfpages/perfpages/cmd/perfpages@") {
		t.Errorf("netlify.toml: %+v", n.Build)
	}
	if out, err := exec.Command("bash", "-n", "-c", n.Build.Command).CombinedOutput(); err != nil {
		t.Errorf("the command is not valid shell: %v\n%s", err, out)
	}
}
