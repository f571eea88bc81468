package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/foreign"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/source"
	"github.com/perfpages/perfpages/generator/store"
)

// Incremental builds. A build keeps in the store (package store, beside
// the output) the decoded content of every input, the summaries of the
// main line's comparisons and a manifest of the files it wrote. The next
// build:
//
//  1. decodes only inputs the store does not have (keys: the input's bytes
//     and how it is read, see decodeCached);
//  2. gives every artifact a key from its metadata and the keys of its
//     inputs, and every main-line position a chain key: the key of the
//     analysis settings, then each main-line artifact's key in order
//     (chainKeys). A comparison of consecutive commits only looks back, so
//     its result is the same whenever its chain key is;
//  3. plans with those keys and the previous manifest (sitemodel.Options
//     Known): what was written from the same keys is kept, not computed;
//  4. writes only files whose bytes changed; the others keep their
//     modification time (write.Writer).
//
// A build whose inputs (files, refs, config, theme, content, the tool
// itself) have the same fingerprint as the last successful build's does
// nothing at all (see fingerprint).

// archiveKey is the store key of archive file f read with options o: of
// the SHA-256 of its bytes (carried over from the last build for a file
// listed unread whose identity on disk did not change, see fileSums), or
// of its git blob id when it is a file of a git ref not read yet (a blob
// id names its bytes), so that a build whose store has it need not read
// it.
func archiveKey(f input, o archive.Options) [32]byte {
	if f.folder != nil {
		return f.folder.key(f)
	}
	return store.RunKey("perfpages archive",
		fmt.Sprintf("date-optional=%t default-artifact=%q max-bytes=%d", o.DateOptional, o.DefaultArtifact, o.MaxBytes), contentKey(f))
}

// inputKey is the store key of input f (o with its default artifact). A
// file listed unread (source.List) is hashed first when sums is not nil:
// its hash carried over from the last build, or the file read now (f.Data
// then holds its bytes) and its hash recorded for the next build.
func inputKey(f *input, o archive.Options, sums *fileSums) [32]byte {
	if sums != nil && f.Data == nil && f.Info != nil {
		if err := sums.sum(f); err != nil {
			return unreadableKey(*f, err)
		}
	}
	return archiveKey(*f, o)
}

// contentKey names the content of input f in its store key: its git blob
// id, or the SHA-256 of its bytes (carried over from the last build for a
// file listed unread whose identity on disk did not change, see
// fileSums), so that the key is the same whether the file was read.
func contentKey(f input) []byte {
	switch {
	case f.Blob != "":
		return []byte("git blob " + f.Blob)
	case f.summed:
		return append([]byte("sha256 "), f.sum[:]...)
	}
	sum := sha256.Sum256(f.Data)
	return append([]byte("sha256 "), sum[:]...)
}

// unreadableKey is the key of an archive listed but not read (err): no
// entry is ever kept under it, and a checkpoint that held the file with
// the same error holds its problem.
func unreadableKey(f input, err error) [32]byte {
	return store.RunKey("perfpages archive unreadable", f.Origin, []byte(err.Error()))
}

// fileLimit bounds the size of the store's entry of file f (see
// entryLimit), whose bytes may not have been read.
func fileLimit(maxBytes int64, f source.File) int64 {
	if f.Data == nil && (f.Blob != "" || f.Info != nil) {
		n := f.Size
		// A gzip file may inflate to the cap; so may a note, whose name
		// says nothing of its content.
		if _, gz, ok := archive.FormatOf(f.Name); gz || !ok {
			n = capped.Or(maxBytes)
		}
		return 8*n + 1<<20
	}
	return entryLimit(maxBytes, f.Data)
}

// decodeCached decodes one archive, or takes its content from the store
// (stored is true); key is archiveKey(f, o). A file not read yet (f.Load)
// is read only when the store does not have it. The decoded entry is put
// in the store when put is true.
func decodeCached(st *store.Store, f input, o archive.Options, key [32]byte, put bool) (_ *model.Run, _ [32]byte, _ []archive.Problem, stored bool) {
	if st != nil {
		if e, ok := st.Entry(key, fileLimit(o.MaxBytes, f.File)); ok && len(e.Runs) <= 1 {
			probs := problemsFrom(e.Problems, f.Origin)
			if len(e.Runs) == 0 || fatal(probs) {
				return nil, key, probs, true
			}
			return &e.Runs[0], key, probs, true
		}
	}
	if f.Data == nil && f.Load != nil {
		data, err := f.Load()
		if err != nil {
			return nil, key, []archive.Problem{{File: f.Origin, Msg: err.Error(), Fatal: true}}, false
		}
		f.Data = data
	}
	var runs []model.Run
	var problems []archive.Problem
	if f.folder != nil {
		runs, problems = f.folder.read(f, f.Data)
	} else {
		var run model.Run
		run, problems = archive.Decode(f.Origin, f.Data, o)
		runs = []model.Run{run}
	}
	var e store.Entry
	e.Problems = problemsTo(problems, f.Origin)
	var out *model.Run
	if !fatal(problems) && len(runs) == 1 {
		out = &runs[0]
		e.Runs = runs
	}
	if st != nil && put {
		if err := st.Put(key, e); err != nil {
			problems = append(problems, archive.Problem{File: f.Origin, Msg: err.Error()})
		}
	}
	return out, key, problems, false
}

