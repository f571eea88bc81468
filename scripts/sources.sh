#!/usr/bin/env bash
# sources.sh [SIZE] [DIR] — what one new commit's results cost in each kind
# of source, on the same generated data (SIZE S, the default, or M).
#
# It generates SIZE with `perfpages demo` (kept in DIR, default
# /tmp/perfpages-sources/SIZE), takes one machine's archives (one per
# artifact, so that each fits in a git note), and lays them out five ways:
#
#   dir      a folder of archives                      dir = "results"
#   git      a branch, one commit per archive added    git = "git.git", ref = "perf-results", path = "results"
#   notes    a notes ref, one commit per note added    git = "notes.git", notes = "refs/notes/perf"
#   data.js  github-action-benchmark's file, rewritten git = "gab.git", ref = "gh-pages", path = "dev/bench", format = "gab"
#            once per main-line commit (one value per series: its median)
#   asv      asv's results folder (demo -format asv of the same SIZE; its own values)
#
# For each it measures three builds: cold (all but the newest commit's
# results), +1 (the newest added: the nightly case) and unchanged (the same
# input again: nothing written), with wall time, CPU time, max RSS, the
# site, the files written, the archives decoded and the git blobs read
# (scripts/measure.sh). Requires GNU time, GNU find, git and python3.
set -euo pipefail

size=${1:-S}
cd "$(dirname "$0")/.."
. scripts/measure.sh
root=${2:-/tmp/perfpages-sources/$size}
mkdir -p "$root"
root=$(cd "$root" && pwd)
bin=$root/perfpages
go build -o "$bin" ./cmd/perfpages

gen=$root/gen
if [ ! -f "$gen/perfpages.toml" ]; then
  echo "generating $size into $gen …" >&2
  rm -rf "$gen"
  "$bin" demo -size "$size" -format json -out "$gen" >&2
fi
machine=$(cd "$gen/results" && ls | head -n 1)
# The machine's archives, oldest first (their names start with the date).
mapfile -t archives < <(cd "$gen/results/$machine" && ls | sort)
n=${#archives[@]}
newest=${archives[$((n - 1))]}
echo "$n archives of $machine; the newest: $newest" >&2

# fast_import_files REF PREFIX NAME_CMD: a git fast-import stream that
# commits each archive (oldest first) at PREFIX/<name> on REF, where name
# is what NAME_CMD prints for the archive's path (its file name, or the
# sha of its artifact for a note).
fast_import_files() {
  local ref=$1 prefix=$2 namer=$3 i=0 f name size
  for f in "${archives[@]}"; do
    i=$((i + 1))
    name=$($namer "$gen/results/$machine/$f")
    size=$(stat -c %s "$gen/results/$machine/$f")
    printf 'commit %s\ncommitter bot <bot@example.org> %d +0000\ndata 7\nresults\n' "$ref" $((1700000000 + i * 3600))
    printf 'M 100644 inline %s%s\ndata %d\n' "$prefix" "$name" "$size"
    cat "$gen/results/$machine/$f"
    printf '\n'
  done
}
base_name() { basename "$1"; }
artifact_sha() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["artifact"]["id"])' "$1"; }

# gab_history: a fast-import stream of dev/bench/data.js on gh-pages, one
# version per main-line archive, each holding the entries of every
# main-line archive up to it (github-action-benchmark appends one).
gab_history() {
  python3 - "$gen/results/$machine" "${archives[@]}" <<'PY'
import json, statistics, sys
folder, names = sys.argv[1], sys.argv[2:]
entries = []
out = sys.stdout.buffer
for i, name in enumerate(names):
    a = json.load(open(f"{folder}/{name}"))
    art = a["artifact"]
    if art.get("kind", "commit") != "commit":
        continue
    benches = []
    for r in a["results"]:
        if not r.get("samples"):
            continue  # a failed benchmark: data.js has no such entry
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
        name_ = r["benchmark"] + (f" ({params})" if params else "") + " " + r["metric"]
        benches.append({"name": name_, "value": statistics.median(r["samples"]), "unit": r["unit"]})
    entries.append({"commit": {"author": {"name": "dev", "username": "dev"}, "id": art["id"], "message": art.get("title", ""),
                               "timestamp": art["date"], "url": "https://github.com/x/y/commit/" + art["id"]},
                    "date": 1700000000000 + i * 3600000, "tool": "customSmallerIsBetter", "benches": benches})
    data = ("window.BENCHMARK_DATA = " + json.dumps({"lastUpdate": entries[-1]["date"], "repoUrl": "https://github.com/x/y",
                                                    "entries": {"bench": entries}}, indent=2) + "\n").encode()
    out.write(b"commit refs/heads/gh-pages\ncommitter bot <bot@example.org> %d +0000\ndata 7\nresults\n" % (1700000000 + i * 3600))
    out.write(b"M 100644 inline dev/bench/data.js\ndata %d\n" % len(data) + data + b"\n")
PY
}

