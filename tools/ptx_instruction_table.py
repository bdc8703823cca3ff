#!/usr/bin/env python3
"""docs/ptx.md's tables of the PTX instructions and special registers warpscope emulates,
generated from the one opcode table (src/ptx/opcodes.def) and the special-register table
(src/ptx/special_registers.def).

    tools/ptx_instruction_table.py --check   # exit 1 (with a diff) if docs/ptx.md is stale
    tools/ptx_instruction_table.py --write   # rewrite the tables in docs/ptx.md

The tables sit between `<!-- ptx-instructions:begin -->` and `<!-- ptx-instructions:end -->`.
CTest runs --check (ptx_instruction_table), so the page stays true to the decoder.
"""
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- ptx-instructions:begin -->"
END = "<!-- ptx-instructions:end -->"

# What each family's executor does, in the order the table lists them.
FAMILIES = [
    ("Arith", "emu/exec_arith.cc", "integer and floating-point arithmetic of every PTX type, with "
     "`.sat`, `.ftz`, rounding modes, `.lo`/`.hi`/`.wide`, carries"),
    ("Special", "emu/exec_special.cc", "transcendental and reciprocal functions (`.approx`, `.full`, `.rn`), `testp`"),
    ("Bits", "emu/exec_bits.cc", "logic, shifts, funnel shifts, bit fields, permutes, counts"),
    ("Compare", "emu/exec_compare.cc", "comparisons and selects, with `.and`/`.or`/`.xor` combiners"),
    ("Move", "emu/exec_move.cc", "moves (vectors packed and unpacked), conversions with rounding and saturation, "
     "address-space conversions; `createpolicy` (a policy steers L2 eviction only)"),
    ("Memory", "emu/exec_memory.cc", "loads, stores and atomics of every state space and vector width; `ldmatrix`, "
     "`stmatrix`; `cp.async` with `src-size` and `ignore-src` (bytes not read cost nothing). Cache "
     "hints (`.ca` `.cg` `.cs` `.lu` `.cv` `.nc` `.wb` `.wt`, `.L1::evict_*`, `.L2::evict_*`, "
     "`.L1::no_allocate`, `.L2::64B/128B/256B`, `.L2::cache_hint` and its policy operand) change no address"),
    ("Warp", "emu/exec_warp.cc", "shuffles, votes, `match`, `redux`, `activemask`"),
    ("Control", "emu/control.cc", "branches (divergence and reconvergence), calls, returns, barriers "
     "(`bar.sync` with counts, `bar.arrive`, `bar.red`); `vprintf` runs as a no-op, a failed `assert()` "
     "(`__assertfail`) stops the run with its expression, file and line"),
    ("Tensor", "emu/exec_mma.cc, exec_wmma.cc, exec_wgmma.cc", "tensor cores, computed exactly: `mma.sync` "
     "fragments, `wmma` loads, stores and products as ptxas tiles them, `wgmma` through shared-memory "
     "descriptors ([tensor-cores.md](tensor-cores.md))"),
    ("Async", "emu/exec_async.cc, exec_mbarrier.cc, exec_tensor_copy.cc, exec_bulk_copy.cc, exec_tensormap.cc",
     "the sm_90 asynchronous pipeline: mbarriers (arrive, expect-tx, waits that sleep), TMA tile copies with "
     "swizzles and out-of-bounds fill, bulk copies and reductions, tensor maps (`tmap:` arguments and "
     "`tensormap.replace`), `elect`, `mapa`, `getctarank` ([hopper.md](hopper.md))"),
    ("Nop", "-", "accepted with no effect on values or figures: they order, prefetch, hint or wait "
     "(one launch has no dependent grid)"),
]

