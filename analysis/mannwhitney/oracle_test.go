package mannwhitney

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// TestBenchstatOracle replays benchstat's own output: each case is a pair of
// Go benchmark files, the CSV `benchstat -format csv` printed for them and
// the warnings it wrote to stderr (testdata/README.md has the commands). The
// files are grouped into cells exactly as benchstat groups them, and every
// printed number, interval, delta, p-value and footnote must come out the
// same from Compare and Summarize.
func TestBenchstatOracle(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		csv      string
		warnings string
		opts     Options
	}{
		{
			name: "real go test -bench output, sec/op B/s B/op allocs/op and custom units",
			old:  "bench.old.txt", new: "bench.new.txt",
			csv: "bench.csv", warnings: "bench.warnings.txt",
			opts: DefaultOptions,
		},
		{
			name: "hand-made edge cases at the defaults",
			old:  "edge.old.txt", new: "edge.new.txt",
			csv: "edge.csv", warnings: "edge.warnings.txt",
			opts: DefaultOptions,
		},
		{
			name: "hand-made edge cases at -alpha 0.1 -confidence 0.9",
			old:  "edge.old.txt", new: "edge.new.txt",
			csv: "edge.alpha10.csv", warnings: "edge.alpha10.warnings.txt",
			opts: Options{Alpha: 0.1, Confidence: 0.9},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tables := groupLikeBenchstat(t, tt.old, tt.new)
			printed := readBenchstatCSV(t, filepath.Join("testdata", tt.csv))
			footnotes := readBenchstatWarnings(t, filepath.Join("testdata", tt.warnings))
			if len(printed) != len(tables) {
				t.Fatalf("benchstat printed %d tables, grouping gives %d", len(printed), len(tables))
			}
			rows := 0
			checked := make(map[int]bool) // CSV lines whose footnotes were compared
			for i, want := range printed {
				checked[want.geomeanLine] = true // geomean footnotes are not this package's
				got := tables[i]
				if got.unit != want.unit || !slices.Equal(got.cols, want.cols) {
					t.Fatalf("table %d: grouping gives unit %q columns %q, benchstat printed unit %q columns %q",
						i, got.unit, got.cols, want.unit, want.cols)
				}
				if len(got.rows) != len(want.rows) {
					t.Fatalf("%s: grouping gives %d rows, benchstat printed %d", got.unit, len(got.rows), len(want.rows))
				}
				for j, row := range want.rows {
					checkRow(t, got.unit, got.rows[j], row, footnotes[row.line], tt.opts)
					checked[row.line] = true
					rows++
				}
			}
			for _, line := range slices.Sorted(maps.Keys(footnotes)) {
				if !checked[line] {
					t.Errorf("%s: footnotes %v refer to line %d, which has no table row", tt.warnings, footnotes[line], line)
				}
			}
			if !t.Failed() {
				t.Logf("%d rows in %d tables match benchstat", rows, len(printed))
			}
		})
	}
}

