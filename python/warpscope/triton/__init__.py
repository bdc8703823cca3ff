"""warpscope.triton: a Triton kernel's memory costs on an H200, from its Python source.

    import warpscope.triton as wt
    r = wt.analyze(softmax_kernel, (rows,), y, x, x.stride(0), y.stride(0), n_cols, BLOCK=1024, num_warps=8)
    print(r)                       # per line of the .py: shared wavefronts/ideal, global sectors/ideal
    r.configs                      # with @triton.autotune: every config and its figures

``args`` are torch tensors (CPU or meta device), stand-ins ``wt.tensor(shape, dtype)`` (no
torch needed), ints, floats and ``triton.tools.tensor_descriptor.TensorDescriptor``s over
either; ``meta`` holds the constexprs and Triton's launch options (num_warps, num_stages,
num_ctas, launch_pdl, ...). The kernel is compiled by Triton itself for sm_90 (no GPU
needed), priced from the SASS of the cubin Triton made.
"""

from __future__ import annotations

from .launch import Launch, prepare
from .tensors import Tensor, tensor

__all__ = ["analyze", "prepare", "tensor", "Tensor", "Launch"]


def _excess(report) -> float:
    return report.excess_wavefronts + report.excess_sectors


def analyze(fn, grid, *args, ws_blocks=None, ws_jobs=0, ws_check=True, **meta):
    """Compile ``fn[grid](*args, **meta)`` as Triton would launch it, emulate it and report.

    With ``@triton.autotune`` every config is analysed: the report returned is the config
    with the fewest excess shared wavefronts + global sectors (the first of equals), and its
    ``configs`` lists each config with its report. ``ws_blocks`` samples blocks (as
    ``warpscope.analyze``'s ``blocks``); ``ws_check=False`` returns a report even when the
    emulation found an error."""
    reports = [launch.analyze(blocks=ws_blocks, jobs=ws_jobs, check=ws_check)
               for launch in prepare(fn, grid, *args, **meta)]
    from ..report import ConfigReport

    best = min(reports, key=_excess)
    if len(reports) > 1 or reports[0].config is not None:
        best.configs = [ConfigReport(r.config, r) for r in reports]
    return best
