#!/usr/bin/env python3
"""Prints warpscope's figures for every launch of corpus/sass/launches.txt, priced from the
committed listings (tests/data/sass/corpus), as JSON lines: the predictions made before the
H200 measured them (corpus/sass/predictions.jsonl; README.md says where the H200 is expected
to differ, and why).

usage: corpus/sass/predict.py [BUILD_DIR] > corpus/sass/predictions.jsonl"""
import json
import os
import shlex
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
SOURCE = ["L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L2 Theoretical Sectors Global",
          "L2 Theoretical Sectors Global Ideal"]
for line in open(os.path.join(root, "corpus", "sass", "launches.txt")):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, *args = shlex.split(line)
    listing = os.path.join("tests", "data", "sass", "corpus", os.path.basename(args[0]).replace(".ptx", ".sass"))
    run = subprocess.run([os.path.join(build, "warpscope"), "kernel", *args, "--json", "-q", "--no-diagnostics",
                          "--sass-listing", listing], cwd=root, capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout.strip():
        print(json.dumps({"name": name, "error": run.stderr.strip()[:300]}))
        continue
    got = json.loads(run.stdout)
    lines = [{"file": l["file"], "line": l["line"], "timing_dependent": l["timing_dependent"],
              "metrics": {k: l["metrics"].get(k, 0) for k in SOURCE}}
             for l in sorted(got["lines"], key=lambda l: (l["file"], l["line"]))]
    print(json.dumps({"name": name, "launch": line, "metrics": {k: v for k, v in got["metrics"].items() if v},
                      "timing_dependent": got["timing_dependent"], "lines": lines}))
