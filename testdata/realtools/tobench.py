#!/usr/bin/python3
"""tobench.py FORMAT FILE — print a tool's samples in the Go benchmark format,
so that benchstat can run its Mann–Whitney U test on them.

pytest-benchmark, hyperfine and Debian's Google Benchmark have no
significance test of their own (pytest-benchmark compares only statistics;
hyperfine's scripts/welch_ttest.py and Google Benchmark's tools/compare.py
are not shipped by Debian). For them, the tool's verdict in this suite is
benchstat's on the very samples perfpages reads:

  googlebench       every repetition ("run_type": "iteration") of a
                    benchmark: real_time as ns/op, cpu_time as cpu-ns/op
  pytest-benchmark  stats.data (seconds per iteration, one per round) as sec/op
  hyperfine         times (seconds, one per timed run) as sec/op

Each sample becomes one line "Benchmark<name> 1 <value> <unit>"; the values
are printed with repr, so no digit is lost.
"""
import json
import sys

SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        doc = json.load(f)
    out = []
    if fmt == "googlebench":
        for b in doc["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            k = SCALE[b.get("time_unit", "ns")]
            name = b["run_name"]
            out.append(f"Benchmark{name} 1 {b['real_time'] * k!r} ns/op {b['cpu_time'] * k!r} cpu-ns/op")
    elif fmt == "pytest-benchmark":
        for b in doc["benchmarks"]:
            for v in b["stats"]["data"]:
                out.append(f"Benchmark{b['name']} 1 {v!r} sec/op")
    elif fmt == "hyperfine":
        for r in doc["results"]:
            for v in r["times"]:
                out.append(f"Benchmark{r['command']} 1 {v!r} sec/op")
    else:
        sys.exit(f"tobench: unknown format {fmt}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
