#!/usr/bin/python3
"""Produce real run-to-run benchmark noise on this machine, the way a shared CI
runner behaves: run real benchmark tools over and over while background load
(stress-ng CPU hogs, a concurrent `go build` loop) switches on and off in
blocks of runs, with occasional one-run bursts (spikes).

Each iteration is one "commit": every tool runs once and writes one JSON line
per benchmark to OUT (raw.jsonl): the tool's headline value for the run (what
a one-value-per-commit CI history would store) and its within-run samples.

Nothing measured here ever changes, so every step in the output is noise.
Usage: produce.py OUTDIR BINDIR MINUTES [MAX_ITERATIONS]
"""
import json, os, random, signal, subprocess, sys, tempfile, time

out_dir, bin_dir, minutes = sys.argv[1], sys.argv[2], float(sys.argv[3])
max_iter = int(sys.argv[4]) if len(sys.argv) > 4 else 10**9
here = os.path.dirname(os.path.abspath(__file__))
blob8 = os.path.join(out_dir, "blob8m")
blob1 = os.path.join(out_dir, "blob1m")
if not os.path.exists(blob1):
    with open(blob8, "rb") as f, open(blob1, "wb") as g:
        g.write(f.read(1 << 20))
rng = random.Random(int(os.environ.get("NOISE_SEED", "22")))
tmp = tempfile.mkdtemp(prefix="noise-")

# Background load levels; a level holds for a geometric number of iterations.
LEVELS = {
    "idle": [],
    "cpu1": ["stress-ng", "--cpu", "1", "--quiet"],
    "cpu2": ["stress-ng", "--cpu", "2", "--quiet"],
    "cpu2-50": ["stress-ng", "--cpu", "2", "--cpu-load", "50", "--quiet"],
    "gobuild": ["bash", "-c", "while true; do GOCACHE=%s/gocache go build -a -o /dev/null net/http >/dev/null 2>&1; done" % tmp],
}
# A shared runner is mostly quiet: idle is the most common level, the
# heavy ones are rarer. (The first iterations of the corpus, before this
# weighting, ran with idle 5, cpu1 2, cpu2 2, cpu2-50 1, gobuild 2 and
# blocks of 25 on average; see /work/data/noise-local/produce.log.)
WEIGHTS = [("idle", 8), ("cpu1", 3), ("cpu2", 1), ("cpu2-50", 2), ("gobuild", 1)]
MEAN_BLOCK = 15


def start(cmd):
    if not cmd:
        return None
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def stop(p):
    if p is None:
        return
    try:
        os.killpg(p.pid, signal.SIGKILL)  # the group this script started
    except ProcessLookupError:
        pass
    p.wait()


def pick_level():
    total = sum(w for _, w in WEIGHTS)
    r = rng.uniform(0, total)
    for name, w in WEIGHTS:
        r -= w
        if r <= 0:
            return name
    return "idle"


def run_go():
    cmd = [os.path.join(bin_dir, "gobench.test"), "-test.run", "^$", "-test.bench", ".", "-test.count", "5", "-test.benchtime", "20ms"]
    txt = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp).stdout
    by = {}
    for line in txt.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0].startswith("Benchmark") and f[3] == "ns/op":
            name = f[0].rsplit("-", 1)[0]
            by.setdefault(name, []).append(float(f[2]))
    # one-value CI (count=1) would keep the first line
    return [(k, "ns", v[0], v) for k, v in sorted(by.items())]


def run_gbench():
    cmd = [os.path.join(bin_dir, "gbench"), "--benchmark_repetitions=5", "--benchmark_min_time=0.02", "--benchmark_format=json"]
    d = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)
    by = {}
    for b in d["benchmarks"]:
        if b.get("run_type") == "iteration":
            by.setdefault(b["run_name"] if "run_name" in b else b["name"], []).append(b["real_time"])
    # without repetitions Google Benchmark reports one iteration-averaged time
    return [(k, "ns", v[0], v) for k, v in sorted(by.items())]


