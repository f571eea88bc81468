#!/usr/bin/python3
"""Build perfpages' planted-truth noise corpus (generator/planted/corpus/)
from raw benchmark histories kept in /work/data (see /work/data/README.md):

  local      raw.jsonl of scripts/noise/produce.py (tools run on a loaded machine)
  hyper      github-action-benchmark data.js, cargo (hyperium/hyper gh-pages)
  fiber      github-action-benchmark data.js v2, go (gofiber/fiber gh-pages)
  diskos     github-action-benchmark data.js, pytest (aiidateam/disk-objectstore gh-pages)
  djangoasv  asv results with samples (django/django-asv main, results/ubuntu-latest)

Every series becomes a sequence of relative deviations from its level,
value/level − 1, in the order the runs happened, with within-run samples the
same way where the source has them. Nothing is smoothed: spikes, two-level
runners and drift stay as they were. Only real steps are removed (public
histories only; nothing changes in the local benchmarks):

  1. noise width w = 1.4826 · MAD(consecutive differences of ln x) / √2;
  2. binary segmentation of ln x with Pettitt's rank test: split at the
     largest |U|, keep the split when p < 1e-6, both parts have ≥ 10
     values and their medians differ by ≥ 2 w; recurse into both parts;
  3. a boundary is a real step only when the level before it is never
     seen again after it and the level after it was never seen before it
     ("seen": a segment median closer than half the shift). A runner that
     switches between two levels and back is noise and is kept;
  4. each stretch between real steps is divided by its own median.

Usage: corpus.py DATA_DIR OUT_DIR
"""
import bisect, gzip, json, math, os, random, sys

data, out = sys.argv[1], sys.argv[2]
MAX_RUNS = 600


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def width(logx):
    d = [b - a for a, b in zip(logx, logx[1:])]
    if len(d) < 2:
        return 0.0
    m = median(d)
    return 1.4826 * median([abs(x - m) for x in d]) / math.sqrt(2)


