#!/usr/bin/env bash
# verdicts.sh — how often the headline verdict flags the main-line commits
# of real histories: the share of main-line commits flagged on each (the
# real-histories table of generator/planted/README.md).
#
# For each CONFIG (a perfpages.toml whose sources point at a fetched
# data.js or asv results folder), it loads the site as `perfpages build`
# does, compares every main-line commit with its parent (the /commit/
# pages, analysis.Comparer.Consecutive) under the site's model and under
# model rustc-perf, and prints:
#
#   - the share of commits with a relevant row, and with a definitely
#     relevant metric (what the weekly triage report keeps by default);
#   - relevant rows by significance_basis, and the share of them on young
#     series (fewer than [analysis] history values of history);
#   - the share of relevant rows undone at the next commit: the same
#     series is relevant there too, the other way (a spike, or a
#     two-level runner switching back).
#
# It runs generator/planted's TestVerdicts (in-process, one load per
# site), then TestHeadVerdicts: what the headline said of each commit when
# it was the newest, and how much of it the whole history kept; scripts/relevant-count.sh gives per-comparison counts through the
# CLI of any perfpages binary instead.
#
#   scripts/verdicts.sh CONFIG...
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 CONFIG..." >&2
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
paths=()
for c in "$@"; do
  paths+=("$(cd "$(dirname "$c")" && pwd)/$(basename "$c")")
done
list=$(IFS=:; echo "${paths[*]}")
cd "$here"
PLANTED_VERDICTS=$list go test -count=1 -timeout 60m -run '^(TestVerdicts|TestHeadVerdicts)$' -v ./generator/planted |
  sed -n 's/^        //p'
