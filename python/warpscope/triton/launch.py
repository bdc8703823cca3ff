"""warpscope.triton.launch: a Triton kernel call made into a warpscope launch.

    prepare(fn, grid, *args, **meta) -> [Launch, ...]     (one per autotune config)

Each Launch holds what Triton compiled (``kernel``: its PTX, cubin and metadata), the SASS
listing of that cubin (Triton's own nvdisasm, ``-c -gi``), and the launch as
``warpscope kernel`` takes it: grid (Triton's grid times num_ctas), block (32 x num_warps),
dynamic shared memory (the metadata's ``shared``) and one ``--arg`` spec per PTX parameter:

    Triton signature        PTX parameters                   --arg
    *fp16 (a tensor)        .u64 pointer                     buf:<bytes> / file:<its data>
    i32 / i64 / u64         .u32 / .u64                      i32:<v> / i64:<v> / u64:<v>
    u1 (a bool), i8 .. u16  .u8 / .u16                       u8:<0|1> / i8:<v> .. u16:<v>
    fp32 / fp64             .f32 / .f64                      f32:<v> / f64:<v>
    fp16 / bf16             .b8[2]                           f16:<v> / bf16:<v>
    constexpr (also ints equal to 1, None)   none            -
    tensordesc (TMA)        .b8[128], shape .u32 x n, strides .u64 x n
                                                             tmap:..., i32:..., i64:...
    (appended)              global scratch, profile scratch  buf:<grid x num_ctas x size> or u64:0
"""

from __future__ import annotations

import inspect
import os
import re
import shlex
import tempfile

import triton
from triton.runtime.autotuner import Autotuner, Heuristics
from triton.runtime.jit import JITFunction
from triton.tools.tensor_descriptor import TensorDescriptor

from .. import _core
from ..api import dims_text
from ..args import Arg
from ..errors import WarpscopeError
from .offline import offline
from .tensors import Tensor, as_stand_in, is_tensor_like

__all__ = ["Launch", "prepare"]


class Launch:
    """One compiled Triton kernel with the warpscope launch that reproduces it."""

    def __init__(self, kernel, config, grid, block, dyn_smem, specs, sass, files, ptx=None):
        self.kernel = kernel          # triton.compiler.CompiledKernel
        self._ptx = ptx if ptx is not None else kernel.asm["ptx"]
        self.config = config          # triton.Config, or None outside autotune
        self.grid = grid              # (x, y, z) as launched
        self.block = block
        self.dyn_smem = dyn_smem
        self.specs = specs            # --arg specs, one per PTX parameter
        self.sass = sass              # nvdisasm -c -gi listing, or None
        self._files = files           # TemporaryDirectory holding file: data (kept alive)

    @property
    def name(self) -> str:
        return self.kernel.metadata.name

    @property
    def ptx(self) -> str:
        return self._ptx

    @property
    def metadata(self):
        return self.kernel.metadata

    def cli_args(self, ptx_path, sass_path=None) -> list:
        """`warpscope kernel` arguments for the same launch, with the PTX (and the listing)
        written to these paths by the caller."""
        out = [os.fspath(ptx_path), "--kernel", self.name, "--grid", dims_text(self.grid, "grid"),
               "--block", dims_text(self.block, "block")]
        if self.dyn_smem:
            out += ["--dyn-smem", str(self.dyn_smem)]
        for s in self.specs:
            out += ["--arg", s]
        if sass_path is not None:
            out += ["--sass-listing", os.fspath(sass_path)]
        return out

    def command(self, ptx_path, sass_path=None) -> str:
        return "warpscope kernel " + " ".join(shlex.quote(a) for a in self.cli_args(ptx_path, sass_path))

    def frontend(self) -> dict:
        """What the report records of the Triton side."""
        m = self.kernel.metadata
        return {
            "triton": {
                "kernel": m.name, "version": getattr(m, "triton_version", triton.__version__),
                "config": str(self.config) if self.config is not None else None,
                "num_warps": m.num_warps, "num_stages": m.num_stages, "num_ctas": m.num_ctas,
                "shared": m.shared, "global_scratch_size": m.global_scratch_size,
                "profile_scratch_size": m.profile_scratch_size,
                "signature": {k: str(v) for k, v in self.kernel.src.signature.items()},
                "grid": list(self.grid), "block": list(self.block), "args": list(self.specs),
            }
        }

    def analyze(self, blocks=None, jobs=0, check=True):
        from .. import api
        from ..report import Report

        core = _core.analyze(file=f"{self.name}.ptx", text=self.ptx, kernel=self.name,
                             grid=dims_text(self.grid, "grid"), block=dims_text(self.block, "block"),
                             dyn_smem=int(self.dyn_smem), args=list(self.specs), blocks=api.blocks_text(blocks),
                             sass_text=self.sass, jobs=int(jobs))
        report = Report(core, extra=self.frontend())
        report.triton_kernel = self.kernel
        report.config = self.config
        report._keepalive = self._files
        if check:
            api.raise_for_diagnostics(report)
        return report


