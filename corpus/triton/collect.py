#!/usr/bin/env python3
"""Turns the ncu exports of measure_all.sh (WORK/NAME.raw.csv, WORK/NAME.source.csv) into one
JSON record per case of cases.py, in the fields of tests/data/h200/examples_h200.jsonl
(bench/gpu/collect_examples.py reads the CSVs; its parsers are used here as they are):

  {"name": "triton_softmax", "launch": "warpscope.triton: softmax_kernel grid (64,) {...}",
   "status": "ok", "source_page": "ok", "device": "...", "kernel": "softmax_kernel",
   "metrics": {ncu metric (no .sum): total}, "lines": [{"file": "kernels.py", "line": 31,
   "source": "...", "metrics": {"L1 Wavefronts Shared": ..., ...}, "sass": [...]}],
   "sass_ops": {"shared_ld": {"wavefronts": ..., "wavefronts_ideal": ...}, ...}}

`sass_ops` (as collect_examples.py's) sums the per-instruction counters by what each
instruction does; measure_all.sh exports no SASS page, so they are read from the SASS rows
of the Source page (every instruction appears there once, under its source line).

Files are named by their bare name (kernels.py, standard.py), as the tests compare them.

  usage: collect.py --work DIR [--device TEXT] > triton.jsonl
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
sys.path.insert(0, HERE)

import collect_examples as ce  # noqa: E402


def case_names():
    """Names and kernels without importing Triton (measure.py --list's source of truth is
    cases.py; here its names are read from the file, so no GPU stack is needed)."""
    text = open(os.path.join(HERE, "cases.py")).read()
    return re.findall(r'^\s+"(triton_\w+)": dict\(fn=\w+\.(\w+),', text, re.M)


def source_sass_totals(path):
    """collect_examples.sass_totals over the SASS rows of a cuda,sass Source page export
    (a row with an Address; its instruction is in the second "Source" column)."""
    rows = ce.read_rows(path)
    if rows is None:
        return None
    totals, header = {}, None
    for row in rows:
        if row and row[0].strip() == "Line No":
            header = [c.strip() for c in row]
            at = header.index("Address")
            continue
        if header is None or len(row) < len(header) or row[at].strip() in ("", "-"):
            continue
        cells = dict(zip(header[at + 2:], row[at + 2:]))
        words = [w for w in row[at + 1].split() if not w.startswith("@")]
        if not words:
            continue
        ce.add_sass_row(totals, words[0], cells)
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--device", default="")
    parser.add_argument("--metrics", default=os.path.join(ROOT, "bench", "gpu", "metrics.txt"))
    args = parser.parse_args()
    wanted = [re.sub(r"\.sum$", "", l.strip()) for l in open(args.metrics) if l.strip() and not l.startswith("#")]
    for name, kernel in case_names():
        record = {"name": name, "launch": f"warpscope.triton: corpus/triton/cases.py {name} ({kernel})",
                  "device": args.device}
        profiled = os.path.exists(os.path.join(args.work, name + ".ncu-rep"))
        found, totals = ce.kernel_totals(os.path.join(args.work, name + ".raw.csv"), wanted)
        try:
            lines = ce.source_lines(os.path.join(args.work, name + ".source.csv"), "kernels.py")
        except Exception as error:  # keep the totals whatever the source page looks like
            print(f"collect: {name}: cannot read the source page: {error}", file=sys.stderr)
            lines = None
        for l in lines or []:
            l["file"] = os.path.basename(l["file"])
        record["status"] = "ok" if totals else ("no kernel totals" if profiled else "not profiled")
        record["source_page"] = "missing" if lines is None else ("ok" if lines else "no per-line counters")
        record["kernel"] = found
        record["metrics"] = totals
        record["lines"] = lines or []
        try:
            ops = source_sass_totals(os.path.join(args.work, name + ".source.csv"))
        except Exception as error:
            print(f"collect: {name}: cannot read the SASS rows: {error}", file=sys.stderr)
            ops = None
        if ops:
            record["sass_ops"] = ops
        print(json.dumps(record))
        print(f"collect: {name}: {record['status']}, {len(totals)} totals, {len(record['lines'])} lines",
              file=sys.stderr)


if __name__ == "__main__":
    main()
