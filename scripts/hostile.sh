#!/usr/bin/env bash
# hostile.sh — hostile cases (the output guard, hostile inputs, what a build
# keeps), run against a fresh build of perfpages in a scratch folder. Each
# case prints one line: ok or FAIL, its name, and what perfpages said (the
# first line of its message). The script exits 1 when any case fails, and
# fails loudly, with a FAIL line, when a case cannot start: a missing tool,
# a command that never ran (a case that expects perfpages to refuse checks
# that perfpages itself refused, not that the shell could not run it). Every
# command a case runs through a shell is run with bash, never /bin/sh (dash
# has no `exec -a`). It needs bash, python3, mkfifo, GNU time
# (/usr/bin/time), pgrep and timeout; it takes one to three minutes.
#
#   scripts/hostile.sh [SCRATCH]     (default: a new temporary folder, removed at the end)
set -uo pipefail

# setup_fail NAME WHY: the script cannot start (a missing tool, no
# binary): a FAIL line and exit 1, never a pass.
setup_fail() {
  printf 'FAIL  %-24s cannot start: %s\n' "$1" "$2"
  exit 1
}

for tool in bash python3 mkfifo pgrep timeout git md5sum flock truncate diff; do
  command -v "$tool" >/dev/null 2>&1 || setup_fail setup "missing tool: $tool"
done
[ -x /usr/bin/time ] || setup_fail setup "missing tool: GNU time (/usr/bin/time)"

cd "$(dirname "$0")/.." || setup_fail setup "no repository root"
scratch=${1:-}
if [ -z "$scratch" ]; then
  scratch=$(mktemp -d) || setup_fail setup "no temporary folder"
  trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"
bin=$scratch/perfpages
go build -o "$bin" ./cmd/perfpages || setup_fail setup "go build ./cmd/perfpages failed"

failed=0
# cannot_start NAME WHY: one case cannot start (what it runs never ran):
# a FAIL line, and the other cases still run.
cannot_start() {
  printf 'FAIL  %-24s cannot start: %s\n' "$1" "$2"
  failed=1
}
# report NAME OK? OUTPUT-FILE: one line per case.
report() {
  local name=$1 ok=$2 out=${3:-/dev/null} said
  said=$(grep -m1 -v '^$' "$out" 2>/dev/null | cut -c1-150)
  if [ "$ok" = 1 ]; then
    printf 'ok    %-24s %s\n' "$name" "$said"
  else
    printf 'FAIL  %-24s %s\n' "$name" "$said"
    failed=1
  fi
}

# refused RC OUTPUT-FILE: perfpages ran and refused (exit 1 with its own
# "perfpages: …" message), rather than the shell failing to run it.
refused() { [ "$1" -eq 1 ] && grep -q '^perfpages: ' "$2"; }

# A project: a git work tree with a config and a few archives.
proj=$scratch/project
"$bin" demo -size S -format json -out "$proj" >/dev/null 2>&1 || setup_fail setup "perfpages demo failed"
(cd "$proj" && git init -q . && git add -A && git -c user.email=a@b -c user.name=a commit -qm init) || setup_fail setup "git init of the project failed"
[ -d "$proj/results" ] || setup_fail setup "the demo wrote no results"
snapshot() { (cd "$proj" && find . -path ./public -prune -o -path ./.perfpages-cache -prune -o -print | sort | md5sum); }
before=$(snapshot)
untouched() { [ "$(snapshot)" = "$before" ]; }

# 1. The output folder guard: the project, ".", the results folder and a
# plain file are refused with nothing touched; so are demo and import.
out=$scratch/out.txt
(cd "$proj" && "$bin" build -out "$PWD" >"$out" 2>&1); rc=$?
report guard-pwd "$(refused $rc "$out" && untouched && echo 1)" "$out"
printf '[site]\noutput = "."\n\n[[sources]]\ndir = "results"\n' >"$scratch/dot.toml"
cp "$scratch/dot.toml" "$proj/dot.toml"
(cd "$proj" && "$bin" build -config dot.toml >"$out" 2>&1); rc=$?
rm "$proj/dot.toml"
report guard-output-dot "$(refused $rc "$out" && untouched && echo 1)" "$out"
(cd "$proj" && "$bin" build -out results >"$out" 2>&1); rc=$?
report guard-results "$(refused $rc "$out" && untouched && echo 1)" "$out"
(cd "$proj" && "$bin" build -out perfpages.toml >"$out" 2>&1); rc=$?
report guard-file "$(refused $rc "$out" && untouched && echo 1)" "$out"
"$bin" demo -out "$proj" >"$out" 2>&1; rc=$?
report guard-demo "$(refused $rc "$out" && untouched && echo 1)" "$out"
printf 'BenchmarkX-8 100 10 ns/op\n' >"$scratch/x.txt"
"$bin" import -format gobench -artifact 1111111111111111111111111111111111111111 -date 2026-01-01T00:00:00Z -machine m -out "$proj/.git" "$scratch/x.txt" >"$out" 2>&1; rc=$?
report guard-import "$(refused $rc "$out" && untouched && echo 1)" "$out"

