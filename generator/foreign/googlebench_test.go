package foreign

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// gbResult builds an expected result; params alternate keys and values.
func gbResult(bench string, params []string, metric, unit string, samples ...float64) model.Result {
	m := map[string]string{}
	for i := 0; i+1 < len(params); i += 2 {
		m[params[i]] = params[i+1]
	}
	return model.Result{
		Case:   model.TestCase{Benchmark: bench, Params: model.NewParams(m), Category: model.Primary},
		Metric: metric, Unit: unit, Samples: samples,
	}
}

func gbFailed(r model.Result, msg string) model.Result {
	r.Error = msg
	return r
}

func gbFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "googlebench", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const gbSHA = "3f2a9e1c3f2a9e1c3f2a9e1c3f2a9e1c3f2a9e1c"

var (
	gbSum8     = []string{"arg1", "8", "arg2", "1"}
	gbSum64    = []string{"arg1", "64", "arg2", "2"}
	gbConcat   = []string{"len", "8", "count", "4"}
	gbThreaded = []string{"threads", "2", "time_type", "real_time"}
)

// gbFixtureRun is the run every fixture gives but for its date and results.
func gbFixtureRun(date string, results ...model.Result) model.Run {
	d, err := time.Parse(time.RFC3339, date)
	if err != nil {
		panic(err)
	}
	return model.Run{
		Artifact: model.Artifact{ID: gbSHA, Kind: model.KindCommit, Date: d},
		Machine:  model.Machine{Name: "vm", Cores: 2, CPU: "2445 MHz"},
		Context:  model.Params{{Key: "library_build_type", Value: "debug"}},
		Results:  results,
	}
}

