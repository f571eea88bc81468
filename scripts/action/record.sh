#!/usr/bin/env bash
# record: imports a benchmark tool's output (perfpages import) and commits
# the archives to a results branch, or stores the archive as a git note on
# the benchmarked commit, then pushes. Jobs that record at the same time
# (a matrix of machines, PRs) never lose each other's results: a rejected
# push fetches the branch again, puts the archives on its new tip and
# tries again, up to PP_ATTEMPTS times.
#
# It never touches the work tree, the index or HEAD of the checkout: the
# commit is made with git plumbing in a temporary index.
#
# Environment (the action's inputs):
#   PP_FILES           tool output files or folders, separated by spaces or newlines (required)
#   PP_FORMAT          their format (default auto)
#   PP_ARTIFACT        the benchmarked commit (default HEAD)
#   PP_DATE            its date (default its commit date, else now)
#   PP_MACHINE         machine name (default ci-<os>-<arch>)
#   PP_BRANCH PP_PR PP_TITLE PP_KIND PP_BASELINE
#                      more artifact fields: import's -branch -pr -title -kind -baseline
#   PP_RESULTS_BRANCH  branch to commit to (default perf-results)
#   PP_RESULTS_PATH    folder on it (default results)
#   PP_NOTES_REF       store a git note on this ref instead (e.g. refs/notes/perf)
#   PP_REMOTE          remote (default origin)
#   PP_PUSH            false: commit locally only (the branch refs/heads/<branch>, or the notes ref)
#   PP_ATTEMPTS        push attempts (default 5)
#   PP_RETRY_DELAY     seconds to wait after a rejected push, times the attempt, plus jitter (default 2)
# Outputs: commit (the pushed commit, "" when nothing changed), archives.
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pp_require git "$PERFPAGES"
pp_in_repo