# 2. Killed builds leave nothing behind once a build succeeds.
(cd "$proj" && "$bin" build -out public >/dev/null 2>&1)
for i in 1 2 3 4 5 6 7 8; do
  (cd "$proj" && exec "$bin" build -cold -out public >/dev/null 2>&1) &
  pid=$!
  sleep "0.$((RANDOM % 9 + 1))"
  kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done
(cd "$proj" && "$bin" build -out public >"$out" 2>&1); rc=$?
left=$(find "$proj" -maxdepth 1 -name '.public.tmp-*' | wc -l)
report kill-9-leftovers "$([ $rc -eq 0 ] && [ "$left" -eq 0 ] && [ -f "$proj/public/index.html" ] && echo 1)" "$out"

# 3. Content that points outside its folder, devices, pipes and huge
# files are skipped with a warning naming them; nothing leaks.
site=$scratch/content-site
mkdir -p "$site/content"
cp -r "$proj/results" "$site/results"
printf '[site]\ntitle = "c"\ncontent = "content"\n\n[[sources]]\ndir = "results"\n' >"$site/perfpages.toml"
printf -- '---\ntitle: Fine\n---\nfine\n' >"$site/content/fine.md"
ln -s /etc/passwd "$site/content/passwd.md"
ln -s /proc/self/environ "$site/content/environ.md"
ln -s / "$site/content/root"
mkfifo "$site/content/pipe.md"
head -c 40000000 /dev/zero | tr '\0' 'a' >"$site/content/huge.md"
(cd "$site" && timeout -k 5 120 "$bin" build >"$out" 2>&1); rc=$?
named=1
for f in passwd.md environ.md pipe.md huge.md; do grep -q "$f" "$out" || named=0; done
leak=$(grep -rl 'root:x:0' "$site/public" 2>/dev/null | wc -l)
report content-escapes "$([ $rc -eq 0 ] && [ $named = 1 ] && [ "$leak" -eq 0 ] && [ -f "$site/public/fine/index.html" ] && echo 1)" "$out"

# 4. A gzip bomb (about 200 KB that inflates to 200 MB) and a 180 MB plain
# archive are skipped with a warning; the build's memory stays bounded.
bomb=$scratch/bomb
mkdir -p "$bomb/results"
cp -r "$proj/results/linux-x64-epyc" "$bomb/results/"
python3 - "$bomb/results/bomb.json.gz" "$bomb/results/big.json" <<'EOF'
import gzip, sys
head = b'{"schema": "perfpages.run.v1", "artifact": {"id": "' + b'b' * 40 + b'", "kind": "commit", "date": "2026-01-01T00:00:00Z"}, "machine": {"name": "m"}, "results": [{"benchmark": "'
with gzip.open(sys.argv[1], 'wb', compresslevel=9) as f:
    f.write(head)
    chunk = b'a' * (1 << 20)
    for _ in range(200):
        f.write(chunk)
    f.write(b'", "metric": "wall-time", "samples": [1]}]}')
with open(sys.argv[2], 'wb') as f:
    f.write(head)
    for _ in range(180):
        f.write(b'a' * (1 << 20))
    f.write(b'", "metric": "wall-time", "samples": [1]}]}')
EOF
printf '[site]\ntitle = "bomb"\n\n[[sources]]\ndir = "results"\n' >"$bomb/perfpages.toml"
(cd "$bomb" && /usr/bin/time -f '%M' -o "$scratch/rss" "$bin" build >"$out" 2>&1); rc=$?
rss=$(tail -1 "$scratch/rss")
gz=$(du -k "$bomb/results/bomb.json.gz" | cut -f1)
report input-bombs "$([ $rc -eq 0 ] && grep -q bomb.json.gz "$out" && grep -q big.json "$out" && [ "$rss" -lt 1048576 ] && echo 1)" "$out"
echo "      (bomb.json.gz is $gz KB; the build's max RSS was $((rss / 1024)) MB)"

# 5. Names that slug to one path are told apart, with warnings naming the
# inputs; a benchmark named index.html and colliding content pages do not
# fail the build.
coll=$scratch/collide
mkdir -p "$coll/results" "$coll/content/about"
for i in 1 2; do
  python3 - "$coll/results/run$i.json" "$i" <<'EOF'
import json, sys
i = int(sys.argv[2])
names = ["http router", "http-router", "V1.0", "v1.0", "index.html", "404.html", "../../etc", "a/b", "CON"]
json.dump({"schema": "perfpages.run.v1",
           "artifact": {"id": str(i) * 40, "kind": "commit", "date": "2026-01-0%dT00:00:00Z" % i, "branch": "main",
                        "parents": [] if i == 1 else ["1" * 40]},
           "machine": {"name": "m"},
           "results": [{"benchmark": n, "metric": "wall-time", "unit": "ns", "samples": [100 * i + k]} for k, n in enumerate(names)]},
          open(sys.argv[1], "w"))
