package archive

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// yamlParser converts yaml.v3 nodes, which carry their lines, into a tree.
type yamlParser struct {
	d    *decoder
	path readkit.Path
	// budget bounds the nodes built, so that aliases cannot expand a small
	// file into billions of nodes ("billion laughs").
	budget    int
	visiting  map[*yaml.Node]bool // anchors being expanded: a cycle is an error
	aliasLine int                 // line of the outermost alias being expanded, or 0
	depth     int
}

// yamlTokens are the bytes that can start or separate YAML values: every
// node yaml.v3 builds needs one (a mapping's key and value share one), so
// counting them bounds its work without parsing. Bytes inside strings
// count too, which only makes the bound looser.
var yamlTokens = tokenSet(",[{:-?\n")

// tokenSet is a byte set for countTokens.
func tokenSet(bytes string) *[256]bool {
	var set [256]bool
	for i := 0; i < len(bytes); i++ {
		set[bytes[i]] = true
	}
	return &set
}

// jsonTokens are the separators of JSON and of line-based text: every
// value or line needs one.
var jsonTokens = tokenSet(",[{:\n")

// Separators counts the bytes of data that can start or separate JSON
// values or lines of text (`,[{:` and newlines): a bound on the values a
// JSON document holds, or the lines of a text file, found without
// parsing. The foreign readers and perfgate's receipts check it against
// [Limits].Tokens before they parse.
func Separators(data []byte) int { return countTokens(data, jsonTokens) }

// countTokens counts the bytes of data in set.
func countTokens(data []byte, set *[256]bool) int {
	n := 0
	for _, c := range data {
		if set[c] {
			n++
		}
	}
	return n
}

