package archive

import "github.com/perfpages/perfpages/generator/internal/readkit"

// parseJSON parses a JSON archive with readkit's line-tracking parser
// under the archive's caps: duplicate keys are fatal, as in YAML and TOML.
// The tree is built in d.arena when the decoder has one; it is valid
// until the decoder is done.
func (d *decoder) parseJSON(data []byte) *readkit.Node {
	root, _, p := readkit.ParseJSON(d.file, data, readkit.JSONOptions{
		Arena:     d.arena,
		MaxValues: d.limits.Values,
		MaxString: d.limits.String,
		MaxDepth:  d.limits.Depth,
		Allowed:   d.limits.Allowed(),
		Intern:    intern,
	})
	if p != nil {
		d.fail(p.Line, "%s", p.Msg)
		return nil
	}
	return root
}

// intern returns the schema's field names without allocating.
func intern(b []byte) (string, bool) {
	switch string(b) {
	case "benchmark":
		return "benchmark", true
	case "category":
		return "category", true
	case "params":
		return "params", true
	case "metric":
		return "metric", true
	case "unit":
		return "unit", true
	case "direction":
		return "direction", true
	case "samples":
		return "samples", true
	case "iters":
		return "iters", true
	case "error":
		return "error", true
	case "primary":
		return "primary", true
	case "secondary":
		return "secondary", true
	}
	return "", false
}
