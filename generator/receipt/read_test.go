package receipt

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/internal/readkit"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadRun(t *testing.T) {
	r, err := ReadRun("run.json", readTestdata(t, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Run{
		Schema: RunSchema,
		Tool:   Tool{Name: "perfgate", Version: "0.18.0"},
		Run: RunMeta{ID: "7d3c1f0e-2b4a-4c8e-9f61-5a0b3c2d1e4f", StartedAt: "2026-01-15T10:00:00Z", EndedAt: "2026-01-15T10:00:01Z",
			Host: Host{OS: "linux", Arch: "x86_64", CPUCount: u32p(8), MemoryBytes: u64p(17179869184)}},
		Bench: Bench{Name: "parse-large", Command: []string{"./target/release/parse", "--input", "big.json"}, Repeat: 2, Warmup: 1,
			WorkUnits: u64p(1000), TimeoutMs: u64p(30000)},
		Samples: []Sample{
			{WallMs: 96, Warmup: true, MaxRSSKB: u64p(2048)},
			{WallMs: 100, CPUMs: u64p(90), MaxRSSKB: u64p(2048), EnergyUJ: u64p(1200)},
			{WallMs: 104, CPUMs: u64p(94), MaxRSSKB: u64p(2052), Stdout: strp("ok\n")},
		},
		Stats: Stats{
			WallMs:         U64Summary{Median: 102, Min: 100, Max: 104, Mean: f64p(102), Stddev: f64p(2.8284271247461903)},
			CPUMs:          &U64Summary{Median: 92, Min: 90, Max: 94},
			MaxRSSKB:       &U64Summary{Median: 2050, Min: 2048, Max: 2052},
			EnergyUJ:       &U64Summary{Median: 1200, Min: 1200, Max: 1200},
			ThroughputPerS: &F64Summary{Median: 9807.692307692309, Min: 9615.384615384615, Max: 10000},
		},
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("ReadRun (-want +got):\n%s", diff)
	}
	// The stats in the file are recomputed exactly from its samples.
	st, _ := ComputeStats(r.Samples, r.Bench.WorkUnits)
	if st.WallMs.Median != r.Stats.WallMs.Median || st.MaxRSSKB.Median != r.Stats.MaxRSSKB.Median || st.ThroughputPerS.Median != r.Stats.ThroughputPerS.Median {
		t.Errorf("recomputed stats differ: %+v", st)
	}
}

// TestReadRunErrors: every bad input is named by file (and line when the
// JSON decoder knows it).
func TestReadRunErrors(t *testing.T) {
	good := string(readTestdata(t, "run.json"))
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", "schema: perfgate.run.v1\n", "r.json:1: invalid JSON: invalid character 's'"},
		{"truncated", `{"schema": "perfgate.run.v1",` + "\n" + `"tool": {`, "r.json:2: invalid JSON: unexpected end of JSON input"},
		{"syntax error on line 3", "{\n\"schema\": \"perfgate.run.v1\",\n\"tool\": {,}\n}", "r.json:3: invalid JSON"},
		{"an array", "[1, 2]", "r.json:1: document: a JSON array cannot be an object"},
		{"no schema", `{"tool": {}}`, `r.json: missing field "schema": not a perfgate.run.v1 receipt`},
		{"wrong schema", `{"schema": "perfgate.compare.v1"}`, `r.json: schema is "perfgate.compare.v1", want perfgate.run.v1`},
		{"missing host os", strings.Replace(good, `"os": "linux", `, "", 1), `r.json: missing field "run.host.os"`},
		{"null bench name", strings.Replace(good, `"name": "parse-large"`, `"name": null`, 1), `r.json: missing field "bench.name"`},
		{"sample without exit code", strings.Replace(good, `{"wall_ms": 104, "exit_code": 0, `, `{"wall_ms": 104, `, 1), `r.json: missing field "samples[2].exit_code"`},
		{"no wall_ms stats", strings.Replace(good, `"wall_ms": {"median": 102, "min": 100, "max": 104, "mean": 102.0, "stddev": 2.8284271247461903},`, "", 1), `r.json: missing field "stats.wall_ms"`},
		{"optional stats without median", strings.Replace(good, `"cpu_ms": {"median": 92, `, `"cpu_ms": {`, 1), `r.json: missing field "stats.cpu_ms.median"`},
		{"negative wall time", strings.Replace(good, `{"wall_ms": 100,`, `{"wall_ms": -100,`, 1), "r.json:20: samples.wall_ms: a JSON number -100 cannot be a non-negative integer"},
		{"string repeat", strings.Replace(good, `"repeat": 2`, `"repeat": "2"`, 1), "r.json:13: bench.repeat: a JSON string cannot be a non-negative integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadRun("r.json", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q\nwant prefix %q", err, tt.want)
			}
			var fe *readkit.Problem
			if !errors.As(err, &fe) || fe.File != "r.json" {
				t.Errorf("error %T does not name the file", err)
			}
		})
	}
}

