#!/usr/bin/env python3
"""Runs `warpscope kernel --json` on every measured example launch and compares it with
the H200 measurements (tests/data/h200/examples_h200.jsonl): kernel totals by ncu metric,
and the Source page's per-line counters for lines of the kernel's own .cu file.

usage: tools/compare_examples.py [BUILD_DIR] [--verbose]   (exit 1 on any difference)"""
import json
import os
import shlex
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = next((a for a in sys.argv[1:] if not a.startswith("-")), os.path.join(root, "build"))
verbose = "--verbose" in sys.argv
SOURCE = ["L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L2 Theoretical Sectors Global",
          "L2 Theoretical Sectors Global Ideal"]
bad = 0
for line in open(os.path.join(root, "tests", "data", "h200", "examples_h200.jsonl")):
    m = json.loads(line)
    args = shlex.split(m["launch"])[1:]
    run = subprocess.run([os.path.join(build, "warpscope"), "kernel", *args, "--json"], cwd=root,
                         capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout.strip():
        print(f"{m['name']}: warpscope failed: {run.stderr.strip()[:300]}")
        bad += 1
        continue
    got = json.loads(run.stdout)
    diffs = []
    for k, v in got["metrics"].items():
        want = m["metrics"].get(k)
        if want is not None and want != v:
            diffs.append(f"{k}: predicted {v}, measured {want}")
    cu = os.path.basename(m["launch"].split()[1]).replace(".ptx", ".cu")
    pred_lines = {(l["file"], l["line"]): l["metrics"] for l in got["lines"]}
    for ml in m.get("lines", []):
        if os.path.basename(ml["file"]) != cu:
            continue
        pl = pred_lines.get((os.path.basename(ml["file"]), ml["line"]), {})
        for k in SOURCE:
            want = int(float(ml["metrics"].get(k, 0) or 0))
            have = pl.get(k, 0)
            if want != have:
                diffs.append(f"{cu}:{ml['line']} {k}: predicted {have}, measured {want}")
    status = "ok" if not diffs else f"{len(diffs)} differences"
    print(f"{m['name']}: {status} ({got['emulation']['seconds']:.3f} s)")
    if diffs and (verbose or True):
        for d in diffs[:12]:
            print("   ", d)
    bad += bool(diffs)
print(f"{bad} launches differ")
sys.exit(1 if bad else 0)
