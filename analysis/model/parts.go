package model

// This file is what a sharded build needs of the dataset: a shard's part
// of it (Subset) and a dataset put back together from parts (Assemble),
// whose series may hold only some of their points.

// Subset is d with only the series keep holds (in d's order); the rest
// (artifacts, main line, machines, warnings, notes, annotations) is d's,
// shared. A shard of a sharded build analyses the subset of its series:
// its dataset holds their points alone (BuildOptions.Keep), and the
// subset leaves out the other series, which have none.
func (d *Dataset) Subset(keep func(*Series) bool) *Dataset {
	c := *d
	c.Series = nil
	for _, s := range d.Series {
		if keep(s) {
			c.Series = append(c.Series, s)
		}
	}
	return &c
}

// Origins are the names of the archives each artifact's metadata came
// from (ArtifactOrigin), for Assemble.
func (d *Dataset) Origins() []string { return d.origins }

// Assemble returns the dataset of d's exported fields (series sorted by
// key, artifacts by date and id, as a Builder leaves them) with its
// indexes made again: by artifact id, main-line positions and origins
// (Origins of the dataset it came from).
func Assemble(d Dataset, origins []string) *Dataset {
	d.byID = make(map[string]int, len(d.Artifacts))
	for i, a := range d.Artifacts {
		d.byID[a.ID] = i
	}
	d.mainPos = make([]int, len(d.Artifacts))
	for i := range d.mainPos {
		d.mainPos[i] = -1
	}
	for p, a := range d.MainLine {
		d.mainPos[a] = p
	}
	d.origins = origins
	return &d
}

// PointExtras are what few points carry besides their samples: iteration
// counts and a tool's summary (Point.Iters, Point.Summary).
type PointExtras struct {
	Iters   []float64
	Summary *SampleSummary
}

// Extras returns p's iteration counts and summary.
func (p *Point) Extras() PointExtras { return PointExtras{p.Iters(), p.Summary()} }

// SetExtras sets p's iteration counts and summary (a point read back from
// a shard's partial site model).
func (p *Point) SetExtras(e PointExtras) { p.setRare(e.Iters, e.Summary) }
