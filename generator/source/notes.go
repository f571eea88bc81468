package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// DefaultNotesRef is where perfpages looks for archives attached to commits.
const DefaultNotesRef = "refs/notes/perf"

// NoteList lists every note on notesRef ("" for [DefaultNotesRef]), one
// File per annotated object, sorted by its id, none of them read: Blob is
// the note's blob id and Size its size, Load reads it, Artifact is the
// annotated commit's full sha, Name is that sha (a note has no file name:
// an archive's format is told from its content when it is decoded) and
// Origin is "<notes ref>:<sha>". A note over g.MaxFileBytes has Err set
// and no Load. A blob id names its content, so a caller that has decoded
// a note before knows it by Blob and need not read it again: a nightly
// build reads the new notes only.
//
// notesRef is expanded as git notes --ref does: "perf" and "notes/perf"
// both mean "refs/notes/perf". Notes are read from the tip of the notes
// ref, so a shallow clone is fine as long as the notes ref was fetched.
func (g *Git) NoteList(ctx context.Context, notesRef string) ([]File, error) {
	ref := expandNotesRef(notesRef)
	if strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n") {
		return nil, fmt.Errorf("git repository %s: invalid notes ref %q", g.dir, notesRef)
	}
	if _, err := g.resolve(ctx, ref); err != nil {
		return nil, err
	}
	out, err := g.output(ctx, "notes", "--ref="+ref, "list")
	if err != nil {
		return nil, err
	}
	type note struct{ blob, object string }
	var notes []note
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 || !isObjectID(f[0]) || !isObjectID(f[1]) {
			return nil, fmt.Errorf("git notes list in %s: unexpected line %q", g.dir, truncate(sc.Text()))
		}
		notes = append(notes, note{blob: f[0], object: f[1]})
	}
	if len(notes) == 0 {
		return nil, nil
	}
	slices.SortFunc(notes, func(a, b note) int { return strings.Compare(a.object, b.object) })
	ids := make([]string, len(notes))
	for i, n := range notes {
		ids[i] = n.blob
	}
	sizes, err := g.sizes(ctx, ids)
	if err != nil {
		return nil, err
	}
	limit := capped.Or(g.MaxFileBytes)
	files := make([]File, len(notes))
	for i, n := range notes {
		f := File{Name: n.object, Origin: ref + ":" + n.object, Artifact: n.object, Blob: n.blob}
		if f.Size, f.Err = fileSize(n.blob, sizes[i], limit); f.Err == nil {
			f.Load = func() ([]byte, error) { return g.ReadBlob(ctx, n.blob) }
		}
		files[i] = f
	}
	return files, nil
}

// Notes is [Git.NoteList] with every note read: Data is its content and
// Name is "<sha>.<ext>", the extension told from the content (see
// [NoteExt]), for readers of other tools' formats, which pick files by
// name. A note over g.MaxFileBytes comes back unread, with Err set (and
// the name of a ".yaml" note).
func (g *Git) Notes(ctx context.Context, notesRef string) ([]File, error) {
	files, err := g.NoteList(ctx, notesRef)
	if err != nil || len(files) == 0 {
		return files, err
	}
	var ids []string
	var at []int
	for i := range files {
		if files[i].Err == nil {
			ids, at = append(ids, files[i].Blob), append(at, i)
		}
	}
	blobs, tooLarge, err := g.readBlobs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		files[i].Data = blobs[j]
		if tooLarge != nil && tooLarge[j] != nil {
			files[i].Err = tooLarge[j]
		}
	}
	for i := range files {
		f := &files[i]
		f.Name += NoteExt(f.Data)
		f.Blob, f.Size, f.Load = "", 0, nil
	}
	return files, nil
}

// expandNotesRef names a notes ref in full, as git notes --ref does.
func expandNotesRef(ref string) string {
	switch {
	case ref == "":
		return DefaultNotesRef
	case strings.HasPrefix(ref, "refs/notes/"):
		return ref
	case strings.HasPrefix(ref, "notes/"):
		return "refs/" + ref
	}
	return "refs/notes/" + ref
}

// A TOML table header ("[machine]", "[[results]]", `["a b".c]`) or
// key/value line ("schema = …", `"a b" = …`, "a.b = …").
var (
	tomlTable = regexp.MustCompile(`^\[\[?\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*\s*\]\]?\s*(?:#.*)?$`)
	tomlKey   = regexp.MustCompile(`^(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*\s*=`)
)

// NoteExt is the file extension for a note's content, which carries no
// name: gzip data gets the extension of what it holds plus ".gz" (".json.gz"
// when that cannot be told); a document starting with '{', or a valid JSON
// array, is ".json"; one whose first line is a TOML table header or
// `key = value` is ".toml"; anything else is ".yaml", the most forgiving
// reader, whose errors then point at the right line.
func NoteExt(data []byte) string {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return ".json.gz"
		}
		head, _ := io.ReadAll(io.LimitReader(zr, 64<<10))
		if len(head) == 0 || head[0] == 0x1f {
			return ".json.gz"
		}
		return textExt(head, true) + ".gz"
	}
	return textExt(data, false)
}

// textExt tells JSON, TOML and YAML apart. partial says data may be cut
// short, so that JSON validity cannot be checked.
func textExt(data []byte, partial bool) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return ".json"
	}
	first := firstLine(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// "[machine]" opens a TOML table; "[{…" or a valid array is JSON.
		if (partial || !json.Valid(data)) && tomlTable.MatchString(first) {
			return ".toml"
		}
		return ".json"
	}
	if tomlKey.MatchString(first) {
		return ".toml"
	}
	return ".yaml"
}

// firstLine is the first line that is neither blank nor a comment, with
// surrounding space removed.
func firstLine(data []byte) string {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		s := strings.TrimSpace(string(line))
		if s != "" && !strings.HasPrefix(s, "#") {
			return s
		}
	}
	return ""
}