// entryLimit bounds the size of the store's entry of an input made of
// files (their bytes) whose reader inflates gzip data to at most maxBytes
// a file: a run stores a sample in 8 bytes, which its text takes at
// least 2 for ("1,"), and names once; twice that is the margin (asv's
// parameter grids make a result of each number).
func entryLimit(maxBytes int64, files ...[]byte) int64 {
	var n int64
	for _, data := range files {
		if capped.IsGzip(data) {
			n += capped.Or(maxBytes)
		} else {
			n += int64(len(data))
		}
	}
	return 8*n + 1<<20
}

// readCached reads one foreign input, or takes its content from the
// store. The files of a folder input named in blobs are git blobs not
// read yet: their ids stand for their bytes in the key, and load reads
// them when the store does not have the input. err is load's.
func readCached(st *store.Store, format string, in foreign.Input, def foreign.Defaults, blobs map[string]string, load func() error) ([]model.Run, []archive.Problem, error) {
	parts := [][]byte{[]byte(in.Name), in.Data}
	names := make([]string, 0, len(in.Files))
	for n := range in.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	var size int64
	for _, n := range names {
		if id, ok := blobs[n]; ok {
			parts = append(parts, []byte(n), []byte("git blob "+id))
		} else {
			parts = append(parts, []byte(n), in.Files[n])
			size += int64(len(in.Files[n]))
		}
	}
	key := store.RunKey("foreign "+format, fmt.Sprintf("%+v max-bytes=%d", def, in.MaxBytes), parts...)
	if st != nil {
		limit := entryLimit(in.MaxBytes, parts...)
		if len(blobs) > 0 {
			// The blobs' sizes are not known here: as many bytes as the
			// reader would accept of each.
			limit += 8 * int64(len(blobs)) * capped.Or(in.MaxBytes)
		}
		if e, ok := st.Entry(key, limit); ok {
			return e.Runs, problemsFrom(e.Problems, in.Name), nil
		}
	}
	if load != nil {
		if err := load(); err != nil {
			return nil, nil, err
		}
	}
	_, runs, problems := foreign.Read(format, in, def)
	if st != nil {
		if err := st.Put(key, store.Entry{Runs: runs, Problems: problemsTo(problems, in.Name)}); err != nil {
			problems = append(problems, archive.Problem{File: in.Name, Msg: err.Error()})
		}
	}
	return runs, problems, nil
}

// problemsTo keeps problems without the name of the input they are about
// (a file inside a folder input keeps the rest of its path, after a NUL).
func problemsTo(ps []archive.Problem, name string) []store.Problem {
	out := make([]store.Problem, len(ps))
	for i, p := range ps {
		msg := p.Msg
		if rest, ok := strings.CutPrefix(p.File, name); ok && rest != "" {
			msg = rest + "\x00" + msg
		} else if !ok {
			msg = p.File + "\x00\x00" + msg
		}
		out[i] = store.Problem{Line: p.Line, Msg: msg, Fatal: p.Fatal}
	}
	return out
}

// problemsFrom gives stored problems the input's name again.
func problemsFrom(ps []store.Problem, name string) []archive.Problem {
	out := make([]archive.Problem, len(ps))
	for i, p := range ps {
		file, msg := name, p.Msg
		if other, m, ok := strings.Cut(msg, "\x00\x00"); ok {
			file, msg = other, m
		} else if rest, m, ok := strings.Cut(msg, "\x00"); ok {
			file, msg = name+rest, m
		}
		out[i] = archive.Problem{File: file, Line: p.Line, Msg: msg, Fatal: p.Fatal}
	}
	return out
}