EOF
done
printf -- '---\ntitle: About\n---\na\n' >"$coll/content/about.md"
printf -- '---\ntitle: About too\n---\nb\n' >"$coll/content/about/index.md"
printf -- '---\ntitle: Not found\n---\nc\n' >"$coll/content/404.html.md"
printf '[site]\ntitle = "collide"\ncontent = "content"\n\n[[sources]]\ndir = "results"\n' >"$coll/perfpages.toml"
(cd "$coll" && "$bin" build >"$out" 2>&1); rc=$?
benches=$(find "$coll/public/bench" -name index.html | wc -l)
report colliding-names "$([ $rc -eq 0 ] && grep -q 'about' "$out" && [ "$benches" -ge 10 ] && ! find "$coll/public" -path '*etc*' -name passwd | grep -q . && echo 1)" "$out"
echo "      ($benches bench pages for 9 names + the index; $(grep -c warning "$out") warnings)"

# 6. Markdown written from data cannot inject headings, links, images,
# mentions or HTML (the PR comment a bot posts).
inj=$scratch/inject
mkdir -p "$inj/results"
for i in 1 2; do
  python3 - "$inj/results/run$i.json" "$i" <<'EOF'
import json, sys
i = int(sys.argv[2])
evil = "# Owned [click](https://evil.example) ![x](https://evil.example/p.png) @admin <img src=x onerror=alert(1)> | col |"
json.dump({"schema": "perfpages.run.v1",
           "artifact": {"id": str(i) * 40, "kind": "commit", "date": "2026-01-0%dT00:00:00Z" % i, "branch": "main",
                        "title": evil, "parents": [] if i == 1 else ["1" * 40]},
           "machine": {"name": "<b>m</b> @team"},
           "results": [{"benchmark": evil, "params": {"k": "[v](javascript:x)"}, "metric": "wall-time", "unit": "ns",
                        "samples": [100.0 * i, 101.0 * i, 99.0 * i, 100.5 * i, 99.5 * i]},
                       {"benchmark": "fails", "metric": "wall-time", "unit": "ns", "error": "<script>x</script> ## err"} if i == 2 else
                       {"benchmark": "fails", "metric": "wall-time", "unit": "ns", "samples": [1]}]},
          open(sys.argv[1], "w"))
EOF
done
printf '[site]\ntitle = "inject"\n\n[[sources]]\ndir = "results"\n' >"$inj/perfpages.toml"
(cd "$inj" && "$bin" compare -format markdown 1111111111111111111111111111111111111111 2222222222222222222222222222222222222222 >"$scratch/comment.md" 2>"$out"); rc=$?
# Code spans show their text literally: look outside them.
bad=$(sed 's/`[^`]*`//g' "$scratch/comment.md" | grep -cE '<img|<script|<b>|\]\(https://evil|\]\(javascript|^#+ Owned|(^|[^\\])@admin')
report markdown-injection "$([ $rc -le 1 ] && [ -s "$scratch/comment.md" ] && [ "$bad" -eq 0 ] && echo 1)" "$scratch/comment.md"

# 7. perfpages run leaves no process behind: a sample that starts a
# background child, and -timeout. The samples run under bash (dash has no
# `exec -a`: there nothing would start and the case would pass vacuously);
# each writes the pid it started, which proves it ran, and must be gone.
tag=perfpages-hostile-$$
pids=$scratch/run-pids
: >"$pids"
(cd "$scratch" && "$bin" run -name bg -repeat 2 -out run.json -- bash -c "exec -a $tag sleep 300 & echo \$! >>'$pids'; echo started" >"$out" 2>&1)
(cd "$scratch" && "$bin" run -name slow -repeat 1 -timeout 1s -allow-nonzero -out run2.json -- bash -c "echo \$\$ >>'$pids'; exec -a $tag-t sleep 300" >>"$out" 2>&1)
sleep 0.5
started=$(wc -l <"$pids")
alive=0
# A zombie is dead: killed, waiting for whichever process it was handed
# to (an init that reaps late, in containers) to reap it.
for pid in $(cat "$pids"); do
  state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
  [ -n "$state" ] && [ "${state#Z}" = "$state" ] && alive=$((alive + 1))
done
alive=$((alive + $(pgrep -f "$tag" | wc -l)))
timed_out=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["samples"][0]["timed_out"])' "$scratch/run2.json" 2>/dev/null)
if [ "$started" -ne 3 ]; then
  cannot_start run-process-group "$started of 3 samples started a process: $(head -c 150 "$out")"
else
  report run-process-group "$([ "$alive" -eq 0 ] && [ "$timed_out" = True ] && echo 1)" "$out"
fi
for pid in $(cat "$pids"); do kill "$pid" 2>/dev/null; done

# 8. import never overwrites silently: machines "ci linux" and "ci/linux".
imp=$scratch/import
mkdir -p "$imp"
printf 'BenchmarkX-8 100 10 ns/op\n' >"$imp/a.txt"
printf 'BenchmarkX-8 100 20 ns/op\n' >"$imp/b.txt"
common="-format gobench -artifact 3333333333333333333333333333333333333333 -date 2026-01-01T00:00:00Z -out $imp/results"
"$bin" import $common -machine "ci linux" "$imp/a.txt" >"$out" 2>&1
"$bin" import $common -machine "ci/linux" "$imp/b.txt" >>"$out" 2>&1; rc=$?
n=$(find "$imp/results" -type f | wc -l)
report import-collision "$({ refused $rc "$out" && [ "$n" -eq 1 ]; } || { [ $rc -eq 0 ] && [ "$n" -eq 2 ]; } && echo 1)" "$out"
echo "      ($n archives; second import exit $rc)"