# Spaces and newlines separate the files; read does no globbing.
files=()
read -r -d '' -a files <<<"${PP_FILES:-}" || true
[ ${#files[@]} -gt 0 ] || pp_die "record: no files given (input files: the benchmark tool's output)"

remote=${PP_REMOTE:-origin}
branch=${PP_RESULTS_BRANCH:-perf-results}
path=${PP_RESULTS_PATH:-results}
path=${path#/}
path=${path%/}
notes=${PP_NOTES_REF:-}
push=${PP_PUSH:-true}
attempts=${PP_ATTEMPTS:-5}
delay=${PP_RETRY_DELAY:-2}

artifact=${PP_ARTIFACT:-$(git rev-parse HEAD)}
date=${PP_DATE:-}
if [ -z "$date" ]; then
  date=$(git show -s --format=%cI "$artifact^{commit}" 2>/dev/null) || date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
machine=${PP_MACHINE:-ci-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)}

# The bot identity of the commits and notes; the user's git config is not
# needed (a CI checkout has none).
export GIT_AUTHOR_NAME=${PP_GIT_NAME:-github-actions[bot]}
export GIT_AUTHOR_EMAIL=${PP_GIT_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL

tmp=$(mktemp -d)
cleanup() {
  rm -rf "$tmp"
  if [ -n "${tmpnotes:-}" ]; then git update-ref -d "$tmpnotes" 2>/dev/null || true; fi
}
trap cleanup EXIT

args=(import -format "${PP_FORMAT:-auto}" -artifact "$artifact" -date "$date" -machine "$machine" -out "$tmp/import")
[ -z "${PP_BRANCH:-}" ] || args+=(-branch "$PP_BRANCH")
[ -z "${PP_PR:-}" ] || args+=(-pr "$PP_PR")
[ -z "${PP_TITLE:-}" ] || args+=(-title "$PP_TITLE")
[ -z "${PP_KIND:-}" ] || args+=(-kind "$PP_KIND")
[ -z "${PP_BASELINE:-}" ] || args+=(-baseline "$PP_BASELINE")
"$PERFPAGES" "${args[@]}" -- "${files[@]}" || pp_die "record: perfpages import failed"

archives=() # paths under $tmp/import
while IFS= read -r -d '' f; do
  archives+=("${f#./}")
done < <(cd "$tmp/import" && find . -type f -print0 | LC_ALL=C sort -z)
[ ${#archives[@]} -gt 0 ] || pp_die "record: perfpages import wrote no archive"
pp_output archives "${#archives[@]}"

# remote_has REF: 0 when the remote has REF, 1 when not; dies when the
# remote cannot be reached.
remote_has() {
  local out
  out=$(git ls-remote "$remote" "$1") || pp_die "record: cannot reach remote $remote"
  [ -n "$out" ]
}

# backoff waits before attempt $1 + 1.
backoff() {
  local s=$((delay * $1 + RANDOM % (delay + 1)))
  pp_log "push rejected (another job pushed first?); fetching and retrying in ${s}s (attempt $(($1 + 1)) of $attempts)"
  sleep "$s"
}

record_branch() {
  local tracking="refs/remotes/$remote/$branch" attempt=1 parent tree commit a blob msg
  export GIT_INDEX_FILE="$tmp/index"
  msg="perfpages: record $machine ${artifact:0:12} (${#archives[@]} archives)"$'\n'
  for a in "${archives[@]}"; do msg+=$'\n'"$path/$a"; done
  while :; do
    if remote_has "refs/heads/$branch"; then
      git fetch --quiet "$remote" "+refs/heads/$branch:$tracking" || pp_die "record: fetching $branch from $remote failed"
      parent=$(git rev-parse --verify "$tracking^{commit}")
      git read-tree "$parent"
    else
      parent=""
      git read-tree --empty
    fi
    for a in "${archives[@]}"; do
      blob=$(git hash-object -w -- "$tmp/import/$a")
      git update-index --add --cacheinfo "100644,$blob,$path/$a"
    done
    tree=$(git write-tree)
    if [ -n "$parent" ] && [ "$tree" = "$(git rev-parse "$parent^{tree}")" ]; then
      pp_log "$branch already holds these results: nothing to record"
      pp_output commit ""
      return
    fi
    commit=$(git commit-tree "$tree" ${parent:+-p "$parent"} -m "$msg")
    if [ "$push" != true ]; then
      git update-ref "refs/heads/$branch" "$commit"
      pp_log "committed $commit to the local branch $branch (push: false)"
      pp_output commit "$commit"
      return
    fi
    if git push --quiet "$remote" "$commit:refs/heads/$branch"; then
      git update-ref "$tracking" "$commit"
      pp_log "pushed $commit to $branch: ${#archives[@]} archives under $path/"
      pp_output commit "$commit"
      return
    fi
    [ "$attempt" -lt "$attempts" ] || pp_die "record: pushing to $branch failed $attempts times"
    backoff "$attempt"
    attempt=$((attempt + 1))
  done
}

record_notes() {
  local ref attempt=1 file commit
  case $notes in
  refs/notes/*) ref=$notes ;;
  notes/*) ref=refs/$notes ;;
  *) ref=refs/notes/$notes ;;
  esac
  [ ${#archives[@]} -eq 1 ] ||
    pp_die "record: a git note holds one archive per commit, and this import wrote ${#archives[@]}: record several machines or runs on a results branch (results-branch) instead"
  git cat-file -e "$artifact^{commit}" 2>/dev/null ||
    pp_die "record: commit $artifact is not in this clone, so no note can be attached to it: check out with fetch-depth: 0"
  file="$tmp/import/${archives[0]}"
  tmpnotes="refs/notes/perfpages-record-$$"
  while :; do
    if remote_has "$ref"; then
      git fetch --quiet "$remote" "+$ref:$tmpnotes" || pp_die "record: fetching $ref from $remote failed"
    else
      git update-ref -d "$tmpnotes" 2>/dev/null || true
    fi
    if git notes --ref "$tmpnotes" show "$artifact" >"$tmp/existing" 2>/dev/null; then
      if cmp -s "$tmp/existing" "$file"; then
        pp_log "$ref already holds these results for $artifact: nothing to record"
        pp_output commit ""
        return
      fi
      pp_die "record: $artifact already has another note on $ref; a note holds one run per commit: use a results branch for several machines or runs"
    fi
    git notes --ref "$tmpnotes" add -F "$file" "$artifact"
    commit=$(git rev-parse "$tmpnotes")
    if [ "$push" != true ]; then
      git update-ref "$ref" "$commit"
      pp_log "added the note to the local $ref (push: false)"
      pp_output commit "$commit"
      return
    fi
    if git push --quiet "$remote" "$tmpnotes:$ref"; then
      git update-ref "$ref" "$commit"
      pp_log "pushed a note on $artifact to $ref"
      pp_output commit "$commit"
      return
    fi
    [ "$attempt" -lt "$attempts" ] || pp_die "record: pushing $ref failed $attempts times"
    backoff "$attempt"
    attempt=$((attempt + 1))
  done
}

if [ -n "$notes" ]; then
  record_notes
else
  record_branch
fi
