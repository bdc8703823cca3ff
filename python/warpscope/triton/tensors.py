"""warpscope.triton.tensors: what stands for a kernel's tensors when nothing runs on a GPU.

``tensor(shape, dtype, strides=None, data=None)`` is a stand-in (no torch needed). Triton's
specialization reads only its ``dtype`` and ``data_ptr()`` (a made-up device address, 256-byte
aligned like a CUDA allocation, so pointers specialize as divisible by 16); warpscope gives
the kernel a buffer of the tensor's size, zeroed, or holding ``data`` (bytes, or anything with
``tobytes()``) when given.

A torch tensor (CPU or meta device) becomes the same: its dtype, its storage from its own
first element on (the bytes of a CPU tensor's storage, so data-dependent kernels read the
real values; a meta tensor's are zeros), its offset into the storage in the made-up address.
"""

from __future__ import annotations

import itertools
import math

import triton.language as tl

__all__ = ["tensor", "Tensor", "as_stand_in", "is_tensor_like", "triton_dtype"]

# Names a user may write: torch's, numpy's and Triton's.
_DTYPES = {
    "float16": tl.float16, "half": tl.float16, "fp16": tl.float16, "f16": tl.float16,
    "bfloat16": tl.bfloat16, "bf16": tl.bfloat16,
    "float32": tl.float32, "float": tl.float32, "fp32": tl.float32, "f32": tl.float32,
    "float64": tl.float64, "double": tl.float64, "fp64": tl.float64, "f64": tl.float64,
    "int8": tl.int8, "i8": tl.int8, "int16": tl.int16, "i16": tl.int16, "int32": tl.int32, "i32": tl.int32,
    "int64": tl.int64, "i64": tl.int64, "long": tl.int64,
    "uint8": tl.uint8, "u8": tl.uint8, "uint16": tl.uint16, "u16": tl.uint16, "uint32": tl.uint32,
    "u32": tl.uint32, "uint64": tl.uint64, "u64": tl.uint64,
    "bool": tl.int1, "int1": tl.int1,
    "float8_e4m3fn": tl.float8e4nv, "fp8e4nv": tl.float8e4nv, "float8e4nv": tl.float8e4nv,
    "float8_e5m2": tl.float8e5, "fp8e5": tl.float8e5, "float8e5": tl.float8e5,
    "fp8e4b15": tl.float8e4b15,
}


def triton_dtype(dtype) -> "tl.dtype":
    """A triton.language dtype from a name ('float16', 'fp16', 'torch.float16'), a
    triton.language dtype, or a torch dtype."""
    if isinstance(dtype, tl.dtype):
        return dtype
    name = str(dtype)
    for prefix in ("torch.", "tl.", "triton.language."):
        if name.startswith(prefix):
            name = name[len(prefix):]
    try:
        return _DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype {dtype!r}; one of {', '.join(sorted(_DTYPES))}") from None


