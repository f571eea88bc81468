package foreign

import (
	"fmt"
	"maps"
	"slices"

	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// maxProblems bounds the problems listed for one input; the rest are
// counted in a last one. A file of a million bad entries then costs a
// million counts, not a million messages (and the log gets one line).
const maxProblems = 100

// checkInput applies the caps every reader shares (see [Read]) to each
// file of in: a file over the size or separator cap makes a file input
// unusable and is left out of a folder input, and so is a Git LFS pointer
// or a UTF-16 file (readkit.NotResults); invalid UTF-8 is replaced.
func checkInput(in Input) (Input, []archive.Problem, bool) {
	limits := archive.LimitsFor(in.MaxBytes)
	var problems []archive.Problem
	if in.Files == nil {
		data, p, ok := checkFile(in.Name, in.Data, limits)
		in.Data = data
		return in, p, ok
	}
	files := make(map[string][]byte, len(in.Files))
	for _, rel := range slices.Sorted(maps.Keys(in.Files)) {
		data, p, ok := checkFile(in.Name+"/"+rel, in.Files[rel], limits)
		problems = append(problems, skipped(p)...)
		if ok {
			files[rel] = data
		}
	}
	in.Files = files
	return in, problems, true
}

// checkFile applies the caps every reader shares to one file, name: ok is
// false when it is over the size or separator cap, a Git LFS pointer or
// UTF-16 (the problem is fatal); invalid UTF-8 is replaced.
func checkFile(name string, data []byte, limits archive.Limits) ([]byte, []archive.Problem, bool) {
	if n := int64(len(data)); n > limits.Bytes {
		return nil, []archive.Problem{fatal(name, 0, "%v", &capped.TooLargeError{Limit: limits.Bytes, Size: n})}, false
	}
	if p := readkit.NotResults(name, data); p != nil {
		return nil, []archive.Problem{*p}, false
	}
	if n := archive.Separators(data); n > limits.Tokens {
		return nil, []archive.Problem{fatal(name, 0, "%d separators (`,[{:` and newlines), more than the %d %s", n, limits.Tokens, limits.Allowed())}, false
	}
	data, p := readkit.ValidUTF8(name, data)
	if p != nil {
		return data, []archive.Problem{*p}, true
	}
	return data, nil, true
}

// skipped words the problems of one file of a folder: the folder loses
// the file, not everything.
func skipped(ps []archive.Problem) []archive.Problem {
	for i := range ps {
		if ps[i].Fatal {
			ps[i].Fatal = false
			ps[i].Msg += "; file skipped"
		}
	}
	return ps
}

// Readers cap their own lists of problems where a file can produce one per
// element (warn methods, loops over results): past maxProblems they count
// a non-fatal problem in a dropped counter instead of keeping it, and
// withDropped says how many there were. Formatting and keeping a message
// per bad element of a million-element file was most of what such a file
// cost.

// full reports whether a reader's problems are at the cap, counting the
// problem it is about to drop in *dropped.
func full(ps []archive.Problem, dropped *int) bool {
	if len(ps) >= maxProblems {
		*dropped++
		return true
	}
	return false
}

// keep appends ps to list, the non-fatal ones only while list is under
// the cap (counting the rest in *dropped).
func keep(list []archive.Problem, dropped *int, ps ...archive.Problem) []archive.Problem {
	for _, p := range ps {
		if p.Fatal || !full(list, dropped) {
			list = append(list, p)
		}
	}
	return list
}

// moreFormat is the message of the problem that stands for the ones a
// reader did not keep.
const moreFormat = "%d more problems not shown"

// withDropped appends the problem that says n problems of file were not
// kept (nothing when n is 0).
func withDropped(ps []archive.Problem, file string, n int) []archive.Problem {
	if n == 0 {
		return ps
	}
	return append(ps, archive.Problem{File: file, Msg: fmt.Sprintf(moreFormat, n)})
}

// trimProblems keeps the first maxProblems problems and every fatal one,
// and says how many more there were: the cap for readers that do not
// apply it themselves.
func trimProblems(ps []archive.Problem) []archive.Problem {
	if len(ps) <= maxProblems+1 {
		return ps
	}
	out := make([]archive.Problem, 0, maxProblems+1)
	more := map[string]int{}
	var files []string
	for _, p := range ps {
		if len(out) < maxProblems || p.Fatal {
			out = append(out, p)
			continue
		}
		n := 1
		if k, err := fmt.Sscanf(p.Msg, moreFormat, &n); err != nil || k != 1 || p.Msg != fmt.Sprintf(moreFormat, n) {
			n = 1
		}
		if more[p.File] == 0 {
			files = append(files, p.File)
		}
		more[p.File] += n
	}
	for _, f := range files {
		out = withDropped(out, f, more[f])
	}
	return out
}