// keys are an incremental build's keys of its dataset.
type keys struct {
	analysis  string   // everything the analysis depends on besides the data
	artifacts []string // per artifact of the dataset
	// data is per main-line position the key of the data up to it: the
	// analysis key, then each main-line artifact's key in order. Where
	// two builds' data keys agree, every series has the same values and
	// within-run evidence at every position up to there (the analysis
	// resumes its headlines from there, see analysis.HeadCache).
	data  []string
	chain []string // per main-line position
}

// hashParts is the hex SHA-256 of parts.
func hashParts(parts ...[]byte) string {
	h := store.Hash(parts...)
	return hex.EncodeToString(h[:16])
}

// dataKeys computes the keys of a loaded dataset before its analysis: the
// analysis key (the tool, the analysis and metric settings, the
// annotations and every series' definition — a new series or a changed
// unit recomputes everything), each artifact's key (its metadata and its
// inputs' keys in the order the builder took them) and the data chain
// (keys.data). The chain (see chainKeys) needs the analysis.
func (s *Site) dataKeys(l *loaded) (keys, error) {
	d := l.d
	cfgJSON, err := json.Marshal(struct {
		Compare analysis.Options
		Build   model.BuildOptions
		Steps   string
	}{s.Config.CompareOptions(), s.Config.BuildOptions(), stepOptions{s.Config}.key()})
	if err != nil {
		return keys{}, err
	}
	ann := l.annotations
	var series strings.Builder
	for _, sr := range d.Series {
		fmt.Fprintf(&series, "%s|%s|%s|%s|%s|%s\n", sr.Key, sr.Metric.Unit, sr.Metric.Direction, sr.Metric.Noise, sr.Case.Category, sr.Context)
	}
	k := keys{analysis: hashParts([]byte(store.Tool()), cfgJSON, ann, []byte(series.String()), []byte(d.Value))}
	k.artifacts = make([]string, len(d.Artifacts))
	for i, a := range d.Artifacts {
		meta, _ := json.Marshal(a)
		parts := [][]byte{[]byte(k.analysis), meta}
		for _, in := range l.inputs[a.ID] {
			parts = append(parts, in[:])
		}
		k.artifacts[i] = hashParts(parts...)
	}
	k.data = make([]string, len(d.MainLine))
	prev := k.analysis
	for pos, a := range d.MainLine {
		prev = hashParts([]byte(prev), []byte(k.artifacts[a]))
		k.data[pos] = prev
	}
	return k, nil
}

// chainKeys sets the chain: each main-line position's key is the previous
// one's, the artifact's and the headline verdicts of its comparison
// (res.Digest), which later values may still change (a change confirmed,
// a spike that came back): a position's key changes when anything up to
// it does, and only then.
func (k *keys) chainKeys(d *model.Dataset, res *analysis.Results) {
	k.chain = make([]string, len(d.MainLine))
	prev := k.analysis
	for pos, a := range d.MainLine {
		prev = hashParts([]byte(prev), []byte(k.artifacts[a]), []byte(res.Digest(pos)))
		k.chain[pos] = prev
	}
}

// siteKey identifies what every page of the site may show besides its own
// data: the tool, every setting but the sources (the site, analysis,
// metrics, budgets and triage sections: a page's own key need not list
// the options it uses, such as the z threshold a chart's band is drawn
// with), the user theme's files and the navigation (the content pages'
// titles and paths). The sources and the project's history reach a page
// through the dataset, whose keys are the artifacts' and the chain's.
func (s *Site) siteKey(cont *sitemodel.Content) string {
	cfg := s.Config
	// Where the site's folders are is no part of its pages: a project
	// moved or copied whole (a CI cache restored into a workspace at
	// another path) keeps its pages. The content folder is named relative
	// to the config's (the theme is a name already), and the files of
	// both are in the key.
	site := cfg.Site
	site.Output, site.Cache = "", ""
	site.Content = cfg.Relative(site.Content)
	settings, _ := json.Marshal(struct {
		Site     config.Site
		Analysis config.Analysis
		Metrics  map[string]config.MetricConfig
		Budgets  map[string]config.Budget
		Triage   config.Triage
	}{site, cfg.Analysis, cfg.Metrics, cfg.Budgets, cfg.Triage})
	parts := [][]byte{[]byte(store.Tool()), settings, []byte(os.Getenv("PERFPAGES_BASE_URL"))}
	for _, t := range s.Themes {
		fs.WalkDir(t, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := fs.ReadFile(t, p)
				parts = append(parts, []byte(p), data)
			}
			return nil
		})
	}
	if cont != nil {
		for _, p := range cont.Pages {
			parts = append(parts, []byte(fmt.Sprintf("%s|%s|%s|%t", p.Source, p.Slug, p.Title, p.Menu)))
		}
	}
	return hashParts(parts...)
}
