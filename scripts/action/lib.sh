# shellcheck shell=bash
# Shared by the scripts of the perfpages GitHub Action (action.yml). They
# run as steps of the composite action, and as plain scripts in a local
# checkout (the tests in action_test.go run them against a scratch
# repository with a bare remote): every input comes from an environment
# variable, every tool from PATH (bash, git, and for comment curl and jq).

set -euo pipefail

# pp_die prints an error (a GitHub annotation in Actions) and exits 1.
pp_die() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then
    echo "::error title=perfpages::$*" >&2
  else
    echo "perfpages action: $*" >&2
  fi
  exit 1
}

# pp_warn prints a warning (a GitHub annotation in Actions).
pp_warn() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then
    echo "::warning title=perfpages::$*" >&2
  else
    echo "perfpages action: warning: $*" >&2
  fi
}

pp_log() { echo "perfpages action: $*" >&2; }

# pp_output sets a step output (name=value) when running in Actions.
pp_output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

# PERFPAGES is the perfpages binary (the action's install step puts it on
# PATH).
PERFPAGES=${PERFPAGES:-perfpages}

pp_require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || pp_die "$tool is required but not installed"
  done
}

# pp_in_repo fails unless the current folder is inside a git repository.
pp_in_repo() {
  git rev-parse --git-dir >/dev/null 2>&1 ||
    pp_die "$(pwd) is not a git repository: check out the repository first (actions/checkout with fetch-depth: 0)"
}

# pp_fetch_results fetches the results branch as refs/remotes/REMOTE/BRANCH
# (which a config's ref = "BRANCH" finds) and the notes refs, so a build
# sees what other jobs recorded. A branch or notes that do not exist yet
# are not an error: the build says what is missing.
pp_fetch_results() {
  local remote=$1 branch=$2
  if [ -n "$branch" ]; then
    if ! git fetch --quiet "$remote" "+refs/heads/$branch:refs/remotes/$remote/$branch" 2>/dev/null; then
      pp_warn "could not fetch the results branch $branch from $remote (not recorded yet?)"
    fi
  fi
  git fetch --quiet "$remote" '+refs/notes/*:refs/notes/*' 2>/dev/null || true
}