# Special registers: where each value comes from (emu/special_registers.h has the details).
SREG_VALUES = {
    "%tid": "exact", "%ntid": "exact", "%laneid": "exact", "%warpid": "the warp's index in the block",
    "%nwarpid": "64", "%ctaid": "exact", "%nctaid": "exact", "%smid": "block index mod 132", "%nsmid": "132",
    "%gridid": "1", "%is_explicit_cluster": "exact", "%clusterid": "exact", "%nclusterid": "exact",
    "%cluster_ctaid": "exact", "%cluster_nctaid": "exact", "%cluster_ctarank": "exact",
    "%cluster_nctarank": "exact", "%lanemask_eq": "exact", "%lanemask_le": "exact", "%lanemask_lt": "exact",
    "%lanemask_ge": "exact", "%lanemask_gt": "exact", "%clock": "4 per warp instruction of the block",
    "%clock_hi": "4 per warp instruction of the block", "%clock64": "4 per warp instruction of the block",
    "%pm": "0", "%envreg": "0", "%globaltimer": "1000 ns per warp instruction of the block",
    "%globaltimer_lo": "1000 ns per warp instruction of the block",
    "%globaltimer_hi": "1000 ns per warp instruction of the block",
    "%reserved_smem_offset_begin": "the reserved region's own window",
    "%reserved_smem_offset_end": "the reserved region's own window", "%reserved_smem_offset_cap": "1024",
    "%reserved_smem_offset_": "the reserved region's own window", "%total_smem_size": "exact",
    "%aggr_smem_size": "exact", "%dynamic_smem_size": "exact", "%current_graph_exec": "0 (no device graph)",
}


def read_opcodes():
    text = open(os.path.join(ROOT, "src/ptx/opcodes.def")).read()
    return re.findall(r'^PTX_OPCODE\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*(\w+)\s*\)', text, re.M)


def read_sregs():
    text = open(os.path.join(ROOT, "src/ptx/special_registers.def")).read()
    return re.findall(r'^PTX_SREG\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)', text, re.M)


def sreg_spelling(name, shape, count):
    if shape == "Vector":
        return f"`{name}.x/.y/.z`"
    if shape == "Indexed":
        return f"`{name}0`..`{name}{int(count) - 1}`"
    if shape == "Indexed64":
        return f"`{name}0_64`..`{name}{int(count) - 1}_64`"
    return f"`{name}`"


def table():
    opcodes = read_opcodes()
    families = {f for _, _, f in opcodes}
    known = [f for f, _, _ in FAMILIES]
    missing = sorted(families - set(known))
    if missing:
        raise SystemExit(f"ptx_instruction_table: families without a description: {missing}")
    lines = ["| Family | Instructions | Executor | What it covers |", "| --- | --- | --- | --- |"]
    for family, executor, what in FAMILIES:
        names = [text for _, text, f in opcodes if f == family]
        if not names:
            continue
        lines.append(f"| {family} | {' '.join(f'`{n}`' for n in names)} | {executor} | {what} |")
    lines += ["", f"{len(opcodes)} opcodes (src/ptx/opcodes.def). Special registers (src/ptx/special_registers.def; "
              "values in src/emu/special_registers.h; `WARP_SZ` is the constant 32):", "",
              "| Register | Value |", "| --- | --- |"]
    for _, name, shape, count, _ in read_sregs():
        if name not in SREG_VALUES:
            raise SystemExit(f"ptx_instruction_table: no value description for {name}")
        lines.append(f"| {sreg_spelling(name, shape, count)} | {SREG_VALUES[name]} |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("--check", "--write"):
        raise SystemExit(__doc__)
    path = os.path.join(ROOT, "docs", "ptx.md")
    readme = open(path).read()
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f"ptx_instruction_table: docs/ptx.md has no {BEGIN} ... {END} section")
    head, rest = readme.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    new = "\n" + table()
    if sys.argv[1] == "--write":
        open(path, "w").write(head + BEGIN + new + END + tail)
        return 0
    if old != new:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "docs/ptx.md",
                                                   "generated from src/ptx/*.def"))
        print("docs/ptx.md's instruction table is stale: run tools/ptx_instruction_table.py --write")
        return 1
    print("docs/ptx.md's instruction table matches src/ptx/opcodes.def and special_registers.def")
    return 0


if __name__ == "__main__":
    sys.exit(main())
