#!/usr/bin/env bash
# scale.sh SIZE [DIR] — measure perfpages at a data set size (S, M or L).
# scale.sh git [REPO REF PATH FORMAT] [-dir DIR] — measure a git history
# source: a data.js (or any results file) rewritten in many versions.
#
# The git case clones REPO (bare) into DIR (default
# /tmp/perfpages-scale/git), moves REF back to the version of PATH before
# its newest, and measures three builds of the source git = REPO, ref =
# REF, path = PATH, format = FORMAT:
#
#   cold        no site, no store: every version is read and folded
#   +1 version  REF moved to its newest version of PATH: the nightly case
#   unchanged   the same input again: nothing to do, no file written
#
# printing the columns of scripts/measure.sh (wall, CPU, max RSS, the
# site's size, files, files written, files decoded and git blobs read, the
# last two from perfpages build -timings). Without REPO it
# generates a history (python3): a github-action-benchmark data.js (tool
# cargo, two suites, 27 series, ± ranges) of VERSIONS versions (default
# 1000), one entry appended per version, shaped like hyperium/hyper's
# gh-pages.
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
# and, for S and M (for L with CI_CASES=1), the nightly as a CI runner that
# restores only what its cache keeps sees it:
#
#   +1 no site     the store kept, the site folder gone: every page rendered again
#   +1 restored    the last site restored beside the store by a copy (new inodes,
#                  as actions/cache's tar makes), as the action does
#
# For each: wall time, CPU time (user+sys), max RSS, the site's size
# (apparent bytes), its files, how many files the build wrote (new or
# modified) and how many archives it decoded (scripts/measure.sh).
# Requires GNU time (/usr/bin/time) and GNU find.
set -euo pipefail

size=${1:?usage: scripts/scale.sh S|M|L [DIR] | scripts/scale.sh git [REPO REF PATH FORMAT] [-dir DIR]}
cd "$(dirname "$0")/.."
. scripts/measure.sh

# gab_history N writes a git fast-import stream of N versions of
# dev/bench/data.js on refs/heads/gh-pages.
gab_history() {
  python3 - "$1" <<'PY'
import json, random, sys
n = int(sys.argv[1])
rng = random.Random(23)
names = ["http%d_%s_x%d_%s" % (h, k, x, s) for h in (1, 2) for k in ("consecutive", "parallel") for x in (1, 10) for s in ("empty", "100kb", "10mb")]
suites = {"end_to_end": names + ["http1_get", "http2_get"], "pipeline": ["hello_world_16"]}
base = {b: rng.uniform(2e4, 5e7) for bs in suites.values() for b in bs}
entries = {s: [] for s in suites}
out = sys.stdout.buffer
for v in range(n):
    sha = "%040x" % rng.getrandbits(160)
    ts = 1605500000 + v * 86400
    for s, bs in suites.items():
        benches = []
        for b in bs:
            x = base[b] * rng.uniform(0.97, 1.03)
            benches.append({"name": b, "value": round(x), "range": "± %d" % round(x * 0.05), "unit": "ns/iter"})
        entries[s].append({"commit": {"author": {"name": "dev", "username": "dev"}, "distinct": True, "id": sha,
                                      "message": "change %d (#%d)" % (v, 1000 + v), "timestamp": "2020-11-16T00:00:00Z",
                                      "url": "https://github.com/x/y/commit/" + sha},
                           "date": ts * 1000, "tool": "cargo", "benches": benches})
    data = ("window.BENCHMARK_DATA = " + json.dumps({"lastUpdate": ts * 1000, "repoUrl": "https://github.com/x/y", "entries": entries}, indent=2) + "\n").encode()
    msg = ("add benchmark result for %s\n" % sha).encode()
    out.write(b"commit refs/heads/gh-pages\ncommitter bot <bot@example.org> %d +0000\ndata %d\n" % (ts, len(msg)) + msg)
    out.write(b"M 100644 inline dev/bench/data.js\ndata %d\n" % len(data) + data + b"\n")
PY
}

if [ "$size" = git ]; then
  shift
  root=/tmp/perfpages-scale/git
  repo='' ref='' path='' format=''
  if [ $# -ge 4 ] && [ "$1" != -dir ]; then repo=$1 ref=$2 path=$3 format=$4; shift 4; fi
  if [ "${1:-}" = -dir ]; then root=${2:?-dir needs a folder}; fi
  mkdir -p "$root"
  root=$(cd "$root" && pwd)
  bin=$root/perfpages
  go build -o "$bin" ./cmd/perfpages
  clone=$root/repo.git
  rm -rf "$clone" "$root/site" "$root/.site."* "$root/.perfpages-cache"
  if [ -z "$repo" ]; then
    ref=gh-pages path=dev/bench format=gab
    echo "generating a data.js history of ${VERSIONS:-1000} versions into $clone …" >&2
    git init -q --bare "$clone"
    gab_history "${VERSIONS:-1000}" | git -C "$clone" fast-import --quiet
  else
    git clone -q --bare --no-tags "$repo" "$clone"
  fi
  tip=$(git -C "$clone" rev-parse --verify "$ref^{commit}")
  prev=$(git -C "$clone" log --format=%H -n 2 "$tip" -- "$path" | tail -n 1)
  echo "$(git -C "$clone" rev-list --count "$tip" -- "$path") versions of $path on $ref ($(du -sh "$clone" | cut -f1) of git)" >&2
  printf '[site]\ntitle = "git history scale"\n\n[[sources]]\ngit = "repo.git"\nref = "%s"\npath = "%s"\nformat = "%s"\n' \
    "$ref" "$path" "$format" >"$root/perfpages.toml"
  measure_header
  gmeasure() { measure_build "$1" "$bin" "$root/perfpages.toml" "$root/site" "$root"; }
  git -C "$clone" update-ref "refs/heads/$ref" "$prev"
  gmeasure cold
  git -C "$clone" update-ref "refs/heads/$ref" "$tip"
  gmeasure "+1"
  gmeasure unchanged
  exit 0
fi

root=${2:-/tmp/perfpages-scale/$size}

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

# hold N: moves the archives of the Nth newest commit out of the results.
hold() { hold_commit "$data/results" "$held" "$1"; }

measure_header
measure() { measure_build "$1" "$bin" "$data/perfpages.toml" "$out" "$root"; }

# unhold_oldest puts back the oldest commit held back.
unhold_oldest() { unhold_commit "$data/results" "$held"; }
ci=${CI_CASES:-$([ "$size" = L ] && echo 0 || echo 1)}
if [ "$ci" = 1 ]; then hold 4; hold 3; fi
hold 2; hold 1
measure cold
unhold_oldest
measure +1
measure unchanged
unhold_oldest
measure '+1 again'
if [ "$ci" = 1 ]; then
  rm -rf "$root/site.copy"
  cp -a "$out" "$root/site.copy"
  rm -rf "$out" "$root/.site."*
  unhold_oldest
  measure '+1 no site'
  rm -rf "$out" "$root/.site."*
  mv "$root/site.copy" "$out"
  unhold_oldest
  measure '+1 restored'
fi
