package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/perfpages/perfpages/analysis/model"
)

// Encode writes run in format ("json", "yaml" or "toml"), gzip-compressed
// if gz. The output is deterministic: fixed field order, parameters sorted
// by key, empty fields left out, one line per result in JSON, and gzip
// without a name or time stamp. Decoding the output gives run back.
//
// Encode refuses a run that Decode would refuse or cut short (no artifact
// id, no machine name, an invalid or duplicate result, a NaN sample…), so
// an importer never writes an archive that loses data on the way back in.
// A zero date is left out, for readers with [Options.DateOptional]; an
// empty kind is written as commit and an empty category as primary, their
// defaults.
func Encode(w io.Writer, run model.Run, format string, gz bool) error {
	if err := check(run); err != nil {
		return fmt.Errorf("encoding archive: %w", err)
	}
	doc := layout(run)
	var buf bytes.Buffer
	switch format {
	case "json":
		writeJSON(&buf, doc)
	case "yaml":
		if err := writeYAML(&buf, doc); err != nil {
			return fmt.Errorf("encoding archive: %w", err)
		}
	case "toml":
		writeTOML(&buf, doc)
	default:
		return fmt.Errorf("encoding archive: unknown format %q (want json, yaml or toml)", format)
	}
	if !gz {
		_, err := w.Write(buf.Bytes())
		return err
	}
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return err
	}
	return zw.Close()
}

// check applies Decode's rules to a run about to be written.
func check(run model.Run) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	text := func(path, s string) {
		if !utf8.ValidString(s) {
			bad("%s: invalid UTF-8 %q", path, s)
		}
	}
	pairs := func(path string, ps model.Params) {
		for i, p := range ps {
			text(path+" key", p.Key)
			text(path+"."+p.Key, p.Value)
			if i > 0 && ps[i-1].Key >= p.Key {
				bad("%s: keys not sorted and unique at %q (build them with model.NewParams)", path, p.Key)
			}
		}
	}

	rule := func(msg string) {
		if msg != "" {
			bad("%s", msg)
		}
	}
	a := run.Artifact
	if a.ID == "" {
		bad(missingArtifactID)
	}
	rule(kindRule(a.Kind))
	if !a.Date.IsZero() { // a zero date is left out: no date
		rule(dateRule(a.Date, a.Date.UTC().Format(time.RFC3339Nano)))
	}
	rule(nonNegative("artifact.pr", int64(a.PR)))
	for i, p := range a.Parents {
		rule(parentRule(i, p))
		text(fmt.Sprintf("artifact.parents[%d]", i), p)
	}
	for _, f := range [...]struct{ path, s string }{{"artifact.id", a.ID}, {"artifact.branch", a.Branch},
		{"artifact.title", a.Title}, {"artifact.author", a.Author}, {"artifact.baseline", a.Baseline},
		{"machine.name", run.Machine.Name}, {"machine.os", run.Machine.OS}, {"machine.arch", run.Machine.Arch},
		{"machine.cpu", run.Machine.CPU}} {
		text(f.path, f.s)
	}
	m := run.Machine
	if m.Name == "" {
		bad(missingMachineName)
	}
	rule(nonNegative("machine.cores", int64(m.Cores)))
	rule(nonNegative("machine.memory_bytes", m.MemoryBytes))
	pairs("machine.labels", m.Labels)
	pairs("context", run.Context)

	seen := make(map[resultKey]int, len(run.Results))
	for i, r := range run.Results {
		label := resultLabel(i, r, true)
		in := func(msg string) {
			if msg != "" {
				bad("%s: %s", label, msg)
			}
		}
		if r.Case.Benchmark == "" {
			in(missingBenchmark)
		}
		if r.Metric == "" {
			in(missingMetric)
		}
		in(categoryRule(r.Case.Category))
		text(label+" benchmark", r.Case.Benchmark)
		text(label+" metric", r.Metric)
		text(label+" unit", r.Unit)
		text(label+" error", r.Error)
		text(label+" range", r.Range)
		if r.Summary != nil {
			in(summaryRule(*r.Summary))
		}
		pairs(label+" params", r.Case.Params)
		for j, x := range r.Samples {
			in(sampleRule(j, x, r.Unit))
		}
		if len(r.Samples) == 0 && r.Error == "" {
			in(noSamples)
		}
		in(directionRule(r.Direction))
		if len(r.Iters) > 0 {
			in(countRule(len(r.Iters), len(r.Samples)))
		}
		for j, x := range r.Iters {
			in(iterRule(j, x))
		}
		key := keyOf(r)
		if first, dup := seen[key]; dup {
			in(duplicateRule(first))
		}
		seen[key] = i
	}
	return errors.Join(errs...)
}

// The document to write, in field order, shared by the three writers.
type (
	kv struct {
		key string
		val any
	}
	object   []kv     // an object written on several lines
	dateText string   // an RFC 3339 date-time in UTC
	rows     []object // results: one object per line (JSON) or entry
	// summary is a result's summary: {mean, stddev, n} on one line.
	summary model.SampleSummary
)