# --- turning the call into Triton's own terms ---------------------------------------------

def _stand_ins(value):
    """The value Triton specializes on: tensors become stand-ins, descriptors get one as base."""
    if is_tensor_like(value):
        return as_stand_in(value)
    if isinstance(value, TensorDescriptor):
        return TensorDescriptor(as_stand_in(value.base), list(value.shape), list(value.strides),
                                list(value.block_shape), value.padding)
    if isinstance(value, tuple):
        return type(value)(*(_stand_ins(v) for v in value)) if hasattr(value, "_fields") else \
            tuple(_stand_ins(v) for v in value)
    return value


def _variants(fn, args, meta):
    """(config, JITFunction, meta) for each kernel the call can launch: autotune configs
    each, heuristics applied in the order Triton applies them."""
    if isinstance(fn, JITFunction):
        return [(None, fn, meta)]
    if isinstance(fn, Heuristics):
        meta = dict(meta)
        for name, heuristic in fn.values.items():
            meta[name] = heuristic({**dict(zip(fn.arg_names, args)), **meta})
        return _variants(fn.fn, args, meta)
    if isinstance(fn, Autotuner):
        configs = fn.configs
        if getattr(fn, "early_config_prune", None):
            configs = fn.early_config_prune(configs, dict(zip(fn.arg_names, args)), **meta)
        out = []
        for config in configs:
            tuned = config.all_kwargs()
            clash = sorted(set(tuned) & set(meta))
            if clash:
                raise TypeError(f"{', '.join(clash)} set both by the call and by autotune config {config}")
            for _, jit, m in _variants(fn.fn, args, {**meta, **tuned}):
                out.append((config, jit, m))
        return out
    raise TypeError(f"expected a @triton.jit function (or @triton.autotune / @triton.heuristics of one), "
                    f"got {type(fn).__name__}")


def _flatten(name, ty, value, out):
    """(name, type, value) per leaf of tuple arguments (Triton flattens them into the PTX)."""
    if isinstance(ty, tuple):
        for i, (t, v) in enumerate(zip(ty, value)):
            _flatten(f"{name}[{i}]", t, v, out)
    else:
        out.append((name, ty, value))


def _grid(grid, bound) -> tuple:
    g = grid(dict(bound)) if callable(grid) else grid
    if isinstance(g, int):
        g = (g,)
    g = tuple(int(x) for x in g)
    if not 1 <= len(g) <= 3:
        raise ValueError(f"a grid has one to three dimensions, got {g}")
    return g + (1,) * (3 - len(g))


_TMA_DTYPE = {  # CUtensorMapDataType (host enum) -> tmap: dtype
    0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16",
    10: "f32", 11: "tf32", 12: "tf32",
}
_SWIZZLE = {0: "none", 1: "32B", 2: "64B", 3: "128B"}


def _device_to_host_dtype(elem_type: int) -> int:
    """Triton's metadata holds the device-side enum; the host's differs for 8..10."""
    try:
        from triton.backends.nvidia.driver import TMA_DTYPE_DEVICE_TO_HOST
        return TMA_DTYPE_DEVICE_TO_HOST[elem_type]
    except (ImportError, KeyError, AttributeError):
        return {8: 10, 9: 8, 10: 9}.get(elem_type, elem_type)


class _Specs:
    """Builds the --arg specs, writing file: data into one temporary folder."""

    def __init__(self):
        self.specs = []
        self.files = None

    def buffer(self, t: Tensor) -> Arg:
        if t.data is None:
            return Arg(f"buf:{t.nbytes}")
        if self.files is None:
            self.files = tempfile.TemporaryDirectory(prefix="warpscope-triton-")
        path = os.path.join(self.files.name, f"arg{len(self.specs)}.bin")
        with open(path, "wb") as f:
            f.write(bytes(t.data[: t.nbytes]))
        return Arg(f"file:{path}")

    # Triton's scalar types -> --arg kinds. A bool (u1, i1) is a .u8 parameter in the PTX;
    # fp16 and bf16 scalars are 2-byte .b8 arrays, which f16: and bf16: fill.
    _SCALARS = {"i1": "u8", "u1": "u8", "i8": "i8", "u8": "u8", "i16": "i16", "u16": "u16", "i32": "i32",
                "u32": "u32", "i64": "i64", "u64": "u64", "fp16": "f16", "bf16": "bf16", "fp32": "f32",
                "fp64": "f64"}

    def scalar(self, name, ty, value):
        kind = self._SCALARS.get(ty)
        if kind is None:
            raise WarpscopeError(f"parameter '{name}' is Triton's {ty}, which warpscope cannot pass yet "
                                 f"(--arg has no {ty} kind); make it a tl.constexpr or a 32/64-bit value")
        if kind.startswith(("f", "bf")):
            self.specs.append(f"{kind}:{float(value)!r}")
        else:
            self.specs.append(f"{kind}:{int(value)}")

    def descriptor(self, name, desc, meta):
        ndim = len(desc.shape)
        if meta is None:
            raise WarpscopeError(f"parameter '{name}': a host tensor descriptor the kernel does not read through "
                                 "TMA (it takes an i1 padding flag, which --arg cannot pass yet)")
        if meta.get("fp4_padded"):
            raise WarpscopeError(f"parameter '{name}': fp4-padded tensor maps are not supported")
        es = meta["elem_size"]
        host_type = _device_to_host_dtype(meta["elem_type"])
        base = self.buffer(desc.base)
        dims = list(reversed([int(s) for s in desc.shape]))
        strides = list(reversed([int(s) * es for s in desc.strides[:-1]]))
        box = list(reversed([int(b) for b in meta["block_size"]]))
        from ..args import tmap

        spec = tmap(base, _TMA_DTYPE[host_type], dims, strides, box, _SWIZZLE[meta["swizzle"]],
                    fill="nan" if desc.padding == "nan" else None)
        self.specs.append(spec.spec)
        self.specs += [f"i32:{int(s)}" for s in desc.shape]
        self.specs += [f"i64:{int(s)}" for s in desc.strides]


