#!/usr/bin/env bash
# hostile.sh — the hostile cases of issue 10, run against a fresh build of
# perfpages in a scratch folder. Each case prints one line: ok or FAIL, its
# name, and what perfpages said (the first line of its message). The script
# exits 1 when any case fails. It needs python3, mkfifo, GNU time and pgrep;
# it takes about a minute.
#
#   scripts/hostile.sh [SCRATCH]     (default: a new temporary folder, removed at the end)
set -uo pipefail

cd "$(dirname "$0")/.."
scratch=${1:-}
if [ -z "$scratch" ]; then
  scratch=$(mktemp -d)
  trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"
bin=$scratch/perfpages
go build -o "$bin" ./cmd/perfpages || exit 1

failed=0
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

# A project: a git work tree with a config and a few archives.
proj=$scratch/project
"$bin" demo -size S -format json -out "$proj" >/dev/null 2>&1
(cd "$proj" && git init -q . && git add -A && git -c user.email=a@b -c user.name=a commit -qm init)
snapshot() { (cd "$proj" && find . -path ./public -prune -o -path ./.perfpages-cache -prune -o -print | sort | md5sum); }
before=$(snapshot)
untouched() { [ "$(snapshot)" = "$before" ]; }

# 1. The output folder guard: the project, ".", the results folder and a
# plain file are refused with nothing touched; so are demo and import.
out=$scratch/out.txt
(cd "$proj" && "$bin" build -out "$PWD" >"$out" 2>&1); rc=$?
report guard-pwd "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"
printf '[site]\noutput = "."\n\n[[sources]]\ndir = "results"\n' >"$scratch/dot.toml"
cp "$scratch/dot.toml" "$proj/dot.toml"
(cd "$proj" && "$bin" build -config dot.toml >"$out" 2>&1); rc=$?
rm "$proj/dot.toml"
report guard-output-dot "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"
(cd "$proj" && "$bin" build -out results >"$out" 2>&1); rc=$?
report guard-results "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"
(cd "$proj" && "$bin" build -out perfpages.toml >"$out" 2>&1); rc=$?
report guard-file "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"
"$bin" demo -out "$proj" >"$out" 2>&1; rc=$?
report guard-demo "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"
printf 'BenchmarkX-8 100 10 ns/op\n' >"$scratch/x.txt"
"$bin" import -format gobench -artifact 1111111111111111111111111111111111111111 -date 2026-01-01T00:00:00Z -machine m -out "$proj/.git" "$scratch/x.txt" >"$out" 2>&1; rc=$?
report guard-import "$([ $rc -ne 0 ] && untouched && echo 1)" "$out"

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
(cd "$site" && timeout 120 "$bin" build >"$out" 2>&1); rc=$?
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
# background child, and -timeout.
tag=perfpages-hostile-$$
(cd "$scratch" && "$bin" run -name bg -repeat 2 -out run.json -- sh -c "exec -a $tag sleep 300 & echo started" >"$out" 2>&1)
sleep 0.5
alive=$(pgrep -f "$tag" | wc -l)
(cd "$scratch" && "$bin" run -name slow -repeat 1 -timeout 1s -allow-nonzero -out run2.json -- sh -c "exec -a $tag-t sleep 300" >>"$out" 2>&1)
sleep 0.5
alive2=$(pgrep -f "$tag-t" | wc -l)
report run-process-group "$([ "$alive" -eq 0 ] && [ "$alive2" -eq 0 ] && echo 1)" "$out"
pkill -f "$tag" 2>/dev/null

# 8. import never overwrites silently: machines "ci linux" and "ci/linux".
imp=$scratch/import
mkdir -p "$imp"
printf 'BenchmarkX-8 100 10 ns/op\n' >"$imp/a.txt"
printf 'BenchmarkX-8 100 20 ns/op\n' >"$imp/b.txt"
common="-format gobench -artifact 3333333333333333333333333333333333333333 -date 2026-01-01T00:00:00Z -out $imp/results"
"$bin" import $common -machine "ci linux" "$imp/a.txt" >"$out" 2>&1
"$bin" import $common -machine "ci/linux" "$imp/b.txt" >>"$out" 2>&1; rc=$?
n=$(find "$imp/results" -type f | wc -l)
report import-collision "$([ $rc -ne 0 ] || [ "$n" -eq 2 ] && echo 1)" "$out"
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

exit $failed
