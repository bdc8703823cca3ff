"""warpscope.triton.offline: compiling a Triton kernel for sm_90 on a machine without a GPU.

Triton's own ``JITFunction.warmup`` binds and specializes the arguments exactly as a launch
would (divisibility by 16 of pointers and ints, ints equal to 1 and None as constants, the
constexprs) and compiles; it asks ``triton.runtime.driver.active`` for the device and the
target. While ``offline()`` is in force that driver is one that answers "an sm_90 GPU" and
names a device of its own ("warpscope:sm_90"), so the kernels compiled here sit in a cache
entry of their own and never stand in for a real GPU's.
"""

from __future__ import annotations

import contextlib
import threading

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase

__all__ = ["TARGET", "DEVICE", "offline"]

TARGET = GPUTarget("cuda", 90, 32)
DEVICE = "warpscope:sm_90"


class OfflineDriver(DriverBase):
    """A driver for compiling only: an H100/H200 target, no device behind it."""

    @classmethod
    def is_active(cls):
        return False

    def map_python_to_cpp_type(self, ty):
        raise NotImplementedError("warpscope compiles Triton kernels without launching them")

    def get_current_target(self):
        return TARGET

    def get_current_device(self):
        return DEVICE

    def get_current_stream(self, device=None):
        return 0

    def get_active_torch_device(self):
        raise RuntimeError("warpscope compiles Triton kernels without a GPU: there is no torch device")

    def get_benchmarker(self):
        raise RuntimeError("warpscope compiles Triton kernels without a GPU: nothing can be benchmarked")


_lock = threading.Lock()


@contextlib.contextmanager
def offline():
    """Within: Triton's active driver is the offline sm_90 one (one thread at a time)."""
    from triton.runtime import driver

    with _lock:
        previous = getattr(driver, "_active", None)  # None: not made yet (making it needs a GPU)
        driver.set_active(OfflineDriver())
        try:
            yield
        finally:
            if previous is not None:
                driver.set_active(previous)
            else:
                driver._active = None
