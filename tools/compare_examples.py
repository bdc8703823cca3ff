#!/usr/bin/env python3
"""Runs `warpscope kernel --json` on every measured example launch and compares it with
the H200 measurements (tests/data/h200/examples_h200.jsonl): kernel totals by ncu metric,
and the Source page's per-line counters for lines of the kernel's own .cu file.

The SASS comes from the committed listings in tests/data/sass/ (examples/regen_sass.sh),
or with --live-sass from running ptxas and nvdisasm. Differences we understand and have
not fixed are listed, with their reason, in tests/data/h200/examples_known_differences.txt;
any other difference, or a listed one that no longer occurs, fails.

usage: tools/compare_examples.py [BUILD_DIR] [--live-sass]   (exit 1 on a failure)"""
import json
import os
import shlex
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = next((a for a in sys.argv[1:] if not a.startswith("-")), os.path.join(root, "build"))
live_sass = "--live-sass" in sys.argv
known = set()
for k in open(os.path.join(root, "tests", "data", "h200", "examples_known_differences.txt")):
    k = k.split("#")[0].strip()
    if k:
        known.add(k)
seen_known = set()
SOURCE = ["L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L2 Theoretical Sectors Global",
          "L2 Theoretical Sectors Global Ideal"]
bad = 0
for line in open(os.path.join(root, "tests", "data", "h200", "examples_h200.jsonl")):
    m = json.loads(line)
    args = shlex.split(m["launch"])[1:]
    if not live_sass:
        listing = os.path.join("tests", "data", "sass", os.path.basename(args[0]).replace(".ptx", ".sass"))
        args += ["--sass-listing", listing]
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
            diffs.append(f"{m['name']} {k}: predicted {v}, measured {want}")
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
                diffs.append(f"{m['name']} {cu}:{ml['line']} {k}: predicted {have}, measured {want}")
    expected = [d for d in diffs if d in known]
    seen_known.update(expected)
    unexpected = [d for d in diffs if d not in known]
    status = "ok" if not diffs else f"{len(expected)} known, {len(unexpected)} new differences"
    print(f"{m['name']}: {status} ({got['emulation']['seconds']:.3f} s, priced from {got['priced_from']})")
    for d in unexpected[:12]:
        print("    NEW:", d)
    bad += bool(unexpected)
for k in sorted(known - seen_known):
    print("no longer differs (remove it from the known list):", k)
    bad += 1
print(f"{bad} failures; {len(seen_known)} known differences")
sys.exit(1 if bad else 0)