# 9. Invalid UTF-8 in a JSON archive is a warning with file:line.
utf=$scratch/utf8
mkdir -p "$utf/results"
cp "$proj/results/linux-x64-epyc/$(ls "$proj/results/linux-x64-epyc" | head -1)" "$utf/results/good.json"
python3 - "$utf/results/bad.json" <<'EOF'
import sys
open(sys.argv[1], 'wb').write(b'{"schema": "perfpages.run.v1",\n "artifact": {"id": "' + b'c' * 40 + b'", "kind": "commit", "date": "2026-01-01T00:00:00Z", "title": "caf\xe9"},\n "machine": {"name": "m"},\n "results": [{"benchmark": "x", "metric": "wall-time", "samples": [1]}]}\n')
EOF
printf '[site]\ntitle = "utf8"\n\n[[sources]]\ndir = "results"\n' >"$utf/perfpages.toml"
(cd "$utf" && "$bin" build >"$out" 2>&1); rc=$?
report invalid-utf8 "$([ $rc -eq 0 ] && grep -q 'bad.json:2' "$out" && echo 1)" "$out"

# ---- Inputs the commands never trust: caps, pipes, receipts, serve, names, encodings ----

# 10. run -output-cap has a ceiling (1 MiB): above it run refuses before
# the command starts; at it, the receipt keeps exactly 1 MiB of output.
marker=$scratch/cap-ran
(cd "$scratch" && "$bin" run -name cap -output-cap 1099511627776 -out cap.json -- bash -c "touch '$marker'" >"$out" 2>&1); rc=$?
refusedcap=$(refused $rc "$out" && grep -q '1 MiB' "$out" && [ ! -e "$marker" ] && [ ! -e "$scratch/cap.json" ] && echo 1)
(cd "$scratch" && "$bin" run -name cap -output-cap 1048576 -repeat 1 -out cap.json -- bash -c "head -c 2000000 /dev/zero | tr '\\0' a; touch '$marker'" >/dev/null 2>&1)
kept=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["samples"][0]["stdout"]))' "$scratch/cap.json" 2>/dev/null)
report run-output-cap "$([ "$refusedcap" = 1 ] && [ -e "$marker" ] && [ "$kept" = 1048576 ] && echo 1)" "$out"

# 11. check never blocks on its inputs: a named pipe and a link to
# /dev/zero are refused at once, by name and kind.
chk=$scratch/check
mkdir -p "$chk"
(cd "$chk" && "$bin" run -name chk -repeat 3 -out base.json -- bash -c 'exit 0' >/dev/null 2>&1) || cannot_start check-fifo-device "perfpages run wrote no receipt"
mkfifo "$chk/fifo.json"
ln -s /dev/zero "$chk/zero.json"
(cd "$chk" && timeout -k 5 20 "$bin" check -baseline base.json -current fifo.json -out-dir "$chk/out" >"$out" 2>&1); rc=$?
(cd "$chk" && timeout -k 5 20 "$bin" check -baseline zero.json -current base.json -out-dir "$chk/out" >"$scratch/out2.txt" 2>&1); rc2=$?
report check-fifo-device "$(refused $rc "$out" && grep -q 'fifo.json: a named pipe, not a regular file' "$out" &&
  refused $rc2 "$scratch/out2.txt" && grep -q 'zero.json: a symbolic link to a device' "$scratch/out2.txt" && echo 1)" "$out"

# 12. check judges a receipt by its samples, not by its stats block: a
# current run twice as slow whose stats claim the baseline's numbers
# fails, with a warning naming the file.
python3 - "$chk/base.json" "$chk/forged.json" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for s, v in zip(base["samples"], [100, 101, 99]):
    s["wall_ms"] = v
base["stats"]["wall_ms"] = {"median": 100, "min": 99, "max": 101}
json.dump(base, open(sys.argv[1], "w"))
for s, v in zip(base["samples"], [200, 201, 199]):
    s["wall_ms"] = v
json.dump(base, open(sys.argv[2], "w"))  # stats still say 100
PY
(cd "$chk" && timeout -k 5 20 "$bin" check -baseline base.json -current forged.json -out-dir "$chk/out" >"$scratch/out2.txt" 2>"$out"); rc=$?
report check-stats-forged "$([ $rc -eq 2 ] && grep -q 'forged.json: the stats block disagrees with the samples (wall_ms median 100 vs 200' "$out" && echo 1)" "$out"

# 13. serve bounds idle connections and lists no folder: a folder without
# index.html is a 404 showing the site's 404.html; a kept-alive
# connection left idle and one that never sends a request are closed.
(cd "$proj" && exec "$bin" serve -addr 127.0.0.1:0 -poll 1h >"$scratch/serve.out" 2>&1) &
serve=$!
url=""
for _ in $(seq 1 120); do
  url=$(grep -o 'http://[^ ]*' "$scratch/serve.out" 2>/dev/null | head -1)
  [ -n "$url" ] && break
  sleep 0.5
done
if [ -z "$url" ]; then
  kill "$serve" 2>/dev/null; wait "$serve" 2>/dev/null
  cannot_start serve-timeouts "perfpages serve printed no address: $(head -c 150 "$scratch/serve.out")"
