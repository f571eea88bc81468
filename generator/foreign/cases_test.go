package foreign

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

var update = flag.Bool("update", false, "rewrite the expected results in testdata/cases/*.txt with what the readers give")

// TestCases runs the reader cases of testdata/cases: one file per format,
// named after it (asv.txt, googlebench.txt, …), each a list of cases, as
// goldmark's _test/*.txt lists Markdown and the HTML it gives. A case is an
// input and what the format's reader (Format.Read, without the caps of
// [Read]) gives for it:
//
//	=== the case's name
//	--- defaults          what the caller knows (optional): one path: value a line
//	artifact.id: 0123…
//	context.shell: sh
//	--- file bad.json     the input file and its content (a folder format: one
//	{"results": [         --- file section per file, after --- folder NAME)
//	--- runs              the runs the format's reader gives, one line per
//	run machine={name=m}  run and one per result (none: an empty section)
//	  case={benchmark=a} metric=wall-time unit=s samples=[1 2]
//	--- problems          its problems, file:line: message, "fatal: " first
//	bad.json:3: invalid JSON: …    when fatal
//	--- sniff             what the format's Sniff says of the input (true or
//	true                  false)
//	--- detect            the format Detect picks for it ("auto")
//	googlebench
//
// A case with a sniff or detect section and no runs or problems is not
// read.
//
// An input section holds its lines, each ending in a newline; "noeol" after
// the name leaves out the last one, and "quoted" reads each line as a Go
// string literal (for bytes a text file does not show). --- fixture PATH
// reads a file or folder of testdata instead. Lines before the first case
// are comments. go test -update rewrites the runs, problems, sniff and
// detect sections with what the readers give.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range files {
		format := strings.TrimSuffix(filepath.Base(file), ".txt")
		f, ok := Lookup(format)
		if !ok {
			t.Fatalf("%s: no format %q", file, format)
		}
		t.Run(format, func(t *testing.T) {
			cf, err := parseCaseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cf.cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, f) })
			}
			if *update {
				if err := os.WriteFile(file, []byte(cf.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// caseFile is a file of cases: the comment before them and the cases.
type caseFile struct {
	head  string
	cases []*readerCase
}

// readerCase is one case of a case file.
type readerCase struct {
	name     string
	line     int        // of its === line
	sections []*section // in file order
}

// section is one --- section of a case: its kind (file, folder, fixture,
// defaults, runs, problems, sniff), its argument and flags, and its text.
type section struct {
	kind, arg string
	flags     []string
	lines     []string
}

func (s *section) has(flag string) bool { return slices.Contains(s.flags, flag) }

// content is the section's text as an input: its lines, each ending in a
// newline (not the last one with noeol), or their Go string literals'
// values with quoted.
func (s *section) content() ([]byte, error) {
	if s.has("quoted") {
		var b strings.Builder
		for _, l := range s.lines {
			v, err := strconv.Unquote(l)
			if err != nil {
				return nil, fmt.Errorf("quoted line %s: %v", l, err)
			}
			b.WriteString(v)
		}
		return []byte(b.String()), nil
	}
	text := ""
	if len(s.lines) > 0 {
		text = strings.Join(s.lines, "\n") + "\n"
	}
	if s.has("noeol") {
		text = strings.TrimSuffix(text, "\n")
	}
	return []byte(text), nil
}

func parseCaseFile(file string) (*caseFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cf := &caseFile{}
	var c *readerCase
	var sec *section
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "=== "):
			c = &readerCase{name: strings.TrimPrefix(l, "=== "), line: i + 1}
			cf.cases = append(cf.cases, c)
			sec = nil
		case c == nil:
			cf.head += l + "\n"
		case strings.HasPrefix(l, "--- "):
			kind, arg, _ := strings.Cut(strings.TrimPrefix(l, "--- "), " ")
			sec = &section{kind: kind}
			for _, flag := range []string{"noeol", "quoted"} {
				if a, ok := strings.CutSuffix(arg, " "+flag); ok {
					arg, sec.flags = a, append(sec.flags, flag)
				}
			}
			sec.arg = arg
			c.sections = append(c.sections, sec)
		case sec == nil:
			if strings.TrimSpace(l) != "" {
				return nil, fmt.Errorf("%s:%d: text outside a section", file, i+1)
			}
		default:
			sec.lines = append(sec.lines, l)
		}
	}
	// A blank line between cases is not part of the last section.
	for _, c := range cf.cases {
		if n := len(c.sections); n > 0 {
			s := c.sections[n-1]
			for len(s.lines) > 0 && s.lines[len(s.lines)-1] == "" && s.kind != "file" {
				s.lines = s.lines[:len(s.lines)-1]
			}
		}
	}
	return cf, nil
}

