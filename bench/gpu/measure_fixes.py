#!/usr/bin/env python3
"""Measures `warpscope fix`'s suggestions on the GPU: each conflicted example against the
variant rewritten as warpscope suggested (examples/fixes/) and the textbook's hand fix,
with ncu counters (the launch of examples/launches.txt) and CUDA-event timing of a 64x
larger launch (ptxlaunch --repeat). Run from the repository root on a GPU machine:

  python3 bench/gpu/measure_fixes.py OUTDIR [PAIR...]   (PAIRs: substrings of the cases to run)

Writes OUTDIR/fixes_h200.json and OUTDIR/fixes_h200.md."""
import csv
import io
import json
import os
import subprocess
import sys

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
subprocess.run(["make", "-s", "-C", "tools/ptxlaunch", "BUILD=/tmp/ptxlaunch-build"], check=True)
PTXLAUNCH = "/tmp/ptxlaunch-build/ptxlaunch"
METRICS = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
FIX = "examples/fixes/fixed_by_warpscope.ptx"
# (pair, variant, ptx, kernel, small launch args, timed launch args)
T = "--grid 16,16 --block 32,8 --arg buf:1048576 --arg buf:1048576 --arg i32:512"
T_BIG = "--grid 128,128 --block 32,8 --arg buf:67108864 --arg buf:67108864 --arg i32:4096"
SCAN = "--grid 128 --block 256 --arg buf:262144 --arg buf:262144"
SCAN_BIG = "--grid 8192 --block 256 --arg buf:16777216 --arg buf:16777216"
RED = "--grid 256 --block 256 --arg buf:1024 --arg buf:262144"
RED_BIG = "--grid 16384 --block 256 --arg buf:65536 --arg buf:16777216"
F4 = "--grid 128 --block 256 --arg buf:524288 --arg buf:524288"
F4_BIG = "--grid 8192 --block 256 --arg buf:33554432 --arg buf:33554432"
LM = "--grid 64 --block 128 --arg buf:524288 --arg buf:524288"
LM_BIG = "--grid 4096 --block 128 --arg buf:33554432 --arg buf:33554432"
CONV = "--grid 16,16 --block 16,16 --arg buf:262144 --arg buf:262144 --arg i32:256"
CONV_BIG = "--grid 256,256 --block 16,16 --arg buf:67108864 --arg buf:67108864 --arg i32:4096"
cases = [
    ("transpose f32", "original", "examples/transpose_tiled.ptx", "transpose_tiled_f32", T, T_BIG),
    ("transpose f32", "warpscope fix (Swizzle<5,0,5>: tile[r][c ^ r])", "examples/transpose_swizzled.ptx", "transpose_swizzled_f32", T, T_BIG),
    ("transpose f32", "textbook (pad to 33)", "examples/transpose_padded.ptx", "_Z16transpose_paddedIfEvPT_PKS0_i", T, T_BIG),
    ("blelloch scan", "original", "examples/scan_blelloch.ptx", "scan_blelloch", SCAN, SCAN_BIG),
    ("blelloch scan", "warpscope fix (Swizzle<4,0,5>)", FIX, "scan_blelloch_swz", SCAN, SCAN_BIG),
    ("blelloch scan", "textbook (CONFLICT_FREE_OFFSET)", "examples/scan_blelloch.ptx", "scan_blelloch_conflict_free", SCAN, SCAN_BIG),
    ("interleaved reduction", "original", "examples/reduce_interleaved.ptx", "reduce_interleaved_strided", RED, RED_BIG),
    ("interleaved reduction", "warpscope fix (Swizzle<3,0,5>)", FIX, "reduce_strided_swz", RED, RED_BIG),
    ("interleaved reduction", "textbook (sequential addressing)", "examples/reduce_sequential.ptx", "reduce_sequential", RED + " --dyn-smem 1024", RED_BIG + " --dyn-smem 1024"),
    ("float4 through shared", "original", "examples/smem_float4.ptx", "smem_float4_strided", F4, F4_BIG),
    ("float4 through shared", "warpscope fix (Swizzle<1,0,3>, TMA 32B)", FIX, "smem_float4_strided_swz", F4, F4_BIG),
    ("ldmatrix tile", "original", "examples/ldmatrix_tile.ptx", "ldmatrix_tile_plain", LM, LM_BIG),
    ("ldmatrix tile", "warpscope fix (Swizzle<3,4,3>, TMA 128B)", "examples/ldmatrix_tile.ptx", "ldmatrix_tile_swizzled", LM, LM_BIG),
    ("3x3 convolution", "original (tile[18][18])", "examples/conv3x3.ptx", "conv3x3", CONV, CONV_BIG),
    ("3x3 convolution", "warpscope fix (pad +120 B per 72 B row: tile[18][48])", FIX, "conv3x3_pitch48", CONV, CONV_BIG),
    ("3x3 convolution", "textbook (pad one column: tile[18][19])", FIX, "conv3x3_pitch19", CONV, CONV_BIG),
]
if len(sys.argv) > 2:
    cases = [c for c in cases if any(p in c[0] for p in sys.argv[2:])]
rows = []
for pair, variant, ptx, kernel, small, big in cases:
    row = {"pair": pair, "variant": variant, "ptx": ptx, "kernel": kernel, "ncu_launch": small, "timed_launch": big}
    ncu = subprocess.run(["ncu", "--clock-control", "none", "--metrics", ",".join(METRICS), "--csv", "--page", "raw",
                          PTXLAUNCH, ptx, "--kernel", kernel, *small.split()], capture_output=True, text=True)
    lines = [l for l in ncu.stdout.splitlines() if l.startswith('"')]
    try:
        table = list(csv.DictReader(io.StringIO("\n".join(lines))))
        data = [r for r in table if r.get("ID", "").strip().isdigit()][0]
        row["metrics"] = {m[:-4]: int(float(data[m].replace(",", ""))) for m in METRICS}
    except Exception as e:  # keep going; record what ncu said
        row["ncu_error"] = (str(e) + " " + ncu.stderr[-400:]).strip()
    timed = subprocess.run([PTXLAUNCH, ptx, "--kernel", kernel, *big.split(), "--repeat", "101"], capture_output=True, text=True)
    row["timing_output"] = timed.stdout.strip() + timed.stderr.strip()
    try:
        t = timed.stdout.split("median ")[1].split()
        row["median_ms"], row["min_ms"], row["max_ms"] = float(t[0]), float(t[3]), float(t[5])
    except Exception:
        pass
    rows.append(row)
    print(pair, "|", variant, "|", row.get("metrics"), "|", row.get("median_ms"), flush=True)
device = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
json.dump({"device": device, "rows": rows}, open(os.path.join(out_dir, "fixes_h200.json"), "w"), indent=1)
with open(os.path.join(out_dir, "fixes_h200.md"), "w") as f:
    f.write(f"Device: {device}. ncu --clock-control none on the examples/launches.txt launch; time: CUDA events, median of 100 launches of a 64x larger grid (ptxlaunch --repeat 101).\n\n")
    f.write("| kernel | variant | shared ld wavefronts | shared st wavefronts | bank conflicts (ld+st) | median ms | min ms |\n|---|---|---|---|---|---|---|\n")
    for r in rows:
        m = r.get("metrics", {})
        f.write(f"| {r['pair']} | {r['variant']} | {m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld', '?')} | "
                f"{m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st', '?')} | "
                f"{m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld', 0) + m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st', 0) if m else '?'} | "
                f"{r.get('median_ms', '?')} | {r.get('min_ms', '?')} |\n")
print(open(os.path.join(out_dir, "fixes_h200.md")).read())