def run_pytest():
    js = os.path.join(tmp, "pb.json")
    cmd = ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join(here, "test_pybench.py"),
           "--benchmark-json=" + js, "--benchmark-min-rounds=7", "--benchmark-max-time=0.000001", "--benchmark-warmup=off"]
    subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
    d = json.load(open(js))
    res = []
    for b in d["benchmarks"]:
        s = b["stats"]
        res.append((b["name"], "s", s["mean"], s.get("data", [])[:10]))  # gab keeps the mean
    return res


def run_hyperfine():
    js = os.path.join(tmp, "hf.json")
    cmd = ["hyperfine", "-N", "--runs", "5", "--warmup", "1", "--export-json", js, "sha256sum " + blob8, "gzip -1 -c " + blob1]
    subprocess.run(cmd, capture_output=True, text=True)
    d = json.load(open(js))
    return [(r["command"].split()[0], "s", r["mean"], r["times"]) for r in d["results"]]


def run_criterion():
    exe = os.path.join(bin_dir, "critbench")
    if not os.path.exists(exe):
        return []
    target = os.path.join(tmp, "crit")
    # Criterion 0.3 takes whole seconds; 1000 resamples keep its analysis short
    cmd = [exe, "--bench", "--warm-up-time", "1", "--measurement-time", "1", "--sample-size", "10", "--nresamples", "1000", "--noplot"]
    subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, CRITERION_HOME=target), cwd=tmp)
    res = []
    for name in sorted(os.listdir(target)) if os.path.isdir(target) else []:
        d = os.path.join(target, name, "new")
        try:
            est = json.load(open(os.path.join(d, "estimates.json")))
            smp = json.load(open(os.path.join(d, "sample.json")))
        except OSError:
            continue
        per = [t / n for t, n in zip(smp["times"], smp["iters"])]
        point = (est.get("slope") or est["mean"])["point_estimate"]
        res.append((name, "ns", point, per))
    return res


TOOLS = [("go", run_go), ("googlebench", run_gbench), ("pytest-benchmark", run_pytest), ("hyperfine", run_hyperfine), ("criterion", run_criterion)]

# Stop cleanly on SIGTERM too: the finally below ends the background load.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
deadline = time.time() + minutes * 60
level, hold, bg = "idle", 0, None
out = open(os.path.join(out_dir, "raw.jsonl"), "a")
it = sum(1 for _ in open(os.path.join(out_dir, "raw.jsonl"))) and max(json.loads(l)["iter"] for l in open(os.path.join(out_dir, "raw.jsonl"))) + 1
start_it = it
try:
    while time.time() < deadline and it - start_it < max_iter:
        if hold <= 0:
            new = pick_level()
            hold = 1 + int(rng.expovariate(1 / MEAN_BLOCK))
            if new != level:
                stop(bg)
                level, bg = new, start(LEVELS[new])
                time.sleep(1.0)
        hold -= 1
        spike = rng.random() < 0.04
        burst = start(["stress-ng", "--cpu", "2", "--quiet", "--timeout", "30"]) if spike else None
        if burst:
            time.sleep(0.3)
        for tool, fn in TOOLS:
            t0 = time.time()
            try:
                rows = fn()
            except Exception as e:  # a failed run is recorded, not fatal
                rows = []
                print("iter", it, tool, "failed:", e, file=sys.stderr)
            for bench, unit, value, samples in rows:
                out.write(json.dumps({"iter": it, "time": round(t0, 3), "load": level, "spike": spike,
                                      "loadavg": round(os.getloadavg()[0], 2), "tool": tool, "bench": bench,
                                      "unit": unit, "value": value, "samples": samples}) + "\n")
        out.flush()
        stop(burst)
        it += 1
finally:
    stop(bg)
print("iterations", it - start_it)