// errYAMLStop ends the conversion after a fatal problem has been reported.
var errYAMLStop = errors.New("stop")

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (?s:(.*))$`)

func (d *decoder) parseYAML(data []byte) (root *readkit.Node) {
	if n := countTokens(data, yamlTokens); n > d.limits.Tokens {
		// yaml.v3 would spend ~500 bytes on each before we see a node.
		d.fail(0, "%d separators (`,[{:-?` and newlines), more than the %d %s for a YAML archive", n, d.limits.Tokens, d.limits.Allowed())
		return nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := safely("yaml", func() error { return dec.Decode(&doc) })
	switch {
	case err == io.EOF:
		d.fail(0, "empty document")
		return nil
	case err != nil:
		d.yamlError(err)
		return nil
	}
	// Further documents are an error, except empty ones: a stray `---` at
	// the end of a file that someone concatenated is harmless.
	for {
		var extra yaml.Node
		err := safely("yaml", func() error { return dec.Decode(&extra) })
		if err == io.EOF {
			break
		}
		if err != nil {
			d.yamlError(err)
			return nil
		}
		if c := extra.Content; len(c) == 1 && c[0].Kind == yaml.ScalarNode && c[0].ShortTag() == "!!null" && c[0].Value == "" {
			continue
		}
		d.fail(extra.Line, "more than one YAML document (an archive holds one run)")
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		d.fail(0, "empty document")
		return nil
	}
	// Aliases may expand the document to one node per byte, plus a little
	// for small files, and never past the cap on values.
	p := &yamlParser{d: d, budget: min(len(data)+10_000, d.limits.Values), visiting: map[*yaml.Node]bool{}}
	root, err = p.value(doc.Content[0])
	if err != nil {
		return nil
	}
	return root
}

// yamlParserErrors are the messages of yaml.v3's parser (as opposed to its
// scanner). For these it reports the 0-based line of the mark (yaml.v3's
// decode.go, parser.fail), one less than the line a person counts.
var yamlParserErrors = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

func (d *decoder) yamlError(err error) {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if line, err := strconv.Atoi(m[1]); err == nil {
			if yamlParserErrors[m[2]] {
				line++
			}
			d.fail(line, "syntax error: %s", m[2])
			return
		}
	}
	d.fail(0, "syntax error: %s", strings.TrimPrefix(msg, "yaml: "))
}

func (p *yamlParser) value(y *yaml.Node) (*readkit.Node, error) {
	if p.budget--; p.budget < 0 {
		p.d.fail(cmp.Or(p.aliasLine, y.Line), "too many values after expanding aliases")
		return nil, errYAMLStop
	}
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil || p.visiting[y.Alias] {
			p.d.fail(y.Line, "alias *%s refers to itself", y.Value)
			return nil, errYAMLStop
		}
		p.visiting[y.Alias] = true
		outer := p.aliasLine == 0
		if outer {
			p.aliasLine = y.Line
		}
		n, err := p.value(y.Alias)
		delete(p.visiting, y.Alias)
		if outer {
			p.aliasLine = 0
		}
		if err != nil {
			return nil, err
		}
		c := *n // the alias's own line, not the anchor's
		c.Line = y.Line
		return &c, nil
	case yaml.MappingNode:
		if !p.deeper(y) {
			return nil, errYAMLStop
		}
		defer func() { p.depth-- }()
		return p.mapping(y)
	case yaml.SequenceNode:
		if !p.deeper(y) {
			return nil, errYAMLStop
		}
		defer func() { p.depth-- }()
		n := &readkit.Node{Kind: readkit.List, Line: y.Line, Items: make([]*readkit.Node, 0, len(y.Content))}
		parent := p.path
		defer func() { p.path = parent }()
		for i, c := range y.Content {
			p.path = parent.Index(i)
			v, err := p.value(c)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, v)
		}
		return n, nil
	case yaml.ScalarNode:
		return p.scalar(y)
	case yaml.DocumentNode:
		if len(y.Content) == 1 {
			return p.value(y.Content[0])
		}
	}
	p.d.fail(y.Line, "unexpected YAML node")
	return nil, errYAMLStop
}

// deeper enters a mapping or sequence, false (reported) past the depth
// cap.
func (p *yamlParser) deeper(y *yaml.Node) bool {
	if p.depth++; p.depth > p.d.limits.Depth {
		p.d.fail(cmp.Or(p.aliasLine, y.Line), "nested more than %d levels deep", p.d.limits.Depth)
		return false
	}
	return true
}

func (p *yamlParser) mapping(y *yaml.Node) (*readkit.Node, error) {
	n := &readkit.Node{Kind: readkit.Map, Line: y.Line, Fields: make([]readkit.Field, 0, len(y.Content)/2)}
	var seen map[string]int
	parent := p.path
	defer func() { p.path = parent }()
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.path = parent
			p.d.fail(k.Line, "%s: keys must be strings, not %s", p.where(), yamlKind(k))
			return nil, errYAMLStop
		}
		p.path = parent.Key(k.Value)
		if seen == nil && len(n.Fields) >= 8 {
			seen = make(map[string]int, 2*len(n.Fields))
			for _, f := range n.Fields {
				seen[f.Key] = f.Line
			}
		}
		first := 0
		if seen != nil {
			first = seen[k.Value]
			seen[k.Value] = k.Line
		} else if v, l := n.Lookup(k.Value); v != nil {
			first = l
		}
		if first > 0 {
			p.d.fail(k.Line, "duplicate field %q (first at line %d)", p.path.String(), first)
			return nil, errYAMLStop
		}
		val, err := p.value(v)
		if err != nil {
			return nil, err
		}
		n.Fields = append(n.Fields, readkit.Field{Key: k.Value, Line: k.Line, Val: val})
	}
	p.path = parent
	// Merge keys (`<<: *defaults`): keys given in the mapping win, then the
	// merged mappings in order.
	for _, m := range merges {
		v, err := p.value(m)
		if err != nil {
			return nil, err
		}
		var sources []*readkit.Node
		switch v.Kind {
		case readkit.Map:
			sources = []*readkit.Node{v}
		case readkit.List:
			sources = v.Elems()
		}
		for _, s := range sources {
			if s.Kind != readkit.Map {
				p.d.fail(m.Line, "%s: << must merge an object or a list of objects", p.where())
				return nil, errYAMLStop
			}
			for _, f := range s.Fields {
				if old, _ := n.Lookup(f.Key); old == nil {
					n.Fields = append(n.Fields, f)
				}
			}
		}
		if sources == nil {
			p.d.fail(m.Line, "%s: << must merge an object or a list of objects", p.where())
			return nil, errYAMLStop
		}
	}
	return n, nil
}

func (p *yamlParser) where() string {
	if len(p.path) == 0 {
		return "document"
	}
	return p.path.String()
}

func yamlKind(y *yaml.Node) string {
	switch y.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

// scalar resolves a scalar by its tag, quickly for the plain cases and
// through yaml.v3 itself for the rest (.inf, 0x1F, 1_000, explicit tags).
func (p *yamlParser) scalar(y *yaml.Node) (*readkit.Node, error) {
	if len(y.Value) > p.d.limits.String {
		p.d.fail(y.Line, "a string of %s, longer than the %s a value may be", capped.FormatBytes(int64(len(y.Value))), capped.FormatBytes(int64(p.d.limits.String)))
		return nil, errYAMLStop
	}
	n := &readkit.Node{Line: y.Line, Text: y.Value}
	switch y.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		// A timestamp keeps its text: the validator parses dates as RFC 3339.
		n.Kind = readkit.String
		return n, nil
	case "!!null":
		n.Kind = readkit.Null
		return n, nil
	case "!!bool":
		switch y.Value {
		case "true", "True", "TRUE":
			n.Kind, n.Bool = readkit.Bool, true
			return n, nil
		case "false", "False", "FALSE":
			n.Kind = readkit.Bool
			return n, nil
		}
	case "!!int":
		if i, err := strconv.ParseInt(y.Value, 10, 64); err == nil {
			n.Kind, n.Int, n.Float = readkit.Int, i, float64(i)
			return n, nil
		}
	case "!!float":
		if f, err := strconv.ParseFloat(y.Value, 64); err == nil && !strings.ContainsAny(y.Value, "nNiI") {
			n.Kind, n.Float = readkit.Float, f
			return n, nil
		}
	default:
		// A local tag (!foo) says nothing the schema understands: keep the text.
		if !strings.HasPrefix(y.ShortTag(), "!!") {
			n.Kind = readkit.String
			return n, nil
		}
	}
	var v any
	if err := safely("yaml", func() error { return y.Decode(&v) }); err != nil {
		p.d.fail(y.Line, "%s: cannot decode %s %q", p.where(), y.ShortTag(), y.Value)
		return nil, errYAMLStop
	}
	switch v := v.(type) {
	case nil:
		n.Kind = readkit.Null
	case bool:
		n.Kind, n.Bool = readkit.Bool, v
	case int:
		n.Kind, n.Int, n.Float = readkit.Int, int64(v), float64(v)
	case int64:
		n.Kind, n.Int, n.Float = readkit.Int, v, float64(v)
	case uint64:
		if v <= math.MaxInt64 {
			n.Kind, n.Int, n.Float = readkit.Int, int64(v), float64(v)
		} else {
			n.Kind, n.Float = readkit.Float, float64(v)
		}
	case float64:
		n.Kind, n.Float = readkit.Float, v
	case string:
		n.Kind = readkit.String
	case time.Time:
		n.Kind = readkit.String
	default:
		n.Kind = readkit.String
	}
	return n, nil
}
