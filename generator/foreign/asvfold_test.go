package foreign

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestASVFoldsOneCause: every result file of a folder naming benchmarks
// its benchmarks.json lacks, or results of a benchmark version it no
// longer has, is one warning per cause (the first file's, with how many
// more files), not one per file; other problems stay as they are.
func TestASVFoldsOneCause(t *testing.T) {
	in := Input{Name: "res", Files: map[string][]byte{
		"benchmarks.json": []byte(asvSuiteJSON),
		"m/machine.json":  []byte(asvMachineJSON),
	}}
	for i := range 4 {
		sha := strings.Repeat(fmt.Sprint(i+1), 40)
		in.Files[fmt.Sprintf("m/%d%d%d%d-virtualenv-py3.12.json", i+1, i+1, i+1, i+1)] = []byte(asvV2(sha,
			`"a.time_x": [[0.5], [], "2"]`,
			`"a.time_p": [[1, 2], [["1", "2"]], "1"]`,
			fmt.Sprintf(`"a.time_new%d": [[0.5], [], "1"]`, i),
		))
	}
	runs, problems := readASV(in, Defaults{})
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	want := []string{
		`res/m/1111-virtualenv-py3.12.json: "a.time_new0" not in benchmarks.json: type and unit guessed from the name (and 3 more result files of the folder name benchmarks benchmarks.json lacks)`,
		`res/m/1111-virtualenv-py3.12.json: "a.time_x": benchmark version differs from benchmarks.json (the benchmark's code changed since); skipped, as asv publish does (and 3 more result files of the folder have results of a benchmark version benchmarks.json no longer has)`,
	}
	if d := cmp.Diff(want, problemStrings(problems)); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}
