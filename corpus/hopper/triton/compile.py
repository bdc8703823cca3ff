#!/usr/bin/env python3
"""Compiles tma_kernels.py for sm_90 with Triton 3.6 (no GPU needed) into <name>.ptx
beside it, and prints each kernel's shared memory, warps and global scratch bytes (the
scratch buffer a launch passes after the kernel's own arguments).
    usage: /tmp/tvenv/bin/python corpus/hopper/triton/compile.py"""
import os
import re
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import tma_kernels as K  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


def build(name, fn, signature, constexprs, **options):
    k = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs), target=TARGET, options=options)
    # .file names the kernel source by its absolute path: keep the bare name (it sits beside).
    ptx = re.sub(r'(\.file\s+\d+\s+)"[^"]*/tma_kernels.py"', r'\1"tma_kernels.py"', k.asm["ptx"])
    with open(os.path.join(here, name + ".ptx"), "w") as f:
        f.write(ptx)
    print(name, "shared", k.metadata.shared, "warps", k.metadata.num_warps, "scratch", k.metadata.global_scratch_size)


build("tma_add_host", K.tma_add_host,
      {"x_desc": "tensordesc<fp16[64, 64]>", "y_desc": "tensordesc<fp16[64, 64]>", "out_desc": "tensordesc<fp16[64, 64]>",
       "BM": "constexpr", "BN": "constexpr"}, {"BM": 64, "BN": 64}, num_warps=4)
build("tma_add_device", K.tma_add_device,
      {"x_ptr": "*fp16", "y_ptr": "*fp16", "out_ptr": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
      {"BM": 64, "BN": 64}, num_warps=4)
build("tma_softmax", K.tma_softmax,
      {"in_ptr": "*fp16", "out_ptr": "*fp16", "n_rows": "i32", "n_cols": "i32", "BLOCK": "constexpr", "ROWS": "constexpr"},
      {"BLOCK": 256, "ROWS": 4}, num_warps=4)