func (cf *caseFile) String() string {
	var b strings.Builder
	b.WriteString(cf.head)
	for i, c := range cf.cases {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("=== " + c.name + "\n")
		for _, s := range c.sections {
			b.WriteString(strings.Join(slices.DeleteFunc(append([]string{"---", s.kind, s.arg}, s.flags...), func(w string) bool { return w == "" }), " "))
			b.WriteString("\n")
			for _, l := range s.lines {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String()
}

func (c *readerCase) section(kind string) *section {
	for _, s := range c.sections {
		if s.kind == kind {
			return s
		}
	}
	return nil
}

// input builds the case's input and defaults.
func (c *readerCase) input() (Input, Defaults, error) {
	var in Input
	var def Defaults
	for _, s := range c.sections {
		switch s.kind {
		case "folder":
			in.Name, in.Files = s.arg, map[string][]byte{}
		case "file":
			data, err := s.content()
			if err != nil {
				return in, def, err
			}
			if in.Files != nil {
				in.Files[s.arg] = data
			} else {
				in.Name, in.Data = s.arg, data
			}
		case "fixture":
			fx, err := loadFixture(s.arg)
			if err != nil {
				return in, def, err
			}
			in = fx
		case "defaults":
			for _, l := range s.lines {
				path, value, ok := strings.Cut(l, ": ")
				if !ok {
					return in, def, fmt.Errorf("defaults: %q is not path: value", l)
				}
				if err := setPath(reflect.ValueOf(&def).Elem(), strings.Split(path, "."), value); err != nil {
					return in, def, fmt.Errorf("defaults: %s: %v", path, err)
				}
			}
		}
	}
	return in, def, nil
}

// loadFixture reads a file of testdata, or every file of a folder.
func loadFixture(path string) (Input, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Input{}, err
	}
	if !st.IsDir() {
		data, err := os.ReadFile(path)
		return Input{Name: path, Data: data}, err
	}
	in := Input{Name: path, Files: map[string][]byte{}}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(path, p)
		in.Files[filepath.ToSlash(rel)] = data
		return err
	})
	return in, err
}

// run reads the case's input and compares what the reader gives with the
// case's expectations (or, with -update, rewrites them).
func (c *readerCase) run(t *testing.T, f Format) {
	in, def, err := c.input()
	if err != nil {
		t.Fatalf("case at line %d: %v", c.line, err)
	}
	check := func(kind string, got []string) {
		s := c.section(kind)
		if *update {
			if s == nil {
				s = &section{kind: kind}
				c.sections = append(c.sections, s)
			}
			s.lines = got
			return
		}
		var want []string
		if s != nil {
			want = s.lines
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })); diff != "" {
			t.Errorf("case at line %d: %s (-want +got):\n%s", c.line, kind, diff)
		}
	}
	if s := c.section("sniff"); s != nil {
		check("sniff", []string{strconv.FormatBool(f.Sniff(in))})
	}
	if s := c.section("detect"); s != nil {
		got, err := Detect(in)
		if err != nil {
			check("detect", []string{"error: " + err.Error()})
		} else {
			check("detect", []string{got.Name})
		}
	}
	if c.section("runs") == nil && c.section("problems") == nil && (c.section("sniff") != nil || c.section("detect") != nil) {
		return
	}
	runs, problems := f.Read(in, def)
	check("runs", renderRuns(runs))
	check("problems", renderProblems(problems))
}

// renderProblems writes one problem a line: file:line: message, "fatal: "
// first when it is fatal.
func renderProblems(ps []archive.Problem) []string {
	var out []string
	for _, p := range ps {
		s := p.Error()
		if p.Fatal {
			s = "fatal: " + s
		}
		out = append(out, oneLine(s))
	}
	return out
}