func TestReadCompare(t *testing.T) {
	c, err := ReadCompare("compare.json", readTestdata(t, "compare.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Bench.Name != "alpha-bench" || c.Deltas["max_rss_kb"].Status != "fail" || c.Budgets["wall_ms"].WarnThreshold != 0.18 ||
		c.Verdict.Counts.Fail != 1 || len(c.Verdict.Reasons) != 1 {
		t.Errorf("ReadCompare = %+v", c)
	}
	if _, err := ReadCompare("r.json", readTestdata(t, "run.json")); err == nil || !strings.Contains(err.Error(), "want perfgate.compare.v1") {
		t.Errorf("run receipt read as compare: %v", err)
	}
	if _, err := ReadCompare("c.json", []byte(`{"schema": "perfgate.compare.v1", "tool": {"name": "x", "version": "1"}}`)); err == nil ||
		!strings.Contains(err.Error(), `missing field "bench"`) {
		t.Errorf("incomplete compare receipt: %v", err)
	}
}

func gz(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func TestSniff(t *testing.T) {
	archive := []byte(`{"schema": "perfpages.run.v1", "artifact": {"id": "abc"}}`)
	tests := []struct {
		name, file string
		data       []byte
		want       Kind
		wantErr    string
	}{
		{"run receipt", "a.json", readTestdata(t, "run.json"), KindRun, ""},
		{"compare receipt", "c.json", readTestdata(t, "compare.json"), KindCompare, ""},
		{"report", "r.json", []byte(`{"report_type": "perfgate.report.v1"}`), KindReport, ""},
		{"JSON archive", "x.json", archive, KindArchive, ""},
		{"gzipped archive", "x.json.gz", gz(t, archive), KindArchive, ""},
		{"gzipped receipt under any name", "receipt.bin", gz(t, readTestdata(t, "run.json")), KindRun, ""},
		{"YAML archive by name", "x.yaml", []byte("schema: perfpages.run.v1\n"), KindArchive, ""},
		{"TOML archive by content", "note", []byte("schema = \"perfpages.run.v1\"\n"), KindArchive, ""},
		{"unknown schema", "x.json", []byte(`{"schema": "other.v9"}`), 0, `x.json: schema "other.v9": want perfgate.run.v1 or perfpages.run.v1`},
		{"no schema", "x.json", []byte(`{"a": 1}`), 0, `x.json: no "schema" field`},
		{"empty", "x.json", []byte(" \n"), 0, "x.json: empty file"},
		{"text", "x.txt", []byte("hello"), 0, "x.txt: not a JSON object"},
		{"array", "x.json", []byte("[1]"), 0, "x.json: not a JSON object"},
		{"bad JSON", "x.json", []byte("{\n\"schema\": }"), 0, "x.json:2: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sniffInput(tt.file, tt.data, 0)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Errorf("error = %v, want prefix %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Sniff = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err := Load(missing, 0)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != missing+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	in, err := Load(filepath.Join("testdata", "run.json"), 0)
	if err != nil || in.Kind != KindRun || in.Run.Bench.Name != "parse-large" {
		t.Errorf("Load(run.json) = %+v, %v", in, err)
	}
	if _, err := Load(filepath.Join("testdata", "compare.json"), 0); err == nil || !strings.Contains(err.Error(), "is a perfgate compare receipt; want a perfgate run receipt or a perfpages archive") {
		t.Errorf("compare receipt as input: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("schema: perfpages.run.v1\nartifact: [\n"), 0o644)
	if _, err := Load(bad, 0); err == nil || !strings.HasPrefix(err.Error(), bad+":") {
		t.Errorf("bad archive: %v", err)
	}
}

// FuzzReadRun: no input makes the reader panic, and whatever it accepts
// it can summarize.
func FuzzReadRun(f *testing.F) {
	f.Add(readTestdata(f, "run.json"))
	f.Add(readTestdata(f, "compare.json"))
	f.Add([]byte(`{"schema":"perfgate.run.v1","samples":[{}]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sniffInput("f.json", data, 0)
		r, err := ReadRun("f.json", data)
		if err != nil {
			return
		}
		ComputeStats(r.Samples, r.Bench.WorkUnits)
	})
}

// sniffInput tells what data holds, by content (ReadInput's inflate and
// sniff, for tests of data not in a file): the schema id of a JSON
// document (report_type for a report), or an archive for YAML and TOML
// files (by name) and for gzipped archives. name is used in errors; gzip
// data inflates to at most maxBytes (0: archive.DefaultMaxBytes).
func sniffInput(name string, data []byte, maxBytes int64) (Kind, error) {
	data, err := inflate(name, data, maxBytes)
	if err != nil {
		return 0, err
	}
	return sniff(name, data)
}
