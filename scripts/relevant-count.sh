#!/usr/bin/env bash
# relevant-count.sh — how many relevant changes a build of perfpages finds
# along a site's main line, to compare the rules of two perfpages builds on
# the demo and on real histories. It builds the site of CONFIG with BIN into
# a scratch folder, counts the build's warnings, then compares every
# main-line artifact with its predecessor (`BIN compare -format json HEAD`,
# the comparison each /commit/ page shows) and prints:
#
#   - comparisons, and those with at least one relevant row, split by the
#     comparison's relevance (low / medium / high) and its confidence;
#   - rows, significant rows and relevant rows, the relevant ones split by
#     magnitude, direction and significance_basis (a binary from before
#     significance_basis existed writes none: "-");
#   - with -v, one line per relevant row (commit, title, test case, metric,
#     change, p-value, basis, magnitude), for picking examples.
#
# It works with any perfpages binary that has `build` and `compare -format
# json` (so also one built from an older commit, to measure a change of the
# rules). BIN defaults to a fresh build of this tree; CONFIG to the embedded
# demo site (the tree's own folder, which has no perfpages.toml). Needs
# python3.
#
#   scripts/relevant-count.sh [-v] [-j JOBS] [-bin BIN] [-config CONFIG]
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
verbose=0 jobs=4 bin='' config=''
while [ $# -gt 0 ]; do
  case $1 in
    -v) verbose=1 ;;
    -j) jobs=$2; shift ;;
    -bin) bin=$2; shift ;;
    -config) config=$2; shift ;;
    *) echo "usage: $0 [-v] [-j JOBS] [-bin BIN] [-config CONFIG]" >&2; exit 2 ;;
  esac
  shift
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ -z "$bin" ]; then
  bin=$scratch/perfpages
  (cd "$here" && go build -o "$bin" ./cmd/perfpages) || exit 1
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
# Without -config the binary runs in this tree, which has no perfpages.toml:
# the embedded demo site.
if [ -n "$config" ]; then
  config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
  cfg=(-config "$config")
  dir=$(dirname "$config")
else
  cfg=()
  dir=$here
fi

cd "$dir" || exit 1
if ! "$bin" build "${cfg[@]}" -out "$scratch/site" >"$scratch/build.out" 2>"$scratch/build.err"; then
  echo "build failed:" >&2
  cat "$scratch/build.err" >&2
  exit 1
fi

# The main line, oldest first, as the site lists it (data/artifacts/N.json.gz).
python3 - "$scratch/site/data/artifacts" >"$scratch/ids" <<'EOF'
import gzip, json, os, sys
d = sys.argv[1]
chunks = sorted((int(f.split('.')[0]), f) for f in os.listdir(d) if f.endswith('.json.gz'))
for _, f in chunks:
    for id in json.load(gzip.open(os.path.join(d, f)))['id']:
        print(id)
EOF

mkdir -p "$scratch/cmp"
export RC_DIR=$dir RC_BIN=$bin RC_CONFIG=$config RC_OUT=$scratch/cmp
# shellcheck disable=SC2016 # the inner sh expands them
tail -n +2 "$scratch/ids" | awk '{ printf "%s %05d\n", $1, NR }' |
  xargs -P "$jobs" -n 2 sh -c '
    cd "$RC_DIR" || exit 1
    "$RC_BIN" compare ${RC_CONFIG:+-config "$RC_CONFIG"} -format json "$1" >"$RC_OUT/$2.json" 2>"$RC_OUT/$2.err"
    exit 0' sh

python3 - "$scratch" "$verbose" <<'EOF'
import collections, glob, json, os, re, sys
scratch, verbose = sys.argv[1], sys.argv[2] == '1'
err = open(os.path.join(scratch, 'build.err')).read().splitlines()
# Warnings come grouped: a few of each kind, then "… and N more like these".
warnings = [l for l in err if l.startswith('perfpages: warning: ')]
nwarn = 0
for l in warnings:
    m = re.match(r'perfpages: warning: … and (\d+) more', l)
    nwarn += int(m.group(1)) if m else 1
files = sorted(glob.glob(os.path.join(scratch, 'cmp', '*.json')))
comparisons = failed = 0
with_rel = 0
rel_by = collections.Counter()
conf_by = collections.Counter()
rows = sig = rel = 0
mag = collections.Counter(); dirn = collections.Counter(); basis = collections.Counter()
sig_basis = collections.Counter()
examples = []
for f in files:
    try:
        c = json.load(open(f))
    except ValueError:
        failed += 1
        e = open(f[:-5] + '.err').read().strip()
        print('compare failed:', os.path.basename(f), e[:200], file=sys.stderr)
        continue
    comparisons += 1
    n_rel = 0
    for r in c['results']:
        rows += 1
        b = r.get('significance_basis') or '-'
        if r.get('significant'):
            sig += 1
            sig_basis[b] += 1
        if not r.get('relevant'):
            continue
        n_rel += 1
        rel += 1
        mag[r.get('magnitude')] += 1
        ch = r.get('change')
        good = r.get('direction', 'lower')
        if ch is None or isinstance(ch, str):
            d = 'from-zero'
        else:
            d = 'regression' if (ch > 0) == (good == 'lower') else 'improvement'
        dirn[d] += 1
        basis[b] += 1
        if verbose:
            params = ' '.join('%s=%s' % kv for kv in sorted((r.get('params') or {}).items()))
            title = (c['head'].get('title') or '').splitlines()[0][:50] if c['head'].get('title') else ''
            p = r.get('p_value')
            examples.append('%s %-50s %s%s %s %s p=%s basis=%s %s' % (
                c['head']['id'][:10], title, r['benchmark'], (' ' + params) if params else '',
                r['metric'], ch if isinstance(ch, str) or ch is None else '%+.2f%%' % (100 * ch),
                'n/a' if p is None else '%.3g' % p, b, r.get('magnitude')))
    s = c['summary']
    conf_by[s.get('confidence', '-')] += 1
    if n_rel:
        with_rel += 1
        rel_by[s.get('relevance', '-')] += 1
def split(c, order=None):
    keys = order or sorted(c)
    return ', '.join('%s %d' % (k, c[k]) for k in keys if c[k]) or '-'
print('warnings                  %d' % nwarn)
print('comparisons               %d%s' % (comparisons, ' (%d failed)' % failed if failed else ''))
print('  with a relevant change  %d (%s)' % (with_rel, split(rel_by, ['high', 'medium', 'low'])))
print('  confidence              %s' % split(conf_by))
print('rows                      %d' % rows)
print('  significant             %d (%s)' % (sig, split(sig_basis)))
print('  relevant                %d' % rel)
print('    by magnitude          %s' % split(mag, ['very-large', 'large', 'medium', 'small', 'very-small']))
print('    by direction          %s' % split(dirn))
print('    by basis              %s' % split(basis))
for w in warnings if verbose else []:
    print(w[:200])
for e in examples:
    print(e)
EOF
