"""warpscope.args: kernel arguments, as the CLI's ``--arg`` specs (README: ``warpscope kernel``).

    buf(1 << 20)            a zeroed device buffer of that many bytes      (--arg buf:1048576)
    file("x.bin")           a buffer holding the file's bytes              (--arg file:x.bin)
    i32(512), u64(0), f32(0.5), ...   a scalar of that PTX type            (--arg i32:512)
    512, 0.5                a plain number takes the parameter's own type
    tmap(buf(n), dtype="f16", dims=(64, 8192), strides=(128,), box=(64, 128), swizzle="128B")
                            a host tensor map (CUtensorMap), innermost dimension first,
                            strides in bytes for dimensions 1..rank-1    (--arg tmap:...)
"""

from __future__ import annotations

import math
import os

__all__ = ["Arg", "buf", "file", "tmap", "i32", "u32", "i64", "u64", "f32", "f64", "spec_of"]


class Arg:
    """One kernel argument; ``spec`` is its ``--arg`` text."""

    __slots__ = ("spec",)

    def __init__(self, spec: str):
        self.spec = spec

    def __repr__(self):
        return f"warpscope.Arg({self.spec!r})"

    def __eq__(self, other):
        return isinstance(other, Arg) and other.spec == self.spec

    def __hash__(self):
        return hash(self.spec)


def buf(nbytes: int) -> Arg:
    """A zeroed device buffer of ``nbytes`` bytes, passed by address."""
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ValueError(f"buf: a byte count is not negative, got {nbytes}")
    return Arg(f"buf:{nbytes}")


def file(path) -> Arg:
    """A device buffer holding the bytes of the file at ``path``."""
    return Arg(f"file:{os.fspath(path)}")


def _int_kind(kind: str, bits: int, signed: bool):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)

    def make(value) -> Arg:
        v = int(value)
        if not lo <= v <= hi:
            raise ValueError(f"{kind}: {v} is outside {lo}..{hi}")
        return Arg(f"{kind}:{v}")

    make.__name__ = kind
    make.__doc__ = f"A {'signed' if signed else 'unsigned'} {bits}-bit integer argument."
    return make


i32 = _int_kind("i32", 32, True)
u32 = _int_kind("u32", 32, False)
i64 = _int_kind("i64", 64, True)
u64 = _int_kind("u64", 64, False)


def _float_text(v: float) -> str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


def f32(value) -> Arg:
    """A 32-bit float argument (the value rounded to float)."""
    return Arg(f"f32:{_float_text(value)}")


def f64(value) -> Arg:
    """A 64-bit float argument."""
    return Arg(f"f64:{_float_text(value)}")


_TMAP_DTYPES = ("f16", "bf16", "f32", "tf32", "f64", "u8", "u16", "u32", "s32", "u64", "s64")
_SWIZZLES = ("none", "32B", "64B", "128B")


def _dims(name, values):
    values = tuple(int(v) for v in values)
    if any(v <= 0 for v in values):
        raise ValueError(f"tmap: {name} are positive, got {values}")
    return "x".join(str(v) for v in values)


def tmap(buffer, dtype: str, dims, strides, box, swizzle: str = "none", elemstrides=None,
         interleave=None, fill=None) -> Arg:
    """A host tensor map over ``buffer`` (``buf(...)`` or ``file(...)``), as
    cuTensorMapEncodeTiled takes it: ``dims`` and ``box`` innermost first, ``strides`` in
    bytes for dimensions 1..rank-1. Builds the ``tmap:`` spec of the Hopper issue (14)."""
    if not isinstance(buffer, Arg) or not buffer.spec.startswith(("buf:", "file:")):
        raise TypeError("tmap: the buffer is warpscope.buf(...) or warpscope.file(...)")
    if dtype not in _TMAP_DTYPES:
        raise ValueError(f"tmap: dtype is one of {', '.join(_TMAP_DTYPES)}, got {dtype!r}")
    if swizzle not in _SWIZZLES:
        raise ValueError(f"tmap: swizzle is one of {', '.join(_SWIZZLES)}, got {swizzle!r}")
    dims, box, strides = tuple(dims), tuple(box), tuple(strides)
    if len(dims) != len(box) or len(strides) != len(dims) - 1:
        raise ValueError(f"tmap: {len(dims)} dims need {len(dims)} box sizes and {len(dims) - 1} strides")
    parts = [buffer.spec, f"dtype={dtype}", f"dims={_dims('dims', dims)}"]
    if strides:
        parts.append(f"strides={_dims('strides', strides)}")
    parts += [f"box={_dims('box', box)}", f"swizzle={swizzle}"]
    if elemstrides is not None:
        parts.append(f"elemstrides={_dims('elemstrides', elemstrides)}")
    if interleave is not None:
        parts.append(f"interleave={interleave}")
    if fill is not None:
        if fill not in ("zero", "nan"):
            raise ValueError(f"tmap: fill is 'zero' or 'nan', got {fill!r}")
        parts.append(f"fill={fill}")
    return Arg("tmap:" + ",".join(parts))


def spec_of(value) -> str:
    """The ``--arg`` spec of one argument: an Arg, a plain int or float (``num:``: the
    parameter's own type), or a spec string as the CLI takes it."""
    if isinstance(value, Arg):
        return value.spec
    if isinstance(value, bool):
        raise TypeError("a bool is no kernel argument here; pass warpscope.u32(int(flag)) or similar")
    if isinstance(value, int):
        return f"num:{value}"
    if isinstance(value, float):
        return f"num:{_float_text(value)}"
    if isinstance(value, str) and ":" in value:
        return value
    raise TypeError(f"cannot pass {value!r} as a kernel argument: use warpscope.buf(n), warpscope.file(path), "
                    "warpscope.i32(v), ... or a plain int or float")