// renderRuns writes a run as a line of its artifact, machine and context,
// then a line for each result: every field that is not zero, as
// name=value.
func renderRuns(runs any) []string {
	var out []string
	v := reflect.ValueOf(runs)
	for i := range v.Len() {
		run := v.Index(i)
		head := "run"
		var results reflect.Value
		for j := range run.NumField() {
			name, fv := run.Type().Field(j).Name, run.Field(j)
			if name == "Results" {
				results = fv
				continue
			}
			if !fv.IsZero() {
				head += " " + fieldName(name) + "=" + renderValue(fv)
			}
		}
		out = append(out, head)
		for k := range results.Len() {
			out = append(out, "  "+renderFields(results.Index(k)))
		}
	}
	return out
}

func fieldName(s string) string { return strings.ToLower(s) }

// renderFields writes a struct's fields that are not zero.
func renderFields(v reflect.Value) string {
	var parts []string
	for j := range v.NumField() {
		if fv := v.Field(j); !fv.IsZero() {
			parts = append(parts, fieldName(v.Type().Field(j).Name)+"="+renderValue(fv))
		}
	}
	return strings.Join(parts, " ")
}

func renderValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		return renderValue(v.Elem())
	case reflect.Struct:
		if t, ok := v.Interface().(time.Time); ok {
			return t.Format(time.RFC3339Nano)
		}
		return "{" + renderFields(v) + "}"
	case reflect.Slice:
		if isParams(v.Type()) {
			// Key, value pairs (params, context, labels): {k=v …}.
			var parts []string
			for i := range v.Len() {
				parts = append(parts, renderString(v.Index(i).Field(0).String())+"="+renderString(v.Index(i).Field(1).String()))
			}
			return "{" + strings.Join(parts, " ") + "}"
		}
		var parts []string
		for i := range v.Len() {
			parts = append(parts, renderValue(v.Index(i)))
		}
		return "[" + strings.Join(parts, " ") + "]"
	case reflect.String:
		return renderString(v.String())
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// isParams reports whether t is a list of key, value pairs.
func isParams(t reflect.Type) bool {
	if t.Kind() != reflect.Slice {
		return false
	}
	e := t.Elem()
	return e.Kind() == reflect.Struct && e.NumField() == 2 && e.Field(0).Name == "Key" && e.Field(1).Name == "Value"
}

// renderString writes s bare when that cannot be misread, else quoted.
func renderString(s string) string {
	if s == "" || strings.ContainsAny(s, " \"'=[]{}\\") || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// oneLine quotes a text that spans lines.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\r") {
		return strconv.Quote(s)
	}
	return s
}

// setPath sets the field at path (field names, any case; Params take the
// key as the last step) below v to value.
func setPath(v reflect.Value, path []string, value string) error {
	if isParams(v.Type()) {
		if len(path) != 1 {
			return fmt.Errorf("want one key after a list of params")
		}
		pair := reflect.New(v.Type().Elem()).Elem()
		pair.Field(0).SetString(path[0])
		pair.Field(1).SetString(value)
		v.Set(reflect.Append(v, pair))
		// Sorted by key, as model.NewParams makes them.
		slices.SortStableFunc(v.Interface().(model.Params), func(a, b model.Param) int { return strings.Compare(a.Key, b.Key) })
		return nil
	}
	if len(path) == 0 {
		switch v.Kind() {
		case reflect.String:
			v.SetString(value)
		case reflect.Int, reflect.Int64:
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return err
			}
			v.SetInt(n)
		case reflect.Slice:
			v.Set(reflect.ValueOf(strings.Fields(value)).Convert(v.Type()))
		case reflect.Struct:
			d, err := time.Parse(time.RFC3339Nano, value)
			if err != nil {
				return err
			}
			v.Set(reflect.ValueOf(d))
		default:
			return fmt.Errorf("cannot set a %s", v.Type())
		}
		return nil
	}
	if v.Kind() != reflect.Struct {
		return fmt.Errorf("%s has no field %s", v.Type(), path[0])
	}
	f := v.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, path[0]) })
	if !f.IsValid() {
		return fmt.Errorf("%s has no field %s", v.Type(), path[0])
	}
	return setPath(f, path[1:], value)
}