else
  python3 - "$url" >"$out" 2>&1 <<'PY'
import socket, sys, threading, time, urllib.error, urllib.parse, urllib.request
url = sys.argv[1]
problems = []
for folder in ("data/", "assets/"):
    try:
        urllib.request.urlopen(url + folder)
        problems.append(folder + " answered 200")
    except urllib.error.HTTPError as e:
        body = e.read().decode("utf-8", "replace")
        if e.code != 404 or "<pre>" in body or "<html" not in body:
            problems.append("%s: %d, not the site's 404 page" % (folder, e.code))
u = urllib.parse.urlparse(url)
closed = {}
def idle(name, request):
    s = socket.create_connection((u.hostname, u.port))
    s.settimeout(60)
    start = time.time()
    if request:
        s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (u.path, u.netloc)).encode())
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            chunk = None
        if not chunk:
            break
        data += chunk
    closed[name] = (chunk is not None, time.time() - start, data[:15])
threads = [threading.Thread(target=idle, args=a) for a in (("kept-alive", True), ("silent", False))]
for t in threads: t.start()
for t in threads: t.join()
for name, (ok, secs, head) in sorted(closed.items()):
    if not ok or secs > 30:
        problems.append("%s connection still open after %.0f s" % (name, secs))
if not closed["kept-alive"][2].startswith(b"HTTP/1.1 200"):
    problems.append("the kept-alive request got %r" % closed["kept-alive"][2])
print("; ".join(problems) if problems else
      "folders without index.html: 404; idle connections closed after %.0f s (kept alive) and %.0f s (silent)" % (closed["kept-alive"][1], closed["silent"][1]))
sys.exit(1 if problems else 0)
PY
  rc=$?
  kill "$serve" 2>/dev/null; wait "$serve" 2>/dev/null
  report serve-timeouts "$([ $rc -eq 0 ] && echo 1)" "$out"
fi

# 14. Names are inert: a newline in a file or benchmark name forges no
# log line, escapes reach no terminal, and no right-to-left override
# reaches a page, a data file or the text and Markdown comparisons.
names=$scratch/names
mkdir -p "$names/results"
python3 - "$names/results" <<'PY'
import json, os, sys
d = sys.argv[1]
for i in (1, 2):
    json.dump({"schema": "perfpages.run.v1",
               "artifact": {"id": str(i) * 40, "kind": "commit", "date": "2026-01-0%dT00:00:00Z" % i, "branch": "main",
                            "title": "t\x1b]0;pwned\x07 \u202egnp.exe", "parents": [] if i == 1 else ["1" * 40]},
               "machine": {"name": "m\nperfpages: note: forged machine"},
               "results": [{"benchmark": "evil\u202etxt.exe\x1b[2J", "params": {"k\u2066": "v\u200f"}, "metric": "wall-time", "unit": "ns",
                            "samples": [100.0 * i, 101.0 * i]} if i == 1 else
                           {"benchmark": "evil\u202etxt.exe\x1b[2J", "params": {"k\u2066": "v\u200f"}, "metric": "wall-time", "unit": "ns",
                            "error": "boom\r\nperfpages: note: forged error"},
                           {"benchmark": "bad\nperfpages: note: forged bench", "metric": "wall-time", "unit": "ns", "samples": [-1]}]},
              open(os.path.join(d, "run%d.json" % i), "w"))
open(os.path.join(d, "x\nperfpages: note: forged file\u202e.json"), "w").write("{")
PY
printf '[site]\ntitle = "names"\n\n[[sources]]\ndir = "results"\n' >"$names/perfpages.toml"
(cd "$names" && "$bin" build >/dev/null 2>"$out"); rc=$?
(cd "$names" && "$bin" compare -format text 1111111111111111111111111111111111111111 2222222222222222222222222222222222222222 >"$scratch/names.txt" 2>>"$out")
(cd "$names" && "$bin" compare -format markdown 1111111111111111111111111111111111111111 2222222222222222222222222222222222222222 >"$scratch/names.md" 2>>"$out")
python3 - "$out" "$scratch/names.txt" "$scratch/names.md" "$names/public" >"$scratch/names.check" <<'PY'
import gzip, os, re, sys
bad = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
bidi = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
problems = []
log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
for line in log.splitlines():
    if not line.startswith("perfpages: ") or line.startswith("perfpages: note: forged"):
        problems.append("log line %r" % line[:60])
    if bad.search(line):
        problems.append("raw control or bidi character in the log")
if "forged file\\u202e.json" not in log or "forged bench" not in log:
    problems.append("the log does not name the hostile file and benchmark")
for f in sys.argv[2:4]:
    text = open(f, encoding="utf-8").read()
    if bad.search(text.replace("\n", "")) or "evil\\u202etxt.exe" not in text:
        problems.append(os.path.basename(f) + " holds raw names or lacks the escaped one")
for root, _, files in os.walk(sys.argv[4]):
    for name in files:
        p = os.path.join(root, name)
        data = open(p, "rb").read()
        if name.endswith(".gz"):
            data = gzip.decompress(data)
        if bidi.search(data.decode("utf-8", "replace")):
            problems.append("bidi character in " + os.path.relpath(p, sys.argv[4]))