def pettitt(y):
    n = len(y)
    order = sorted(range(n), key=lambda i: y[i])
    rank = [0.0] * n
    i = 0
    while i < n:  # mid-ranks for ties
        j = i
        while j + 1 < n and y[order[j + 1]] == y[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rank[order[k]] = (i + j) / 2 + 1
        i = j + 1
    best, at, s = 0.0, 0, 0.0
    for t in range(1, n):
        s += rank[t - 1]
        u = 2 * s - t * (n + 1)
        if abs(u) > best:
            best, at = abs(u), t
    p = 2 * math.exp(-6 * best * best / (n ** 3 + n ** 2))
    return at, min(p, 1.0)


def segment(y, lo, hi, w, cuts):
    if hi - lo < 20:
        return
    t, p = pettitt(y[lo:hi])
    t += lo
    if p >= 1e-6 or t - lo < 10 or hi - t < 10:
        return
    if abs(median(y[t:hi]) - median(y[lo:t])) < 2 * w:
        return
    cuts.append(t)
    segment(y, lo, t, w, cuts)
    segment(y, t, hi, w, cuts)


def real_steps(y, w):
    """Boundaries of real steps in y (ln values), and the segment cuts."""
    cuts = []
    segment(y, 0, len(y), w, cuts)
    cuts.sort()
    bounds = [0] + cuts + [len(y)]
    meds = [median(y[a:b]) for a, b in zip(bounds, bounds[1:])]
    steps = []
    for j in range(len(meds) - 1):
        half = abs(meds[j + 1] - meds[j]) / 2
        before_again = any(abs(m - meds[j]) < half for m in meds[j + 2:])
        after_before = any(abs(m - meds[j + 1]) < half for m in meds[:j])
        if not before_again and not after_before:
            steps.append(bounds[j + 1])
    return steps, cuts


def rnd(x):
    return float("%.4g" % x)


def series_entry(name, unit, direction, values, samples=None, removable=True, note=None, max_runs=MAX_RUNS, max_samples=10):
    """values: raw positive numbers in run order; samples: per run lists or None."""
    keep = [i for i, v in enumerate(values) if v is not None and v > 0 and math.isfinite(v)]
    values = [values[i] for i in keep]
    if samples is not None:
        samples = [samples[i] for i in keep]
    if len(values) > max_runs:
        values = values[-max_runs:]
        samples = samples[-max_runs:] if samples is not None else None
    y = [math.log(v) for v in values]
    w = width(y)
    steps, cuts = real_steps(y, w) if removable else ([], [])
    bounds = [0] + steps + [len(y)]
    level = [0.0] * len(y)
    removed = []
    prev = None
    for a, b in zip(bounds, bounds[1:]):
        m = median(values[a:b])
        for i in range(a, b):
            level[i] = m
        if prev is not None:
            removed.append({"at": a, "ratio": rnd(m / prev)})
        prev = m
    e = {"name": name, "unit": unit, "direction": direction, "level": rnd(median(values)),
         "runs": len(values), "width": rnd(w),
         "values": [rnd(v / l - 1) for v, l in zip(values, level)]}
    if removed:
        e["removed_steps"] = removed
    if cuts and len(cuts) > len(steps):
        e["kept_level_shifts"] = len(cuts) - len(steps)
    if samples is not None and any(samples):
        e["samples"] = [[rnd(s / l - 1) for s in ss if s > 0][:max_samples] for ss, l in zip(samples, level)]
    if note:
        e["note"] = note
    return e


def load_datajs(path):
    t = open(path).read()
    return json.loads(t[t.index("{"):].rstrip().rstrip(";"))


index = []


def write(name, doc):
    index.append((name, doc))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    n = sum(len(s["values"]) for s in doc["series"])
    print("%-10s %3d series %6d runs %7d bytes" % (name, len(doc["series"]), n, os.path.getsize(os.path.join(out, name + ".json"))))


def pick(rng, names, k):
    names = sorted(names)
    rng.shuffle(names)
    return sorted(names[:k])


# --- local: tools run here under switching load -------------------------
def local():
    rows = [json.loads(l) for l in open(os.path.join(data, "noise-local", "raw.jsonl"))]
    by = {}
    for r in rows:
        by.setdefault((r["tool"], r["bench"]), []).append(r)
    per_tool = {}
    for (tool, bench), rs in sorted(by.items()):
        rs.sort(key=lambda r: r["time"])  # run order (iteration numbers restart with each producer)
        e = series_entry("%s/%s" % (tool, bench), rs[0]["unit"], "lower", [r["value"] for r in rs],
                         [r["samples"] for r in rs], removable=False)
        e["load"] = "".join({"idle": "i", "cpu1": "1", "cpu2": "2", "cpu2-50": "h", "gobuild": "b"}[r["load"]] for r in rs[-len(e["values"]):])
        e["spike_runs"] = [i for i, r in enumerate(rs[-len(e["values"]):]) if r["spike"]]
        per_tool.setdefault(tool, []).append(e)
    for tool, ss in per_tool.items():
        write("local-" + tool, {
            "source": "produced on the perfpages development machine (2 vCPU VM) by scripts/noise/produce.py: %s run once per iteration while background load switched between idle, stress-ng on 1 or 2 CPUs, 2 CPUs at 50 %% and a go build loop in blocks of runs, with one-run bursts" % tool,
            "licence": "produced for perfpages; same licence as the repository",
            "load_codes": "i idle, 1 stress-ng 1 CPU, 2 stress-ng 2 CPUs, h 2 CPUs at 50 %, b go build loop",
            "value": {"go": "first of -count 5 (what count=1 would record)", "googlebench": "first of 5 repetitions",
                      "pytest-benchmark": "mean of 7 rounds (what github-action-benchmark keeps)", "hyperfine": "mean of 5 runs",
                      "criterion": "slope (or mean) point estimate"}.get(tool, ""),
            "series": ss})


# --- github-action-benchmark histories ----------------------------------
def gab(name, path, entry_names, k, seed, source, licence, unit_filter=None):
    d = load_datajs(path)
    rng = random.Random(seed)
    ss = []
    for en in entry_names:
        runs = d["entries"][en]
        vals = {}
        for i, run in enumerate(runs):
            for b in run["benches"]:
                vals.setdefault(b["name"], {})[i] = (b["value"], b.get("unit", ""))
        cands = [n for n, v in vals.items() if len(v) >= 0.8 * len(runs) and (unit_filter is None or unit_filter(next(iter(v.values()))[1]))]
        for n in pick(rng, cands, k):
            idx = sorted(vals[n])
            unit = vals[n][idx[0]][1]
            direction = "higher" if unit.endswith("/sec") or unit.endswith("/s") else "lower"
            ss.append(series_entry("%s/%s" % (en, n), unit, direction, [vals[n][i][0] for i in idx]))
    write(name, {"source": source, "licence": licence, "series": ss})


def fiber():
    d = load_datajs(os.path.join(data, "fiber", "data-v2.js"))
    rng = random.Random(3)
    cands = []
    for i, (n, u) in enumerate(zip(d["names"], d["units"])):
        v = d["values"][i]
        ok = [x for x in v if x is not None and x > 0]
        if u == "ns/op" and len(ok) >= 150 and median(ok) > 20 and width([math.log(x) for x in ok]) >= 0.003:
            cands.append(i)
    rng.shuffle(cands)
    ss = [series_entry(d["names"][i], "ns/op", "lower", d["values"][i]) for i in sorted(cands[:12])]
    write("fiber", {"source": "gofiber/fiber gh-pages benchmarks/data.js (github-action-benchmark, data.js version 2, go test -bench on GitHub-hosted runners), commit " + open(os.path.join(data, "fiber", "COMMIT")).read().strip(),
                    "licence": "gofiber/fiber is MIT licensed; only benchmark numbers are kept", "series": ss})


def djangoasv():
    root = os.path.join(data, "django-asv", "results", "ubuntu-latest")
    runs = []
    for f in os.listdir(root):
        if f.endswith("-conda-py3.10.json"):
            d = json.load(open(os.path.join(root, f)))
            runs.append(d)
    runs.sort(key=lambda d: (d["date"], d["commit_hash"]))
    cols = runs[-1]["result_columns"]
    ri, si = cols.index("result"), cols.index("samples")
    vals = {}
    for i, d in enumerate(runs):
        for n, r in d["results"].items():
            if not n.split(".")[-1].startswith("time_") or r[ri] is None or len(r[ri]) != 1 or r[ri][0] is None:
                continue
            smp = r[si][0] if len(r) > si and r[si] and r[si][0] else []
            vals.setdefault(n, {})[i] = (r[ri][0], smp)
    rng = random.Random(4)
    cands = [n for n, v in vals.items() if len(v) >= 0.8 * len(runs)]
    ss = []
    for j, n in enumerate(pick(rng, cands, 12)):
        idx = sorted(vals[n])
        # samples (asv's first 5, in the order measured) for every other series, to stay small
        smp = [vals[n][i][1] for i in idx] if j % 2 == 0 else None
        ss.append(series_entry(n, "s", "lower", [vals[n][i][0] for i in idx], smp, max_runs=500, max_samples=5))
    write("djangoasv", {"source": "django/django-asv main, results/ubuntu-latest/*-conda-py3.10.json (asv on GitHub-hosted runners, samples recorded), commit " + open(os.path.join(data, "django-asv", "COMMIT")).read().strip(),
                        "value": "asv's result (median of its samples); samples: the first 5 of asv's 10 recorded samples, for every other series", "licence": "django/django-asv is BSD-3-Clause licensed; only benchmark numbers are kept", "series": ss})


local()
gab("hyper", os.path.join(data, "hyper", "data.js"), ["end_to_end", "pipeline"], 9, 1,
    "hyperium/hyper gh-pages dev/bench/data.js (github-action-benchmark, cargo bench on GitHub-hosted runners), commit " + open(os.path.join(data, "hyper", "COMMIT")).read().strip(),
    "hyperium/hyper is MIT licensed; only benchmark numbers are kept")
fiber()
gab("diskos", os.path.join(data, "disk-objectstore", "data.js"), ["Benchmark on ubuntu-latest", "Benchmark on macos-latest", "Benchmark on windows-latest"], 3, 2,
    "aiidateam/disk-objectstore gh-pages dev/bench/data.js (github-action-benchmark, pytest-benchmark on GitHub-hosted runners), commit " + open(os.path.join(data, "disk-objectstore", "COMMIT")).read().strip(),
    "aiidateam/disk-objectstore is MIT licensed; only benchmark numbers are kept")
djangoasv()


def readme():
    """corpus/README.md: provenance, licence, method and one line per series."""
    doc = __doc__.split("Usage:")[0].strip()
    lines = ["# Noise corpus of generator/planted", "",
             "Real run-to-run benchmark noise, the ground the planted-truth suites are laid on (see",
             "../doc.go and ../README.md). Generated by `scripts/noise/corpus.py /work/data corpus` from",
             "the raw histories /work/data/README.md describes; do not edit by hand.", "",
             "Each `*.json` has `source` (where the numbers come from: repository, file and commit, or",
             "how they were produced here), `licence`, and `series`: `name`, `unit`, `direction` (of",
             "the original metric), `level` (its median), `runs`, `width` (the noise width of the",
             "values, as defined in ../doc.go), `values` (value/level − 1 per run, in run order, 4",
             "significant digits), optionally `samples` (each run's within-run samples the same way),",
             "`removed_steps` (`at`: run index, `ratio`: new level / old), `kept_level_shifts` (level",
             "shifts found but kept as two-level noise), and for local series `load` (one code per run:",
             "i idle, 1 stress-ng on 1 CPU, 2 on 2 CPUs, h 2 CPUs at 50 %, b a go build loop) and",
             "`spike_runs` (runs with a one-run burst of load).", "",
             "Only benchmark numbers of public repositories are kept (no code); each source's licence is",
             "in its file. The local series were produced for perfpages and share its licence.", "",
             "## How it was made", "", "```", doc, "```", "",
             "## Series", "",
             "| file | series | runs | width | samples/run | real steps removed | source |",
             "|---|---|---|---|---|---|---|"]
    for name, d in index:
        for s in d["series"]:
            smp = s.get("samples")
            k = "%d–%d" % (min(map(len, smp)), max(map(len, smp))) if smp else "–"
            removed = ", ".join("%d (×%s)" % (r["at"], r["ratio"]) for r in s.get("removed_steps", [])) or "–"
            lines.append("| %s | %s | %d | %.4f | %s | %s | %s |" % (name, s["name"].replace("|", "\\|"), s["runs"], s["width"], k, removed,
                                                             d["source"].split(" (")[0] if not name.startswith("local") else "produced here"))
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


readme()
