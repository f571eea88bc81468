#!/usr/bin/env bash
# merge: the last job of a sharded build — puts the shards' output folders
# (build.sh with a shard input, brought here by actions/download-artifact)
# together into the site. It reads no results: no results branch is
# fetched.
#
# Environment (the action's inputs):
#   PP_SHARDS          the shards' output folders, separated by spaces or newlines
#                      (globs are expanded: shards/*)
#   PP_CONFIG          config file (default: perfpages.toml in the working directory)
#   PP_OUT             site folder (default public)
#   PP_BASE_URL        the site's URL (as for build.sh; it must be the shards' too)
#   PP_CACHE           cache folder of the merge's store (default .perfpages-cache; "off")
#   PP_STRICT          true: fail on any warning
# Outputs: out (the site folder).
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pp_require "$PERFPAGES"
[ -n "${PP_SHARDS:-}" ] || pp_die "merge: no shards (input shards: the folders of the build -shard jobs)"
shards=()
for s in $PP_SHARDS; do
  shards+=("$s")
done

out=${PP_OUT:-public}
args=(merge -out "$out" -cache "${PP_CACHE:-.perfpages-cache}")
[ -z "${PP_CONFIG:-}" ] || args+=(-config "$PP_CONFIG")
[ -z "${PP_BASE_URL:-}" ] || args+=(-base-url "$PP_BASE_URL")
[ "${PP_STRICT:-false}" != true ] || args+=(-strict)
"$PERFPAGES" "${args[@]}" "${shards[@]}" || pp_die "merge: perfpages merge failed (see above)"
pp_output out "$out"
