# measure.sh — sourced by scale.sh, sources.sh and sidebyside.sh: one build measured, and a commit held back.
#
# measure_header prints the column heads; measure_build NAME BIN CONFIG OUT
# LOGDIR runs `BIN build -timings -config CONFIG -out OUT` under GNU time
# (log in LOGDIR/NAME.log) and prints one row: wall time, CPU time
# (user+sys), max RSS, the site's apparent bytes, its files, the files the
# build created or modified, the archives or result files it decoded and
# the git blobs it read (both from -timings; "-" when the build read none
# or did not say). A failed build prints its log and exits the script.

measure_header() {
  printf '%-12s %9s %9s %9s %11s %7s %8s  %-12s %s\n' build wall cpu "max RSS" "site bytes" files written decoded "git read"
}

measure_build() {
  local name=$1 bin=$2 config=$3 out=$4 logs=$5
  local stamp=$logs/.stamp log=$logs/$name.log
  touch "$stamp"; sleep 1
  /usr/bin/time -f '%e %U %S %M' -o "$logs/time" "$bin" build -timings -config "$config" -out "$out" >"$log" 2>&1 || {
    echo "build $name failed:" >&2; cat "$log" >&2; exit 1; }
  local wall user sys rss bytes files written decoded reads
  read -r wall user sys rss < <(tail -n 1 "$logs/time")
  bytes=$(du -sb --apparent-size "$out" | cut -f1)
  files=$(find "$out" -type f | wc -l)
  written=$(find "$out" -type f -newer "$stamp" | wc -l)
  decoded=$(sed -n 's/^perfpages: files *\([0-9]* of [0-9]*\) decoded.*/\1/p' "$log" | tr ' ' '/' | sed 's#/of/#/#')
  reads=$(sed -n 's/^perfpages: git *\([0-9][0-9]*\) blobs read.*/\1/p' "$log")
  printf '%-12s %8.2fs %8.2fs %7dMB %11d %7d %8d  %-12s %s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024)) "$bytes" "$files" "$written" "${decoded:--}" "${reads:--}"
}

# hold_commit RESULTS HELD N moves the archives of the Nth newest commit
# (archive names start with its date) out of the folder RESULTS into
# HELD, keeping their paths; unhold_commit RESULTS HELD puts back the
# oldest commit held.
hold_commit() {
  local stamp
  stamp=$(cd "$1" && find . -type f -printf '%f\n' | cut -c1-17 | sort -u | tail -n "$3" | head -n 1)
  (cd "$1" && find . -type f -name "$stamp*") | while read -r f; do
    mkdir -p "$2/$(dirname "$f")"; mv "$1/$f" "$2/$f"
  done
}
unhold_commit() {
  local stamp
  stamp=$(cd "$2" && find . -type f -printf '%f\n' | cut -c1-17 | sort -u | head -n 1)
  (cd "$2" && find . -type f -name "$stamp*") | while read -r f; do
    mkdir -p "$1/$(dirname "$f")"; mv "$2/$f" "$1/$f"
  done
}
