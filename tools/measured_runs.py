"""What a warpscope figure must equal in an H200 measurement (`accepted`), and launches measured
more than once: what a figure is when the runs disagree.

Some of ncu's figures differ between runs of one launch: the Source page's "L2 Theoretical
Sectors Global" of cp.async (LDGSTS) lines whose lanes zero-fill from a named buffer, or whose
destination is a swizzled tile written by many warps (tests/data/h200/corpus/repeats/README.md has
the runs). A second or third measurement of a launch already in <topic>.jsonl goes, under the
same name, in repeats/<topic>.jsonl beside it. A figure whose runs differ is run-dependent: a
prediction between the fewest and the most any run measured equals the H200 (no single run's
figure is the answer); one outside that range is a difference as any other. Figures the runs
agree on are compared as before: one run is enough for them.

Used by tools/compare_measured.py and tests/python/test_triton_measured.py."""
import json
import os

SOURCE = ["L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L2 Theoretical Sectors Global",
          "L2 Theoretical Sectors Global Ideal"]
# kernel metric -> its class in a record's `sass_ops` (the Source page's rows summed by operation)
CONFLICTS = {f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}": f"shared_{op}" for op in ("ld", "st", "atom")}
SECTORS = {f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}": f"global_{op}" for op in ("ld", "st", "red", "atom")}
WAVEFRONTS = {f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}": f"shared_{op}" for op in ("ld", "st", "atom", "gmma")}


def accepted(metric, record):
    """The measured values a prediction of kernel metric `metric` may equal (the first is shown):
    bank conflicts, the Source page's wavefronts - ideal of that op or the hardware counter (it
    takes one ideal wavefront per lane group with active lanes), less the wavefronts the
    hardware counted beyond the Source page's (arbitration adds them to both counters); global sectors, either the counter
    or the Source page's sectors (the counter drifts by up to 0.3% on some kernels); shared
    wavefronts, the Source page's or the counter (it adds arbitration); else the counter."""
    hardware = record["metrics"].get(metric)
    ops = record.get("sass_ops") or {}
    if metric in CONFLICTS and CONFLICTS[metric] in ops:
        o = ops[CONFLICTS[metric]]
        out = [o.get("wavefronts", 0) - o.get("wavefronts_ideal", 0)] + ([hardware] if hardware is not None else [])
        # The counter without arbitration: the wavefronts it counts beyond the Source page's
        # are conflicts it counts too (LeetCUDA flash_attn_mma_split_kv: 2336 more of each).
        hw_wavefronts = record["metrics"].get(metric.replace("data_bank_conflicts_pipe_lsu_mem", "data_pipe_lsu_wavefronts_mem"))
        if hardware is not None and hw_wavefronts is not None and hw_wavefronts > o.get("wavefronts", 0) > 0:
            out.append(hardware - (hw_wavefronts - o["wavefronts"]))
        return out
    if metric in SECTORS and "sectors" in ops.get(SECTORS[metric], {}):
        return [v for v in (hardware, ops[SECTORS[metric]]["sectors"]) if v is not None]
    if metric in WAVEFRONTS and "wavefronts" in ops.get(WAVEFRONTS[metric], {}):
        return [ops[WAVEFRONTS[metric]]["wavefronts"]] + ([hardware] if hardware is not None else [])
    return [] if hardware is None else [hardware]


def repeats_path(measured):
    return os.path.join(os.path.dirname(measured), "repeats", os.path.basename(measured))


def load_repeats(measured):
    """name -> the other runs' records of that launch (empty when it was measured once)."""
    runs = {}
    path = repeats_path(measured)
    if os.path.exists(path):
        for line in open(path):
            if line.strip():
                r = json.loads(line)
                if r.get("status") == "ok":
                    runs.setdefault(r["name"], []).append(r)
    return runs


def line_figures(record):
    """(file's base name, line, column) -> the Source page's figure."""
    out = {}
    for ml in record.get("lines", []):
        for k in SOURCE:
            out[(os.path.basename(ml["file"]), ml["line"], k)] = int(float(ml["metrics"].get(k, 0) or 0))
    return out


class Runs:
    """Every run of one launch: `record` (the one in <topic>.jsonl) and its repeats."""

    def __init__(self, record, repeats):
        self.records = [record] + list(repeats)
        self.lines = [line_figures(r) for r in self.records]

    def metric_range(self, values_of):
        """(lo, hi) of a kernel figure over the runs when they differ, else None; `values_of(record)`
        gives the run's accepted figures, the first the one shown."""
        firsts = [v[0] for v in (values_of(r) for r in self.records) if v]
        return (min(firsts), max(firsts)) if len(set(firsts)) > 1 else None

    def line_range(self, key):
        vals = [figs.get(key, 0) for figs in self.lines]
        return (min(vals), max(vals)) if len(set(vals)) > 1 else None

    def count(self):
        return len(self.records)


def within(value, span):
    return span is not None and span[0] <= value <= span[1]
