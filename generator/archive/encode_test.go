package archive

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestEncodeGolden pins the exact output of each format.
func TestEncodeGolden(t *testing.T) {
	for _, format := range []string{"json", "yaml", "toml"} {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Encode(&b, validRun(), format, false); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", "run."+format)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("Encode(%s) differs from %s (-want +got; go test -update rewrites it):\n%s", format, path, diff)
			}
		})
	}
}

// trickyRun holds what codecs get wrong: strings that look like other
// types or syntax, odd keys, extreme floats and dates.
func trickyRun() model.Run {
	hostile := []string{
		"null", "~", "yes", "No", "true", "0x10", "1e3", "0123", ".inf", "-", "- x", "? x", ": x", "#x", "a #b", "a: b",
		"<<", "&a", "*a", "!tag", "%x", "@x", "`x", "'", "\"", `\`, `\n`, " lead", "trail ", "\ttab", "new\nline",
		"cr\rlf\r\n", "nul\x00", "ctl\x01\x1f\x7f", "é ü 😀", "\u2028\u2029\u0085", "\uFEFFbom", "<script>", "[x]", "{x}",
		"a,b", "x = y", "[[results]]", `"""`, "'''", "---", "...", "=", "",
	}
	params := map[string]string{}
	for i, s := range hostile {
		params[s] = hostile[len(hostile)-1-i]
	}
	params["dotted.key"] = "v"
	params["with space"] = "v"
	run := model.Run{
		Artifact: model.Artifact{
			ID: "0123", Kind: model.KindTry, Date: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
			Parents: []string{"null", "1e5"}, Branch: "feature/x: y", PR: math.MaxInt32, Title: "new\nline \"quoted\" # not a comment",
			Author: "Zoë <z@example.org>", Baseline: "00ff",
		},
		Machine: model.Machine{Name: "yes", OS: "~", Arch: "", CPU: "Intel(R) Xeon(R) @ 2.10GHz", Cores: 1, MemoryBytes: math.MaxInt64,
			Labels: model.NewParams(map[string]string{"": "empty key", "k": "", "é": "ü"})},
		Context: model.NewParams(params),
	}
	floats := []float64{0, math.Copysign(0, -1), 5e-324, math.SmallestNonzeroFloat64 * 3, math.MaxFloat64, 1e20, 1e21, 123456789,
		0.1, 1.0 / 3, 9007199254740993, 1e-7, 12345678901234567890, -1.5}
	for i, s := range hostile {
		r := model.Result{
			Case:   model.TestCase{Benchmark: "b" + s, Params: model.NewParams(map[string]string{s: s}), Category: model.Primary},
			Metric: "m" + s, Unit: s, Samples: []float64{floats[i%len(floats)], 1}, Error: s,
		}
		if model.IsTimeOrSize(r.Unit) {
			r.Samples[0] = math.Abs(r.Samples[0])
		}
		if i%2 == 0 {
			r.Case.Category = model.Secondary
			r.Iters = []float64{floats[i%len(floats)] + 1, 1e300}
		}
		if i%3 == 0 {
			r.Summary = &model.SampleSummary{Mean: floats[i%len(floats)], StdDev: math.Abs(floats[(i+1)%len(floats)]), N: 1 + i}
			r.Range = s
		}
		switch i % 3 {
		case 1:
			r.Direction = model.HigherIsBetter
		case 2:
			r.Direction = model.LowerIsBetter
		}
		run.Results = append(run.Results, r)
	}
	run.Results = append(run.Results, model.Result{
		Case: model.TestCase{Benchmark: "floats", Category: model.Primary}, Metric: "x", Samples: floats,
	}, model.Result{
		Case: model.TestCase{Benchmark: "failed", Category: model.Primary}, Metric: "x", Error: "exit status 2",
	})
	return run
}

func TestEncodeRoundTrip(t *testing.T) {
	noDate := validRun()
	noDate.Artifact.Date = time.Time{}
	empty := validRun()
	empty.Results = nil
	runs := []struct {
		name string
		run  model.Run
		opts Options
		want []string // problems expected back
	}{
		{name: "valid", run: validRun()},
		{name: "tricky", run: trickyRun()},
		{name: "big", run: bigRun(200)},
		{name: "no date", run: noDate, opts: Options{DateOptional: true}},
		{name: "no results", run: empty, want: []string{"no results"}},
	}
	for _, format := range []string{"json", "yaml", "toml"} {
		for _, zip := range []bool{false, true} {
			for _, tt := range runs {
				name := format + "/" + tt.name
				if zip {
					name += "/gz"
				}
				t.Run(name, func(t *testing.T) {
					var b bytes.Buffer
					if err := Encode(&b, tt.run, format, zip); err != nil {
						t.Fatal(err)
					}
					file := "run." + format
					if zip {
						file += ".gz"
					}
					got, problems := Decode(file, b.Bytes(), tt.opts)
					var msgs []string
					for _, p := range problems {
						msgs = append(msgs, p.Msg)
					}
					if diff := cmp.Diff(tt.want, msgs); diff != "" {
						t.Errorf("problems (-want +got):\n%s", diff)
					}
					if diff := cmp.Diff(tt.run, got); diff != "" {
						t.Errorf("round trip (-want +got):\n%s", diff)
					}
				})
			}
		}
	}
}

func TestEncodeDeterministic(t *testing.T) {
	for _, format := range []string{"json", "yaml", "toml"} {
		for _, zip := range []bool{false, true} {
			var a, b bytes.Buffer
			if err := Encode(&a, trickyRun(), format, zip); err != nil {
				t.Fatal(err)
			}
			if err := Encode(&b, trickyRun(), format, zip); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s gz=%v: two encodings differ", format, zip)
			}
		}
	}
}

func TestEncodeDefaults(t *testing.T) {
	run := validRun()
	run.Artifact.Kind = ""
	run.Results[0].Case.Category = ""
	var b bytes.Buffer
	if err := Encode(&b, run, "json", false); err != nil {
		t.Fatal(err)
	}
	got, problems := Decode("r.json", b.Bytes(), Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if got.Artifact.Kind != model.KindCommit || got.Results[0].Case.Category != model.Primary {
		t.Errorf("kind %q, category %q; want the defaults commit and primary", got.Artifact.Kind, got.Results[0].Case.Category)
	}
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*model.Run)
		format string
		want   string
	}{
		{"unknown format", func(*model.Run) {}, "xml", `encoding archive: unknown format "xml" (want json, yaml or toml)`},
		{"no id", func(r *model.Run) { r.Artifact.ID = "" }, "json", "encoding archive: missing artifact.id"},
		{"bad kind", func(r *model.Run) { r.Artifact.Kind = "nightly" }, "json",
			`encoding archive: artifact.kind: unknown kind "nightly" (want commit, try, tag or local)`},
		{"negative pr", func(r *model.Run) { r.Artifact.PR = -1 }, "json", "encoding archive: artifact.pr: must not be negative (-1)"},
		{"year 10000", func(r *model.Run) { r.Artifact.Date = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, "toml",
			"encoding archive: artifact.date: 10000-01-01T00:00:00Z is out of range (years 0001 to 9999 in UTC)"},
		// Year 0 is written fine but Decode refuses it: one rule for both
		// (they drifted apart when each had its own).
		{"year 0", func(r *model.Run) { r.Artifact.Date = time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC) }, "json",
			"encoding archive: artifact.date: 0000-06-01T00:00:00Z is out of range (years 0001 to 9999 in UTC)"},
		{"empty parent", func(r *model.Run) { r.Artifact.Parents = []string{""} }, "json", "encoding archive: artifact.parents[0]: empty id"},
		{"bad UTF-8", func(r *model.Run) { r.Artifact.Title = "a\xffb" }, "yaml", `encoding archive: artifact.title: invalid UTF-8 "a\xffb"`},
		{"no machine", func(r *model.Run) { r.Machine.Name = "" }, "json", "encoding archive: missing machine.name"},
		{"negative memory", func(r *model.Run) { r.Machine.MemoryBytes = -1 }, "json", "encoding archive: machine.memory_bytes: must not be negative (-1)"},
		{"unsorted params", func(r *model.Run) { r.Context = model.Params{{Key: "b"}, {Key: "a"}} }, "json",
			`encoding archive: context: keys not sorted and unique at "a" (build them with model.NewParams)`},
		{"NaN sample", func(r *model.Run) { r.Results[1].Samples[0] = math.NaN() }, "yaml",
			"encoding archive: results[1] (json-decode n=1000 ratio=0.5 size=large instructions:u): samples[0] is NaN"},
		{"negative time", func(r *model.Run) { r.Results[0].Samples[2] = -1 }, "json",
			`encoding archive: results[0] (json-decode n=1000 ratio=0.5 size=large wall-time): samples[2] is negative (-1) for unit "ns"`},
		{"no samples", func(r *model.Run) { r.Results[2].Samples = nil }, "json",
			"encoding archive: results[2] (regex-compile throughput): no samples and no error"},
		{"iters", func(r *model.Run) { r.Results[0].Iters = []float64{1, 0} }, "json",
			"encoding archive: results[0] (json-decode n=1000 ratio=0.5 size=large wall-time): 2 iters for 3 samples\n" +
				"results[0] (json-decode n=1000 ratio=0.5 size=large wall-time): iters[1] is not a positive number (0)"},
		{"category", func(r *model.Run) { r.Results[3].Case.Category = "x" }, "json",
			`encoding archive: results[3] (tls-handshake wall-time): unknown category "x" (want primary or secondary)`},
		{"direction", func(r *model.Run) { r.Results[3].Direction = "up" }, "json",
			`encoding archive: results[3] (tls-handshake wall-time): unknown direction "up" (want lower or higher)`},
		{"no benchmark or metric", func(r *model.Run) { r.Results[3].Case.Benchmark, r.Results[3].Metric = "", "" }, "json",
			"encoding archive: results[3]: missing benchmark\nresults[3]: missing metric"},
		{"summary", func(r *model.Run) { r.Results[4].Summary = &model.SampleSummary{Mean: 1, StdDev: -1, N: 3} }, "json",
			"encoding archive: results[4] (test_pack_read throughput): summary.stddev is not a finite number of at least 0 (-1)"},
		{"summary count", func(r *model.Run) { r.Results[4].Summary = &model.SampleSummary{Mean: 1} }, "toml",
			"encoding archive: results[4] (test_pack_read throughput): summary.n is not a count of at least 1 (0)"},
		{"range", func(r *model.Run) { r.Results[5].Range = "\xff" }, "yaml",
			`encoding archive: results[5] (http1_consecutive_x1_empty wall-time) range: invalid UTF-8 "\xff"`},
		{"duplicate", func(r *model.Run) { r.Results[1].Metric = "wall-time" }, "json",
			"encoding archive: results[1] (json-decode n=1000 ratio=0.5 size=large wall-time): duplicate of results[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := validRun()
			tt.edit(&run)
			var b bytes.Buffer
			err := Encode(&b, run, tt.format, false)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
			if b.Len() > 0 {
				t.Errorf("wrote %d bytes despite the error", b.Len())
			}
		})
	}
}
