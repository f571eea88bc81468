package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perfpages/perfpages/analysis/model"
)

// annotationsFile is the shape of annotations.yaml:
//
//	# the lookback z-score's rolling mean restarts at these artifacts
//	distribution_changes:
//	  - artifact: 4bd1b1ef          # full sha, unique prefix, tag or pr/<n>
//	    benchmark: http-router      # optional selectors: every series when left out
//	    params: {routes: "1000"}
//	    metric: wall-time
//	    machine: linux-arm64-graviton
//	    note: "new router: the ARM slowdown is accepted"
//	# changes a maintainer has looked at; pages show the note beside them
//	acknowledged:
//	  - artifact: pr/1318
//	    benchmark: json-decode
//	    note: "validation is worth 1.5 %"
type annotationsFile struct {
	DistributionChanges []annotationEntry `yaml:"distribution_changes"`
	Acknowledged        []annotationEntry `yaml:"acknowledged"`
}

type annotationEntry struct {
	Artifact  string            `yaml:"artifact"`
	Benchmark string            `yaml:"benchmark"`
	Params    map[string]string `yaml:"params"`
	Metric    string            `yaml:"metric"`
	Machine   string            `yaml:"machine"`
	Note      string            `yaml:"note"`
	line      int
}

// UnmarshalYAML records the entry's line for messages and rejects unknown
// keys (the decoder's KnownFields does not reach into custom unmarshalers).
func (e *annotationEntry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i]; k.Value {
			case "artifact", "benchmark", "params", "metric", "machine", "note":
			default:
				return fmt.Errorf("line %d: field %s not found (want artifact, benchmark, params, metric, machine or note)", k.Line, k.Value)
			}
		}
	}
	type plain annotationEntry
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*e = annotationEntry(p)
	e.line = n.Line
	return nil
}

// ParseAnnotations decodes an annotations.yaml. Unknown keys and entries
// without an artifact are errors naming file and line; an empty file has
// no annotations.
func ParseAnnotations(name string, data []byte) ([]model.Annotation, error) {
	var f annotationsFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(msg, "unmarshal errors:\n"); ok {
			msg = strings.TrimSpace(rest)
		}
		if line, text, ok := yamlLine(msg); ok {
			return nil, fmt.Errorf("%s:%s", name, line+": "+text)
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	var out []model.Annotation
	var errs []error
	add := func(kind model.AnnotationKind, list []annotationEntry) {
		for _, e := range list {
			origin := fmt.Sprintf("%s:%d", name, e.line)
			if strings.TrimSpace(e.Artifact) == "" {
				errs = append(errs, fmt.Errorf("%s: %s entry without an artifact", origin, kind))
				continue
			}
			out = append(out, model.Annotation{
				Kind: kind, Artifact: strings.TrimSpace(e.Artifact),
				Benchmark: e.Benchmark, Params: model.NewParams(e.Params), HasParams: e.Params != nil,
				Metric: e.Metric, Machine: e.Machine, Note: e.Note, Origin: origin,
			})
		}
	}
	add(model.DistributionChange, f.DistributionChanges)
	add(model.Acknowledged, f.Acknowledged)
	return out, errors.Join(errs...)
}

// yamlLine splits yaml.v3's "line N: message" (the first of several).
func yamlLine(msg string) (line, text string, ok bool) {
	msg, _, _ = strings.Cut(msg, "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(msg), "line ")
	if !ok {
		return "", "", false
	}
	line, text, ok = strings.Cut(rest, ": ")
	return line, text, ok
}