print("; ".join(problems[:3]))
sys.exit(1 if problems else 0)
PY
rc2=$?
report names-inert "$([ $rc -eq 0 ] && [ $rc2 -eq 0 ] && echo 1)" "$out"
[ $rc2 -eq 0 ] || sed 's/^/      /' "$scratch/names.check"

# 15. A Git LFS pointer and a UTF-16 file are named as such, with the fix,
# by the build's archive reader and by import's gobench reader.
lfs=$scratch/lfs
mkdir -p "$lfs/results"
cp "$proj/results/linux-x64-epyc/$(ls "$proj/results/linux-x64-epyc" | head -1)" "$lfs/results/good.json"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n' >"$lfs/results/pointer.json"
python3 -c 'import sys; open(sys.argv[2], "w", encoding="utf-16").write(open(sys.argv[1]).read())' "$lfs/results/good.json" "$lfs/results/utf16.json"
printf '[site]\ntitle = "lfs"\n\n[[sources]]\ndir = "results"\n' >"$lfs/perfpages.toml"
(cd "$lfs" && "$bin" build >"$out" 2>&1); rc=$?
printf 'goos: linux\nBenchmarkX-8 100 10 ns/op\n' | python3 -c 'import sys; sys.stdout.buffer.write(sys.stdin.read().encode("utf-16"))' >"$lfs/bench.txt"
cp "$lfs/results/pointer.json" "$lfs/pointer.txt"
imp_args="-format gobench -artifact 4444444444444444444444444444444444444444 -date 2026-01-01T00:00:00Z -machine m -out $lfs/imported"
"$bin" import $imp_args "$lfs/bench.txt" >"$scratch/out2.txt" 2>&1; rc2=$?
"$bin" import $imp_args "$lfs/pointer.txt" >>"$scratch/out2.txt" 2>&1; rc3=$?
report lfs-utf16 "$([ $rc -eq 0 ] && grep -q 'pointer.json: is a Git LFS pointer, not the results: run `git lfs pull`' "$out" &&
  grep -q 'utf16.json: is UTF-16 encoded: save it as UTF-8' "$out" && refused $rc2 "$scratch/out2.txt" && refused $rc3 "$scratch/out2.txt" &&
  grep -q 'bench.txt: is UTF-16 encoded' "$scratch/out2.txt" && grep -q 'pointer.txt: is a Git LFS pointer' "$scratch/out2.txt" && echo 1)" "$out"

# ---- What a build keeps: the store, the spare site, the lock and the fingerprint ----
# 16. What a build keeps. A helper: a fresh copy of the project
# (results, config, content) in a folder of its own.
fresh() { rm -rf "$1"; mkdir -p "$1"; cp -r "$proj/results" "$proj/perfpages.toml" "$1/"; [ -d "$proj/content" ] && cp -r "$proj/content" "$1/"; return 0; }
# same_as_cold DIR: the site in DIR/public equals a build from nothing.
same_as_cold() {
  local d=$1 ref
  ref=$(mktemp -d "$scratch/cold.XXXX")
  (cd "$d" && "$bin" build -cache off -out "$ref/public" >/dev/null 2>&1) || return 1
  diff -r "$d/public" "$ref/public" >/dev/null
}

# -cache DIR never removes what is not its own: folders named like stores.
k=$scratch/kept-cache; fresh "$k"
mkdir -p "$k/store-frontend/src" "$k/store-v2"; echo app >"$k/store-frontend/src/app.js"; echo mine >"$k/store-v2/notes.txt"
(cd "$k" && "$bin" build -cache . >"$out" 2>&1); rc=$?
(cd "$k" && "$bin" build -cache . -cold >>"$out" 2>&1)
report cache-keeps-others "$([ $rc -eq 0 ] && [ "$(cat "$k/store-frontend/src/app.js")" = app ] && [ -f "$k/store-v2/notes.txt" ] && echo 1)" "$out"

# A cache folder inside the output or a source is refused; nothing is lost.
(cd "$k" && "$bin" build -cache public >"$out" 2>&1); rc1=$?
(cd "$k" && "$bin" build -cache results >>"$out" 2>&1); rc2=$?
report cache-inside-refused "$(refused $rc1 "$out" && refused $rc2 "$out" && grep -q 'inside the output folder' "$out" && grep -q 'inside a source folder' "$out" && [ -f "$k/public/index.html" ] && echo 1)" "$out"

# A .public.spare that is a link (to another site, or to the live output)
# never empties its target, even when the build then fails.
k=$scratch/kept-spare; fresh "$k"
(cd "$k" && "$bin" build >/dev/null 2>&1 && "$bin" build -out other >/dev/null 2>&1)
n_live=$(find "$k/public" -type f | wc -l); n_other=$(find "$k/other" -type f | wc -l)
rm -rf "$k/.public.spare"; ln -s other "$k/.public.spare"
echo '{"schema": "perfpages.run.v1", "bad": ' >"$k/results/broken.json"   # a warning: -strict fails
(cd "$k" && "$bin" build -strict >"$out" 2>&1); rc1=$?
rm -f "$k/.public.spare"; ln -s public "$k/.public.spare"
(cd "$k" && "$bin" build -strict >>"$out" 2>&1); rc2=$?
(cd "$k" && "$bin" build >>"$out" 2>&1); rc3=$?
report spare-link "$([ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ $rc3 -eq 0 ] && [ "$(find "$k/other" -type f | wc -l)" -eq "$n_other" ] && [ "$(find "$k/public" -type f | wc -l)" -ge "$n_live" ] && [ -L "$k/.public.spare" ] && echo 1)" "$out"

