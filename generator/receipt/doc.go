// Package receipt is perfgate's receipt format as perfpages reads it: the
// run receipt (perfgate.run.v1: the command, the host, one sample per
// execution and their statistics), the compare receipt
// (perfgate.compare.v1: one delta and budget per metric, a verdict), the
// metric table both are keyed by, and the rule that makes a run's
// statistics the summary of its samples.
//
// It sits with the readers (the sources stage; see the architecture
// section of the README), between the files and the commands that use
// them:
//
//   - generator/foreign reads run receipts into the dataset, with the
//     schema id, [Host], [Metrics] and [Throughput] declared here;
//   - cmd/perfpages/internal/perfgate (run, check, export, promote) writes
//     receipts of these types and reads its inputs with [ReadInput],
//     [Load], [ReadRun], [ReadCompare] and [ReadRunFile], under the same
//     input caps as every reader (generator/internal/capped,
//     generator/internal/readkit).
//
// Reading a check input:
//
//  1. [ReadInput] reads a file (a regular file only, size-capped,
//     gunzipped) and tells a run receipt, a compare receipt, a report and
//     a perfpages archive apart by content.
//  2. [ReadRun] and [ReadCompare] validate a receipt (schema id, required
//     fields, types) and name the file, and the line when there is one,
//     in every error. They parse with readkit.ParseJSON and decode its
//     tree with readkit.Decode, as the other readers do.
//  3. [Load] does both for one side of a check, decoding an archive with
//     generator/archive, and verifyStats makes a run's statistics
//     those of its samples ([ComputeStats]).
//
// JSON field names, field order and omission rules follow perfgate's
// receipts exactly.
package receipt
