#!/usr/bin/env bash
# comment: compares a PR's head with its base (perfpages compare), posts
# the result as ONE comment on the PR, which later runs update (found by
# its hidden marker <!-- perfpages -->), and fails when a budget fails.
#
# When the base has no results (main moved on and its benchmarks have not
# run yet), the nearest of its first-parent ancestors that has results is
# the base; the comment says which.
#
# Environment (the action's inputs):
#   PP_PR              the PR number (required)
#   PP_HEAD            the PR head's commit (required)
#   PP_BASE            the PR base's commit ("" compares HEAD with its recorded baseline)
#   PP_BASE_SEARCH     first-parent ancestors of the base to try (default 20)
#   PP_CONFIG PP_BASE_URL PP_METRIC   compare's -config -base-url -metric
#   PP_FAIL_ON         fail (default): exit 1 when a budget fails; warn: also when one warns; never
#   PP_COMMENT_KEY     tells several comments on one PR apart (default: one comment)
#   PP_RESULTS_BRANCH PP_REMOTE       the results branch to fetch first (default perf-results, origin)
#   GITHUB_REPOSITORY  owner/repo; GITHUB_TOKEN the token; GITHUB_API_URL the API (default https://api.github.com)
# Outputs: budget (pass, warn, fail or none), base (the commit compared with), comment-url.
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pp_require git curl jq "$PERFPAGES"

pr=${PP_PR:-}
head=${PP_HEAD:-}
base=${PP_BASE:-}
case $pr in '' | *[!0-9]*) pp_die "comment: PP_PR '$pr' is not a PR number (run on pull_request events, or set the pr input)" ;; esac
[ -n "$head" ] || pp_die "comment: no head commit (input head)"
repo=${GITHUB_REPOSITORY:-}
[ -n "$repo" ] || pp_die "comment: GITHUB_REPOSITORY (owner/repo) is not set"
token=${GITHUB_TOKEN:-}
[ -n "$token" ] || pp_die "comment: no token (input token, default github.token; the job needs permissions: pull-requests: write)"
api=${GITHUB_API_URL:-https://api.github.com}
api=${api%/}
fail_on=${PP_FAIL_ON:-fail}
case $fail_on in fail | warn | never) ;; *) pp_die "comment: fail-on '$fail_on': want fail, warn or never" ;; esac
marker="<!-- perfpages -->"
[ -z "${PP_COMMENT_KEY:-}" ] || marker="<!-- perfpages: ${PP_COMMENT_KEY} -->"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if git rev-parse --git-dir >/dev/null 2>&1; then
  pp_fetch_results "${PP_REMOTE:-origin}" "${PP_RESULTS_BRANCH-perf-results}"
fi

common=()
[ -z "${PP_CONFIG:-}" ] || common+=(-config "$PP_CONFIG")
[ -z "${PP_BASE_URL:-}" ] || common+=(-base-url "$PP_BASE_URL")
[ -z "${PP_METRIC:-}" ] || common+=(-metric "$PP_METRIC")

# The bases to try: the PR's base, then its first-parent ancestors.
candidates=()
if [ -n "$base" ]; then
  candidates=("$base")
  if git cat-file -e "$base^{commit}" 2>/dev/null; then
    while IFS= read -r c; do candidates+=("$c"); done < <(git rev-list --first-parent --skip=1 --max-count="${PP_BASE_SEARCH:-20}" "$base")
  fi
fi

# compare_json BASE: compare -format json into $tmp/compare.json; 0 on
# success, 2 when BASE has no results, dies on any other error.
compare_json() {
  local args=(compare "${common[@]}" -format json)
  [ -z "$1" ] || args+=("$1")
  args+=("$head")
  if "$PERFPAGES" "${args[@]}" >"$tmp/compare.json" 2>"$tmp/stderr"; then
    grep -v '^perfpages: note: ' "$tmp/stderr" >&2 || true
    return 0
  fi
  if grep -q '^perfpages: compare: base: ' "$tmp/stderr"; then
    return 2
  fi
  cat "$tmp/stderr" >&2
  if grep -q '^perfpages: compare: head: ' "$tmp/stderr"; then
    pp_die "comment: no results for the PR head $head: record them first (mode: record, before mode: comment)"
  fi
  pp_die "comment: perfpages compare failed (see above)"
}

