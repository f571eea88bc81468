#!/usr/bin/env bash
# build: fetches the results branch and notes, then builds the site.
#
# Environment (the action's inputs):
#   PP_CONFIG          config file (default: perfpages.toml in the working directory)
#   PP_OUT             site folder (default public)
#   PP_BASE_URL        the site's URL, e.g. the base_url output of actions/configure-pages
#                      (default: PERFPAGES_BASE_URL, else the config's site.base_url)
#   PP_CACHE           analysis cache folder, kept between runs by the action's cache step
#                      (default .perfpages-cache; "off" for none)
#   PP_STRICT          true: fail on any warning
#   PP_SHARD           i/n: build shard i of n alone (a matrix job of a sharded build); the
#                      out folder then holds the shard's files and partial site model, for
#                      merge.sh (upload it with actions/upload-artifact)
#   PP_RESULTS_BRANCH  results branch to fetch first (default perf-results; "" for none)
#   PP_REMOTE          remote (default origin)
# Outputs: out (the site folder).
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pp_require git "$PERFPAGES"
if git rev-parse --git-dir >/dev/null 2>&1; then
  pp_fetch_results "${PP_REMOTE:-origin}" "${PP_RESULTS_BRANCH-perf-results}"
fi

out=${PP_OUT:-public}
args=(build -out "$out" -cache "${PP_CACHE:-.perfpages-cache}")
[ -z "${PP_CONFIG:-}" ] || args+=(-config "$PP_CONFIG")
[ -z "${PP_BASE_URL:-}" ] || args+=(-base-url "$PP_BASE_URL")
[ "${PP_STRICT:-false}" != true ] || args+=(-strict)
[ -z "${PP_SHARD:-}" ] || args+=(-shard "$PP_SHARD")
"$PERFPAGES" "${args[@]}" || pp_die "build: perfpages build failed (see above)"
pp_output out "$out"
