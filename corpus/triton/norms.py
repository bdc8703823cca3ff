"""Layernorm backward kernels of our own for corpus/triton (issue 14's Triton set).

layernorm_bwd_dx_kernel: one program per row computes dx, and adds the row's share of dw
and db into one of GROUP partial rows, taking that row's spin lock (atomic_cas on an int32
lock, atomic_xchg to release; the first writer of a partial row stores, the others
accumulate); layernorm_bwd_dwdb_kernel sums the GROUP partial rows into dw and db.
Locks and counts start at zero (on the GPU too: int32 tensors are zeroed).

Line numbers matter: the tests and the H200 measurements name lines of this file.
"""

import triton
import triton.language as tl


@triton.jit
def layernorm_bwd_dx_kernel(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                            GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(DX + row * stride + cols, ((wdy - (xhat * c1 + c2)) * rstd).to(tl.float16), mask=mask)
    # The row's share of dw and db, into partial row `group` under its lock.
    group = row % GROUP
    lock = Lock + group
    count = Lock + GROUP + group
    part = group * N + cols
    dw = (dy * xhat).to(tl.float16)
    db = dy.to(tl.float16)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        dw += tl.load(DW + part, mask=mask)
        db += tl.load(DB + part, mask=mask)
    tl.store(DW + part, dw, mask=mask)
    tl.store(DB + part, db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def layernorm_bwd_dwdb_kernel(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Column sums of the M x N partial rows, BLOCK_N columns a program.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        at = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + at, mask=mask, other=0.0).to(tl.float32)
        db += tl.load(DB + at, mask=mask, other=0.0).to(tl.float32)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0).to(tl.float16), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0).to(tl.float16), mask=cols < N)