// checkRow compares one table row with the printed one: columns are
// base-center, base-CI, head-center, head-CI, vs base, P (benchtab's ToCSV),
// and footnotes sit in columns B (base), D (head) and F (comparison).
func checkRow(t *testing.T, unit string, got groupedRow, want csvRow, footnotes map[string][]string, o Options) {
	t.Helper()
	name := unit + " " + want.label
	if got.label != want.label {
		t.Errorf("%s: grouping gives row %q", name, got.label)
		return
	}
	cell := func(i int) string {
		if i < len(want.cells) {
			return want.cells[i]
		}
		return ""
	}
	var base, head Summary
	if got.base != nil {
		base = Summarize(got.base, o.Confidence)
		checkSummary(t, name+" base", base, cell(1), cell(2), footnotes["B"])
	} else if cell(1) != "" {
		t.Errorf("%s: benchstat printed a base %q where grouping has no values", name, cell(1))
	}
	if got.head != nil {
		head = Summarize(got.head, o.Confidence)
		checkSummary(t, name+" head", head, cell(3), cell(4), footnotes["D"])
	} else if cell(3) != "" {
		t.Errorf("%s: benchstat printed a head %q where grouping has no values", name, cell(3))
	}
	if got.base == nil || got.head == nil {
		if cell(5) != "" || cell(6) != "" {
			t.Errorf("%s: benchstat compared %q %q, but one side is missing", name, cell(5), cell(6))
		}
		return
	}

	r := Compare(got.base, got.head, o)
	if diff := cmp.Diff(base, r.Base, cmpFloats); diff != "" {
		t.Errorf("%s: Compare's base differs from Summarize (-Summarize +Compare):\n%s", name, diff)
	}
	if diff := cmp.Diff(head, r.Head, cmpFloats); diff != "" {
		t.Errorf("%s: Compare's head differs from Summarize (-Summarize +Compare):\n%s", name, diff)
	}
	delta, test := cell(5), cell(6)
	if got := r.DeltaString(); got != delta {
		t.Errorf("%s: DeltaString() = %q, benchstat printed %q", name, got, delta)
	}
	if got := r.TestString(); got != test {
		t.Errorf("%s: TestString() = %q, benchstat printed %q", name, got, test)
	}
	if p, ok := strings.CutPrefix(strings.Fields(test)[0], "p="); ok {
		want, err := strconv.ParseFloat(p, 64)
		if err != nil {
			t.Fatalf("%s: p-value %q: %v", name, p, err)
		}
		if math.Abs(r.P-want) > 0.0005 {
			t.Errorf("%s: P = %v, benchstat printed %s", name, r.P, p)
		}
	}
	if want := delta != "~"; r.Significant != want {
		t.Errorf("%s: Significant = %v, benchstat printed %q (P=%v Reason=%q)", name, r.Significant, delta, r.P, r.Reason)
	}
	if pct, ok := strings.CutSuffix(delta, "%"); ok {
		want, err := strconv.ParseFloat(pct, 64)
		if err != nil {
			t.Fatalf("%s: delta %q: %v", name, delta, err)
		}
		// benchstat prints a percentage for a negative base too; the
		// sign of such a change is misleading, so Change is not OK.
		if wantOK := r.Base.Center >= 0 || r.Base.Center == r.Head.Center; r.ChangeOK != wantOK {
			t.Errorf("%s: ChangeOK = %v for base median %v, want %v", name, r.ChangeOK, r.Base.Center, wantOK)
		}
		if r.ChangeOK && math.Abs(100*r.Change-want) > 0.005 {
			t.Errorf("%s: Change = %v, benchstat printed %s", name, r.Change, delta)
		}
	}
	if delta == "?" && r.ChangeOK {
		t.Errorf("%s: ChangeOK for a zero base median, benchstat printed ?", name)
	}
	if r.Significant && r.ChangeOK != (r.Reason == "") {
		t.Errorf("%s: Reason = %q with Significant and ChangeOK = %v", name, r.Reason, r.ChangeOK)
	}
	if !r.Significant && r.Reason == "" {
		t.Errorf("%s: not significant but no Reason", name)
	}
	if diff := cmp.Diff(footnotes["F"], r.Warnings); diff != "" {
		t.Errorf("%s: comparison warnings differ from benchstat's footnotes (-benchstat +Compare):\n%s", name, diff)
	}
}

// checkSummary compares a summary with a printed center (full precision,
// fmt.Sprint) and interval (benchmath's PctRangeString).
func checkSummary(t *testing.T, name string, s Summary, center, ci string, footnotes []string) {
	t.Helper()
	if got := fmt.Sprint(s.Center); got != center {
		t.Errorf("%s: Center = %s, benchstat printed %s", name, got, center)
	}
	if got := s.RangeString(); got != ci {
		t.Errorf("%s: RangeString() = %q, benchstat printed %q", name, got, ci)
	}
	switch pct, ok := strings.CutSuffix(ci, "%"); {
	case ci == "∞":
		if !math.IsInf(s.Lo, -1) && !math.IsInf(s.Hi, 1) {
			t.Errorf("%s: interval [%v, %v] is finite, benchstat printed ± ∞", name, s.Lo, s.Hi)
		}
	case ok:
		want, err := strconv.ParseFloat(pct, 64)
		if err != nil {
			t.Fatalf("%s: interval %q: %v", name, ci, err)
		}
		if s.Center != 0 {
			got := 100 * math.Max(s.Hi/s.Center-1, 1-s.Lo/s.Center)
			if math.Abs(got-want) > 0.5 {
				t.Errorf("%s: interval [%v, %v] is ± %.2f%% of %v, benchstat printed ± %s", name, s.Lo, s.Hi, got, s.Center, ci)
			}
		}
	}
	if !(s.Lo <= s.Center && s.Center <= s.Hi) {
		t.Errorf("%s: interval [%v, %v] does not contain the median %v", name, s.Lo, s.Hi, s.Center)
	}
	if diff := cmp.Diff(footnotes, s.Warnings); diff != "" {
		t.Errorf("%s: warnings differ from benchstat's footnotes (-benchstat +Summary):\n%s", name, diff)
	}
}

// A groupedTable is what benchstat's table builder makes of the input files:
// one table per file configuration and unit, one row per full benchmark
// name, one column per file.
type groupedTable struct {
	unit string
	cols []string
	rows []groupedRow
}

type groupedRow struct {
	label      string
	base, head []float64 // nil when the column has no values
}

