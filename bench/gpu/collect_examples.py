#!/usr/bin/env python3
"""Turns the ncu exports that measure_examples.sh leaves in its work directory into
one JSON object per launch of examples/launches.txt, printed as JSONL:

  {"name": "transpose_tiled_f32",
   "launch": "<the launches.txt line>",
   "status": "ok" | "not profiled" | "no kernel totals",
   "source_page": "ok" | "missing" | "no per-line counters",
   "device": "NVIDIA H200, 580.xx; Version 2025.x",
   "kernel": "<kernel name as ncu printed it>",
   "metrics": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld": 4096, ...},
   "lines": [{"file": "transpose_tiled.cu", "line": 27, "source": "...",
              "metrics": {"L1 Wavefronts Shared": 8192, "L1 Wavefronts Shared Ideal": 256, ...},
              "sass": [{"address": "...", "instruction": "LDS R5, [R2]",
                        "metrics": {...}}]}]}

`metrics` holds the kernel totals of bench/gpu/metrics.txt, named without `.sum`.
`lines` holds the Source page's CUDA rows (`--print-source cuda,sass`) that have any
nonzero L1/L2 counter, with every L1*/L2* column named as ncu names it ("L1 Wavefronts
Shared", "... Ideal", "... Excessive", "L2 Theoretical Sectors Global", ...), plus
"Instructions Executed"; `sass` lists that line's SASS instructions with nonzero
L1/L2 counters. A file beside the launch's PTX is named by its bare file name (as the PTX
`.file` names it); other files (inlined CUDA headers) keep ncu's path. `sass_ops` sums the
per-instruction Source page by what each instruction does (see sass_totals).

  usage: collect_examples.py --work DIR --launches examples/launches.txt [--device TEXT]
"""
import argparse
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")


def read_launches(path):
    launches = []
    for raw in open(path):
        line = raw.strip()
        if line and not line.startswith("#"):
            launches.append((line.split()[0], " ".join(line.split())))
    return launches


def number(text):
    """ncu CSV cell -> int/float, or None when it is not a number."""
    text = (text or "").strip().replace(",", "")
    if text in ("", "-", "n/a", "N/A"):
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def read_rows(path):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    with open(path, newline="", errors="replace") as f:
        return list(csv.reader(f))


def kernel_totals(path, wanted):
    """Raw page: a header row of metric names, a units row, one row per kernel."""
    rows = read_rows(path)
    if not rows:
        return None, {}
    header_index = next((i for i, r in enumerate(rows) if "ID" in r or any(w + ".sum" in r for w in wanted)), None)
    if header_index is None:
        return None, {}
    header = rows[header_index]
    data = [r for r in rows[header_index + 1:] if r and number(r[0]) is not None]
    if not data:
        return None, {}
    row = dict(zip(header, data[0]))
    totals = {}
    for metric in wanted:
        value = number(row.get(metric + ".sum"))
        if value is not None:
            totals[metric] = value
    return row.get("Kernel Name"), totals


def display_file(path, home=EXAMPLES):
    """A file beside the launch's PTX (`home`) by its bare name, as the PTX's .file names it."""
    if not path:
        return "?"
    base = os.path.basename(path)
    if not os.path.isabs(path) or os.path.exists(os.path.join(home, base)):
        return base
    return path


def is_counter(column):
    return column.startswith(("L1 ", "L2 ")) or column in ("Instructions Executed", "Thread Instructions Executed")


