#!/usr/bin/env bash
# scale.sh SIZE [DIR] — measure perfpages at a data set size (S, M or L).
#
# It generates the data set (perfpages demo -size SIZE -format json -gzip;
# kept in DIR between runs, default /tmp/perfpages-scale/SIZE), holds back
# the newest commit's archives, then measures four builds:
#
#   cold        no site, no store: everything is computed
#   +1 commit   the held-back archives added: the nightly case
#   unchanged   the same input again: nothing to do, no file written
#   +1 again    for the variance of the nightly case (another commit held back and added)
#
# For each: wall time, CPU time (user+sys), max RSS, the site's size
# (apparent bytes), its files, and how many files the build wrote (new or
# modified). Requires GNU time (/usr/bin/time) and GNU find.
set -euo pipefail

size=${1:?usage: scripts/scale.sh S|M|L [DIR]}
root=${2:-/tmp/perfpages-scale/$size}
cd "$(dirname "$0")/.."

bin=$root/perfpages
mkdir -p "$root"
go build -o "$bin" ./cmd/perfpages

data=$root/data
if [ ! -f "$data/perfpages.toml" ]; then
  echo "generating $size into $data …" >&2
  rm -rf "$data"
  "$bin" demo -size "$size" -format json -gzip -out "$data" >&2
fi
out=$root/site
held=$root/held
rm -rf "$out" "$root/.site."* "$data/.perfpages-cache" "$root/.perfpages-cache"
mkdir -p "$held"
# Put back anything an interrupted run held back.
if [ -n "$(ls -A "$held")" ]; then
  (cd "$held" && find . -type f) | while read -r f; do mkdir -p "$data/results/$(dirname "$f")"; mv "$held/$f" "$data/results/$f"; done
fi

# hold N: moves the archives of the Nth newest commit (file names start
# with its date) out of the results.
hold() {
  local stamp
  stamp=$(cd "$data/results" && find . -type f -printf '%f\n' | cut -c1-17 | sort -u | tail -n "$1" | head -n 1)
  (cd "$data/results" && find . -type f -name "$stamp*") | while read -r f; do
    mkdir -p "$held/$(dirname "$f")"; mv "$data/results/$f" "$held/$f"
  done
}
unhold() {
  (cd "$held" && find . -type f) | while read -r f; do mkdir -p "$data/results/$(dirname "$f")"; mv "$held/$f" "$data/results/$f"; done
}

printf '%-10s %9s %9s %9s %11s %7s %8s\n' build wall cpu "max RSS" "site bytes" files written
measure() {
  local name=$1 stamp=$root/.stamp
  touch "$stamp"; sleep 1
  /usr/bin/time -f '%e %U %S %M' -o "$root/time" "$bin" build -config "$data/perfpages.toml" -out "$out" >"$root/$name.log" 2>&1 || {
    echo "build $name failed:" >&2; cat "$root/$name.log" >&2; exit 1; }
  read -r wall user sys rss <"$root/time"
  local bytes files written
  bytes=$(du -sb --apparent-size "$out" | cut -f1)
  files=$(find "$out" -type f | wc -l)
  written=$(find "$out" -type f -newer "$stamp" | wc -l)
  printf '%-10s %8.2fs %8.2fs %7dMB %11d %7d %8d\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024)) "$bytes" "$files" "$written"
}

hold 2; hold 1
measure cold
(cd "$held" && find . -type f -name "$(cd "$held" && find . -type f -printf '%f\n' | cut -c1-17 | sort -u | head -n 1)*") | while read -r f; do
  mkdir -p "$data/results/$(dirname "$f")"; mv "$held/$f" "$data/results/$f"; done
measure +1
measure unchanged
unhold
measure '+1 again'