if [ ! -f "$root/layouts.done" ]; then
  echo "laying the archives out as a folder, a branch, notes and a data.js history …" >&2
  rm -rf "$root/dir" "$root/git.git" "$root/notes.git" "$root/gab.git" "$root/asv"
  mkdir -p "$root/dir/results"
  cp "$gen/results/$machine/"* "$root/dir/results/"
  git init -q --bare "$root/git.git"
  fast_import_files refs/heads/perf-results results/ base_name | git -C "$root/git.git" fast-import --quiet
  git init -q --bare "$root/notes.git"
  fast_import_files refs/notes/perf '' artifact_sha | git -C "$root/notes.git" fast-import --quiet
  git init -q --bare "$root/gab.git"
  gab_history | git -C "$root/gab.git" fast-import --quiet
  "$bin" demo -size "$size" -format asv -out "$root/asv" >&2
  git init -q --bare "$root/asv/project.git"
  git -C "$root/asv/project.git" fast-import --quiet <"$root/asv/project.fi"
  printf '[site]\ntitle = "sources: dir"\n\n[[sources]]\ndir = "results"\n' >"$root/dir/perfpages.toml"
  printf '[site]\ntitle = "sources: git"\n\n[[sources]]\ngit = "git.git"\nref = "perf-results"\npath = "results"\n' >"$root/git.toml"
  printf '[site]\ntitle = "sources: notes"\n\n[[sources]]\ngit = "notes.git"\nnotes = "refs/notes/perf"\n' >"$root/notes.toml"
  printf '[site]\ntitle = "sources: data.js"\n\n[[sources]]\ngit = "gab.git"\nref = "gh-pages"\npath = "dev/bench"\nformat = "gab"\n' >"$root/gab.toml"
  touch "$root/layouts.done"
fi

# The asv layout's newest result file: the project's main.
asv_machine=$(cd "$root/asv/results" && find . -mindepth 2 -name machine.json -printf '%h\n' | head -n 1)
asv_results=$root/asv/results/$asv_machine
asv_newest=$(git -C "$root/asv/project.git" rev-parse main)
asv_file=$(cd "$asv_results" && ls "${asv_newest:0:8}"-*.json 2>/dev/null || true)
held=$root/held
mkdir -p "$held"
[ -f "$held/$newest" ] && mv "$held/$newest" "$root/dir/results/"
[ -n "$(ls "$held")" ] && mv "$held"/*.json "$asv_results/" 2>/dev/null || true
asv_file=${asv_file:-$(cd "$asv_results" && ls "${asv_newest:0:8}"-*.json)}

# back_one REPO REF: moves REF to its parent, printing the tip it had.
back_one() {
  git -C "$1" rev-parse --verify "$2" && git -C "$1" update-ref "$2" "$2~1"
}

measure_header
run() {
  local kind=$1 config=$2 out=$root/site-$1 before=$3 after=$4
  rm -rf "$out" "$root/.site-$kind."* "$root/.perfpages-cache"
  $before
  measure_build "$kind cold" "$bin" "$config" "$out" "$root"
  $after
  measure_build "$kind +1" "$bin" "$config" "$out" "$root"
  measure_build "$kind same" "$bin" "$config" "$out" "$root"
}
dir_before() { mv "$root/dir/results/$newest" "$held/"; }
dir_after() { mv "$held/$newest" "$root/dir/results/"; }
git_tip='' notes_tip='' gab_tip=''
git_before() { git_tip=$(back_one "$root/git.git" refs/heads/perf-results); }
git_after() { git -C "$root/git.git" update-ref refs/heads/perf-results "$git_tip"; }
notes_before() { notes_tip=$(back_one "$root/notes.git" refs/notes/perf); }
notes_after() { git -C "$root/notes.git" update-ref refs/notes/perf "$notes_tip"; }
gab_before() { gab_tip=$(back_one "$root/gab.git" refs/heads/gh-pages); }
gab_after() { git -C "$root/gab.git" update-ref refs/heads/gh-pages "$gab_tip"; }
asv_before() { mv "$asv_results/$asv_file" "$held/"; }
asv_after() { mv "$held/$asv_file" "$asv_results/"; }

run dir "$root/dir/perfpages.toml" dir_before dir_after
run git "$root/git.toml" git_before git_after
run notes "$root/notes.toml" notes_before notes_after
run data.js "$root/gab.toml" gab_before gab_after
run asv "$root/asv/perfpages.toml" asv_before asv_after