def source_lines(path, default_file=None, home=EXAMPLES):
    """Source page CSV, `--print-source cuda,sass`: blocks of
         "File Path",<path>  /  "Function Name",<kernel>  /  header row  /
         rows with "Line No" set (a CUDA line) each followed by its SASS rows
         (empty "Line No", an "Address").
    The header names "Source" twice (CUDA text, then SASS text)."""
    rows = read_rows(path)
    if rows is None:
        return None
    lines = {}
    current_file, header, current = default_file, None, None
    cuda_text = sass_text = None
    expect_header = False
    for row in rows:
        if not row or not any(cell.strip() for cell in row):
            continue
        first = row[0].strip()
        if first == "File Path":
            current_file = row[1] if len(row) > 1 else None
            continue
        if first in ("Function Name", "Kernel Name"):
            expect_header = True
            continue
        if expect_header or "Line No" in row:
            header = [c.strip() for c in row]
            sources = [i for i, c in enumerate(header) if c == "Source"]
            cuda_text = sources[0] if sources else None
            sass_text = sources[-1] if len(sources) > 1 else None
            expect_header = False
            continue
        if header is None:
            continue
        cells = dict(zip(header, row))
        counters = {}
        for i, column in enumerate(header):
            if is_counter(column) and i < len(row):
                value = number(row[i])
                if value is not None:
                    counters[column] = value
        line_no = number(cells.get("Line No", ""))
        if line_no is not None:
            key = (display_file(current_file, home), int(line_no))
            current = lines.setdefault(key, {"file": key[0], "line": key[1], "source": "",
                                              "metrics": {}, "sass_sum": {}, "sass": []})
            if cuda_text is not None and cuda_text < len(row) and not current["source"]:
                current["source"] = row[cuda_text].strip()
            for column, value in counters.items():
                current["metrics"][column] = current["metrics"].get(column, 0) + value
        elif current is not None and cells.get("Address", "").strip() not in ("", "-", "..."):
            for column, value in counters.items():
                current["sass_sum"][column] = current["sass_sum"].get(column, 0) + value
            if any(v for c, v in counters.items() if c.startswith(("L1 ", "L2 "))):
                text = row[sass_text].strip() if sass_text is not None and sass_text < len(row) else ""
                current["sass"].append({"address": cells.get("Address", "").strip(), "instruction": text,
                                        "metrics": {c: v for c, v in counters.items() if v}})
    result = []
    for entry in lines.values():
        # The CUDA row carries the line's totals; if this ncu left it empty, use the SASS sums.
        if not any(entry["metrics"].values()) and entry["sass_sum"]:
            entry["metrics"] = entry["sass_sum"]
        del entry["sass_sum"]
        if any(v for c, v in entry["metrics"].items() if c.startswith(("L1 ", "L2 "))):
            result.append(entry)
    result.sort(key=lambda e: (e["file"], e["line"]))
    return result


# The Source page's per-instruction view (`--print-source sass`), summed by what each
# instruction does: {"shared_ld": {"instructions", "wavefronts", "wavefronts_ideal"}, ...,
# "global_ld": {"instructions", "requests", "sectors", "sectors_ideal"}, ...}. LDGSTS counts
# as "ldgsts" (its shared writes) and as "global_ld" (its global reads); HGMMA/QGMMA reads
# as "shared_gmma". These sums are exact where the hardware's sector counters drift.
SASS_COLUMNS = {"Instructions Executed": "instructions", "L1 Wavefronts Shared": "wavefronts",
                "L1 Wavefronts Shared Ideal": "wavefronts_ideal", "L1 Tag Requests Global": "requests",
                "L2 Theoretical Sectors Global": "sectors", "L2 Theoretical Sectors Global Ideal": "sectors_ideal"}


def sass_op_classes(mnemonic, space, operation):
    m = mnemonic.split(".")[0]
    if m == "LDGSTS":
        return ["ldgsts", "global_ld"]
    if "GMMA" in m:
        return ["shared_gmma"]
    ops = {"Load": "ld", "Store": "st", "Atomic": "atom", "Reduction": "red"}
    classes = []
    for sp, op in zip(space.split(","), operation.split(",")):
        sp, op = sp.strip().lower(), ops.get(op.strip())
        if sp in ("shared", "global") and op:
            classes.append(f"{sp}_{op}")
    return classes


def kernel_key(name):
    """A kernel's name as the raw page and the source page both spell it: ncu writes template
    arguments as `<64, 8>` on one page and `<(int)64, (int)8>` on the other, and parameter
    types as written (`T1 *`) or substituted (`float *`); the name and its template arguments,
    casts removed, identify the kernel."""
    name = re.sub(r"\((?:unsigned |signed )?(?:int|long long|long|short|char|bool)\)", "", name.strip())
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i, c in enumerate(name):
        depth += c == "<"
        depth -= c == ">"
        if c == "(" and depth == 0:
            return name[:i].replace(" ", "")
    return name.replace(" ", "")