used=""
found=false
if [ ${#candidates[@]} -eq 0 ]; then
  compare_json "" && found=true
else
  for c in "${candidates[@]}"; do
    rc=0
    compare_json "$c" || rc=$?
    if [ "$rc" -eq 0 ]; then
      used=$c
      found=true
      break
    fi
  done
fi

body="$tmp/body.md"
budget=none
if ! $found; then
  pp_warn "no results for the base ${base:0:12} or its ${PP_BASE_SEARCH:-20} first-parent ancestors: nothing to compare yet"
  printf '%s\nperfpages: no results for the base %s or its %s first-parent ancestors yet, so there is nothing to compare %s with.\n' \
    "$marker" "${base:0:12}" "${PP_BASE_SEARCH:-20}" "${head:0:12}" >"$body"
else
  args=(compare "${common[@]}" -format markdown)
  [ -z "$used" ] || args+=("$used")
  args+=("$head")
  "$PERFPAGES" "${args[@]}" >"$tmp/compare.md" 2>/dev/null || pp_die "comment: perfpages compare -format markdown failed"
  {
    echo "$marker"
    if [ -n "$used" ] && [ "$used" != "$base" ]; then
      printf '_The base %s has no results yet; compared with its nearest ancestor that has: %s._\n\n' "${base:0:12}" "${used:0:12}"
    fi
    cat "$tmp/compare.md"
  } >"$body"

  # Budgets: perfgate's verdicts in compare -format json. Names come from
  # the archives, so only plain characters of them are shown (no
  # Markdown, links, HTML or @mentions can be made of them).
  fails=$(jq '[.results[] | select(.budget != null and .budget.status == "fail")] | length' "$tmp/compare.json")
  warns=$(jq '[.results[] | select(.budget != null and .budget.status == "warn")] | length' "$tmp/compare.json")
  if [ "$fails" -gt 0 ]; then
    budget=fail
  elif [ "$warns" -gt 0 ]; then
    budget=warn
  elif [ "$(jq '[.results[] | select(.budget != null)] | length' "$tmp/compare.json")" -gt 0 ]; then
    budget=pass
  fi
  if [ "$fails" -gt 0 ] || [ "$warns" -gt 0 ]; then
    {
      printf '\n### Budgets: %s failed, %s warned\n\n' "$fails" "$warns"
      echo "| status | benchmark | metric | machine | regression | threshold |"
      echo "|---|---|---|---|---|---|"
      jq -r '
        def plain: tostring | gsub("[^A-Za-z0-9 ._/:=+,()%-]"; "?");
        def pct: (. * 1000 + 0.5 | floor) as $t | "\($t / 10 | floor).\($t % 10)%";
        .results[] | select(.budget != null and (.budget.status == "fail" or .budget.status == "warn"))
        | "| \(if .budget.status == "fail" then "❌ fail" else "⚠️ warn" end) | \(.benchmark | plain)\(if (.params // {}) == {} then "" else " " + ([.params | to_entries[] | "\(.key)=\(.value)"] | join(",") | plain) end) | \(.metric | plain) | \(.machine | plain) | \(.budget.regression | pct) | \(.budget.threshold | pct) |"
      ' "$tmp/compare.json"
    } >>"$body"
  fi
fi
pp_output budget "$budget"
pp_output base "$used"

# A comment holds at most 65536 characters.
if [ "$(wc -c <"$body")" -gt 60000 ]; then
  head -c 60000 "$body" >"$body.cut"
  printf '\n\n… (cut: the comparison is longer than a comment can hold; see the site)\n' >>"$body.cut"
  mv "$body.cut" "$body"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$body" >>"$GITHUB_STEP_SUMMARY"
fi

# The token goes to curl in a config file, not on its command line.
(
  umask 077
  {
    printf 'header = "Authorization: Bearer %s"\n' "$token"
    echo 'header = "Accept: application/vnd.github+json"'
    echo 'header = "X-GitHub-Api-Version: 2022-11-28"'
    echo 'header = "User-Agent: perfpages-action"'
  } >"$tmp/curl.cfg"
)

# gh METHOD URL [JSON_FILE]: calls the API; the response is in $tmp/resp.
gh() {
  local code args=(-sS -K "$tmp/curl.cfg" -X "$1" -o "$tmp/resp" -w '%{http_code}')
  [ -z "${3:-}" ] || args+=(-H "Content-Type: application/json" --data-binary "@$3")
  code=$(curl "${args[@]}" "$2") || pp_die "comment: $1 $2: the request failed"
  case $code in
  2??) ;;
  *) pp_die "comment: $1 $2: HTTP $code: $(head -c 300 "$tmp/resp")" ;;
  esac
}

jq -n --rawfile body "$body" '{body: $body}' >"$tmp/payload.json"
id=""
page=1
while [ -z "$id" ] && [ "$page" -le 30 ]; do
  gh GET "$api/repos/$repo/issues/$pr/comments?per_page=100&page=$page"
  id=$(jq -r --arg m "$marker" '[.[] | select((.body // "") | contains($m))][0].id // empty' "$tmp/resp")
  [ "$(jq length "$tmp/resp")" -eq 100 ] || break
  page=$((page + 1))
done
if [ -n "$id" ]; then
  gh PATCH "$api/repos/$repo/issues/comments/$id" "$tmp/payload.json"
  pp_log "updated comment $id on #$pr"
else
  gh POST "$api/repos/$repo/issues/$pr/comments" "$tmp/payload.json"
  pp_log "posted a comment on #$pr"
fi
pp_output comment-url "$(jq -r '.html_url // empty' "$tmp/resp")"

case $fail_on/$budget in
fail/fail | warn/fail) pp_die "a budget failed (see the PR comment)" ;;
warn/warn) pp_die "a budget warned, and fail-on is warn (see the PR comment)" ;;
esac