// TestGooglebenchFixtures reads the files of a real Google Benchmark 1.7.1
// run (testdata/googlebench/README.md); the expected samples are the
// file's numbers.
func TestGooglebenchFixtures(t *testing.T) {
	fails := []model.Result{
		gbFailed(gbResult("BM_Fails", nil, "wall-time", "ns"), "resource not available"),
		gbFailed(gbResult("BM_Fails", nil, "cpu-time", "ns"), "resource not available"),
	}
	for _, tt := range []struct {
		name     string
		file     string
		want     model.Run
		problems []archive.Problem
	}{
		{
			name: "repetitions are samples, aggregates are not",
			file: "repetitions.json",
			want: gbFixtureRun("2026-11-21T14:30:13Z", append([]model.Result{
				gbResult("BM_Sum", gbSum8, "wall-time", "ns", 5.89500936347665, 5.499414805378732, 5.391798157813255),
				gbResult("BM_Sum", gbSum8, "cpu-time", "ns", 3.9424900811510306, 3.6367716338454272, 3.5125009059644015),
				gbResult("BM_Sum", gbSum8, "throughput", "B/s", 8116697655.877787, 8799012756.862062, 9110317934.911392),
				gbResult("BM_Sum", gbSum8, "items_per_second", "items/s", 2029174413.9694467, 2199753189.2155156, 2277579483.727848),
				gbResult("BM_Sum", gbSum64, "wall-time", "ns", 17.819325905138278, 14.64726995547418, 11.926143323170663),
				gbResult("BM_Sum", gbSum64, "cpu-time", "ns", 11.467183623222436, 11.444137915717464, 11.928220719720283),
				gbResult("BM_Sum", gbSum64, "throughput", "B/s", 11162287463.574272, 11184765592.889599, 10730854417.237982),
				gbResult("BM_Sum", gbSum64, "items_per_second", "items/s", 2790571865.893568, 2796191398.2223997, 2682713604.3094954),
				gbResult("BM_Concat", gbConcat, "wall-time", "ns", 79.29921949824053, 80.05956154028739, 98.3688890140983),
				gbResult("BM_Concat", gbConcat, "cpu-time", "ns", 79.31357794766275, 79.87484918119785, 98.38144515702677),
				gbResult("BM_Concat", gbConcat, "appends", "", 4, 4, 4),
				gbResult("BM_Concat", gbConcat, "rate", "", 50432726.697054446, 50078341.81853555, 40658073.21304941),
				gbResult("BM_Threaded", gbThreaded, "wall-time", "us", 0.0842261620967253, 0.061707012126356396, 0.08950872639463014),
				gbResult("BM_Threaded", gbThreaded, "cpu-time", "us", 0.09006384036434399, 0.08224483632320567, 0.09618407492142224),
			}, fails...)...),
		},
		{
			name: "aggregates only: the median is the one sample",
			file: "aggregates.json",
			want: gbFixtureRun("2026-11-21T14:30:14Z", append([]model.Result{
				gbResult("BM_Sum", gbSum8, "wall-time", "ns", 4.1050094073398755),
				gbResult("BM_Sum", gbSum8, "cpu-time", "ns", 3.8220259843346915),
				gbResult("BM_Sum", gbSum8, "throughput", "B/s", 8372522879.529903),
				gbResult("BM_Sum", gbSum8, "items_per_second", "items/s", 2093130719.8824759),
				gbResult("BM_Sum", gbSum64, "wall-time", "ns", 12.990282828254879),
				gbResult("BM_Sum", gbSum64, "cpu-time", "ns", 12.958441875486344),
				gbResult("BM_Sum", gbSum64, "throughput", "B/s", 9877730766.546808),
				gbResult("BM_Sum", gbSum64, "items_per_second", "items/s", 2469432691.636702),
				gbResult("BM_Concat", gbConcat, "wall-time", "ns", 77.38774359629198),
				gbResult("BM_Concat", gbConcat, "cpu-time", "ns", 77.3951035878),
				gbResult("BM_Concat", gbConcat, "appends", "", 4),
				gbResult("BM_Concat", gbConcat, "rate", "", 51682856.07967752),
				gbResult("BM_Threaded", gbThreaded, "wall-time", "us", 0.0868970250030543),
				gbResult("BM_Threaded", gbThreaded, "cpu-time", "us", 0.09377159499999999),
			}, fails...)...),
			problems: []archive.Problem{{File: "aggregates.json", Line: 56, Msg: "4 benchmark(s) have only aggregate rows (--benchmark_report_aggregates_only?): " +
				"their median (else mean) is used as a single sample: BM_Sum/8/1, BM_Sum/64/2, BM_Concat/len:8/count:4, BM_Threaded/real_time/threads:2"}},
		},
		{
			name: "one run per benchmark, written with --benchmark_out",
			file: "single.json",
			want: gbFixtureRun("2026-11-21T14:30:14Z", append([]model.Result{
				gbResult("BM_Sum", gbSum8, "wall-time", "ns", 5.1295148280335034),
				gbResult("BM_Sum", gbSum8, "cpu-time", "ns", 4.236855773607132),
				gbResult("BM_Sum", gbSum8, "throughput", "B/s", 7552770665.298374),
				gbResult("BM_Sum", gbSum8, "items_per_second", "items/s", 1888192666.3245935),
				gbResult("BM_Sum", gbSum64, "wall-time", "ns", 14.034580573161923),
				gbResult("BM_Sum", gbSum64, "cpu-time", "ns", 14.021869311665375),
				gbResult("BM_Sum", gbSum64, "throughput", "B/s", 9128597418.427761),
				gbResult("BM_Sum", gbSum64, "items_per_second", "items/s", 2282149354.6069403),
				gbResult("BM_Concat", gbConcat, "wall-time", "ns", 81.023755499584),
				gbResult("BM_Concat", gbConcat, "cpu-time", "ns", 81.03319397212408),
				gbResult("BM_Concat", gbConcat, "appends", "", 4),
				gbResult("BM_Concat", gbConcat, "rate", "", 49362487.19723457),
				gbResult("BM_Threaded", gbThreaded, "wall-time", "us", 0.08093194204764992),
				gbResult("BM_Threaded", gbThreaded, "cpu-time", "us", 0.08790193108382743),
			}, fails...)...),
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			def := Defaults{Artifact: model.Artifact{ID: gbSHA, Kind: model.KindCommit}}
			runs, problems := readGooglebench(Input{Name: tt.file, Data: gbFixture(t, tt.file)}, def)
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]model.Run{tt.want}, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGooglebenchDefaults checks that what the caller knows wins over the
// file's context, and that the file fills the rest.
func TestGooglebenchDefaults(t *testing.T) {
	date := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	def := Defaults{
		Artifact: model.Artifact{ID: gbSHA, Kind: model.KindCommit, Date: date, Parents: []string{"9e1c"}},
		Machine:  model.Machine{Name: "linux-x64-1", OS: "linux"},
		Context:  model.Params{{Key: "library_build_type", Value: "release"}, {Key: "toolchain", Value: "gcc-12"}},
	}
	runs, problems := readGooglebench(Input{Name: "single.json", Data: gbFixture(t, "single.json")}, def)
	if len(problems) != 0 || len(runs) != 1 {
		t.Fatalf("got %d runs, problems %v", len(runs), problems)
	}
	got := runs[0]
	got.Results = nil
	want := model.Run{
		Artifact: def.Artifact,
		Machine:  model.Machine{Name: "linux-x64-1", OS: "linux", Cores: 2, CPU: "2445 MHz"},
		Context:  def.Context,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
}

// gbEntry is one benchmark entry as Google Benchmark 1.7.1 writes it, on
// one line; extra is spliced in before the closing brace.
func gbEntry(name string, family, rep int, real float64, extra string) string {
	return fmt.Sprintf(`    {"name": %q, "family_index": %d, "per_family_instance_index": 0, "run_name": %q, "run_type": "iteration", `+
		`"repetitions": 2, "repetition_index": %d, "threads": 1, "iterations": 100, "real_time": %v, "cpu_time": %v, "time_unit": "ns"%s}`,
		name, family, name, rep, real, real, extra)
}

// gbFile wraps entries in a file: the context is on line 2, the list
// opens on line 3 and entry i is on line 4+i.
func gbFile(entries ...string) string {
	return "{\n  \"context\": {\"date\": \"2026-11-21T14:30:13+00:00\", \"host_name\": \"vm\", \"num_cpus\": 2},\n  \"benchmarks\": [\n" +
		strings.Join(entries, ",\n") + "\n  ]\n}\n"
}

// gbSummary lists results as "case metric unit samples error" lines.
func gbSummary(runs []model.Run) []string {
	var out []string
	for _, run := range runs {
		for _, r := range run.Results {
			line := fmt.Sprintf("%s %s %s %v", r.Case, r.Metric, r.Unit, r.Samples)
			if r.Error != "" {
				line += " error=" + r.Error
			}
			out = append(out, line)
		}
	}
	return out
}

func TestGooglebenchBadInput(t *testing.T) {
	const f = "bad.json"
	two := gbFile(gbEntry("BM_a", 0, 0, 10, ""), gbEntry("BM_a", 0, 1, 12, ""), gbEntry("BM_b", 1, 0, 7, ""))
	for _, tt := range []struct {
		name     string
		data     string
		want     []string
		problems []archive.Problem
	}{
		{
			name: "truncated file keeps the benchmarks before the cut",
			data: two[:len(two)-60],
			want: []string{"BM_a wall-time ns [10 12]", "BM_a cpu-time ns [10 12]"},
			problems: []archive.Problem{
				{File: f, Line: 6, Msg: "truncated file: unexpected end of JSON; the benchmarks before it are kept"},
			},
		},
		{
			name: "wrong type of a time skips that entry only",
			data: gbFile(gbEntry("BM_a", 0, 0, 10, ""), strings.Replace(gbEntry("BM_a", 0, 1, 12, ""), `"real_time": 12`, `"real_time": "fast"`, 1), gbEntry("BM_b", 1, 0, 7, "")),
			want: []string{"BM_a wall-time ns [10]", "BM_a cpu-time ns [10]", "BM_b wall-time ns [7]", "BM_b cpu-time ns [7]"},
			problems: []archive.Problem{
				{File: f, Line: 5, Msg: `BM_a: "real_time": want a number, got "fast"; entry skipped`},
			},
		},
		{
			name: "wrong types of names, flags and context fields",
			data: strings.Replace(gbFile(strings.Replace(gbEntry("BM_a", 0, 0, 10, ""), `"name": "BM_a", `, `"name": 5, `, 1),
				gbEntry("BM_b", 1, 0, 7, `, "error_occurred": "yes"`),
				`    {"name": "BM_c", "run_name": ["BM_c"], "real_time": 1, "cpu_time": 1, "time_unit": "ns"}`,
				`    "just a string"`),
				`"num_cpus": 2`, `"num_cpus": "two"`, 1),
			want: []string{"BM_b wall-time ns [] error=error occurred", "BM_b cpu-time ns [] error=error occurred"},
			problems: []archive.Problem{
				{File: f, Line: 2, Msg: `context "num_cpus": want a non-negative integer, got "two"; ignored`},
				{File: f, Line: 4, Msg: `BM_a: "name": want a string, got a number; entry skipped`},
				{File: f, Line: 5, Msg: `"error_occurred": want true or false, got "yes"; taken as true`},
				{File: f, Line: 6, Msg: `BM_c: "run_name": want a string, got a list; entry skipped`},
				{File: f, Line: 7, Msg: `benchmark entry is not an object (got a string); skipped`},
			},
		},
		{
			name: "duplicated names keep the first benchmark",
			data: gbFile(gbEntry("BM_a", 0, 0, 10, ""), gbEntry("BM_a", 0, 1, 12, ""), gbEntry("BM_a", 1, 0, 99, ""), gbEntry("BM_a", 0, 1, 98, "")),
			want: []string{"BM_a wall-time ns [10 12]", "BM_a cpu-time ns [10 12]"},
			problems: []archive.Problem{
				{File: f, Line: 6, Msg: "BM_a: duplicated benchmark name (first on line 4); this entry is skipped"},
				{File: f, Line: 7, Msg: "BM_a: repetition 1 appears twice; this entry is skipped"},
			},
		},
		{
			name: "unknown time unit is kept with a warning",
			data: gbFile(strings.Replace(gbEntry("BM_a", 0, 0, 10, ""), `"ns"`, `"min"`, 1)),
			want: []string{"BM_a wall-time min [10]", "BM_a cpu-time min [10]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: `BM_a: unknown time_unit "min"; kept as it is`},
			},
		},
		{
			name: "missing time unit is taken as ns, a different one is skipped",
			data: gbFile(strings.Replace(gbEntry("BM_a", 0, 0, 10, ""), `, "time_unit": "ns"`, "", 1), strings.Replace(gbEntry("BM_a", 0, 1, 12, ""), `"ns"`, `"ms"`, 1)),
			want: []string{"BM_a wall-time ns [10]", "BM_a cpu-time ns [10]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: "BM_a: no time_unit; taken as ns (Google Benchmark's default)"},
				{File: f, Line: 5, Msg: `BM_a: time_unit "ms" differs from the first repetition's "ns"; this entry is skipped`},
			},
		},
		{
			name: "bare NaN and Infinity tokens and negative times are invalid samples",
			data: gbFile(gbEntry("BM_NaN", 0, 0, 10, `, "rate": NaN, "big": Infinity`), gbEntry("BM_NaN", 0, 1, -1, `, "rate": 3, "big": -Infinity`),
				`    {"name": "BM_NaN_cv", "run_name": "BM_NaN", "run_type": "aggregate", "aggregate_name": "cv", "real_time": NaN, "cpu_time": NaN, "time_unit": "ns"}`),
			want: []string{"BM_NaN wall-time ns [10]", "BM_NaN cpu-time ns [10]", "BM_NaN rate  [3]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: "BM_NaN: rate is NaN: not a valid sample; dropped"},
				{File: f, Line: 4, Msg: "BM_NaN: big is +Inf: not a valid sample; dropped"},
				{File: f, Line: 5, Msg: "BM_NaN: real_time is negative (-1): not a valid sample; dropped"},
				{File: f, Line: 5, Msg: "BM_NaN: cpu_time is negative (-1): not a valid sample; dropped"},
				{File: f, Line: 5, Msg: "BM_NaN: big is -Inf: not a valid sample; dropped"},
			},
		},
		{
			name: "skipped benchmarks of newer releases are errors",
			data: gbFile(gbEntry("BM_gpu", 0, 0, 0, `, "skipped": true, "skip_message": "no GPU"`), gbEntry("BM_b", 1, 0, 7, "")),
			want: []string{"BM_gpu wall-time ns [] error=skipped: no GPU", "BM_gpu cpu-time ns [] error=skipped: no GPU", "BM_b wall-time ns [7]", "BM_b cpu-time ns [7]"},
		},
		{
			name: "an error in one repetition marks the result and keeps the others",
			data: gbFile(gbEntry("BM_a", 0, 0, 10, ""), gbEntry("BM_a", 0, 1, 0, `, "error_occurred": true, "error_message": "flaky"`)),
			want: []string{"BM_a wall-time ns [10] error=flaky", "BM_a cpu-time ns [10] error=flaky"},
		},
		{
			name: "old files without run_name and run_type: suffixes name the aggregates",
			data: gbFile(`    {"name": "BM_a/8", "iterations": 5, "real_time": 3, "cpu_time": 2, "time_unit": "us"}`,
				`    {"name": "BM_a/8_mean", "iterations": 5, "real_time": 30, "cpu_time": 20, "time_unit": "us"}`),
			want: []string{"BM_a arg1=8 wall-time us [3]", "BM_a arg1=8 cpu-time us [2]"},
		},
		{
			name: "aggregates without a median: the mean; other statistics are never used",
			data: gbFile(
				`    {"name": "BM_a_mean", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 4, "cpu_time": 3, "time_unit": "ns"}`,
				`    {"name": "BM_a_stddev", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "stddev", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}`,
				`    {"name": "BM_c_BigO", "run_name": "BM_c", "run_type": "aggregate", "aggregate_name": "BigO", "cpu_coefficient": 1, "real_coefficient": 1, "big_o": "N", "time_unit": "ns"}`,
				`    {"name": "BM_c_RMS", "run_name": "BM_c", "run_type": "aggregate", "aggregate_name": "RMS", "rms": 0.1}`),
			want: []string{"BM_a wall-time ns [4]", "BM_a cpu-time ns [3]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: "1 benchmark(s) have only aggregate rows (--benchmark_report_aggregates_only?): their median (else mean) is used as a single sample: BM_a"},
			},
		},
		{
			name: "unknown keys are reported once, unknown run types skip the entry",
			data: gbFile(gbEntry("BM_a", 0, 0, 10, `, "note": "x"`), gbEntry("BM_a", 0, 1, 11, `, "note": "y"`), strings.Replace(gbEntry("BM_b", 1, 0, 7, ""), `"iteration"`, `"warmup"`, 1)),
			want: []string{"BM_a wall-time ns [10 11]", "BM_a cpu-time ns [10 11]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: `unknown key "note" (a string) ignored`},
				{File: f, Line: 6, Msg: `BM_b: unknown run_type "warmup"; skipped`},
			},
		},
		{
			name: "repeated key in an entry keeps the first",
			data: gbFile(gbEntry("BM_a", 0, 0, 10, `, "real_time": 99`)),
			want: []string{"BM_a wall-time ns [10]", "BM_a cpu-time ns [10]"},
			problems: []archive.Problem{
				{File: f, Line: 4, Msg: `key "real_time" repeated in one benchmark entry; the first is kept`},
			},
		},
		{
			name: "a date without a time zone is taken as UTC",
			data: strings.Replace(gbFile(gbEntry("BM_a", 0, 0, 10, "")), "2026-11-21T14:30:13+00:00", "2016-08-02 17:44:46", 1),
			want: []string{"BM_a wall-time ns [10]", "BM_a cpu-time ns [10]"},
			problems: []archive.Problem{
				{File: f, Line: 2, Msg: `context date "2016-08-02 17:44:46" has no time zone; taken as UTC`},
			},
		},
		{
			name: "repeated top-level key keeps the first list",
			data: "{\"benchmarks\": [" + gbEntry("BM_a", 0, 0, 10, "") + "],\n\"benchmarks\": [" + gbEntry("BM_b", 1, 0, 7, "") + "]}",
			want: []string{"BM_a wall-time ns [10]", "BM_a cpu-time ns [10]"},
			problems: []archive.Problem{
				{File: f, Line: 2, Msg: `key "benchmarks" repeated at the top of the file; the first is kept`},
			},
		},
		{
			name:     "empty benchmark list",
			data:     gbFile(),
			problems: []archive.Problem{{File: f, Line: 3, Msg: "no benchmarks in the file", Fatal: true}},
		},
		{
			name:     "no usable entry",
			data:     gbFile(`    {"name": "BM_a"}`),
			problems: []archive.Problem{{File: f, Line: 4, Msg: "BM_a: entry without real_time and cpu_time; skipped"}, {File: f, Line: 3, Msg: "no usable benchmark results", Fatal: true}},
		},
		{
			name:     "no benchmarks key",
			data:     `{"context": {"host_name": "vm"}}`,
			problems: []archive.Problem{{File: f, Msg: `no "benchmarks" list: not a Google Benchmark JSON file`, Fatal: true}},
		},
		{
			name:     "benchmarks is not a list",
			data:     `{"benchmarks": 3}`,
			problems: []archive.Problem{{File: f, Line: 1, Msg: `"benchmarks" is not a list`}, {File: f, Msg: `no "benchmarks" list: not a Google Benchmark JSON file`, Fatal: true}},
		},
		{
			name:     "not JSON",
			data:     "BM_a 10 ns 10 ns 100\n",
			problems: []archive.Problem{{File: f, Line: 1, Msg: "not JSON: malformed JSON: invalid character 'B' looking for beginning of value", Fatal: true}},
		},
		{
			name:     "a list at the top",
			data:     `[{"name": "BM_a", "value": 1}]`,
			problems: []archive.Problem{{File: f, Line: 1, Msg: `not a Google Benchmark JSON file: want an object with "context" and "benchmarks"`, Fatal: true}},
		},
		{
			name:     "empty file",
			data:     "",
			problems: []archive.Problem{{File: f, Line: 1, Msg: "not JSON: truncated file: unexpected end of JSON", Fatal: true}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runs, problems := readGooglebench(Input{Name: f, Data: []byte(tt.data)}, Defaults{})
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, gbSummary(runs)); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGooglebenchArchive checks that every fixture's run survives the
// native archive format unchanged (what `perfpages import` writes).
func TestGooglebenchArchive(t *testing.T) {
	for _, name := range []string{"repetitions.json", "aggregates.json", "single.json"} {
		t.Run(name, func(t *testing.T) {
			def := Defaults{Artifact: model.Artifact{ID: gbSHA, Kind: model.KindCommit}}
			runs, _ := readGooglebench(Input{Name: name, Data: gbFixture(t, name)}, def)
			if len(runs) != 1 {
				t.Fatalf("%d runs", len(runs))
			}
			var buf bytes.Buffer
			if err := archive.Encode(&buf, runs[0], "json", false); err != nil {
				t.Fatal(err)
			}
			back, problems := archive.Decode("run.json", buf.Bytes(), archive.Options{})
			if len(problems) > 0 {
				t.Errorf("decoding the archive: %v", problems)
			}
			if diff := cmp.Diff(runs[0], back); diff != "" {
				t.Errorf("round trip (-read +decoded):\n%s", diff)
			}
		})
	}
}

func TestGooglebenchSplitName(t *testing.T) {
	for _, tt := range []struct {
		name, bench string
		params      model.Params
	}{
		{"BM_foo", "BM_foo", nil},
		{"BM_foo/8/64", "BM_foo", model.Params{{Key: "arg1", Value: "8"}, {Key: "arg2", Value: "64"}}},
		{"BM_foo/-1", "BM_foo", model.Params{{Key: "arg1", Value: "-1"}}},
		{"BM_foo/n:8/m:2", "BM_foo", model.Params{{Key: "m", Value: "2"}, {Key: "n", Value: "8"}}},
		{"BM_foo/threads:4", "BM_foo", model.Params{{Key: "threads", Value: "4"}}},
		{"BM_foo/8/real_time/threads:2", "BM_foo", model.Params{{Key: "arg1", Value: "8"}, {Key: "threads", Value: "2"}, {Key: "time_type", Value: "real_time"}}},
		{"BM_foo/8/min_time:0.010/min_warmup_time:0.5/iterations:10/repeats:3/process_time/manual_time/threads:1", "BM_foo", model.Params{
			{Key: "arg1", Value: "8"}, {Key: "iterations", Value: "10"}, {Key: "min_time", Value: "0.010"}, {Key: "min_warmup_time", Value: "0.5"},
			{Key: "repeats", Value: "3"}, {Key: "threads", Value: "1"}, {Key: "time_type", Value: "process_time/manual_time"}}},
		{"BM_Template<int, 8>/16", "BM_Template<int, 8>", model.Params{{Key: "arg1", Value: "16"}}},
		{"group/case/8", "group/case", model.Params{{Key: "arg1", Value: "8"}}},
		{"group/8/case", "group/8/case", nil},
		{"BM_foo/threads:2/4", "BM_foo", model.Params{{Key: "arg2", Value: "4"}, {Key: "threads", Value: "2"}}},
		{"BM_foo/threads:1/threads:2", "BM_foo", model.Params{{Key: "arg1", Value: "1"}, {Key: "threads", Value: "2"}}},
		{"BM_foo/arg2:1/5", "BM_foo/arg2:1/5", nil},
		{"42", "42", nil},
		{"", "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bench, params := gbSplitName(tt.name)
			if bench != tt.bench {
				t.Errorf("benchmark %q, want %q", bench, tt.bench)
			}
			if diff := cmp.Diff(tt.params, params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGooglebenchSniff(t *testing.T) {
	for _, tt := range []struct {
		name string
		data string
		want bool
	}{
		{"fixture repetitions", string(gbFixture(t, "repetitions.json")), true},
		{"fixture aggregates", string(gbFixture(t, "aggregates.json")), true},
		{"fixture single", string(gbFixture(t, "single.json")), true},
		{"rows without context", `{"benchmarks": [{"name": "BM_a", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}`, true},
		{"with a byte order mark", "\uFEFF" + gbFile(gbEntry("BM_a", 0, 0, 1, "")), true},
		{"pytest-benchmark", `{"machine_info": {"node": "vm"}, "commit_info": {"id": "abc"}, "benchmarks": [{"group": null, "name": "test_x", "stats": {"min": 1, "data": [1]}}], "datetime": "2026-11-21T14:00:00", "version": "3.2.2"}`, false},
		{"hyperfine", `{"results": [{"command": "sleep 0.1", "mean": 0.1, "times": [0.1]}]}`, false},
		{"bmf", `{"benchmarks": {"latency": {"value": 88.0}}}`, false},
		{"github-action-benchmark custom", `[{"name": "BM_a", "unit": "ns", "value": 1}]`, false},
		{"github-action-benchmark data.js", `window.BENCHMARK_DATA = {"entries": {"Benchmark": [{"benches": [{"name": "BM_a", "value": 1, "unit": "ns/iter", "extra": "iterations: 1\ncpu: 1 ns\nthreads: 1"}]}]}}`, false},
		{"go bench text", "goos: linux\nBenchmarkX-2 100 10 ns/op\n", false},
		{"perfgate receipt", `{"schema": "perfgate.run.v1", "bench": {"name": "x"}, "stats": {"wall_ms": {"median": 1}}}`, false},
		{"empty", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffGooglebench(Input{Name: "x.json", Data: []byte(tt.data)}); got != tt.want {
				t.Errorf("sniff = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGooglebenchRegistered(t *testing.T) {
	f, ok := Lookup("googlebench")
	if !ok || f.Dir || f.Read == nil || f.Sniff == nil {
		t.Fatalf("googlebench format: %+v, %v", f, ok)
	}
	in := Input{Name: "repetitions.json", Data: gbFixture(t, "repetitions.json")}
	if got, err := Detect(in); err != nil || got.Name != "googlebench" {
		t.Errorf("Detect chose %q (%v), want googlebench", got.Name, err)
	}
}

func FuzzGooglebench(f *testing.F) {
	for _, name := range []string{"repetitions.json", "aggregates.json", "single.json"} {
		f.Add(gbFixture(f, name))
	}
	f.Add([]byte(gbFile(gbEntry("BM_a/8/threads:2", 0, 0, 10, `, "rate": NaN`), gbEntry("BM_a/8/threads:2", 0, 1, 0, `, "error_occurred": true`))))
	f.Add([]byte(`{"benchmarks": [{"name": "BM_a_mean", "aggregate_name": "mean", "real_time": 1, "cpu_time": 1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, problems := readGooglebench(Input{Name: "fuzz.json", Data: data}, Defaults{})
		fatal := false
		for _, p := range problems {
			if p.File != "fuzz.json" || p.Msg == "" || p.Line < 0 {
				t.Errorf("bad problem %+v", p)
			}
			fatal = fatal || p.Fatal
		}
		if fatal && len(runs) > 0 {
			t.Errorf("fatal problem and %d runs", len(runs))
		}
		if !fatal && len(runs) != 1 {
			t.Errorf("no fatal problem and %d runs", len(runs))
		}
		for _, run := range runs {
			if len(run.Results) == 0 {
				t.Errorf("run without results")
			}
			for _, r := range run.Results {
				if len(r.Samples) == 0 && r.Error == "" {
					t.Errorf("%s %s: no samples and no error", r.Case, r.Metric)
				}
				for _, v := range r.Samples {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s %s: sample %v", r.Case, r.Metric, v)
					}
				}
			}
		}
	})
}