def same_kernel(a, b):
    return a.strip() == b.strip() or kernel_key(a) == kernel_key(b)


def sass_totals(path, kernel):
    rows = read_rows(path)
    if rows is None:
        return None
    totals, header, mine = {}, None, False
    for row in rows:
        if not row:
            continue
        if row[0].strip() in ("Kernel Name", "Function Name"):
            mine = kernel is None or (len(row) > 1 and same_kernel(row[1], kernel))
            header = None
            continue
        if "Address" in row and "Source" in row:
            header = [c.strip() for c in row]
            continue
        if not mine or header is None or len(row) < len(header):
            continue
        cells = dict(zip(header, row))
        words = [w for w in cells.get("Source", "").split() if not w.startswith("@")]
        if not words:
            continue
        add_sass_row(totals, words[0], cells)
    return totals


def add_sass_row(totals, mnemonic, cells):
    """Adds one SASS instruction's counters (`cells`: column -> text) to `totals` by op class."""
    for cls in sass_op_classes(mnemonic, cells.get("Address Space", ""), cells.get("Access Operation", "")):
        entry = totals.setdefault(cls, {})
        for column, key in SASS_COLUMNS.items():
            value = number(cells.get(column))
            if value is None:
                continue
            if cls == "ldgsts" and key in ("requests", "sectors", "sectors_ideal"):
                continue  # the global half is counted under global_ld
            if cls == "global_ld" and mnemonic.startswith("LDGSTS") and key in ("wavefronts", "wavefronts_ideal"):
                continue
            entry[key] = entry.get(key, 0) + value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--launches", required=True)
    parser.add_argument("--device", default="")
    parser.add_argument("--metrics", default=os.path.join(HERE, "metrics.txt"))
    args = parser.parse_args()
    wanted = [re.sub(r"\.sum$", "", l.strip()) for l in open(args.metrics) if l.strip() and not l.startswith("#")]

    for name, launch in read_launches(args.launches):
        record = {"name": name, "launch": launch, "device": args.device}
        profiled = os.path.exists(os.path.join(args.work, name + ".ncu-rep"))
        kernel, totals = kernel_totals(os.path.join(args.work, name + ".raw.csv"), wanted)
        ptx = next((w for w in launch.split()[1:] if w.endswith(".ptx")), "")
        default_file = os.path.basename(ptx)[:-4] + ".cu" if ptx else None  # if ncu names no file
        home = os.path.dirname(os.path.join(ROOT, ptx)) if ptx and not os.path.isabs(ptx) else (os.path.dirname(ptx) or EXAMPLES)
        try:
            lines = source_lines(os.path.join(args.work, name + ".source.csv"), default_file, home)
        except Exception as error:  # keep the totals whatever the source page looks like
            print(f"collect_examples: {name}: cannot read the source page: {error}", file=sys.stderr)
            lines = None
        record["status"] = "ok" if totals else ("no kernel totals" if profiled else "not profiled")
        record["source_page"] = "missing" if lines is None else ("ok" if lines else "no per-line counters")
        record["kernel"] = kernel
        record["metrics"] = totals
        record["lines"] = lines or []
        try:
            ops = sass_totals(os.path.join(args.work, name + ".sass.csv"), kernel)
        except Exception as error:
            print(f"collect_examples: {name}: cannot read the SASS page: {error}", file=sys.stderr)
            ops = None
        if ops:
            record["sass_ops"] = ops
        missing = [m for m in wanted if m not in totals]
        if totals and missing:
            record["missing_metrics"] = missing
        print(json.dumps(record))
        print(f"collect_examples: {name}: {record['status']}, {len(totals)} totals, "
              f"{len(record['lines'])} source lines ({record['source_page']})", file=sys.stderr)


if __name__ == "__main__":
    main()