func layout(run model.Run) object {
	a := run.Artifact
	kind := a.Kind
	if kind == "" {
		kind = model.KindCommit
	}
	art := object{{"id", a.ID}, {"kind", string(kind)}}
	if !a.Date.IsZero() {
		art = append(art, kv{"date", dateText(a.Date.UTC().Format(time.RFC3339Nano))})
	}
	if len(a.Parents) > 0 {
		art = append(art, kv{"parents", a.Parents})
	}
	art = appendText(art, "branch", a.Branch)
	if a.PR > 0 {
		art = append(art, kv{"pr", int64(a.PR)})
	}
	art = appendText(art, "title", a.Title)
	art = appendText(art, "author", a.Author)
	art = appendText(art, "baseline", a.Baseline)

	m := run.Machine
	mach := object{{"name", m.Name}}
	mach = appendText(mach, "os", m.OS)
	mach = appendText(mach, "arch", m.Arch)
	mach = appendText(mach, "cpu", m.CPU)
	if m.Cores > 0 {
		mach = append(mach, kv{"cores", int64(m.Cores)})
	}
	if m.MemoryBytes > 0 {
		mach = append(mach, kv{"memory_bytes", m.MemoryBytes})
	}
	if len(m.Labels) > 0 {
		mach = append(mach, kv{"labels", m.Labels})
	}

	doc := object{{"schema", Schema}, {"artifact", art}, {"machine", mach}}
	if len(run.Context) > 0 {
		ctx := make(object, len(run.Context))
		for i, p := range run.Context {
			ctx[i] = kv{p.Key, p.Value}
		}
		doc = append(doc, kv{"context", ctx})
	}
	res := make(rows, len(run.Results))
	for i, r := range run.Results {
		o := object{{"benchmark", r.Case.Benchmark}}
		if r.Case.Category == model.Secondary {
			o = append(o, kv{"category", string(r.Case.Category)})
		}
		if len(r.Case.Params) > 0 {
			o = append(o, kv{"params", r.Case.Params})
		}
		o = append(o, kv{"metric", r.Metric})
		o = appendText(o, "unit", r.Unit)
		o = appendText(o, "direction", string(r.Direction))
		if len(r.Samples) > 0 {
			o = append(o, kv{"samples", r.Samples})
		}
		if len(r.Iters) > 0 {
			o = append(o, kv{"iters", r.Iters})
		}
		if r.Summary != nil {
			o = append(o, kv{"summary", summary(*r.Summary)})
		}
		o = appendText(o, "range", r.Range)
		o = appendText(o, "error", r.Error)
		res[i] = o
	}
	return append(doc, kv{"results", res})
}

func appendText(o object, key, s string) object {
	if s == "" {
		return o
	}
	return append(o, kv{key, s})
}