# A .public.lock that is a link is refused; its target is not created.
k=$scratch/kept-lock; fresh "$k"
ln -s "$scratch/kept-lock-target" "$k/.public.lock"
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
report lock-link "$(refused $rc "$out" && [ ! -e "$scratch/kept-lock-target" ] && grep -q 'symbolic link' "$out" && echo 1)" "$out"

# A second build fails at once, before reading anything, while the first
# holds the lock (flock(1) stands for the first build).
rm -f "$k/.public.lock"
(cd "$k" && flock .public.lock sleep 5) & holder=$!
sleep 0.5
start=$(date +%s%N)
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait $holder
report lock-first "$(refused $rc "$out" && grep -q 'another perfpages build' "$out" && [ $ms -lt 3000 ] && echo 1)" "$out"

# Sources and content behind links: an added commit and an edit behind the
# link are seen; the site equals a cold build.
k=$scratch/kept-links; fresh "$k"
mv "$k/results" "$k/real-results"; ln -s real-results "$k/results"
mkdir -p "$k/real-content"; printf -- '---\ntitle: About\n---\nfirst\n' >"$k/real-content/about.md"; rm -rf "$k/content"; ln -s real-content "$k/content"
grep -q '^content' "$k/perfpages.toml" || sed -i 's/^\[site\]$/[site]\ncontent = "content"/' "$k/perfpages.toml"
held=$(find "$k/real-results" -name '*.json*' | sort | tail -1); mv "$held" "$scratch/held-archive"
(cd "$k" && "$bin" build >"$out" 2>&1)
mv "$scratch/held-archive" "$held"; printf -- '---\ntitle: About\n---\nsecond\n' >"$k/real-content/about.md"
(cd "$k" && "$bin" build >>"$out" 2>&1); rc=$?
report linked-sources "$([ $rc -eq 0 ] && ! tail -1 "$out" | grep -q 'up to date' && grep -q second "$k/public/about/index.html" && same_as_cold "$k" && echo 1)" "$out"

# One digit changed with the time restored (rsync -a, cp -p, touch -r):
# not "up to date"; the site equals a cold build.
k=$scratch/kept-mtime; fresh "$k"
(cd "$k" && "$bin" build >/dev/null 2>&1)
f=$(find "$k/results" -name '*.json' | sort | head -1)
cp -p "$f" "$scratch/orig"
python3 - "$f" <<'EOF'
import re, sys
p = sys.argv[1]; s = open(p).read()
i = s.index('"samples"'); m = re.compile(r'[1-8]').search(s, i)
open(p, 'w').write(s[:m.start()] + str(int(m.group()) + 1) + s[m.end():])
EOF
touch -r "$scratch/orig" "$f"
sleep 0.3   # out of the racy window: the status-change time alone must tell
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
report mtime-restored "$([ $rc -eq 0 ] && ! grep -q 'up to date' "$out" && same_as_cold "$k" && echo 1)" "$out"

# A file of the live site edited with its time restored, after a build
# recorded the files' identities: the next build sees it (the
# status-change time tells), is not "up to date", and the site equals a
# cold build. The style sheet is kept by every build: the second links it
# into its new site, the third leaves it and records its identity.
k=$scratch/kept-live-mtime; fresh "$k"
(cd "$k" && "$bin" build >/dev/null 2>&1)
held=$(find "$k/results" -name '*.json*' | sort | tail -1); mv "$held" "$scratch/held-live"
(cd "$k" && "$bin" build >/dev/null 2>&1); mv "$scratch/held-live" "$held"
sleep 0.3   # out of the racy window: identities are recorded
(cd "$k" && "$bin" build >/dev/null 2>&1)
f=$(find "$k/public/assets/css" -name '*.css' | sort | head -1)
cp -p "$f" "$scratch/orig-live"
python3 - "$f" <<'EOF2'
import sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
i = s.index("{") + 1
open(p, "w", encoding="utf-8").write(s[:i] + (" " if s[i] != " " else "\n") + s[i + 1:])
EOF2
touch -r "$scratch/orig-live" "$f"
sleep 0.3
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
report live-mtime-restored "$([ $rc -eq 0 ] && ! grep -q 'up to date' "$out" && same_as_cold "$k" && echo 1)" "$out"

# GIT_DIR set by a git hook does not make a git source read another repository.
k=$scratch/kept-gitdir; rm -rf "$k"; mkdir -p "$k"
git -C "$k" init -q -b perf-results . && cp -r "$proj/results" "$k/" && git -C "$k" add results && git -C "$k" -c user.email=a@b -c user.name=a commit -qm results
printf '[site]\ntitle = "git"\n\n[[sources]]\ngit = "."\nref = "perf-results"\npath = "results/"\n' >"$k/perfpages.toml"
mkdir -p "$scratch/other-repo" && git -C "$scratch/other-repo" init -q
(cd "$k" && GIT_DIR="$scratch/other-repo/.git" "$bin" build >"$out" 2>&1); rc=$?
report git-dir-ignored "$([ $rc -eq 0 ] && grep -q 'built' "$out" && same_as_cold "$k" && echo 1)" "$out"

