// Package source reads archive files from where they are stored, and the
// benchmarked project's own git history.
//
// It is the first part of the sources stage (see the architecture section
// of the README) and hands back raw [File] values (a name whose extension
// tells the format, where the file came from, and its bytes); decoding them
// is the archive package's job. There are three kinds of source:
//
//  1. [Dir]: every archive file under a directory, recursively.
//  2. [Git.History]: every version of every archive file under a path along a
//     ref's history, each blob once, so results that a nightly job commits or
//     overwrites all count; and [Git.Notes]: archives attached to the
//     project's commits as git notes.
//  3. [Git.ProjectHistory]: the benchmarked project's commits (order,
//     parents, dates, titles and PR numbers), so archives may carry only a
//     sha.
//
// Git is read through the git command, never by walking objects in Go: one
// streamed "git log -z" per query and one long-lived "git cat-file --batch"
// process per repository for all blob reads. That was faster than a
// pure-Go implementation (go-git) on large histories (BenchmarkHistory
// says how it was measured) and keeps dependencies out of go.mod. Errors that a user can fix (a shallow clone, a ref that
// was never fetched) say how.
package source