def _itemsize(dtype: "tl.dtype") -> int:
    return max(1, dtype.primitive_bitwidth // 8)


def _contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(1, size)
    return tuple(reversed(strides))


# Made-up device addresses: 4 GiB apart, 256-byte aligned (the caching allocator's are).
_addresses = itertools.count(0x7F00_0000_0000, 1 << 32)


class Tensor:
    """A stand-in for a device tensor: shape, dtype, strides (elements), optional data."""

    def __init__(self, shape, dtype, strides=None, data=None, *, offset_bytes=0, nbytes=None):
        self.shape = tuple(int(s) for s in shape)
        # Triton specializes on the dtype as given: a torch dtype stays one (torch.bool is
        # Triton's i1, tl.int1 its u1).
        self._tl_dtype = triton_dtype(dtype)
        self.dtype = dtype if _is_torch_dtype(dtype) else self._tl_dtype
        self._strides = tuple(int(s) for s in strides) if strides is not None else _contiguous_strides(self.shape)
        if len(self._strides) != len(self.shape):
            raise ValueError(f"tensor: {len(self.shape)} dimensions need {len(self.shape)} strides, got {self._strides}")
        if any(s < 0 for s in self._strides):
            raise ValueError("tensor: negative strides are not supported")
        self.data = data if data is None or isinstance(data, (bytes, bytearray)) else _bytes_of(data)
        if nbytes is None:
            span = 0 if any(s == 0 for s in self.shape) else 1 + sum((n - 1) * s for n, s in zip(self.shape, self._strides))
            nbytes = span * _itemsize(self._tl_dtype)
        if self.data is not None and len(self.data) < nbytes:
            raise ValueError(f"tensor: data holds {len(self.data)} bytes, the tensor spans {nbytes}")
        self.nbytes = nbytes
        self._address = next(_addresses) + int(offset_bytes)

    # --- what Triton's specialization and TensorDescriptor read ---
    def data_ptr(self) -> int:
        return self._address

    def stride(self, dim=None):
        return self._strides if dim is None else self._strides[dim]

    def element_size(self) -> int:
        return _itemsize(self._tl_dtype)

    def dim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        return math.prod(self.shape)

    # --- views, as torch makes them: the same bytes at the same address, other strides ---
    def permute(self, *dims) -> "Tensor":
        """The view with dimensions in the order ``dims`` (torch's ``permute``)."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        if sorted(dims) != list(range(len(self.shape))):
            raise ValueError(f"permute: {tuple(dims)} is not an order of {len(self.shape)} dimensions")
        view = Tensor.__new__(Tensor)
        view.__dict__.update(self.__dict__)
        view.shape = tuple(self.shape[d] for d in dims)
        view._strides = tuple(self._strides[d] for d in dims)
        return view

    def transpose(self, dim0: int, dim1: int) -> "Tensor":
        order = list(range(len(self.shape)))
        order[dim0], order[dim1] = order[dim1], order[dim0]
        return self.permute(order)

    def t(self) -> "Tensor":
        if len(self.shape) != 2:
            raise ValueError(f"t: a 2-D tensor, not {len(self.shape)}-D")
        return self.transpose(0, 1)

    @property
    def T(self) -> "Tensor":  # noqa: N802 (torch's name)
        return self.permute(tuple(reversed(range(len(self.shape)))))

    def __repr__(self):
        return f"warpscope.triton.tensor({list(self.shape)}, {self.dtype}, strides={list(self._strides)})"


def tensor(shape, dtype, strides=None, data=None) -> Tensor:
    """A stand-in tensor: ``shape`` (ints), ``dtype`` ('float16', 'fp32', tl.bfloat16, ...),
    ``strides`` in elements (default: contiguous), ``data`` its bytes (default: zeros)."""
    return Tensor(shape, dtype, strides, data)


def _is_torch_dtype(dtype) -> bool:
    return type(dtype).__module__ == "torch" and type(dtype).__name__ == "dtype"


def _bytes_of(data) -> bytes:
    if hasattr(data, "tobytes"):
        return data.tobytes()
    return bytes(memoryview(data))


def is_torch_tensor(value) -> bool:
    return type(value).__module__.startswith("torch") and hasattr(value, "untyped_storage")


def is_tensor_like(value) -> bool:
    return isinstance(value, Tensor) or is_torch_tensor(value)


def _torch_storage_bytes(t, start: int) -> bytes:
    """A CPU tensor's storage from byte `start` on."""
    import torch

    storage = t.untyped_storage()
    flat = torch.empty(0, dtype=torch.uint8).set_(storage)
    try:
        return flat.numpy()[start:].tobytes()
    except (RuntimeError, TypeError, ImportError):  # torch without numpy
        return bytes(flat[start:].tolist())


def as_stand_in(value) -> Tensor:
    """The stand-in for a torch tensor (CPU: with its storage's bytes; meta: zeros)."""
    if isinstance(value, Tensor):
        return value
    itemsize = value.element_size()
    offset = value.storage_offset() * itemsize
    nbytes = value.untyped_storage().nbytes() - offset
    device = getattr(value.device, "type", str(value.device))
    if device not in ("cpu", "meta"):
        raise ValueError(f"a torch tensor on '{device}': warpscope takes CPU or meta tensors (no GPU is needed)")
    data = _torch_storage_bytes(value, offset) if device == "cpu" else None
    return Tensor(value.shape, value.dtype, value.stride(), data, offset_bytes=offset % 256, nbytes=nbytes)
