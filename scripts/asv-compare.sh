#!/usr/bin/env bash
# asv-compare.sh [SIZE] [DIR] — perfpages and `asv publish` on the same asv results.
#
# Generates SIZE (S, M or L; default M: 1,000 commits × 2,000 benchmarks)
# in asv's layout with `perfpages demo -format asv` into DIR/data (default
# /tmp/perfpages-asv/SIZE; kept between runs), makes the git repository its
# results name (DIR/data/project.git, from project.fi: asv publish places
# results in history through it), holds back the two newest commits'
# result files, then measures
#
#   perfpages cold        no site, no store: every file is read and decoded
#   perfpages +1          the older held-back file added: the first build
#                         after a cold one, which has no spare site yet (see
#                         generator/write/spare.go) and links every file
#                         it keeps into a new folder
#   perfpages +1 again    the newest file added: a nightly build as every
#                         night after the first (it edits the spare site)
#   perfpages unchanged   the same input again: nothing to do, no file written
#   asv publish cold      the same results without the newest file
#   asv publish +1        with it (asv has no incremental mode: a full publish)
#
# printing for each the wall time, the CPU time (user+sys, children
# included: asv's step detection runs in a process pool), the max RSS (of
# the largest process), the output's size and files, and the files a
# perfpages build wrote. Wall time on a shared machine depends on the load;
# CPU time much less: compare the CPU columns when other jobs run.
#
# asv is run from its source with Debian's python3 (asv is not packaged
# there, and PyPI is not needed): ASV_SRC and ASV_RUNNER_SRC are
# checkouts of github.com/airspeed-velocity/asv and asv_runner (default:
# cloned into DIR/src from ASV_GIT and ASV_RUNNER_GIT, default GitHub, at
# ASV_REF, default v0.6.6, and ASV_RUNNER_REF, default v0.2.5; a local
# clone or bare repository does as well). They need
# python3-json5, python3-tabulate, python3-importlib-metadata,
# python3-packaging and python3-yaml (apt-get install), and g++ and
# python3-dev for asv's C++ step detection (_rangemedian), which asv
# publish would otherwise do in pure Python. SKIP_ASV=1 measures perfpages
# alone; PERFPAGES=path measures another perfpages binary (default: built
# from this checkout). Requires GNU time (/usr/bin/time) and GNU find.
set -euo pipefail

size=${1:-M}
cd "$(dirname "$0")/.."
root=${2:-/tmp/perfpages-asv/$size}
mkdir -p "$root"
root=$(cd "$root" && pwd)
python=${PYTHON:-/usr/bin/python3}

# The data set comes from this checkout's perfpages (demo -format asv);
# the builds measured are PERFPAGES's when it is set.
go build -o "$root/perfpages" ./cmd/perfpages
bin=${PERFPAGES:-$root/perfpages}

data=$root/data
if [ ! -f "$data/perfpages.toml" ] || [ ! -d "$data/project.git" ]; then
  echo "generating $size in asv's layout into $data …" >&2
  rm -rf "$data"
  "$root/perfpages" demo -size "$size" -format asv -out "$data" >&2
  git init -q --bare "$data/project.git"
  git -C "$data/project.git" fast-import --quiet <"$data/project.fi"
fi
machine=$(cd "$data/results" && find . -mindepth 2 -name machine.json -printf '%h\n' | head -n 1)
results=$data/results/$machine
held=$root/held
mkdir -p "$held"
# Put back anything an interrupted run held back.
find "$held" -type f -exec mv -t "$results" {} +
newest=$(git -C "$data/project.git" rev-parse main)
file=$(cd "$results" && ls "${newest:0:8}"-*.json)
before=$(git -C "$data/project.git" rev-parse main~1)
prev=$(cd "$results" && ls "${before:0:8}"-*.json)
echo "$(find "$results" -name '*-*.json' | wc -l) result files, $(du -sh --apparent-size "$data/results" | cut -f1) (newest: $file)" >&2

