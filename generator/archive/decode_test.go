package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// decodeCase is one table row: an archive and the problems it must give,
// as Problem.Error() texts, "FATAL " in front of the fatal ones.
type decodeCase struct {
	name    string
	in      string
	opts    Options
	want    []string
	results int // results kept when nothing is fatal
}

func runDecodeCases(t *testing.T, file string, cases []decodeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run, problems := Decode(file, []byte(tc.in), tc.opts)
			var got []string
			fatal := false
			for _, p := range problems {
				s := p.Error()
				if p.Fatal {
					s = "FATAL " + s
					fatal = true
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if fatal {
				if diff := cmp.Diff(model.Run{}, run); diff != "" {
					t.Errorf("a fatal problem must leave the run zero (-want +got):\n%s", diff)
				}
			} else if len(run.Results) != tc.results {
				t.Errorf("kept %d results, want %d", len(run.Results), tc.results)
			}
		})
	}
}

// jsonDoc is a valid JSON archive around the given results, which start on
// line 6, one per line.
func jsonDoc(results ...string) string {
	return `{
  "schema": "perfpages.run.v1",
  "artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z"},
  "machine": {"name": "m1"},
  "results": [
    ` + strings.Join(results, ",\n    ") + `
  ]
}
`
}

const jsonOK = `{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [1, 2]}`

// jsonHead is a valid JSON archive with the artifact and machine lines
// replaced (lines 3 and 4).
func jsonHead(artifact, machine string) string {
	return "{\n  \"schema\": \"perfpages.run.v1\",\n  " + artifact + ",\n  " + machine + ",\n  \"results\": [" + jsonOK + "]\n}\n"
}

