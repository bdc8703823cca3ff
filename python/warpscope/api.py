"""warpscope.api: ``analyze``, the Python form of ``warpscope kernel``."""

from __future__ import annotations

import os

from . import _core
from .args import spec_of
from .errors import WarpscopeError
from .report import Report

__all__ = ["analyze", "dims_text", "blocks_text", "raise_for_diagnostics"]


def dims_text(value, what) -> str:
    """An int or a tuple of up to three ints -> "X[,Y[,Z]]"."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    parts = [int(v) for v in value]
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"{what}: one to three dimensions, got {tuple(value)}")
    return ",".join(str(v) for v in parts)


def blocks_text(blocks) -> str:
    """None (every block), "10%", 0.1 (a fraction), or block ids (ints, ranges)."""
    if blocks is None:
        return ""
    if isinstance(blocks, str):
        return blocks
    if isinstance(blocks, float):
        return repr(blocks)
    if isinstance(blocks, int):
        return str(blocks)
    parts = []
    for b in blocks:
        if isinstance(b, range) and b.step == 1 and len(b):
            parts.append(f"{b.start}-{b.stop - 1}")
        else:
            parts.append(str(int(b)))
    return ",".join(parts)


def _source_request(source):
    """(file, text) for the launch request: a path is read by the library (a .cu through
    nvcc); text is PTX, or CUDA source when it looks like it."""
    if isinstance(source, os.PathLike):
        return os.fspath(source), None
    if not isinstance(source, str):
        raise TypeError(f"source is a path or the text of a .ptx or .cu, got {type(source).__name__}")
    if "\n" not in source and (os.path.exists(source) or source.endswith((".ptx", ".cu"))):
        return source, None
    looks_like_ptx = ".entry" in source or ".version" in source
    if not looks_like_ptx and "__global__" in source:
        return "kernel.cu", source
    return "<string>", source


def raise_for_diagnostics(report: Report):
    """Raises the first error diagnostic as a WarpscopeError carrying the (partial) report."""
    for d in report.diagnostics:
        if d.get("severity") == "error":
            e = WarpscopeError(d["message"], d.get("file", ""), d.get("line", 0), d.get("column", 0),
                               "error: " + d["message"])
            e.report = report
            raise e


def analyze(source, kernel=None, grid=1, block=32, args=(), dyn_smem=0, blocks=None, sass_listing=None, *,
            no_sass=False, arch="sm_90", jobs=0, check=True) -> Report:
    """Emulate one launch of a CUDA kernel and price its memory accesses as ncu counts them.

    source        a path to a .ptx or .cu, or the text of one
    kernel        the kernel's name, plain or mangled (optional when there is one)
    grid, block   an int or a tuple of up to three
    args          in parameter order: warpscope.buf(n), warpscope.file(path), warpscope.tmap(...),
                  warpscope.i32(v) (etc.), or plain ints and floats (the parameter's own type)
    dyn_smem      dynamic shared memory bytes
    blocks        emulate only these blocks (ids, ranges, "10%" or 0.1); totals are scaled
    sass_listing  an `nvdisasm -c -gi` listing (a path, or its text) instead of running ptxas
    check         raise WarpscopeError when the emulation finds an error (out-of-bounds, ...);
                  the exception's .report holds the partial report
    """
    file, text = _source_request(source)
    listing_path, listing_text = "", None
    if sass_listing is not None:
        listing = os.fspath(sass_listing)
        if "\n" in listing:
            listing_text = listing
        else:
            listing_path = listing
    core = _core.analyze(file=file, text=text, kernel=kernel or "", grid=dims_text(grid, "grid"),
                         block=dims_text(block, "block"), dyn_smem=int(dyn_smem),
                         args=[spec_of(a) for a in args], blocks=blocks_text(blocks), arch=arch,
                         no_sass=bool(no_sass), sass_listing=listing_path, sass_text=listing_text, jobs=int(jobs))
    report = Report(core)
    if check:
        raise_for_diagnostics(report)
    return report
