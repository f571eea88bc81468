#!/usr/bin/env bash
# Installs perfpages from the action's own checkout (or any checkout of the
# perfpages repository), so the action works in any repository without a
# released binary or a published module.
#
#   install.sh key     prints the cache key of the binary (a hash of the
#                      sources that go into it) and sets the step outputs
#                      key and dir
#   install.sh build   builds perfpages into the folder (unless a cached
#                      binary is there) and puts it on GITHUB_PATH
#
# Environment: GITHUB_ACTION_PATH (the checkout; default: this script's
# repository), PERFPAGES_BIN_DIR (default $RUNNER_TEMP/perfpages-bin),
# PERFPAGES_VERSION (the version the binary prints: the ref the action was
# used at).
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
bindir=${PERFPAGES_BIN_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/perfpages-bin}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi
}

case ${1:-} in
key)
  # Everything the binary is made of: Go sources, embedded themes and
  # content, the module files. Tests and test data are left out.
  hash=$(cd "$src" && find go.mod go.sum cmd analysis generator themes content -type f \
    ! -name '*_test.go' ! -path '*/testdata/*' -print0 | LC_ALL=C sort -z |
    while IFS= read -r -d '' f; do printf '%s\n' "$f"; cat "$f"; done | sha256 | cut -c1-20)
  key="perfpages-bin-$(uname -s)-$(uname -m)-$hash"
  pp_output key "$key"
  pp_output dir "$bindir"
  echo "$key"
  ;;
build)
  if [ -x "$bindir/perfpages" ]; then
    pp_log "using the cached $bindir/perfpages"
  else
    pp_require go
    version=${PERFPAGES_VERSION:-}
    case $version in
    "" | v[0-9]*) ;;
    *) version="devel-$version" ;; # a branch or a commit, not a release
    esac
    mkdir -p "$bindir"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-X main.buildVersion=$version" -o "$bindir/perfpages" ./cmd/perfpages) ||
      pp_die "building perfpages from $src failed"
  fi
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$bindir" >>"$GITHUB_PATH"
  fi
  "$bindir/perfpages" version
  ;;
*)
  pp_die "usage: install.sh key|build"
  ;;
esac
