package analysis

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sync"

	"github.com/perfpages/perfpages/analysis/model"
)

// Results is the analysis stage's value: what the site model reads of a
// dataset's statistics. The stage runs
//
//	dataset → steps (Steps) → Analyze → Results → site model
//
// and the site model asks Results for comparisons, summaries, steps and
// headline verdicts; it builds no engine and runs no statistics of its
// own. Comparisons are computed when asked (a nightly build computes the
// few whose inputs changed), by the one Comparer that holds the steps and
// the headline verdicts of every series.
type Results struct {
	d    *model.Dataset
	cmp  *Comparer
	opts Options

	digestOnce sync.Once
	digests    []string
}

// AnalyzeOptions are what Analyze needs besides the dataset.
type AnalyzeOptions struct {
	Compare Options
	// Steps are the dataset's step changes (Steps); nil: found
	// with changepoint's defaults when the headline first needs them.
	Steps []Step
	// Tests caches sample tests, perhaps with earlier builds' results.
	Tests *TestCache
}

// Analyze returns the analysis of d.
func Analyze(d *model.Dataset, o AnalyzeOptions) *Results {
	c := NewComparerCache(d, o.Compare, o.Tests)
	if o.Steps != nil {
		c.SetSteps(o.Steps)
	}
	opts, _ := o.Compare.resolve()
	return &Results{d: d, cmp: c, opts: opts}
}

// Dataset is the dataset analysed.
func (r *Results) Dataset() *model.Dataset { return r.d }

// Options are the comparison options, defaults filled in.
func (r *Results) Options() Options { return r.opts }

// Steps are the step changes of every series (see Steps): those
// AnalyzeOptions gave, or found with changepoint's defaults.
func (r *Results) Steps() []Step {
	r.cmp.headsOnce.Do(r.cmp.computeHeads)
	return r.cmp.steps
}

// Compare compares artifact head with artifact base (see [Compare]).
func (r *Results) Compare(base, head int) *Comparison { return r.cmp.Compare(base, head) }

// Summary is Compare with Options.SummaryOnly.
func (r *Results) Summary(base, head int) *Comparison { return r.cmp.Summary(base, head) }

// Consecutive compares each main-line commit in [from, to) with its
// predecessor (see [Comparer.Consecutive]).
func (r *Results) Consecutive(from, to int) []*Comparison { return r.cmp.Consecutive(from, to) }

// Digest identifies the headline verdicts of the rows of the main-line
// commit at position pos against its predecessor. Under model perfpages a
// verdict depends on later values (a change is confirmed, or turns out a
// spike, as values arrive), so everything shown of a commit's comparison
// — its page, its summary in lists and reports — is keyed by its history
// (which only looks back) and this. It is "" under the other models.
func (r *Results) Digest(pos int) string {
	if r.opts.Model != ModelPerfpages || pos < 0 || pos >= len(r.d.MainLine) {
		return ""
	}
	r.digestOnce.Do(r.computeDigests)
	return r.digests[pos]
}

func (r *Results) computeDigests() {
	d := r.d
	hashes := make([][]byte, len(d.MainLine))
	var buf [8 + 4 + 1 + 1 + 8]byte
	for i := range d.Series {
		for _, pv := range r.cmp.headlinesOf(i).verdicts {
			v := pv.v
			binary.LittleEndian.PutUint64(buf[0:], uint64(i))
			binary.LittleEndian.PutUint32(buf[8:], uint32(len(v.State)))
			buf[12] = b2u(v.Relevant)<<0 | b2u(v.Regression)<<1 | b2u(v.Large)<<2
			if len(v.State) > 0 {
				buf[13] = v.State[0]
			}
			binary.LittleEndian.PutUint64(buf[14:], math.Float64bits(float64(float32(v.Widths))))
			hashes[pv.pos] = append(hashes[pv.pos], buf[:]...)
			if v.State == StateConfirmed {
				hashes[pv.pos] = binary.LittleEndian.AppendUint64(hashes[pv.pos], uint64(v.ConfirmedAt))
			}
		}
	}
	r.digests = make([]string, len(d.MainLine))
	for pos, h := range hashes {
		if h == nil {
			continue
		}
		sum := sha256.Sum256(h)
		r.digests[pos] = hex.EncodeToString(sum[:12])
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