// groupLikeBenchstat reads the files with benchfmt (which tidies ns/op to
// sec/op and MB/s to B/s, as benchstat sees them) and projects each value
// with benchstat's default projections -table .config -row .fullname -col
// .file, sorted the way benchtab sorts tables, rows and columns.
func groupLikeBenchstat(t *testing.T, oldPath, newPath string) []groupedTable {
	t.Helper()
	filter, err := benchproc.NewFilter("*")
	if err != nil {
		t.Fatal(err)
	}
	var parser benchproc.ProjectionParser
	tableBy, unitField, err := parser.ParseWithUnit(".config", filter)
	if err != nil {
		t.Fatal(err)
	}
	rowBy, err := parser.Parse(".fullname", filter)
	if err != nil {
		t.Fatal(err)
	}
	colBy, err := parser.Parse(".file", filter)
	if err != nil {
		t.Fatal(err)
	}

	type cellKey struct{ table, row, col benchproc.Key }
	cells := make(map[cellKey][]float64)
	tableRows := make(map[benchproc.Key]map[benchproc.Key]bool)
	tableCols := make(map[benchproc.Key]map[benchproc.Key]bool)

	// benchstat is run from testdata, so .file is the bare file name;
	// labels reproduce that while reading from the test's directory.
	files := benchfmt.Files{
		Paths: []string{
			oldPath + "=" + filepath.Join("testdata", oldPath),
			newPath + "=" + filepath.Join("testdata", newPath),
		},
		AllowLabels: true,
	}
	for files.Scan() {
		switch rec := files.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchstat input: %v", rec)
		case *benchfmt.Result:
			rowKey, colKey := rowBy.Project(rec), colBy.Project(rec)
			for i, tableKey := range tableBy.ProjectValues(rec) {
				k := cellKey{tableKey, rowKey, colKey}
				cells[k] = append(cells[k], rec.Values[i].Value)
				if tableRows[tableKey] == nil {
					tableRows[tableKey] = make(map[benchproc.Key]bool)
					tableCols[tableKey] = make(map[benchproc.Key]bool)
				}
				tableRows[tableKey][rowKey] = true
				tableCols[tableKey][colKey] = true
			}
		}
	}
	if err := files.Err(); err != nil {
		t.Fatal(err)
	}

	var out []groupedTable
	for _, tableKey := range sortedKeys(tableRows) {
		cols := sortedKeys(tableCols[tableKey])
		if len(cols) != 2 {
			t.Fatalf("table %s has %d columns, the oracle handles 2", tableKey, len(cols))
		}
		table := groupedTable{unit: tableKey.Get(unitField)}
		for _, c := range cols {
			table.cols = append(table.cols, c.StringValues())
		}
		for _, rowKey := range sortedKeys(tableRows[tableKey]) {
			table.rows = append(table.rows, groupedRow{
				label: rowKey.StringValues(),
				base:  cells[cellKey{tableKey, rowKey, cols[0]}],
				head:  cells[cellKey{tableKey, rowKey, cols[1]}],
			})
		}
		out = append(out, table)
	}
	return out
}

func sortedKeys[V any](m map[benchproc.Key]V) []benchproc.Key {
	keys := make([]benchproc.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	benchproc.SortKeys(keys)
	return keys
}

// csvTable is one table of benchstat's CSV output.
type csvTable struct {
	cols []string // file labels
	unit string
	rows []csvRow // without the geomean row

	geomeanLine int
}

type csvRow struct {
	line  int // 1-based line in the CSV, as the warnings' cell references count
	label string
	cells []string // the whole record, label first
}

// readBenchstatCSV parses benchtab's ToCSV layout: file configuration lines
// ("goos: linux"), then per table a column label row, a unit header row
// ("", unit, "CI", unit, "CI", "vs base", "P"), the rows and a geomean row;
// tables are separated by an empty line (which encoding/csv skips, so
// line numbers come from FieldPos).
func readBenchstatCSV(t *testing.T, path string) []csvTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	var tables []csvTable
	var cur *csvTable
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		line, _ := r.FieldPos(0)
		switch {
		case len(rec) == 1:
			cur = nil // a configuration line
		case rec[0] == "" && len(rec) > 2 && rec[2] == "CI":
			if cur == nil {
				t.Fatalf("%s:%d: unit header outside a table: %q", path, line, rec)
			}
			cur.unit = rec[1]
		case rec[0] == "":
			tables = append(tables, csvTable{})
			cur = &tables[len(tables)-1]
			for _, c := range rec[1:] {
				if c != "" {
					cur.cols = append(cur.cols, c)
				}
			}
		case cur == nil || cur.unit == "":
			t.Fatalf("%s:%d: row outside a table: %q", path, line, rec)
		case rec[0] == "geomean":
			// Geomeans are the site's business, not this package's.
			cur.geomeanLine = line
			cur = nil
		default:
			cur.rows = append(cur.rows, csvRow{line: line, label: rec[0], cells: rec})
		}
	}
	return tables
}

var warningLine = regexp.MustCompile(`^([A-Z]+)([0-9]+): (.*)$`)

// readBenchstatWarnings parses the warnings benchstat writes to stderr with
// -format csv, "D7: message", into line → column → messages.
func readBenchstatWarnings(t *testing.T, path string) map[int]map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := make(map[int]map[string][]string)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := warningLine.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Fatalf("%s: unexpected line %q", path, sc.Text())
		}
		line, _ := strconv.Atoi(m[2])
		if out[line] == nil {
			out[line] = make(map[string][]string)
		}
		out[line][m[1]] = append(out[line][m[1]], m[3])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
