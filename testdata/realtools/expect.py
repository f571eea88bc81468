#!/usr/bin/python3
"""expect.py — print expectations.json: each tool's own verdict on every
pair of this folder, read from what the tool printed (see README.md).

  benchstat (go, and the samples of googlebench, pytest-benchmark and
  hyperfine; see tobench.py): benchstat.csv, one row per benchmark and
  unit. "~" is no significant change (p > alpha 0.05); a delta ("+3.38%",
  "0.00%", or "?" from a zero base) is a significant one, its direction
  the sign of head − base centers (medians); every unit here is
  lower-is-better.
  Criterion.rs: head.log, the verdict line under each benchmark. "Performance
  has regressed." / "Performance has improved." are significant changes;
  "No change in performance detected." and "Change within noise
  threshold." (p < 0.05 but the change's interval overlaps ±1 %) are not.
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# What each benchmark's head does differently (the sources say the same).
DESIGN = {
    "same": "none",
    "small": "+2% work",
    "smallfaster": "-2% work",
    "large": "+30% work",
    "largefaster": "-25% work",
    "allocfromzero": "+1 alloc of 64 B (0 -> 1)",
    "allocdouble": "+1 alloc of 64 B (1 -> 2)",
}

# benchstat's unit → perfpages' metric name, per format.
METRICS = {
    "gobench": {"sec/op": "wall-time", "B/op": "B/op", "allocs/op": "allocs/op"},
    "googlebench": {"sec/op": "wall-time", "cpu-sec/op": "cpu-time"},
    "pytest-benchmark": {"sec/op": "wall-time"},
    "hyperfine": {"sec/op": "wall-time"},
}

# Criterion's verdicts.
CRITERION = {
    "Performance has regressed.": ("regression", True),
    "Performance has improved.": ("improvement", True),
    "No change in performance detected.": ("none", False),
    "Change within noise threshold.": ("none", False),
}


def design(name, metric):
    key = re.sub(r"^(test_|BM_)", "", name).replace("_", "").lower()
    if metric in ("B/op", "allocs/op") and not key.startswith("alloc"):
        return "none (no allocation)"
    return DESIGN[key]


def benchstat_pairs(tool, fmt, base, head):
    pairs = []
    unit = None
    with open(os.path.join(HERE, tool, "benchstat.csv"), newline="") as f:
        for row in csv.reader(f):
            if len(row) < 7:
                continue  # configuration lines and blank lines
            if row[0] == "" and row[1] != "base.txt":
                unit = row[1]  # ",sec/op,CI,sec/op,CI,vs base,P"
                continue
            if row[0] in ("", "geomean"):
                continue
            name, b, h, delta, p = row[0], float(row[1]), float(row[3]), row[5], row[6]
            name = re.sub(r"-\d+$", "", name)  # GOMAXPROCS: perfpages' param procs
            if delta == "~":
                direction, sig = "none", False
            else:
                sig = True
                direction = "regression" if h > b else "improvement" if h < b else "none"
            pairs.append({
                "tool": tool, "format": fmt, "base": f"{tool}/{base}", "head": f"{tool}/{head}",
                "benchmark": name, "metric": METRICS[fmt][unit], "design": design(name, METRICS[fmt][unit]),
                "tool_says": f"{delta} ({p})" if p else delta,
                "direction": direction, "significant": sig,
            })
    return pairs


def criterion_pairs():
    pairs = []
    name = None
    change = ""
    with open(os.path.join(HERE, "criterion", "head.log")) as f:
        for line in f:
            m = re.match(r"^(\S+)\s+time:", line)
            if m:
                name, change = m.group(1), ""
                continue
            s = line.strip()
            if s.startswith("change:"):
                change = s[len("change:"):].strip()
            if s in CRITERION and name:
                direction, sig = CRITERION[s]
                pairs.append({
                    "tool": "criterion", "format": "criterion", "base": "criterion/base", "head": "criterion/head",
                    "benchmark": name, "metric": "wall-time", "design": design(name, "wall-time"),
                    "tool_says": f"{s} {change}", "direction": direction, "significant": sig,
                })
                name = None
    return pairs


def main():
    pairs = benchstat_pairs("go", "gobench", "base.txt", "head.txt")
    pairs += criterion_pairs()
    pairs += benchstat_pairs("googlebench", "googlebench", "base.json", "head.json")
    pairs += benchstat_pairs("pytest-benchmark", "pytest-benchmark", "base.json", "head.json")
    pairs += benchstat_pairs("hyperfine", "hyperfine", "base.json", "head.json")
    json.dump({"pairs": pairs}, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
