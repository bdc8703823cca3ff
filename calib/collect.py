#!/usr/bin/env python3
"""Joins each chunk's patterns with its ncu CSV (one kernel launch per pattern, in order)
and prints one JSON object per measured pattern, in the ground-truth format, with the
harness's own traffic (the mask-0 baseline launch of the same kernel) subtracted."""
import csv
import glob
import json
import os
import sys

work = sys.argv[1]
OPS = {
    "lds": "shared_op_ld", "ldsm": "shared_op_ld", "sts": "shared_op_st",
    "atoms": "shared_op_atom", "atoms_agg": "shared_op_atom",
    "ldg": "global_op_ld", "stg": "global_op_st",
}
measured = []
for chunk in sorted(glob.glob(os.path.join(work, "chunk.[0-9][0-9][0-9]"))):
    csv_path = chunk + ".csv"
    if not os.path.exists(csv_path):
        continue
    patterns = [l.split() for l in open(chunk) if l.strip()]
    rows = list(csv.DictReader(open(csv_path)))
    rows = [r for r in rows if r.get("ID", "").strip().isdigit()]  # drop the units row
    if len(rows) != len(patterns):
        sys.exit(f"{chunk}: {len(patterns)} patterns but {len(rows)} profiled kernels")
    for p, r in zip(patterns, rows):
        metrics = {}
        for k, v in r.items():
            if k.endswith(".sum"):
                metrics[k[:-4]] = int(float(v.replace(",", "")))
        measured.append((p, metrics))

baseline = {}
for p, m in measured:
    if p[0] == "baseline":
        baseline[(p[1], int(p[2]))] = m
for p, m in measured:
    name, op, width, mask = p[0], p[1], int(p[2]), p[3]
    if name == "baseline":
        continue
    base = baseline.get((op, width), {})
    keep = OPS[op]
    # Only global counters carry harness traffic (the offsets load); ldmatrix ignores the
    # mask, so its "baseline" launch is a real access and must not be subtracted.
    metrics = {k: v - (base.get(k, 0) if "global" in k else 0)
               for k, v in m.items() if keep in k or (op == "ldsm" and "ldsm" in k)}
    print(json.dumps({"op": op, "width": width, "mask": mask, "name": name,
                      "offsets": [int(x) for x in p[4:36]], "metrics": metrics}))
