#!/usr/bin/python3
"""Rewrite a github-action-benchmark data.js of the compact "version 2"
layout (runs, names, units, values: one column per benchmark) as the
classic layout perfpages reads (entries → [{commit, date, tool, benches}]).
Only what the v2 file holds is written; missing values are left out.

UNIT keeps only the benchmarks of that unit (e.g. ns/op). With PARTS > 1
the benchmarks are split into that many files OUT.1.js … (perfpages caps
the separators of one input file), each its own entry.

Usage: gab-v2-to-v1.py IN.js OUT.js [UNIT] [PARTS]
"""
import json, sys
from datetime import datetime

src, dst = sys.argv[1], sys.argv[2]
unit_only = sys.argv[3] if len(sys.argv) > 3 else ""
parts = int(sys.argv[4]) if len(sys.argv) > 4 else 1
t = open(src).read()
d = json.loads(t[t.index("{"):].rstrip().rstrip(";"))
cols = [j for j in range(len(d["names"])) if not unit_only or d["units"][j] == unit_only]


def convert(cols):
    runs = []
    for i, r in enumerate(d["runs"]):
        benches = []
        for j in cols:
            col = d["values"][j]
            v = col[i] if i < len(col) else None
            if v is None:
                continue
            name, unit = d["names"][j], d["units"][j]
            if name.endswith(" - " + unit):
                name = name[:-len(" - " + unit)]
            benches.append({"name": name, "value": v, "unit": unit})
        ts = r["timestamp"]
        date = int(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1000)
        runs.append({"commit": {"id": r["id"], "message": r.get("message", ""), "timestamp": ts, "url": r.get("url", "")},
                     "date": date, "tool": "go", "benches": benches})
    return runs


for k in range(parts):
    entry = "Benchmark" if parts == 1 else "Benchmark part %d" % (k + 1)
    out = {"lastUpdate": d.get("lastUpdate"), "repoUrl": d.get("repoUrl"), "entries": {entry: convert(cols[k::parts])}}
    name = dst if parts == 1 else "%s.%d.js" % (dst[:-3], k + 1)
    with open(name, "w") as f:
        f.write("window.BENCHMARK_DATA = " + json.dumps(out, separators=(",", ":")) + "\n")
