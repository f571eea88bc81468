#!/usr/bin/env bash
# sidebyside.sh — two perfpages versions' nightly builds measured in turn,
# so that the machine's sitting moves both alike.
#
#   scripts/sidebyside.sh OLD NEW [SIZE] [ROUNDS] [DIR]
#
# OLD and NEW are git revisions of this repository (or paths to perfpages
# binaries); SIZE is a scale.sh size (default M), ROUNDS the nightly
# builds each (default 5), DIR where the data, sites and stores go
# (default /tmp/perfpages-sidebyside/SIZE). Each version gets its own copy
# of the data set and its own site and store (a store is keyed by the
# binary, so one store cannot serve both): both build it cold with the
# newest ROUNDS+1 commits held back, then a held commit is put back into
# each copy and each builds it, the order of the two alternating from
# round to round. It prints scripts/measure.sh's row for every build and
# the mean wall and CPU time of each version's nightly builds. Figures
# from two sittings are not comparable (docs/internals.md, "Builds that
# scale": the sitting moves them by a fifth); the two columns of one run
# are.
set -euo pipefail

old=${1:?usage: scripts/sidebyside.sh OLD NEW [SIZE] [ROUNDS] [DIR]}
new=${2:?usage: scripts/sidebyside.sh OLD NEW [SIZE] [ROUNDS] [DIR]}
size=${3:-M}
rounds=${4:-5}
cd "$(dirname "$0")/.."
. scripts/measure.sh
root=${5:-/tmp/perfpages-sidebyside/$size}
mkdir -p "$root"
root=$(cd "$root" && pwd)

# binary REV NAME: REV built into root/NAME (a path to a binary is used as it is).
binary() {
  if [ -x "$1" ] && [ -f "$1" ]; then
    echo "$1"
    return
  fi
  local wt
  wt=$(mktemp -d)
  git worktree add -q --detach "$wt" "$1"
  (cd "$wt" && go build -o "$root/$2" ./cmd/perfpages)
  git worktree remove --force "$wt"
  echo "$root/$2"
}
bins=("$(binary "$old" perfpages-old)" "$(binary "$new" perfpages-new)")

# The data set, generated once by the new version.
if [ ! -f "$root/data/perfpages.toml" ]; then
  echo "generating $size into $root/data …" >&2
  rm -rf "$root/data"
  "${bins[1]}" demo -size "$size" -format json -gzip -out "$root/data" >&2
fi

# hold DIR N, unhold DIR: a commit's archives out of DIR/results into
# DIR/../held and back (measure.sh).
hold() { hold_commit "$1/results" "$1/../held" "$2"; }
unhold() { unhold_commit "$1/results" "$1/../held"; }

for v in old new; do
  rm -rf "${root:?}/$v"
  mkdir -p "$root/$v"
  cp -a "$root/data" "$root/$v/data"
  rm -rf "$root/$v/data/.perfpages-cache"
  for k in $(seq $((rounds + 1)) -1 1); do hold "$root/$v/data" "$k"; done
done

measure_header
run() { # run VERSION(0|1) NAME
  local v=old
  [ "$1" = 1 ] && v=new
  measure_build "$v $2" "${bins[$1]}" "$root/$v/data/perfpages.toml" "$root/$v/site" "$root/$v" | tee -a "$root/rows"
}
: >"$root/rows"
run 0 cold
run 1 cold
for v in old new; do unhold "$root/$v/data"; done
run 0 +1
run 1 +1
for i in $(seq 1 "$rounds"); do
  for v in old new; do unhold "$root/$v/data"; done
  if [ $((i % 2)) = 1 ]; then run 1 nightly; run 0 nightly; else run 0 nightly; run 1 nightly; fi
done
awk '$2 == "nightly" { w[$1] += $3; c[$1] += $4; n[$1]++ }
  END { for (v in n) printf "%s: nightly mean %.2f s wall, %.2f s CPU over %d builds\n", v, w[v] / n[v], c[v] / n[v], n[v] }' "$root/rows" | sort