def _source_moved(jit, ptx, sass):
    """Triton's cache keys kernels by their source text, not its path: a kernel compiled from
    a file elsewhere (another clone) names that file. Name the function's own file instead,
    in the PTX and the listing alike (the listing's lines are matched to the PTX's by name)."""
    try:
        here = inspect.getsourcefile(jit.fn)
    except TypeError:
        return ptx, sass
    for old in re.findall(r'^\s*\.file\s+\d+\s+"([^"]+)"', ptx, re.M):
        if here and old != here and os.path.basename(old) == os.path.basename(here):
            ptx = ptx.replace(f'"{old}"', f'"{here}"')
            sass = sass.replace(f'"{old}"', f'"{here}"') if sass else sass
    return ptx, sass


def _launch_of(jit, config, grid, args, meta, kernel) -> Launch:
    m = kernel.metadata
    params = inspect.signature(jit.fn).parameters
    param_meta = {k: v for k, v in meta.items() if k in params}
    bound = inspect.signature(jit.fn).bind(*args, **param_meta)
    bound.apply_defaults()
    g = _grid(grid, bound.arguments)
    launched = (g[0] * m.num_ctas, g[1], g[2])
    specs = _Specs()
    descriptors = iter(getattr(m, "tensordesc_meta", None) or [])
    flat = []
    for name, ty in kernel.src.signature.items():
        _flatten(name, ty, bound.arguments[name], flat)
    for name, ty, value in flat:
        if ty == "constexpr":
            continue
        if isinstance(ty, str) and ty.startswith("*"):
            if not isinstance(value, Tensor):
                raise WarpscopeError(f"parameter '{name}' is a pointer ({ty}); pass a tensor "
                                     "(torch, or warpscope.triton.tensor(shape, dtype))")
            specs.specs.append(specs.buffer(value).spec)
        elif isinstance(ty, str) and ty.startswith("tensordesc"):
            specs.descriptor(name, value, next(descriptors, None))
        else:
            specs.scalar(name, ty, value)
    blocks = g[0] * g[1] * g[2] * m.num_ctas
    for size in (m.global_scratch_size, m.profile_scratch_size):  # what Triton's launcher allocates
        specs.specs.append(f"buf:{blocks * size}" if size > 0 else "u64:0")
    try:
        from triton import knobs
        nvdisasm = knobs.nvidia.nvdisasm.path
    except Exception:  # an older layout: the bundled copy
        nvdisasm = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    try:
        sass = _core.disassemble_cubin(kernel.asm["cubin"], nvdisasm)
    except WarpscopeError:
        sass = None  # the library then runs ptxas + nvdisasm itself, or prices the PTX
    ptx, sass = _source_moved(jit, kernel.asm["ptx"], sass)
    return Launch(kernel, config, launched, (32 * m.num_warps, 1, 1), m.shared, specs.specs, sass, specs.files, ptx)


def prepare(fn, grid, *args, **meta) -> list:
    """Compiles the call as Triton would launch it (sm_90, no GPU) and returns its Launches."""
    launches = []
    for config, jit, m in _variants(fn, args, meta):
        converted = tuple(_stand_ins(a) for a in args)
        kw = {k: _stand_ins(v) for k, v in m.items()}
        with offline():
            kernel = jit.warmup(*converted, grid=None, **kw)
        if hasattr(kernel, "result"):  # an async-compile future
            kernel = kernel.result()
        launches.append(_launch_of(jit, config, grid, converted, kw, kernel))
    return launches