# Criterion's results and the store: a flipped bit, a FIFO, a link to
# /dev/zero, a sparse 20 GB file, an entry copied over another: each one
# warning and rebuilt, never hanging, never out of memory, the site equal
# to a cold build.
k=$scratch/kept-store; fresh "$k"
(cd "$k" && "$bin" build >/dev/null 2>&1)
store=$(find "$k/.perfpages-cache" -maxdepth 1 -mindepth 1 -type d | head -1)
ok=1; said=$scratch/store-said; : >"$said"
plant() {  # plant NAME ACTION: break one store file, then build and check
  local name=$1 action=$2 f
  case $action in
    flip) f=$store/criterion.gob; [ -f "$f" ] || f=$store/briefs.gob
          python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)//2]^=1; open(p,'wb').write(b)" "$f" ;;
    fifo) rm -f "$store/builder.ckpt"; mkfifo "$store/builder.ckpt" ;;
    zero) rm -f "$store/steps.gob"; ln -s /dev/zero "$store/steps.gob" ;;
    sparse) truncate -s 20G "$store/builder.ckpt" ;;
    copy) # The store keeps a .run entry only for a file its checkpoint
          # does not hold: the newest commit's archives (one per machine),
          # added after it was written.
          for m in "$k/results"/*/; do find "$m" -name '*.json*' | sort | tail -1; done >"$scratch/held-copy"
          i=0; while read -r h; do i=$((i + 1)); mv "$h" "$scratch/held-copy.$i"; done <"$scratch/held-copy"
          (cd "$k" && "$bin" build >/dev/null 2>&1)
          i=0; while read -r h; do i=$((i + 1)); mv "$scratch/held-copy.$i" "$h"; done <"$scratch/held-copy"
          (cd "$k" && "$bin" build >/dev/null 2>&1)
          a=$(find "$store/runs" -name '*.run' | sort | head -1); b=$(find "$store/runs" -name '*.run' | sort | tail -1)
          [ -n "$a" ] && [ "$a" != "$b" ] || echo "copy: fewer than two .run entries to copy one over the other" >>"$said"
          cp "$a" "$b"; rm -f "$store/builder.ckpt" ;;
  esac
  touch "$k/public/extra"   # not up to date: the build reads the store
  (cd "$k" && timeout 120 /usr/bin/time -f '%M' -o "$scratch/rss" "$bin" build >"$out" 2>&1); local rc=$?
  local rss; rss=$(tail -1 "$scratch/rss")
  echo "$name: rc $rc, rss $((rss / 1024)) MB, $(grep -c 'store' "$out") store warnings" >>"$said"
  [ $rc -eq 0 ] && [ "$rss" -lt 1048576 ] && grep -q 'store .*rebuilt\|read again' "$out" && same_as_cold "$k" || ok=0
}
for a in flip fifo zero sparse copy; do plant "$a" "$a"; done
report store-verified "$ok" "$said"
tail -n +2 "$said" | sed 's/^/      /'

# A changed option that only some pages show (the z threshold of the
# charts' bands) leaves no page behind.
k=$scratch/kept-option; fresh "$k"
(cd "$k" && "$bin" build >/dev/null 2>&1)
printf '\n[analysis]\nz_threshold = 3.0\n' >>"$k/perfpages.toml"
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
report option-change "$([ $rc -eq 0 ] && same_as_cold "$k" && echo 1)" "$out"

# Two outputs built at once with the default cache: no warnings.
k=$scratch/kept-two; fresh "$k"
(cd "$k" && "$bin" build -out public >"$out.1" 2>&1) & p1=$!
(cd "$k" && "$bin" build -out public2 >"$out.2" 2>&1) & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
cat "$out.1" "$out.2" >"$out"
report two-outputs "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] && ! grep -q warning "$out" && echo 1)" "$out"

# The site is bounded in files: 20,000 benchmarks in one small archive.
k=$scratch/kept-bounds; rm -rf "$k"; mkdir -p "$k/results"
python3 - "$k/results/many.json" <<'EOF'
import json, sys
json.dump({"schema": "perfpages.run.v1", "artifact": {"id": "d" * 40, "kind": "commit", "date": "2026-01-01T00:00:00Z", "branch": "main"},
           "machine": {"name": "m"}, "results": [{"benchmark": "b%05d" % i, "metric": "wall-time", "unit": "ns", "samples": [1]} for i in range(20000)]},
          open(sys.argv[1], "w"))
EOF
printf '[site]\ntitle = "many"\nmax_site_files = 10000\n\n[[sources]]\ndir = "results"\n' >"$k/perfpages.toml"
(cd "$k" && "$bin" build >"$out" 2>&1); rc=$?
report site-bounded "$(refused $rc "$out" && grep -q 'max_site_files' "$out" && grep -q 'many.json' "$out" && [ ! -d "$k/public" ] && echo 1)" "$out"

exit $failed
