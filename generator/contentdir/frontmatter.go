package contentdir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// FrontMatter is the YAML (---) or TOML (+++) header of a content page.
// Unknown keys are errors: a typo must not silently drop a setting.
type FrontMatter struct {
	Title       string `yaml:"title" toml:"title"`
	Description string `yaml:"description" toml:"description"`
	Weight      int    `yaml:"weight" toml:"weight"` // order in the navigation (ascending, then title)
	Menu        bool   `yaml:"menu" toml:"menu"`     // listed in the top navigation
	Draft       bool   `yaml:"draft" toml:"draft"`   // not built
}

// ParseFrontMatter splits a Markdown file into its front matter and body.
// YAML front matter sits between "---" lines, TOML between "+++" lines;
// a file without either has an empty front matter. Errors name the file
// and line.
func ParseFrontMatter(name string, data []byte) (FrontMatter, []byte, error) {
	var fm FrontMatter
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	norm := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	var delim string
	switch {
	case bytes.HasPrefix(norm, []byte("---\n")):
		delim = "---"
	case bytes.HasPrefix(norm, []byte("+++\n")):
		delim = "+++"
	default:
		return fm, data, nil
	}
	rest := norm[4:]
	var head, body []byte
	if bytes.HasPrefix(rest, []byte(delim+"\n")) || string(rest) == delim {
		head, body = nil, bytes.TrimPrefix(rest[len(delim):], []byte("\n"))
	} else {
		end := bytes.Index(rest, []byte("\n"+delim+"\n"))
		if end < 0 {
			if bytes.HasSuffix(rest, []byte("\n"+delim)) {
				end = len(rest) - len(delim) - 1
			} else {
				return fm, nil, fmt.Errorf("%s:1: front matter opened with %s is never closed", name, delim)
			}
		}
		head = rest[:end+1]
		body = rest[min(len(rest), end+len(delim)+2):]
	}
	if delim == "---" {
		dec := yaml.NewDecoder(bytes.NewReader(head))
		dec.KnownFields(true)
		if err := dec.Decode(&fm); err != nil && !errors.Is(err, io.EOF) {
			return fm, nil, yamlError(name, err, 1)
		}
	} else {
		md, err := toml.Decode(string(head), &fm)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return fm, nil, fmt.Errorf("%s:%d: front matter: %s", name, pe.Position.Line+1, pe.Message)
			}
			return fm, nil, fmt.Errorf("%s: front matter: %v", name, err)
		}
		if un := md.Undecoded(); len(un) > 0 {
			return fm, nil, fmt.Errorf("%s: front matter: unknown key %q", name, un[0].String())
		}
	}
	return fm, body, nil
}

var yamlLineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
var yamlFieldRe = regexp.MustCompile(`^field (.*) not found in type .*$`)

// yamlError turns a yaml.v3 error into one line "file:line: front
// matter: msg"; offset is the number of lines before the YAML.
func yamlError(name string, err error, offset int) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs = te.Errors
	}
	msg := strings.TrimPrefix(msgs[0], "yaml: ")
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		var n int
		fmt.Sscanf(m[1], "%d", &n)
		text := m[2]
		if f := yamlFieldRe.FindStringSubmatch(text); f != nil {
			text = fmt.Sprintf("unknown key %q", f[1])
		}
		return fmt.Errorf("%s:%d: front matter: %s", name, n+offset, text)
	}
	return fmt.Errorf("%s: front matter: %s", name, msg)
}