// formatFloat writes a sample the way JavaScript prints numbers: plain
// digits from 1e-6 to 1e21 (51234567, not 5.1234567e+07), an exponent
// beyond. Both are the shortest text that reads back as the same float.
func formatFloat(x float64) string {
	if a := math.Abs(x); a == 0 || 1e-6 <= a && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// ---- JSON

func writeJSON(b *bytes.Buffer, doc object) {
	b.WriteString("{\n")
	for i, f := range doc {
		b.WriteString("  ")
		jsonString(b, f.key)
		b.WriteString(": ")
		switch v := f.val.(type) {
		case object:
			b.WriteString("{\n")
			for j, g := range v {
				b.WriteString("    ")
				jsonString(b, g.key)
				b.WriteString(": ")
				jsonValue(b, g.val)
				if j < len(v)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("  }")
		case rows:
			if len(v) == 0 {
				b.WriteString("[]")
				break
			}
			b.WriteString("[\n")
			for j, r := range v {
				b.WriteString("    ")
				jsonValue(b, r)
				if j < len(v)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("  ]")
		default:
			jsonValue(b, v)
		}
		if i < len(doc)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
}

// jsonValue writes a value on one line.
func jsonValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case string:
		jsonString(b, v)
	case dateText:
		jsonString(b, string(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case []string:
		inlineList(b, '[', ']', len(v), func(i int) { jsonString(b, v[i]) })
	case []float64:
		inlineList(b, '[', ']', len(v), func(i int) { b.WriteString(formatFloat(v[i])) })
	case model.Params:
		inlineList(b, '{', '}', len(v), func(i int) {
			jsonString(b, v[i].Key)
			b.WriteString(": ")
			jsonString(b, v[i].Value)
		})
	case object:
		inlineList(b, '{', '}', len(v), func(i int) {
			jsonString(b, v[i].key)
			b.WriteString(": ")
			jsonValue(b, v[i].val)
		})
	case summary:
		fmt.Fprintf(b, `{"mean": %s, "stddev": %s, "n": %d}`, formatFloat(v.Mean), formatFloat(v.StdDev), v.N)
	}
}

// inlineList writes n items between open and close, separated by ", ":
// the one-line lists and tables of the JSON and TOML encoders.
func inlineList(b *bytes.Buffer, open, close byte, n int, item func(i int)) {
	b.WriteByte(open)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		item(i)
	}
	b.WriteByte(close)
}

// jsonString quotes s, escaping only what JSON requires (no HTML escapes:
// archives are read by people and diff tools, not embedded in pages).
func jsonString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// ---- YAML

func writeYAML(b *bytes.Buffer, doc object) error {
	enc := yaml.NewEncoder(b)
	enc.SetIndent(2)
	if err := enc.Encode(yamlNode(doc, true)); err != nil {
		return err
	}
	return enc.Close()
}

func yamlStr(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if s == "<<" {
		// yaml.v3 writes a "<<" string plain, which reads back as a merge key.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yamlNumber tags a number by how its text reads, so that the encoder
// writes it plain: 1199 as an int, 1203.5 or 1e+20 as a float.
func yamlNumber(s string) *yaml.Node {
	tag := "!!float"
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		tag = "!!int"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
}

func yamlNode(v any, block bool) *yaml.Node {
	switch v := v.(type) {
	case string:
		return yamlStr(v)
	case dateText:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: string(v)}
	case int64:
		return yamlNumber(strconv.FormatInt(v, 10))
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, s := range v {
			n.Content = append(n.Content, yamlStr(s))
		}
		return n
	case []float64:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, x := range v {
			n.Content = append(n.Content, yamlNumber(formatFloat(x)))
		}
		return n
	case model.Params:
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, p := range v {
			n.Content = append(n.Content, yamlStr(p.Key), yamlStr(p.Value))
		}
		return n
	case object:
		n := &yaml.Node{Kind: yaml.MappingNode}
		if !block {
			n.Style = yaml.FlowStyle
		}
		for _, f := range v {
			n.Content = append(n.Content, yamlStr(f.key), yamlNode(f.val, block))
		}
		return n
	case summary:
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
			yamlStr("mean"), yamlNumber(formatFloat(v.Mean)), yamlStr("stddev"), yamlNumber(formatFloat(v.StdDev)),
			yamlStr("n"), yamlNumber(strconv.Itoa(v.N))}}
	case rows:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if len(v) == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, r := range v {
			n.Content = append(n.Content, yamlNode(r, true))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// ---- TOML

func writeTOML(b *bytes.Buffer, doc object) {
	// Plain keys first: TOML puts everything after a [table] header into
	// that table.
	var tables []kv
	for _, f := range doc {
		switch v := f.val.(type) {
		case object:
			tables = append(tables, f)
		case rows:
			if len(v) == 0 {
				tomlKeyValue(b, f.key, v)
			} else {
				tables = append(tables, f)
			}
		default:
			tomlKeyValue(b, f.key, v)
		}
	}
	for _, t := range tables {
		switch v := t.val.(type) {
		case object:
			b.WriteString("\n[")
			b.WriteString(tomlKeyText(t.key))
			b.WriteString("]\n")
			for _, f := range v {
				tomlKeyValue(b, f.key, f.val)
			}
		case rows:
			for _, r := range v {
				b.WriteString("\n[[")
				b.WriteString(tomlKeyText(t.key))
				b.WriteString("]]\n")
				for _, f := range r {
					tomlKeyValue(b, f.key, f.val)
				}
			}
		}
	}
}

func tomlKeyValue(b *bytes.Buffer, key string, v any) {
	b.WriteString(tomlKeyText(key))
	b.WriteString(" = ")
	tomlValue(b, v)
	b.WriteByte('\n')
}

func tomlValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case string:
		tomlString(b, v)
	case dateText:
		b.WriteString(string(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case []string:
		inlineList(b, '[', ']', len(v), func(i int) { tomlString(b, v[i]) })
	case []float64:
		inlineList(b, '[', ']', len(v), func(i int) { b.WriteString(tomlFloat(v[i])) })
	case summary:
		fmt.Fprintf(b, "{mean = %s, stddev = %s, n = %d}", tomlFloat(v.Mean), tomlFloat(v.StdDev), v.N)
	case model.Params:
		inlineList(b, '{', '}', len(v), func(i int) {
			b.WriteString(tomlKeyText(v[i].Key))
			b.WriteString(" = ")
			tomlString(b, v[i].Value)
		})
	case rows:
		b.WriteString("[]")
	}
}

// tomlFloat writes a number as TOML reads it back: digits too many for a
// TOML integer (1e20 prints as digits) get ".0".
func tomlFloat(x float64) string {
	s := formatFloat(x)
	if _, err := strconv.ParseInt(s, 10, 64); err != nil && !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// tomlKeyText writes a key bare when TOML allows it, quoted otherwise.
func tomlKeyText(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool { return r >= utf8.RuneSelf || !isBareKeyChar(byte(r)) }) < 0 {
		return k
	}
	var b bytes.Buffer
	tomlString(&b, k)
	return b.String()
}

func tomlString(b *bytes.Buffer, s string) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
