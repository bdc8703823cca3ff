#!/usr/bin/env python3
"""Launches one case of corpus/triton (cases.py) on a GPU with real torch tensors, once,
for ncu to measure (needs torch, Triton 3.6 and a CUDA GPU: the H200).

  python3 corpus/triton/measure.py --list             case names and their Triton kernels
  python3 corpus/triton/measure.py --case NAME        compile (warm-up launch), then the
                                                      launch ncu should profile
Under ncu, profile only the kernel (torch's own fill kernels run first) and the second
launch (the first compiles and runs once):

  ncu --clock-control none --metrics $(paste -sd, bench/gpu/metrics.txt) \\
      --section SourceCounters --import-source yes -k regex:'^KERNEL$' --launch-skip 1 \\
      --launch-count 1 -f -o WORK/NAME python3 corpus/triton/measure.py --case NAME

measure_all.sh does that for every case and collect.py turns the exports into
tests/data/h200/corpus/triton.jsonl. Tensor contents are random; no address of these
kernels depends on them.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases as C  # noqa: E402

TORCH_DTYPES = {"float16": "float16", "float32": "float32", "bfloat16": "bfloat16", "int32": "int32", "int8": "int8",
                "float8e4nv": "float8_e4m3fn", "float8e5": "float8_e5m2"}


def kernel_name(case):
    return case["fn"].fn.__name__


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list or not args.case:
        for name, case in C.CASES.items():
            print(name, kernel_name(case))
        return
    import torch

    case = C.CASES[args.case]
    torch.manual_seed(0)

    def make(shape, dtype):
        t = getattr(torch, TORCH_DTYPES[dtype])
        if t.is_floating_point:  # fp8 has no randn: fp16 values converted
            return torch.randn(shape, dtype=torch.float16, device="cuda").to(t)
        return torch.zeros(shape, dtype=t, device="cuda")  # integers: locks and counters start at 0

    # Descriptors the kernel builds itself (tl.make_tensor_descriptor) live in global
    # scratch that Triton's launcher takes from this allocator.
    import triton

    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    # ("desc", tensor, block) arguments: TensorDescriptor.from_tensor over the torch tensor.
    kernel_args = C.make_args(case, make)
    grid = case["grid"]
    case["fn"][grid](*kernel_args, **case["meta"])  # compiles; profiled away by --launch-skip 1
    torch.cuda.synchronize()
    for a in kernel_args:  # locks and counters as the first launch found them (zeros)
        if isinstance(a, torch.Tensor) and not a.is_floating_point():
            a.zero_()
    torch.cuda.synchronize()
    case["fn"][grid](*kernel_args, **case["meta"])
    torch.cuda.synchronize()
    print(f"{args.case}: launched {kernel_name(case)} grid {grid}")


if __name__ == "__main__":
    main()
