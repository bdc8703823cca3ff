"""GEMM kernels of our own for corpus/triton (issue 14's Triton set): persistent matmuls (a
grid of NUM_SMS programs looping over the output tiles) through pointers, host
TensorDescriptors and device-built descriptors, and an fp8 (float8e4nv) GEMM (wgmma with
e4m3 operands: QGMMA). C = A @ B with A (M, K) row-major and B given as (N, K) row-major
(K contiguous: the operand order fp8 wgmma needs), C (M, N) fp16.

Line numbers matter: the tests and the H200 measurements name lines of this file.
"""

import triton
import triton.language as tl


@triton.jit
def _tile_of(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    # Grouped ordering: GROUP_M rows of tiles visited column by column (L2 reuse of B).
    in_group = GROUP_M * num_pid_n
    first_m = (tile // in_group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (tile % in_group) % size_m
    pid_n = (tile % in_group) // size_m
    return pid_m, pid_n


@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    # Persistent through pointers: plain nested loops (the k loop pipelined by cp.async).
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    for tile in range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        pid_m, pid_n = _tile_of(tile, num_pid_m, num_pid_n, GROUP_M)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_persistent_tma_kernel(a_desc, b_desc, c_desc, M, N, K, NUM_SMS: tl.constexpr,
                                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    # Persistent through host TensorDescriptors (TMA), the tile and k loops flattened into
    # one pipelined loop.
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile_of(tile, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def matmul_persistent_devdesc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr,
                                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                                     GROUP_M: tl.constexpr, FLATTEN: tl.constexpr):
    # Persistent through descriptors the kernel builds itself (tensormap in global scratch).
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=FLATTEN):
        pid_m, pid_n = _tile_of(tile, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def matmul_fp8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp8 e4m3 operands (1 byte each), fp32 accumulation, fp16 result: one tile per program.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_fp8_tma_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The fp8 GEMM through host TensorDescriptors (TMA, 64-byte rows of fp8: 64B swizzle or
    # 128B for BK=128).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([pid_n * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def matmul_persistent_ws_kernel(a_desc, b_desc, c_desc, M, N, K, NUM_SMS: tl.constexpr,
                                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                                SPLIT_EPILOGUE: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    # Persistent through host descriptors, the tile loop flattened and marked
    # warp_specialize, the epilogue stored in two halves of BN / 2 columns (two TMA stores
    # of c_desc's block). Triton 3.6 on sm_90 does not specialize a flattened loop (no
    # producer warp group: the kernel is the plain flattened one); unflattened, its Hopper
    # pass fails ('tt.descriptor_store' op tensor descriptor block and tensor types must match).
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True,
                         warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _tile_of(tile, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        if SPLIT_EPILOGUE:
            left, right = acc.reshape(BM, 2, BN // 2).permute(0, 2, 1).split()
            c_desc.store([pid_m * BM, pid_n * BN], left.to(c_desc.dtype))
            c_desc.store([pid_m * BM, pid_n * BN + BN // 2], right.to(c_desc.dtype))
        else:
            c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@triton.jit
def matmul_tma_ws_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # One tile per program through device-built descriptors, the k loop warp-specialized: on
    # sm_90 (num_warps=4) a producer warp group issues the TMA loads into a ring of buffers,
    # two consumer groups run wgmma. (With host descriptors Triton 3.6's Hopper pass fails:
    # 'tt.descriptor_store' op tensor descriptor block and tensor types must match.)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([pid_n * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def matmul_persistent_masked_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_bn, stride_cm,
                                    NUM_SMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                                    GROUP_M: tl.constexpr):
    # Persistent through pointers for any M, N, K: rows and columns past the edge clamped to
    # 0 for the loads (tl.where), the k tail masked (cp.async with src-size 0 fills zeros),
    # the stores masked. B's strides are given (K-major B: stride_bk = 1). C's dtype decides
    # the epilogue (fp8 e4m3: cvt.rn.satfinite.e4m3x2.f32).
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    rk0 = tl.arange(0, BK)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile_of(tile, num_pid_m, num_pid_n, GROUP_M)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        am = tl.max_contiguous(tl.multiple_of(tl.where(rm < M, rm, 0), BM), BM)
        bn = tl.max_contiguous(tl.multiple_of(tl.where(rn < N, rn, 0), BN), BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            rk = ki * BK + rk0
            a = tl.load(a_ptr + am[:, None] * stride_am + rk[None, :], mask=rk0[None, :] < K - ki * BK, other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + bn[None, :] * stride_bn, mask=rk0[:, None] < K - ki * BK,
                        other=0.0)
            acc = tl.dot(a, b, acc)
        c = acc.to(c_ptr.dtype.element_ty)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))
