#!/usr/bin/env python3
"""Splits the CSV exports of one ncu report that profiled a whole `ptxlaunch --batch` (one
kernel per line, in order) into the per-launch files collect_examples.py reads:
WORK/NAME.raw.csv, NAME.source.csv, NAME.sass.csv and an empty NAME.ncu-rep marker.

  split_ncu_exports.py --work DIR --prefix CHUNK --names NAME...

The raw page has one data row per profiled kernel (column "ID", in launch order); the
source pages one block per kernel: the `sass` page's start with a "Kernel Name" row; the
`cuda,sass` page's are runs of per-file blocks (see split_source_kernels). A launch the batch skipped leaves the kernels out of step, so
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


def split_source_kernels(text):
    """Kernels of a `--print-source cuda,sass` page: each is a run of per-file blocks
    ("File Path" row, "Function Name" row, header, rows). A kernel ends where the function
    name changes or a file it already listed comes again; identical neighbours collapse
    (as in split_blocks)."""
    kernels, current, files, function = [], None, set(), None
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('"File Path"'):
            path = line.split(",", 1)[1].strip() if "," in line else ""
            name = lines[i + 1].split(",", 1)[1].strip() if i + 1 < len(lines) and lines[i + 1].startswith('"Function Name"') else ""
            if current is None or name != function or path in files:
                current, files, function = [], set(), name
                kernels.append(current)
            files.add(path)
        if current is not None:
            current.append(line)
        i += 1
    out = []
    for k in ("".join(k) for k in kernels):
        if not out or out[-1] != k:
            out.append(k)
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
        blocks = split_source_kernels(text) if page == "source" else split_blocks(text)
        if len(blocks) != len(names):
            print(f"split: {a.prefix}: {len(blocks)} {page} blocks for {len(names)} launches: not split", file=sys.stderr)
            continue
        for name, block in zip(names, blocks):
            with open(os.path.join(a.work, f"{name}.{page}.csv"), "w") as f:
                f.write(block)


if __name__ == "__main__":
    main()
