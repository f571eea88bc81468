package demo

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// mix is splitmix64's finaliser: a bijection on uint64 that spreads every
// input bit over the output. Values that must not depend on generation
// order (commit metadata, series levels) are hashes of their identity.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// hashString folds s into h (FNV-1a over the bytes, then mixed).
func hashString(h uint64, s string) uint64 {
	h ^= 0xcbf29ce484222325
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return mix(h)
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// Salts keep the hash streams of different purposes apart.
const (
	saltPR = iota + 1
	saltAuthor
	saltTitle
	saltGap
	saltSample
	saltLevel
	saltSigma
)

func hashAt(seed uint64, salt, i int) uint64 {
	return mix(mix(seed^uint64(salt)<<56) ^ uint64(i))
}

// schedule is the main line: commit i's date, id and metadata are
// functions of i, so Generate holds nothing per commit.
type schedule struct {
	name  string
	n     int
	seed  uint64
	start time.Time
	// dates holds the dates of a working-week rhythm; nil for fixed gaps.
	dates      []time.Time
	mean, half time.Duration
	titles     map[int]string // planted titles by position
}

func newSchedule(p Plan) (*schedule, error) {
	s := &schedule{name: p.Name, n: p.Commits, seed: p.Seed, start: p.Start.UTC(), titles: map[int]string{}}
	if p.Weeks == 0 {
		s.mean = (p.MinGap + p.MaxGap) / 2
		s.half = (p.MaxGap - p.MinGap) / 2
		return s, nil
	}
	dates, err := workingWeeks(s.start, p.Weeks, p.Commits, p.Seed)
	if err != nil {
		return nil, err
	}
	s.dates = dates
	return s, nil
}

// Caps on merges per day: a busy weekday, a busy weekend day.
const (
	maxPerWeekday    = 4
	maxPerWeekendDay = 2
	weekendWeight    = 0.3
)

// workingWeeks spreads n commits over weeks weeks from start: one merge on
// every weekday first (when there are enough), the rest drawn with weekend
// days a third as likely, times mostly in working hours, all distinct.
func workingWeeks(start time.Time, weeks, n int, seed uint64) ([]time.Time, error) {
	days := weeks * 7
	weekend := func(d int) bool {
		wd := start.AddDate(0, 0, d).Weekday()
		return wd == time.Saturday || wd == time.Sunday
	}
	capacity, weekdays := 0, 0
	for d := range days {
		if weekend(d) {
			capacity += maxPerWeekendDay
		} else {
			capacity += maxPerWeekday
			weekdays++
		}
	}
	if n > capacity {
		return nil, fmt.Errorf("%d commits do not fit in %d weeks (at most %d)", n, weeks, capacity)
	}
	r := rand.New(rand.NewPCG(seed, 0x7363686564756c65))
	counts := make([]int, days)
	left := n
	if n >= weekdays {
		for d := range days {
			if !weekend(d) {
				counts[d] = 1
			}
		}
		left -= weekdays
	}
	weight := func(d int) float64 {
		if weekend(d) {
			if counts[d] >= maxPerWeekendDay {
				return 0
			}
			return weekendWeight
		}
		if counts[d] >= maxPerWeekday {
			return 0
		}
		return 1
	}
	for ; left > 0; left-- {
		var total float64
		for d := range days {
			total += weight(d)
		}
		x := r.Float64() * total
		pick := -1
		for d := range days {
			if w := weight(d); w > 0 {
				pick = d
				if x < w {
					break
				}
				x -= w
			}
		}
		counts[pick]++
	}
	dates := make([]time.Time, 0, n)
	for d, k := range counts {
		day := start.AddDate(0, 0, d)
		secs := make([]int, k)
		for j := range secs {
			if r.Float64() < 0.75 {
				secs[j] = 8*3600 + r.IntN(12*3600)
			} else {
				secs[j] = r.IntN(24 * 3600)
			}
		}
		slices.Sort(secs)
		for _, s := range secs {
			dates = append(dates, day.Add(time.Duration(s)*time.Second))
		}
	}
	for i := 1; i < len(dates); i++ {
		if !dates[i].After(dates[i-1]) {
			dates[i] = dates[i-1].Add(time.Minute)
		}
	}
	return dates, nil
}

// date is commit i's merge date.
func (s *schedule) date(i int) time.Time {
	if s.dates != nil {
		return s.dates[i]
	}
	j := time.Duration(unit(hashAt(s.seed, saltGap, i)) * float64(s.half))
	return s.start.Add(time.Duration(i)*s.mean + j).Truncate(time.Second)
}

// search returns the first commit dated at or after t, or n.
func (s *schedule) search(t time.Time) int {
	return sort.Search(s.n, func(i int) bool { return !s.date(i).Before(t) })
}

// sha derives a 40-hex commit id from the plan and a label.
func (s *schedule) sha(kind string, parts ...int) string {
	b := []byte(s.name + ":" + strconv.FormatUint(s.seed, 10) + ":" + kind)
	for _, p := range parts {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p), 10)
	}
	sum := sha1.Sum(b)
	return hex.EncodeToString(sum[:])
}

// id is main-line commit i's sha; id(-1) is the unbenchmarked parent of
// the first commit.
func (s *schedule) id(i int) string { return s.sha("main", i) }

// pr is commit i's PR number: increasing, with gaps where issues and
// unmerged PRs took numbers.
func (s *schedule) pr(i int) int { return 1200 + 3*i + int(hashAt(s.seed, saltPR, i)%3) }

// openPR is a number in the gap after commit i's PR, for an open PR whose
// try run is based on commit i; k picks one of the two free numbers.
func (s *schedule) openPR(i, k int) int {
	used := s.pr(i) - 1200 - 3*i
	return 1200 + 3*i + (used+1+k%2)%3
}

func (s *schedule) author(i int) string {
	return authors[hashAt(s.seed, saltAuthor, i)%uint64(len(authors))]
}

func (s *schedule) title(i int) string {
	if t, ok := s.titles[i]; ok {
		return t
	}
	return prTitle(hashAt(s.seed, saltTitle, i))
}

// artifact is main-line commit i: a merge of its PR's head into the
// previous main-line commit.
func (s *schedule) artifact(i int) model.Artifact {
	return model.Artifact{
		ID:      s.id(i),
		Kind:    model.KindCommit,
		Date:    s.date(i),
		Parents: []string{s.id(i - 1), s.sha("head", i)},
		Branch:  "main",
		PR:      s.pr(i),
		Title:   s.title(i),
		Author:  s.author(i),
	}
}
