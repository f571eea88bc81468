package model

import (
	"fmt"
	"slices"
)

// AnnotationKind says what an annotation records.
type AnnotationKind string

// Annotation kinds: the two lists of annotations.yaml (see the README's
// Analysis section).
const (
	// DistributionChange marks the artifact where a series' distribution
	// changes for good: the lookback z-score's rolling mean restarts there
	// (Conbench's "begins distribution change", its
	// docs/pages/lookback_zscore.md).
	DistributionChange AnnotationKind = "distribution-change"
	// Acknowledged marks a change a maintainer has looked at and accepted;
	// pages show its note beside the change.
	Acknowledged AnnotationKind = "acknowledged"
)

// Annotation is one entry of annotations.yaml: an artifact and the
// series it applies to. Empty selectors match every series; Params, when
// set, must equal the test case's parameters exactly.
type Annotation struct {
	Kind      AnnotationKind
	Artifact  string // as written: a full id, a unique prefix, a tag or pr/<n>
	Benchmark string
	Params    Params
	HasParams bool // Params was given (an empty map selects test cases without parameters)
	Metric    string
	Machine   string
	Note      string
	// Origin is "file:line" of the entry, for messages.
	Origin string
}

// Matches reports whether the annotation selects series s.
func (a *Annotation) Matches(s *Series) bool {
	return (a.Benchmark == "" || a.Benchmark == s.Case.Benchmark) &&
		(!a.HasParams || a.Params.String() == s.Key.Params) &&
		(a.Metric == "" || a.Metric == s.Key.Metric) &&
		(a.Machine == "" || a.Machine == s.Key.Machine)
}

// Annotations are the annotations of a dataset, resolved to artifact
// indices.
type Annotations struct {
	byArtifact map[int][]*Annotation
}

// Annotate resolves the artifacts of list against d and attaches them as
// d.Annotations. An entry whose artifact d does not know is reported and
// left out (results for it may simply not have arrived yet); the rest are
// kept.
func (d *Dataset) Annotate(list []Annotation) []error {
	var errs []error
	an := &Annotations{byArtifact: map[int][]*Annotation{}}
	for i := range list {
		a := &list[i]
		idx, err := d.Resolve(a.Artifact)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w; annotation ignored", a.Origin, err))
			continue
		}
		an.byArtifact[idx] = append(an.byArtifact[idx], a)
	}
	d.Annotations = an
	return errs
}

// For returns the annotations of artifact a that select series s, in file
// order.
func (an *Annotations) For(s *Series, a int) []*Annotation {
	if an == nil {
		return nil
	}
	var out []*Annotation
	for _, x := range an.byArtifact[a] {
		if x.Matches(s) {
			out = append(out, x)
		}
	}
	return out
}

// BeginsChange reports whether a distribution change of series s is
// annotated at artifact a.
func (an *Annotations) BeginsChange(s *Series, a int) bool {
	if an == nil {
		return false
	}
	return slices.ContainsFunc(an.byArtifact[a], func(x *Annotation) bool {
		return x.Kind == DistributionChange && x.Matches(s)
	})
}

// Len is the number of resolved annotations.
func (an *Annotations) Len() int {
	if an == nil {
		return 0
	}
	n := 0
	for _, l := range an.byArtifact {
		n += len(l)
	}
	return n
}

// Artifacts returns the indices of the annotated artifacts, ascending.
func (an *Annotations) Artifacts() []int {
	if an == nil {
		return nil
	}
	out := make([]int, 0, len(an.byArtifact))
	for a := range an.byArtifact {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}
