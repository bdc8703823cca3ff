"""warpscope: what a CUDA or Triton kernel's memory accesses cost on an H200, without a GPU.

    import warpscope
    r = warpscope.analyze("examples/transpose_tiled.ptx", kernel="transpose_tiled_f32", grid=(16, 16),
                          block=(32, 8), args=[warpscope.buf(1 << 20), warpscope.buf(1 << 20), 512])
    print(r)                      # the CLI's text report
    r.metrics, r.lines            # as `warpscope kernel --json` keys them

Triton kernels: ``warpscope.triton.analyze(kernel, grid, *args, **meta)`` (needs triton).
Checks for a project's tests: ``warpscope.testing``.
"""

from .args import Arg, buf, f32, f64, file, i32, i64, tmap, u32, u64
from .api import analyze
from .errors import WarpscopeError
from .report import ConfigReport, FixResult, Report

__version__ = "0.1.0"

__all__ = ["analyze", "Arg", "buf", "file", "tmap", "i32", "u32", "i64", "u64", "f32", "f64", "Report",
           "FixResult", "ConfigReport", "WarpscopeError", "__version__"]
