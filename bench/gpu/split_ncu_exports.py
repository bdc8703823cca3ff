#!/usr/bin/env python3
"""Splits the CSV exports of one ncu report that profiled a whole `ptxlaunch --batch` (one
kernel per line, in order) into the per-launch files collect_examples.py reads:
WORK/NAME.raw.csv, NAME.source.csv, NAME.sass.csv and an empty NAME.ncu-rep marker.

  split_ncu_exports.py --work DIR --prefix CHUNK --names NAME...

The raw page has one data row per profiled kernel (column "ID", in launch order); the
source pages (`--print-source cuda,sass` and `sass`) one block per kernel, each starting
with a "Kernel Name" row. A launch the batch skipped leaves the kernels out of step, so
the kernels are matched to the names through the batch log (which lines launched): pass
--launched NAME... (those that ran, in order). A page whose block count does not match is
not split (the launches then have totals but no per-line counters) and a warning says so."""
import argparse
import csv
import io
import os
import sys


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="", errors="replace") as f:
        return f.read()


def split_blocks(text):
    """Blocks of a source-page CSV, each starting at a "Kernel Name" row. ncu 2025.3 prints
    some kernels' block twice in a row (seen on the H200: identical blocks); those collapse."""
    blocks, current = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith('"Kernel Name"') or line.startswith("Kernel Name,"):
            current = []
            blocks.append(current)
        if current is not None:
            current.append(line)
    out = []
    for b in ("".join(b) for b in blocks):
        if not out or out[-1] != b:
            out.append(b)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--launched", nargs="*", default=[])
    a = p.parse_args()
    names = a.launched
    raw = read(os.path.join(a.work, a.prefix + ".raw.csv"))
    if raw:
        rows = list(csv.reader(io.StringIO(raw)))
        header_index = next((i for i, r in enumerate(rows) if "ID" in r), None)
        if header_index is not None:
            header = rows[header_index]
            units = rows[header_index + 1] if header_index + 1 < len(rows) else []
            has_units = units and (not units[0].strip() or not units[0].strip().isdigit())
            data = [r for r in rows[header_index + 1 + (1 if has_units else 0):] if r and r[0].strip().isdigit()]
            if len(data) != len(names):
                print(f"split: {a.prefix}: {len(data)} kernels in the raw page for {len(names)} launches", file=sys.stderr)
            for name, row in zip(names, data):
                with open(os.path.join(a.work, name + ".raw.csv"), "w", newline="") as f:
                    w = csv.writer(f, quoting=csv.QUOTE_ALL)
                    w.writerow(header)
                    if has_units:
                        w.writerow(units)
                    w.writerow(row)
                open(os.path.join(a.work, name + ".ncu-rep"), "w").close()
    for page in ("source", "sass"):
        text = read(os.path.join(a.work, f"{a.prefix}.{page}.csv"))
        if not text:
            continue
        blocks = split_blocks(text)
        if len(blocks) != len(names):
            print(f"split: {a.prefix}: {len(blocks)} {page} blocks for {len(names)} launches: not split", file=sys.stderr)
            continue
        for name, block in zip(names, blocks):
            with open(os.path.join(a.work, f"{name}.{page}.csv"), "w") as f:
                f.write(block)


if __name__ == "__main__":
    main()