func TestDecodeJSON(t *testing.T) {
	const art = `"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z"}`
	const mach = `"machine": {"name": "m1"}`
	runDecodeCases(t, "r.json", []decodeCase{
		{name: "valid", in: jsonDoc(jsonOK), results: 1},
		{name: "valid with a failed benchmark", in: jsonDoc(jsonOK, `{"benchmark": "c", "metric": "wall-time", "error": "exit status 2"}`), results: 2},

		// Fatal problems.
		{name: "syntax error: missing comma", in: "{\n  \"schema\": \"perfpages.run.v1\"\n  \"artifact\": {}\n}\n",
			want: []string{`FATAL r.json:3: syntax error: invalid character '"' after object key:value pair`}},
		{name: "syntax error: trailing comma", in: jsonDoc(jsonOK + ","),
			want: []string{`FATAL r.json:7: syntax error: invalid character ']' looking for beginning of value`}},
		{name: "syntax error: truncated", in: "{\n  \"schema\": \"perfpages.run.v1\",\n  \"results\": [1,\n",
			want: []string{`FATAL r.json:3: syntax error: unexpected end of JSON input (truncated file?)`}},
		{name: "syntax error: bad escape", in: "{\n  \"schema\": \"perf\\q\"\n}",
			want: []string{`FATAL r.json:2: syntax error: invalid character 'q' in string escape code`}},
		{name: "syntax error: NaN is not JSON", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [NaN]}`),
			want: []string{`FATAL r.json:6: syntax error: invalid character 'N' looking for beginning of value`}},
		{name: "data after the document", in: jsonDoc(jsonOK) + "{}\n",
			want: []string{`FATAL r.json:9: syntax error: invalid character '{' after top-level value`}},
		{name: "empty file", in: "", want: []string{`FATAL r.json: empty document`}},
		{name: "blank file", in: " \n\t\n", want: []string{`FATAL r.json: empty document`}},
		{name: "document is a list", in: "\n[1, 2]\n", want: []string{`FATAL r.json:2: document is not an object (got a list)`}},
		{name: "document is a string", in: `"perfpages.run.v1"`, want: []string{`FATAL r.json:1: document is not an object (got a string)`}},
		{name: "missing schema", in: "{\n  \"artifact\": {\"id\": \"a1\"}\n}\n",
			want: []string{`FATAL r.json: missing schema (want perfpages.run.v1)`}},
		{name: "null schema", in: "{\"schema\": null}", want: []string{`FATAL r.json: missing schema (want perfpages.run.v1)`}},
		{name: "other schema", in: strings.Replace(jsonDoc(jsonOK), "run.v1", "run.v2", 1),
			want: []string{`FATAL r.json:2: unsupported schema "perfpages.run.v2" (want perfpages.run.v1)`}},
		{name: "schema not a string", in: "{\n  \"schema\": 1\n}",
			want: []string{`FATAL r.json:2: schema: want a string, got an integer`}},
		{name: "missing artifact id", in: jsonHead(`"artifact": {"date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: missing artifact.id`}},
		{name: "empty artifact id", in: jsonHead(`"artifact": {"id": "", "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: missing artifact.id`}},
		{name: "missing artifact", in: jsonHead(`"context": {}`, mach),
			want: []string{`FATAL r.json: missing artifact.id`, `FATAL r.json: missing artifact.date`}},
		{name: "artifact not an object", in: jsonHead(`"artifact": "a1"`, mach),
			want: []string{`FATAL r.json:3: artifact: want an object, got a string`}},
		{name: "missing date", in: jsonHead(`"artifact": {"id": "a1"}`, mach),
			want: []string{`FATAL r.json:3: missing artifact.date`}},
		{name: "unparsable date", in: jsonHead(`"artifact": {"id": "a1", "date": "yesterday"}`, mach),
			want: []string{`FATAL r.json:3: artifact.date: "yesterday" is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)`}},
		{name: "date without offset", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00"}`, mach),
			want: []string{`FATAL r.json:3: artifact.date: "2026-11-20T03:00:00" is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)`}},
		{name: "date a number", in: jsonHead(`"artifact": {"id": "a1", "date": 1763607600}`, mach),
			want: []string{`FATAL r.json:3: artifact.date: want an RFC 3339 date-time, got an integer`}},
		{name: "bad kind", in: jsonHead(`"artifact": {"id": "a1", "kind": "nightly", "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: artifact.kind: unknown kind "nightly" (want commit, try, tag or local)`}},
		{name: "negative pr", in: jsonHead(`"artifact": {"id": "a1", "pr": -3, "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: artifact.pr: must not be negative (-3)`}},
		{name: "pr not an integer", in: jsonHead(`"artifact": {"id": "a1", "pr": 1.5, "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: artifact.pr: want an integer, got a number`}},
		{name: "title a list", in: jsonHead(`"artifact": {"id": "a1", "title": ["x"], "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: artifact.title: want a string, got a list`}},
		{name: "empty parent", in: jsonHead(`"artifact": {"id": "a1", "parents": ["p1", ""], "date": "2026-11-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.json:3: artifact.parents[1]: empty id`}},
		{name: "missing machine name", in: jsonHead(art, `"machine": {"os": "linux"}`),
			want: []string{`FATAL r.json:4: missing machine.name`}},
		{name: "missing machine", in: jsonHead(art, `"context": {}`),
			want: []string{`FATAL r.json: missing machine.name`}},
		{name: "negative cores", in: jsonHead(art, `"machine": {"name": "m1", "cores": -1}`),
			want: []string{`FATAL r.json:4: machine.cores: must not be negative (-1)`}},
		{name: "label a list", in: jsonHead(art, `"machine": {"name": "m1", "labels": {"rack": [1]}}`),
			want: []string{`FATAL r.json:4: machine.labels.rack: want a string, number or boolean, got a list`}},
		{name: "context value an object", in: jsonHead(art, `"machine": {"name": "m1"}, "context": {"go": {"v": 1}}`),
			want: []string{`FATAL r.json:4: context.go: want a string, number or boolean, got an object`}},
		{name: "context a list", in: jsonHead(art, `"machine": {"name": "m1"}, "context": []`),
			want: []string{`FATAL r.json:4: context: want an object, got a list`}},
		{name: "several fatal problems", in: jsonHead(`"artifact": {"kind": "x"}`, `"machine": {}`),
			want: []string{
				`FATAL r.json:3: artifact.kind: unknown kind "x" (want commit, try, tag or local)`,
				`FATAL r.json:3: missing artifact.id`,
				`FATAL r.json:3: missing artifact.date`,
				`FATAL r.json:4: missing machine.name`,
			}},
		{name: "missing results", in: "{\n  \"schema\": \"perfpages.run.v1\",\n  " + art + ",\n  " + mach + "\n}\n",
			want: []string{`FATAL r.json: missing results`}},
		{name: "results an object", in: "{\n  \"schema\": \"perfpages.run.v1\",\n  " + art + ",\n  " + mach + ",\n  \"results\": {}\n}\n",
			want: []string{`FATAL r.json:5: results: want a list, got an object`}},
		{name: "duplicate key", in: jsonHead(`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z",`+"\n"+`"id": "a2"}`, mach),
			want: []string{`FATAL r.json:4: duplicate field "artifact.id" (first at line 3)`}},
		{name: "duplicate key in a result", in: jsonDoc(jsonOK, `{"benchmark": "b", "metric": "m", "samples": [1], "metric": "n"}`),
			want: []string{`FATAL r.json:7: duplicate field "results[1].metric" (first at line 7)`}},

		// Results that are dropped.
		{name: "missing benchmark", in: jsonDoc(`{"metric": "wall-time", "samples": [1]}`, jsonOK),
			want: []string{`r.json:6: results[0] (wall-time): missing benchmark; result dropped`}, results: 1},
		{name: "missing metric", in: jsonDoc(`{"benchmark": "b", "params": {"size": "large"}, "samples": [1]}`),
			want: []string{`r.json:6: results[0] (b size=large): missing metric; result dropped`}},
		{name: "benchmark and metric null", in: jsonDoc(`{"benchmark": null, "metric": "", "samples": [1]}`),
			want: []string{
				`r.json:6: results[0]: missing benchmark; result dropped`,
				`r.json:6: results[0]: missing metric; result dropped`,
			}},
		{name: "benchmark a list", in: jsonDoc(`{"benchmark": ["b"], "metric": "m", "samples": [1]}`),
			want: []string{`r.json:6: results[0] (m): benchmark: want a string, got a list; result dropped`}},
		{name: "sample a string", in: jsonDoc(`{"benchmark": "b", "metric": "wall-time", "samples": [1, "2"]}`),
			want: []string{`r.json:6: results[0] (b wall-time): samples[1]: want a number, got a string; result dropped`}},
		{name: "samples a number", in: jsonDoc(`{"benchmark": "b", "metric": "wall-time", "samples": 5}`),
			want: []string{`r.json:6: results[0] (b wall-time): samples: want a list of numbers, got an integer; result dropped`}},
		{name: "sample out of range is +Inf", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [1, 1e400]}`),
			want: []string{`r.json:6: results[0] (b m): samples[1] is +Inf; result dropped`}},
		{name: "sample out of range is -Inf", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [-1e400]}`),
			want: []string{`r.json:6: results[0] (b m): samples[0] is -Inf; result dropped`}},
		{name: "negative time", in: jsonDoc(`{"benchmark": "b", "metric": "wall-time", "unit": "ns", "samples": [1, -2, -3]}`),
			want: []string{`r.json:6: results[0] (b wall-time): samples[1] is negative (-2) for unit "ns"; result dropped`}},
		{name: "negative size", in: jsonDoc(`{"benchmark": "b", "metric": "max-rss", "unit": "KiB", "samples": [-2.5]}`),
			want: []string{`r.json:6: results[0] (b max-rss): samples[0] is negative (-2.5) for unit "KiB"; result dropped`}},
		{name: "negative change is fine", in: jsonDoc(`{"benchmark": "b", "metric": "delta", "unit": "%", "samples": [-2]}`), results: 1},
		{name: "bad sample on its own line", in: jsonDoc("{\"benchmark\": \"b\", \"metric\": \"m\", \"unit\": \"s\", \"samples\": [\n      1,\n      -2\n    ]}"),
			want: []string{`r.json:8: results[0] (b m): samples[1] is negative (-2) for unit "s"; result dropped`}},
		{name: "no samples and no error", in: jsonDoc(`{"benchmark": "b", "metric": "m"}`),
			want: []string{`r.json:6: results[0] (b m): no samples and no error; result dropped`}},
		{name: "empty samples and empty error", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [], "error": ""}`),
			want: []string{`r.json:6: results[0] (b m): no samples and no error; result dropped`}},
		{name: "error with samples kept", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [1], "error": "flaky"}`), results: 1},
		{name: "iters of another length", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [1, 2], "iters": [1]}`),
			want: []string{`r.json:6: results[0] (b m): 1 iters for 2 samples; result dropped`}},
		{name: "iters zero", in: jsonDoc(`{"benchmark": "b", "metric": "m", "samples": [1, 2], "iters": [1, 0]}`),
			want: []string{`r.json:6: results[0] (b m): iters[1] is not a positive number (0); result dropped`}},
		{name: "iters without samples", in: jsonDoc(`{"benchmark": "b", "metric": "m", "error": "x", "iters": [1]}`),
			want: []string{`r.json:6: results[0] (b m): 1 iters for 0 samples; result dropped`}},
		{name: "bad category", in: jsonDoc(`{"benchmark": "b", "category": "tertiary", "metric": "m", "samples": [1]}`),
			want: []string{`r.json:6: results[0] (b m): unknown category "tertiary" (want primary or secondary); result dropped`}},
		{name: "bad direction", in: jsonDoc(`{"benchmark": "b", "metric": "m", "direction": "up", "samples": [1]}`),
			want: []string{`r.json:6: results[0] (b m): unknown direction "up" (want lower or higher); result dropped`}},
		{name: "direction kept", in: jsonDoc(`{"benchmark": "b", "metric": "score", "direction": "higher", "samples": [1]}`), results: 1},
		{name: "result not an object", in: jsonDoc(`"b wall-time 1"`, jsonOK),
			want: []string{`r.json:6: results[0]: want an object, got a string; result dropped`}, results: 1},
		{name: "param a list", in: jsonDoc(`{"benchmark": "b", "params": {"n": 1, "size": [1]}, "metric": "m", "samples": [1]}`),
			want: []string{`r.json:6: results[0] (b m): params.size: want a string, number or boolean, got a list; result dropped`}},
		{name: "params a string", in: jsonDoc(`{"benchmark": "b", "params": "size=large", "metric": "m", "samples": [1]}`),
			want: []string{`r.json:6: results[0] (b m): params: want an object, got a string; result dropped`}},
		{name: "several reasons", in: jsonDoc(`{"benchmark": "b", "category": "x", "metric": "m", "samples": [1, "x"], "iters": [0]}`),
			want: []string{
				`r.json:6: results[0] (b m): unknown category "x" (want primary or secondary); result dropped`,
				`r.json:6: results[0] (b m): samples[1]: want a number, got a string; result dropped`,
				`r.json:6: results[0] (b m): iters[0] is not a positive number (0); result dropped`,
			}},

		// Problems that keep everything.
		{name: "unknown fields", in: "{\n  \"schema\": \"perfpages.run.v1\",\n  \"comment\": \"x\",\n  " +
			`"artifact": {"id": "a1", "date": "2026-11-20T03:00:00Z", "sha": "x"}` + ",\n  " +
			`"machine": {"name": "m1", "gpu": "none"}` + ",\n  \"results\": [\n    " +
			`{"benchmark": "b", "metric": "m", "sampels": [1], "samples": [2]}` + "\n  ]\n}\n",
			want: []string{
				`r.json:3: unknown field "comment"`,
				`r.json:4: unknown field "artifact.sha"`,
				`r.json:5: unknown field "machine.gpu"`,
				`r.json:7: unknown field "results[0].sampels"`,
			}, results: 1},
		{name: "duplicate results", in: jsonDoc(
			`{"benchmark": "b", "params": {"a": "1", "b": "2"}, "metric": "m", "samples": [1]}`,
			`{"benchmark": "b", "params": {"b": 2, "a": 1}, "metric": "m", "samples": [2]}`,
			`{"benchmark": "b", "params": {"a": "1", "b": "2"}, "metric": "n", "samples": [3]}`,
			`{"benchmark": "b", "category": "secondary", "params": {"a": "1", "b": "2"}, "metric": "m", "samples": [4]}`),
			want: []string{
				`r.json:7: results[1] (b a=1 b=2 m): duplicate of results[0]; result dropped`,
				`r.json:9: results[3] (b a=1 b=2 m): duplicate of results[0]; result dropped`,
			}, results: 2},
		{name: "no results", in: "{\n  \"schema\": \"perfpages.run.v1\",\n  " + art + ",\n  " + mach + ",\n  \"results\": []\n}\n",
			want: []string{`r.json:5: no results`}},
		{name: "every result dropped", in: jsonDoc(`{"benchmark": "b"}`),
			want: []string{`r.json:6: results[0] (b): missing metric; result dropped`, `r.json:6: results[0] (b): no samples and no error; result dropped`}},

		// Options.
		{name: "date optional", in: jsonHead(`"artifact": {"id": "a1"}`, mach), opts: Options{DateOptional: true}, results: 1},
		{name: "date optional but unparsable", in: jsonHead(`"artifact": {"id": "a1", "date": "soon"}`, mach), opts: Options{DateOptional: true},
			want: []string{`FATAL r.json:3: artifact.date: "soon" is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)`}},
		{name: "default artifact", in: jsonHead(`"context": {"a": 1}`, mach), opts: Options{DateOptional: true, DefaultArtifact: "abc"}, results: 1},
	})
}

// yamlDoc is a valid YAML archive around the given results (flow
// mappings), which start on line 5, one per line.
func yamlDoc(results ...string) string {
	return "schema: perfpages.run.v1\nartifact: {id: a1, date: 2026-11-20T03:00:00Z}\nmachine: {name: m1}\nresults:\n  - " +
		strings.Join(results, "\n  - ") + "\n"
}

const yamlOK = `{benchmark: b, metric: wall-time, unit: ns, samples: [1, 2]}`

func yamlHead(artifact, machine string) string {
	return "schema: perfpages.run.v1\n" + artifact + "\n" + machine + "\nresults:\n  - " + yamlOK + "\n"
}

func TestDecodeYAML(t *testing.T) {
	const art = `artifact: {id: a1, date: 2026-11-20T03:00:00Z}`
	const mach = `machine: {name: m1}`
	runDecodeCases(t, "r.yaml", []decodeCase{
		{name: "valid", in: yamlDoc(yamlOK), results: 1},
		{name: "valid block style", in: "schema: perfpages.run.v1\nartifact:\n  id: a1\n  date: 2026-11-20T03:00:00Z\nmachine:\n  name: m1\nresults:\n" +
			"  - benchmark: b\n    metric: m\n    samples:\n      - 1\n      - 2.5\n", results: 1},
		{name: "valid with document markers", in: "---\n" + yamlDoc(yamlOK) + "...\n", results: 1},
		{name: "valid with an empty document after it", in: yamlDoc(yamlOK) + "---\n# nothing\n", results: 1},

		// Fatal problems.
		{name: "syntax error: bad indentation", in: "schema: perfpages.run.v1\nartifact:\n  id: a1\n date: x\n",
			want: []string{`FATAL r.yaml:4: syntax error: did not find expected key`}},
		{name: "syntax error: unclosed flow", in: "schema: perfpages.run.v1\nresults: [1, 2\n",
			want: []string{`FATAL r.yaml:2: syntax error: did not find expected ',' or ']'`}},
		{name: "syntax error: tab", in: "schema: perfpages.run.v1\n\tartifact: {}\n",
			want: []string{`FATAL r.yaml:2: syntax error: found a tab character that violates indentation`}},
		{name: "two documents", in: yamlDoc(yamlOK) + "---\n" + yamlDoc(yamlOK),
			want: []string{`FATAL r.yaml:6: more than one YAML document (an archive holds one run)`}},
		{name: "empty file", in: "", want: []string{`FATAL r.yaml: empty document`}},
		{name: "only a comment", in: "# nothing yet\n", want: []string{`FATAL r.yaml: empty document`}},
		{name: "document is a list", in: "- a\n- b\n", want: []string{`FATAL r.yaml:1: document is not an object (got a list)`}},
		{name: "document is a string", in: "hello\n", want: []string{`FATAL r.yaml:1: document is not an object (got a string)`}},
		{name: "document is null", in: "~\n", want: []string{`FATAL r.yaml:1: document is not an object (got null)`}},
		{name: "missing schema", in: art + "\n", want: []string{`FATAL r.yaml: missing schema (want perfpages.run.v1)`}},
		{name: "other schema", in: strings.Replace(yamlDoc(yamlOK), "run.v1", "run.v2", 1),
			want: []string{`FATAL r.yaml:1: unsupported schema "perfpages.run.v2" (want perfpages.run.v1)`}},
		{name: "missing artifact id", in: yamlHead(`artifact: {date: 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.yaml:2: missing artifact.id`}},
		{name: "missing date", in: yamlHead(`artifact: {id: a1}`, mach), want: []string{`FATAL r.yaml:2: missing artifact.date`}},
		{name: "date with a space", in: yamlHead(`artifact: {id: a1, date: 2026-11-20 03:00:00.5+01:00}`, mach), results: 1},
		{name: "date out of range", in: yamlHead(`artifact: {id: a1, date: "0001-01-01T00:00:00+01:00"}`, mach),
			want: []string{`FATAL r.yaml:2: artifact.date: 0001-01-01T00:00:00+01:00 is out of range (years 0001 to 9999 in UTC)`}},
		{name: "date without time", in: yamlHead(`artifact: {id: a1, date: 2026-11-20}`, mach),
			want: []string{`FATAL r.yaml:2: artifact.date: "2026-11-20" is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)`}},
		{name: "bad kind", in: yamlHead(`artifact: {id: a1, kind: nightly, date: 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.yaml:2: artifact.kind: unknown kind "nightly" (want commit, try, tag or local)`}},
		{name: "negative pr", in: yamlHead(`artifact: {id: a1, pr: -3, date: 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.yaml:2: artifact.pr: must not be negative (-3)`}},
		{name: "pr a string", in: yamlHead(`artifact: {id: a1, pr: "#3", date: 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.yaml:2: artifact.pr: want an integer, got a string`}},
		{name: "missing machine name", in: yamlHead(art, "machine:\n  os: linux"), want: []string{`FATAL r.yaml:3: missing machine.name`}},
		{name: "empty machine", in: yamlHead(art, "machine:"), want: []string{`FATAL r.yaml:3: missing machine.name`}},
		{name: "missing results", in: "schema: perfpages.run.v1\n" + art + "\n" + mach + "\n", want: []string{`FATAL r.yaml: missing results`}},
		{name: "empty results key", in: "schema: perfpages.run.v1\n" + art + "\n" + mach + "\nresults:\n", want: []string{`FATAL r.yaml: missing results`}},
		{name: "results a string", in: "schema: perfpages.run.v1\n" + art + "\n" + mach + "\nresults: none\n",
			want: []string{`FATAL r.yaml:4: results: want a list, got a string`}},
		{name: "duplicate key", in: yamlHead("artifact:\n  id: a1\n  date: 2026-11-20T03:00:00Z\n  id: a2", mach),
			want: []string{`FATAL r.yaml:5: duplicate field "artifact.id" (first at line 3)`}},
		{name: "alias cycle", in: "schema: perfpages.run.v1\nx: &a [*a]\n",
			want: []string{`FATAL r.yaml:2: alias *a refers to itself`}},
		{name: "alias bomb", in: "schema: perfpages.run.v1\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
			"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n",
			want: []string{`FATAL r.yaml:5: too many values after expanding aliases`}},
		{name: "bad explicit tag", in: "schema: perfpages.run.v1\nartifact: {id: !!int a1}\n",
			want: []string{`FATAL r.yaml:2: artifact.id: cannot decode !!int "a1"`}},
		{name: "key a list", in: "schema: perfpages.run.v1\n[a]: 1\n",
			want: []string{`FATAL r.yaml:2: document: keys must be strings, not a list`}},

		// Results that are dropped.
		{name: "missing benchmark", in: yamlDoc(`{metric: wall-time, samples: [1]}`, yamlOK),
			want: []string{`r.yaml:5: results[0] (wall-time): missing benchmark; result dropped`}, results: 1},
		{name: "missing metric", in: yamlDoc(`{benchmark: b, params: {size: large}, samples: [1]}`),
			want: []string{`r.yaml:5: results[0] (b size=large): missing metric; result dropped`}},
		{name: "sample a string", in: yamlDoc(`{benchmark: b, metric: m, samples: [1, two]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[1]: want a number, got a string; result dropped`}},
		{name: "sample a boolean", in: yamlDoc(`{benchmark: b, metric: m, samples: [true]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[0]: want a number, got a boolean; result dropped`}},
		{name: "NaN sample", in: yamlDoc(`{benchmark: b, metric: m, unit: count, samples: [1, .nan]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[1] is NaN; result dropped`}},
		{name: "Inf sample", in: yamlDoc(`{benchmark: b, metric: m, unit: count, samples: [.inf]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[0] is +Inf; result dropped`}},
		{name: "-Inf sample", in: yamlDoc(`{benchmark: b, metric: m, unit: count, samples: [-.Inf]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[0] is -Inf; result dropped`}},
		{name: "negative time", in: yamlDoc(`{benchmark: b, metric: m, unit: ms, samples: [-1]}`),
			want: []string{`r.yaml:5: results[0] (b m): samples[0] is negative (-1) for unit "ms"; result dropped`}},
		{name: "bad sample in block style", in: "schema: perfpages.run.v1\n" + art + "\n" + mach + "\nresults:\n" +
			"  - benchmark: b\n    metric: m\n    unit: ns\n    samples:\n      - 1\n      - -2\n",
			want: []string{`r.yaml:10: results[0] (b m): samples[1] is negative (-2) for unit "ns"; result dropped`}},
		{name: "no samples and no error", in: yamlDoc(`{benchmark: b, metric: m, samples: []}`),
			want: []string{`r.yaml:5: results[0] (b m): no samples and no error; result dropped`}},
		{name: "null samples with error", in: yamlDoc(`{benchmark: b, metric: m, samples: ~, error: boom}`), results: 1},
		{name: "iters of another length", in: yamlDoc(`{benchmark: b, metric: m, samples: [1], iters: [1, 2]}`),
			want: []string{`r.yaml:5: results[0] (b m): 2 iters for 1 samples; result dropped`}},
		{name: "iters negative", in: yamlDoc(`{benchmark: b, metric: m, samples: [1], iters: [-1]}`),
			want: []string{`r.yaml:5: results[0] (b m): iters[0] is not a positive number (-1); result dropped`}},
		{name: "iters NaN", in: yamlDoc(`{benchmark: b, metric: m, samples: [1], iters: [.nan]}`),
			want: []string{`r.yaml:5: results[0] (b m): iters[0] is not a positive number (NaN); result dropped`}},
		{name: "bad category", in: yamlDoc(`{benchmark: b, category: Primary, metric: m, samples: [1]}`),
			want: []string{`r.yaml:5: results[0] (b m): unknown category "Primary" (want primary or secondary); result dropped`}},
		{name: "result a list", in: yamlDoc(`[b, m, 1]`),
			want: []string{`r.yaml:5: results[0]: want an object, got a list; result dropped`}},
		{name: "param null", in: yamlDoc(`{benchmark: b, params: {size: ~}, metric: m, samples: [1]}`),
			want: []string{`r.yaml:5: results[0] (b m): params.size: want a string, number or boolean, got null; result dropped`}},

		// Problems that keep everything.
		{name: "unknown fields", in: "schema: perfpages.run.v1\nartifact: {id: a1, date: 2026-11-20T03:00:00Z, sha: x}\n" + mach +
			"\nnotes: x\nresults:\n  - benchmark: b\n    metric: m\n    samples: [1]\n    sampels: [1]\n",
			want: []string{
				`r.yaml:4: unknown field "notes"`,
				`r.yaml:2: unknown field "artifact.sha"`,
				`r.yaml:9: unknown field "results[0].sampels"`,
			}, results: 1},
		{name: "duplicate results", in: yamlDoc(`{benchmark: b, params: {n: 1}, metric: m, samples: [1]}`, `{benchmark: b, params: {n: "1"}, metric: m, samples: [1]}`),
			want: []string{`r.yaml:6: results[1] (b n=1 m): duplicate of results[0]; result dropped`}, results: 1},
		{name: "no results", in: "schema: perfpages.run.v1\n" + art + "\n" + mach + "\nresults: []\n", want: []string{`r.yaml:4: no results`}},

		// Options.
		{name: "date optional", in: yamlHead(`artifact: {id: a1}`, mach), opts: Options{DateOptional: true}, results: 1},
		{name: "default artifact", in: yamlHead(`artifact: {date: 2026-11-20T03:00:00Z}`, mach), opts: Options{DefaultArtifact: "abc"}, results: 1},
	})
}

// tomlDoc is a valid TOML archive around the given results (inline
// tables), which start on line 5, one per line.
func tomlDoc(results ...string) string {
	return "schema = \"perfpages.run.v1\"\nartifact = {id = \"a1\", date = 2026-11-20T03:00:00Z}\nmachine = {name = \"m1\"}\nresults = [\n  " +
		strings.Join(results, ",\n  ") + ",\n]\n"
}

const tomlOK = `{benchmark = "b", metric = "wall-time", unit = "ns", samples = [1, 2]}`

func tomlHead(artifact, machine string) string {
	return "schema = \"perfpages.run.v1\"\n" + artifact + "\n" + machine + "\nresults = [" + tomlOK + "]\n"
}

func TestDecodeTOML(t *testing.T) {
	const art = `artifact = {id = "a1", date = 2026-11-20T03:00:00Z}`
	const mach = `machine = {name = "m1"}`
	runDecodeCases(t, "r.toml", []decodeCase{
		{name: "valid", in: tomlDoc(tomlOK), results: 1},

		// Fatal problems.
		{name: "syntax error: missing =", in: "schema = \"perfpages.run.v1\"\n\n[artifact]\nid \"a1\"\n",
			want: []string{`FATAL r.toml:4: syntax error: expected '.' or '=', but got '"' instead`}},
		{name: "syntax error: unterminated string", in: "schema = \"perfpages.run.v1\nx = 1\n",
			want: []string{`FATAL r.toml:1: syntax error: strings cannot contain newlines`}},
		{name: "syntax error: duplicate key", in: "schema = \"perfpages.run.v1\"\n[machine]\nname = \"m1\"\nname = \"m2\"\n",
			want: []string{`FATAL r.toml:4: syntax error: Key 'machine.name' has already been defined.`}},
		{name: "empty file", in: "\n", want: []string{`FATAL r.toml: empty document`}},
		{name: "missing schema", in: "# just a comment\n", want: []string{`FATAL r.toml: missing schema (want perfpages.run.v1)`}},
		{name: "other schema", in: strings.Replace(tomlDoc(tomlOK), "run.v1", "run.v2", 1),
			want: []string{`FATAL r.toml:1: unsupported schema "perfpages.run.v2" (want perfpages.run.v1)`}},
		{name: "missing artifact id", in: tomlHead(`artifact = {date = 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.toml:2: missing artifact.id`}},
		{name: "missing date", in: tomlHead(`artifact = {id = "a1"}`, mach), want: []string{`FATAL r.toml:2: missing artifact.date`}},
		{name: "local date-time", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20T03:00:00}`, mach),
			want: []string{`FATAL r.toml:2: artifact.date: 2026-11-20T03:00:00 has no time zone offset (want RFC 3339, e.g. 2026-11-20T03:00:00Z)`}},
		{name: "local date", in: tomlHead(`artifact = {id = "a1", date = 2026-11-20}`, mach),
			want: []string{`FATAL r.toml:2: artifact.date: 2026-11-20 has no time zone offset (want RFC 3339, e.g. 2026-11-20T03:00:00Z)`}},
		{name: "date a string", in: tomlHead(`artifact = {id = "a1", date = "2026-11-20T03:00:00Z"}`, mach), results: 1},
		{name: "bad date string", in: tomlHead(`artifact = {id = "a1", date = "2026-13-20T03:00:00Z"}`, mach),
			want: []string{`FATAL r.toml:2: artifact.date: "2026-13-20T03:00:00Z" is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)`}},
		{name: "bad kind", in: tomlHead(`artifact = {id = "a1", kind = "nightly", date = 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.toml:2: artifact.kind: unknown kind "nightly" (want commit, try, tag or local)`}},
		{name: "negative pr", in: tomlHead(`artifact = {id = "a1", pr = -3, date = 2026-11-20T03:00:00Z}`, mach),
			want: []string{`FATAL r.toml:2: artifact.pr: must not be negative (-3)`}},
		{name: "missing machine name", in: "schema = \"perfpages.run.v1\"\n" + art + "\nresults = [" + tomlOK + "]\n\n[machine]\nos = \"linux\"\n",
			want: []string{`FATAL r.toml:5: missing machine.name`}},
		{name: "missing machine", in: "schema = \"perfpages.run.v1\"\n" + art + "\nresults = [" + tomlOK + "]\n",
			want: []string{`FATAL r.toml: missing machine.name`}},
		{name: "missing results", in: "schema = \"perfpages.run.v1\"\n" + art + "\n" + mach + "\n", want: []string{`FATAL r.toml: missing results`}},
		{name: "results a table", in: "schema = \"perfpages.run.v1\"\n" + art + "\n" + mach + "\n[results]\nbenchmark = \"b\"\n",
			want: []string{`FATAL r.toml:4: results: want a list, got an object`}},

		// Results that are dropped.
		{name: "missing benchmark", in: tomlDoc(`{metric = "wall-time", samples = [1]}`, tomlOK),
			want: []string{`r.toml:5: results[0] (wall-time): missing benchmark; result dropped`}, results: 1},
		{name: "missing metric", in: tomlDoc(`{benchmark = "b", params = {size = "large"}, samples = [1]}`),
			want: []string{`r.toml:5: results[0] (b size=large): missing metric; result dropped`}},
		{name: "sample a string", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [1, "2"]}`),
			want: []string{`r.toml:5: results[0] (b m): samples[1]: want a number, got a string; result dropped`}},
		{name: "NaN sample", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [nan]}`),
			want: []string{`r.toml:5: results[0] (b m): samples[0] is NaN; result dropped`}},
		{name: "Inf sample", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [+inf]}`),
			want: []string{`r.toml:5: results[0] (b m): samples[0] is +Inf; result dropped`}},
		{name: "-Inf sample", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [-inf]}`),
			want: []string{`r.toml:5: results[0] (b m): samples[0] is -Inf; result dropped`}},
		{name: "negative size", in: tomlDoc(`{benchmark = "b", metric = "m", unit = "bytes", samples = [-1]}`),
			want: []string{`r.toml:5: results[0] (b m): samples[0] is negative (-1) for unit "bytes"; result dropped`}},
		{name: "bad sample in a multi-line array", in: tomlDoc("{benchmark = \"b\", metric = \"m\", unit = \"us\", samples = [\n    1,\n    -2.5,\n  ]}"),
			want: []string{`r.toml:7: results[0] (b m): samples[1] is negative (-2.5) for unit "us"; result dropped`}},
		{name: "no samples and no error", in: tomlDoc(`{benchmark = "b", metric = "m"}`),
			want: []string{`r.toml:5: results[0] (b m): no samples and no error; result dropped`}},
		{name: "iters of another length", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [1.5], iters = []}`),
			want: []string{`r.toml:5: results[0] (b m): 0 iters for 1 samples; result dropped`}},
		{name: "iters zero", in: tomlDoc(`{benchmark = "b", metric = "m", samples = [1.5], iters = [0.0]}`),
			want: []string{`r.toml:5: results[0] (b m): iters[0] is not a positive number (0); result dropped`}},
		{name: "bad category", in: tomlDoc(`{benchmark = "b", category = "other", metric = "m", samples = [1]}`),
			want: []string{`r.toml:5: results[0] (b m): unknown category "other" (want primary or secondary); result dropped`}},
		{name: "result not a table", in: tomlDoc(`"b"`, tomlOK),
			want: []string{`r.toml:5: results[0]: want an object, got a string; result dropped`}, results: 1},
		{name: "param an array", in: tomlDoc(`{benchmark = "b", params = {size = [1]}, metric = "m", samples = [1]}`),
			want: []string{`r.toml:5: results[0] (b m): params.size: want a string, number or boolean, got a list; result dropped`}},
		{name: "problems in an array of tables", in: "schema = \"perfpages.run.v1\"\n" + art + "\n" + mach + "\n\n" +
			"[[results]]\nbenchmark = \"a\"\nmetric = \"m\"\nsamples = [1]\n\n" +
			"[[results]]\nbenchmark = \"b\"\nmetric = \"m\"\nunit = \"ns\"\nsamples = [1, -1]\n\n" +
			"[[results]]\nbenchmark = \"c\"\nmetric = \"m\"\n\n" +
			"[[results]]\nbenchmark = \"a\"\nmetric = \"m\"\nsamples = [2]\n",
			want: []string{
				`r.toml:14: results[1] (b m): samples[1] is negative (-1) for unit "ns"; result dropped`,
				`r.toml:16: results[2] (c m): no samples and no error; result dropped`,
				`r.toml:20: results[3] (a m): duplicate of results[0]; result dropped`,
			}, results: 1},

		// Problems that keep everything.
		{name: "unknown fields", in: "schema = \"perfpages.run.v1\"\nnotes = \"x\"\n" + mach + "\n\n[artifact]\nid = \"a1\"\ndate = 2026-11-20T03:00:00Z\nsha = \"x\"\n\n" +
			"[[results]]\nbenchmark = \"b\"\nmetric = \"m\"\nsampels = [1]\nsamples = [1]\n",
			want: []string{
				`r.toml:2: unknown field "notes"`,
				`r.toml:8: unknown field "artifact.sha"`,
				`r.toml:13: unknown field "results[0].sampels"`,
			}, results: 1},
		{name: "duplicate results", in: tomlDoc(`{benchmark = "b", params = {n = 1}, metric = "m", samples = [1]}`, `{benchmark = "b", params = {n = "1"}, metric = "m", samples = [1]}`),
			want: []string{`r.toml:6: results[1] (b n=1 m): duplicate of results[0]; result dropped`}, results: 1},
		{name: "no results", in: "schema = \"perfpages.run.v1\"\nresults = []\n" + art + "\n" + mach + "\n", want: []string{`r.toml:2: no results`}},

		// Options.
		{name: "date optional", in: tomlHead(`artifact = {id = "a1"}`, mach), opts: Options{DateOptional: true}, results: 1},
		{name: "default artifact", in: "schema = \"perfpages.run.v1\"\n" + mach + "\nresults = [" + tomlOK + "]\n",
			opts: Options{DateOptional: true, DefaultArtifact: "abc"}, results: 1},
	})
}

// TestDecodeTestdata pins every problem of the example archives in
// testdata (the fuzzers' seeds) in testdata/golden/problems.txt.
func TestDecodeTestdata(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		run, problems := Decode(filepath.Base(file), data, Options{})
		fmt.Fprintf(&b, "== %s: %d results kept\n", filepath.Base(file), len(run.Results))
		for _, p := range problems {
			if p.Fatal {
				b.WriteString("FATAL ")
			}
			b.WriteString(p.Error() + "\n")
		}
	}
	path := filepath.Join("testdata", "golden", "problems.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("problems differ from %s (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// The native archive in every codec, gzipped or not, and a git note
// (no extension): a Git LFS pointer and a UTF-16 file are refused with
// what they are and the fix, not a syntax error.
func TestDecodeLFSPointerAndUTF16(t *testing.T) {
	lfs := "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
	utf16LE := func(s string, bom bool) []byte {
		var b []byte
		if bom {
			b = append(b, 0xFF, 0xFE)
		}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	utf16BE := func(s string) []byte {
		b := []byte{0xFE, 0xFF}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	for _, file := range []string{"valid.json", "valid.yaml", "valid.toml"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			name, as string
			data     []byte
			want     string
		}{
			{"LFS pointer", file, []byte(lfs), readkit.LFSPointerMsg},
			{"LFS pointer under a .gz name", file + ".gz", []byte(lfs), readkit.LFSPointerMsg},
			{"LFS pointer as a git note", "refs/notes/perf:abc", []byte(lfs), readkit.LFSPointerMsg},
			{"UTF-16LE with BOM", file, utf16LE(string(data), true), readkit.UTF16Msg},
			{"UTF-16LE without BOM", file, utf16LE(string(data), false), readkit.UTF16Msg},
			{"UTF-16BE", file, utf16BE(string(data)), readkit.UTF16Msg},
			{"UTF-16 gzipped", file + ".gz", []byte(gzipped(string(utf16LE(string(data), true)))), readkit.UTF16Msg},
		} {
			t.Run(file+" "+tt.name, func(t *testing.T) {
				if run, problems := Decode(file, data, Options{}); len(problems) > 0 || len(run.Results) == 0 {
					t.Fatalf("the archive itself does not decode: %v", problems)
				}
				run, problems := Decode(tt.as, tt.data, Options{})
				want := []string{tt.as + ": " + tt.want}
				var got []string
				for _, p := range problems {
					if !p.Fatal {
						t.Errorf("not fatal: %v", p)
					}
					got = append(got, p.Error())
				}
				if diff := cmp.Diff(want, got); diff != "" || len(run.Results) != 0 {
					t.Errorf("%d results; problems (-want +got):\n%s", len(run.Results), diff)
				}
			})
		}
	}
}
