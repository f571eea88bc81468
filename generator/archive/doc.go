// Package archive reads and writes perfpages' native archive format,
// perfpages.run.v1: one file per run (one artifact benchmarked on one
// machine) in JSON, YAML or TOML, each optionally gzip-compressed.
//
// It is one of the readers of the sources stage (see the architecture
// section of the README). The sources (a directory, a git history, git
// notes) hand it bytes and a name; [Decode] turns them into a [model.Run]
// plus the [Problem]s found on the way, and importers of foreign formats
// write their runs back out with [Encode].
//
// Decoding happens in three steps:
//
//  1. the name picks the format (and gzip); unknown names are sniffed;
//  2. a codec parses the bytes into readkit's tree, which remembers the
//     line of every key and value (JSON through readkit.ParseJSON, the
//     line-tracking parser the foreign JSON readers share, which defers to
//     encoding/json for error messages; YAML through yaml.v3 nodes; TOML
//     through BurntSushi/toml plus a scanner that finds the lines of its
//     keys);
//  3. one validator, shared by the three codecs, checks the tree against
//     the schema and builds the run, so that every format reports the same
//     problems in the same words. The rules on values are written once
//     (rules.go): [Encode] applies the same ones to a run before writing it.
//
// A problem that makes the file unusable (bad syntax, wrong schema, a
// missing artifact id…) is Fatal and the run is dropped; anything else
// (an unknown field, an invalid or duplicate result, bytes that are not
// UTF-8) is reported while the rest of the file is kept. Decode never
// panics, whatever the input, and never takes more than a small multiple
// of Options.MaxBytes of memory: the [Limits] that follow from it (size
// after gunzip, values, separators, depth, string length) refuse a file
// before it costs more.
//
// The fields of a result (shown in the README's "Archives" section), every
// one optional but benchmark, metric and samples (or error):
//
//	benchmark  the test case's name
//	category   primary (default) or secondary
//	params     the test case's parameters: an object of scalars
//	metric     what is measured (wall-time, instructions:u, …)
//	unit       the samples' unit; a time or size is never negative
//	direction  lower or higher is better (default: from the unit)
//	samples    the measured values, finite numbers
//	iters      per-sample iteration counts (Criterion's linear sampling)
//	error      a failed benchmark: shown, excluded from statistics
//	summary    {mean, stddev, n}: the summary statistics a tool kept
//	           instead of its samples (model.SampleSummary; all three
//	           required, stddev ≥ 0 with Bessel's correction, n ≥ 1)
//	range      the spread a tool printed beside its value, as text
//	           (cargo's "± 1,234"): shown, never computed with
//
// summary and range were added to perfpages.run.v1 compatibly: an
// archive without them reads as before, and the schema id did not change.
package archive