setup_asv() {
  local py=$root/asv-py src=$root/src ver
  [ -f "$py/asv/_rangemedian.done" ] && return
  if [ -z "${ASV_SRC:-}" ]; then
    ASV_SRC=$src/asv
    [ -d "$ASV_SRC" ] || git -c advice.detachedHead=false clone -q --depth 1 --branch "${ASV_REF:-v0.6.6}" "${ASV_GIT:-https://github.com/airspeed-velocity/asv}" "$ASV_SRC"
  fi
  if [ -z "${ASV_RUNNER_SRC:-}" ]; then
    ASV_RUNNER_SRC=$src/asv_runner
    [ -d "$ASV_RUNNER_SRC" ] || git -c advice.detachedHead=false clone -q --depth 1 --branch "${ASV_RUNNER_REF:-v0.2.5}" "${ASV_RUNNER_GIT:-https://github.com/airspeed-velocity/asv_runner}" "$ASV_RUNNER_SRC"
  fi
  rm -rf "$py"
  mkdir -p "$py"
  cp -r "$ASV_SRC/asv" "$py/asv"
  cp -r "$ASV_RUNNER_SRC/asv_runner" "$py/asv_runner"
  # importlib.metadata asks for the installed distributions' versions.
  ver=$(git -C "$ASV_SRC" describe --tags 2>/dev/null | sed 's/^v//; s/-.*//' || true)
  [ -n "$ver" ] || ver=$(echo "${ASV_REF:-v0.6.6}" | sed 's/^v//')
  mkdir -p "$py/asv-${ver:-0}.dist-info" "$py/asv_runner-0.dist-info"
  printf 'Metadata-Version: 2.1\nName: asv\nVersion: %s\n' "${ver:-0}" >"$py/asv-${ver:-0}.dist-info/METADATA"
  printf 'Metadata-Version: 2.1\nName: asv_runner\nVersion: 0\n' >"$py/asv_runner-0.dist-info/METADATA"
  g++ -O2 -shared -fPIC $("$python-config" --includes) "$py/asv/_rangemedian.cpp" \
    -o "$py/asv/_rangemedian$("$python-config" --extension-suffix)"
  PYTHONPATH=$py "$python" -c 'import asv._rangemedian' # asv must use its C++ step detection
  touch "$py/asv/_rangemedian.done"
}

printf '%-20s %9s %9s %9s %11s %7s %8s\n' build wall cpu "max RSS" "site bytes" files written
# measure NAME OUT CMD…: runs CMD under GNU time and prints a line.
measure() {
  local name=$1 out=$2 stamp=$root/.stamp log=$root/${1// /-}.log
  shift 2
  touch "$stamp"; sleep 1
  /usr/bin/time -f '%e %U %S %M' -o "$root/time" "$@" >"$log" 2>&1 || {
    echo "$name failed:" >&2; tail -n 30 "$log" >&2; exit 1; }
  read -r wall user sys rss < <(tail -n 1 "$root/time")
  local bytes files written cpu
  bytes=$(du -sb --apparent-size "$out" | cut -f1)
  files=$(find "$out" -type f | wc -l)
  written=$(find "$out" -type f -newer "$stamp" | wc -l)
  cpu=$(echo "$user + $sys" | bc)
  printf '%-20s %8.2fs %8.2fs %7dMB %11d %7d %8d\n' "$name" "$wall" "$cpu" $((rss / 1024)) "$bytes" "$files" "$written"
  echo "$name $wall $cpu" >>"$root/summary"
}

: >"$root/summary"
site=$root/site
rm -rf "$site" "$root/.site."* "$data/.perfpages-cache" "$root/.perfpages-cache"
mv "$results/$file" "$results/$prev" "$held/"
measure "perfpages cold" "$site" "$bin" build -timings -config "$data/perfpages.toml" -out "$site"
mv "$held/$prev" "$results/"
measure "perfpages +1" "$site" "$bin" build -timings -config "$data/perfpages.toml" -out "$site"
mv "$held/$file" "$results/"
measure "perfpages +1 again" "$site" "$bin" build -timings -config "$data/perfpages.toml" -out "$site"
measure "perfpages unchanged" "$site" "$bin" build -timings -config "$data/perfpages.toml" -out "$site"

if [ "${SKIP_ASV:-}" = 1 ]; then
  exit 0
fi
setup_asv
html=$root/asv-html
asv_publish=(env -C "$data" PYTHONPATH="$root/asv-py" "$python" -m asv publish --no-pull --html-dir "$html")
mv "$results/$file" "$held/"
measure "asv publish cold" "$html" "${asv_publish[@]}"
mv "$held/$file" "$results/"
measure "asv publish +1" "$html" "${asv_publish[@]}"

# column NAME COLUMN: the summary's COLUMN of the build named NAME exactly
# ("perfpages +1" is not "perfpages +1 again").
column() {
  awk -v n="$1" -v c="$2" '{name = $1; for (i = 2; i <= NF - 2; i++) name = name " " $i; if (name == n) print $(NF - 3 + c)}' "$root/summary"
}

# ratio A B COLUMN: how many times B's COLUMN (2 wall, 3 cpu) is A's.
ratio() {
  local a b
  a=$(column "$1" "$3")
  b=$(column "$2" "$3")
  echo "scale=1; $b / $a" | bc
}
echo
echo "asv publish / perfpages, cold: $(ratio 'perfpages cold' 'asv publish cold' 2)× wall, $(ratio 'perfpages cold' 'asv publish cold' 3)× CPU"
echo "asv publish / perfpages, +1:   $(ratio 'perfpages +1' 'asv publish +1' 2)× wall, $(ratio 'perfpages +1' 'asv publish +1' 3)× CPU (the first after a cold build)"
echo "asv publish / perfpages, +1 again: $(ratio 'perfpages +1 again' 'asv publish +1' 2)× wall, $(ratio 'perfpages +1 again' 'asv publish +1' 3)× CPU (every nightly build after it)"
