"""Triton kernels of our own written the way Triton's users write them, to find what
warpscope misses beyond corpus/triton's first set (cases.py, "Variants"): loops over rows
pipelined by tl.range(num_stages=...), reductions over a row in chunks, masked tiles in
every dimension, dtype-generic attention (bf16, head_dim 128), epilogues that fuse work.

Line numbers matter: the tests and the H200 measurements name lines of this file.
"""

import triton
import triton.language as tl


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    # A 2-D elementwise epilogue: out = gelu(x + bias[col]) (tanh form), both dimensions
    # masked, the bias row broadcast over BM rows.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = x + b[None, :]
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    g = 0.5 * y * (1 + (2 * tl.sigmoid(2 * inner) - 1))
    tl.store(out_ptr + rm[:, None] * stride + rn[None, :], g.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_rows_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                        BLOCK: tl.constexpr, STAGES: tl.constexpr):
    # Each program loops over rows pid, pid + nprog, ...; the row loads are pipelined
    # (cp.async into shared memory, masked past n_cols) when STAGES > 1.
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(pid, n_rows, step, num_stages=STAGES):
        offs = tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(in_ptr + row * in_stride + offs, mask=mask, other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        y = e / tl.sum(e, axis=0)
        tl.store(out_ptr + row * out_stride + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def layernorm_chunked_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    # A layernorm forward over rows longer than one block: the mean, then the variance,
    # then the normalized row, each a loop over BLOCK-wide chunks (the last one masked).
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        xc = tl.where(cols < N, x - mean, 0.0)
        acc += xc * xc
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def matmul_masked_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    # Any-size C = leaky_relu(A @ B + bias): grouped program order, every load masked (the
    # last k step partial), the bias and activation fused into the epilogue.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    in_group = GROUP_M * num_pid_n
    first_m = (pid // in_group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % size_m
    pid_n = (pid % in_group) // size_m
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    acc += bias[None, :]
    acc = tl.where(acc >= 0, acc, 0.01 * acc)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def attn_fwd_any_kernel(Q, K, V, Out, sm_scale, N_CTX,
                        HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Attention forward in the tensors' own dtype (fp16 or bf16), K loaded as (BLOCK_N,
    # HEAD_DIM) and transposed for the dot, keys past N_CTX masked (N_CTX need not be a
    # multiple of BLOCK_N), causal or not.
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32) + 1.0e-30
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    end = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, end, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        s = tl.dot(q, tl.trans(k)) * scale
        keep = cols[None, :] < N_CTX
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= cols[None, :])
        s = tl.where(keep, s, -1.0e30)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    out = (acc / l_i[:, None]).to(Out.dtype.element_ty)
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], out, mask=offs_m[:, None] < N_CTX)


@triton.jit
def matmul_tf32_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp32 operands, tl.dot's default precision on sm_90: tf32 wgmma (k8) from shared memory.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_tma_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # One output tile a program through host TensorDescriptors, B as (K, N) (N contiguous:
    # no transpose for the dot), the k loop pipelined with TMA.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@triton.jit
def matmul_wrap_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr, ACT: tl.constexpr):
    # The common any-size GEMM: rows and columns wrapped modulo M and N (no mask on them), the
    # k tail masked, every stride a parameter, a leaky-relu epilogue, the store masked.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    in_group = GROUP_M * num_pid_n
    first_m = (pid // in_group) * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % in_group) % size_m)
    pid_n = (pid % in_group) // size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    if ACT:
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :], c, mask=mask)


@triton.jit
def matmul_splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         SPLIT: tl.constexpr):
    # Split-K: program (m, n, s) sums every SPLIT-th k block and adds its fp32 partial tile
    # into C with tl.atomic_add (global reductions, RED).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_s = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_s * BK + tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK * SPLIT):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def softmax_block_rows_kernel(out_ptr, in_ptr, n_rows, n_cols, BM: tl.constexpr, BN: tl.constexpr):
    # Several short rows a program (a 2-D block, reductions along axis 1), both dimensions masked.
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(in_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    tl.store(out_ptr + rows[:, None] * n_cols + cols[None, :], e / tl.sum(e, axis=1)[:, None], mask=mask)


@triton.jit
def rmsnorm_kernel(X, Y, W, stride, N, eps, BLOCK: tl.constexpr):
    # RMS norm forward, fp16 in and out, a row a program, the weight row broadcast.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, (x / rms * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, stride, V, BLOCK: tl.constexpr):
    # A row's cross entropy over a vocabulary wider than one block: an online log-sum-exp in
    # chunks, then the target's logit (a gather at a data-dependent column: targets are zeros).
    row = tl.program_id(0)
    base = logits_ptr + row.to(tl.int64) * stride
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    big = tl.max(m, axis=0)
    lse = big + tl.log(tl.sum(s * tl.exp(m - big), axis=0))
    t = tl.load(target_ptr + row)
    tl.store(loss_ptr + row, lse - tl.load(base + t).to(tl.float32))


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, seq, HEADS: tl.constexpr, HALF: tl.constexpr):
    # Rotary embedding on (seq, HEADS, 2 * HALF) fp16: the two halves of each head rotated by
    # the position's cos/sin (HALF values a row), a program per position.
    pos = tl.program_id(0)
    h = tl.arange(0, HEADS)
    d = tl.arange(0, HALF)
    base = x_ptr + pos * HEADS * 2 * HALF + h[:, None] * 2 * HALF + d[None, :]
    x1 = tl.load(base).to(tl.float32)
    x2 = tl.load(base + HALF).to(tl.float32)
    c = tl.load(cos_ptr + pos * HALF + d)[None, :]
    s = tl.load(sin_ptr + pos * HALF + d)[None, :]
    obase = out_ptr + pos * HEADS * 2 * HALF + h[:, None] * 2 * HALF + d[None, :]
    tl.store(obase, (x1 * c - x2 * s).to(tl.float16))
    tl.store(obase + HALF, (x1 * s + x2 * c).to(tl.float16))


@triton.jit
def matmul_block_ptr_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Any-size GEMM through block pointers: loads and the store boundary-checked in both
    # dimensions (zero padding past the edges), the k loop advancing the pointers.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(K, 1), offsets=(pid_m * BM, 0), block_shape=(BM, BK),
                              order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, pid_n * BN), block_shape=(BK, BN),
                              order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_blk = tl.advance(a_blk, (0, BK))
        b_blk = tl.advance(b_blk, (BK, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(N, 1), offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                              order=(1, 0))
    tl.store(c_blk, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def matmul_int8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # int8 operands, int32 accumulation (wgmma s8 on sm_90), int32 result.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def attn_bwd_fused_kernel(Q, K, V, dO, M, Delta, dQ, dK, dV, sm_scale, N_CTX,
                          HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # The backward in one kernel, causal: program p first computes dK and dV for key block p
    # over the query blocks at and below the diagonal, then dQ for query block p over the key
    # blocks up to the diagonal (BLOCK_M = BLOCK_N).
    p = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N_CTX * HEAD_DIM
    offs_d = tl.arange(0, HEAD_DIM)
    scale = sm_scale * 1.4426950408889634
    offs_n = p * BLOCK_N + tl.arange(0, BLOCK_N)
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    dk = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    for start_m in range(p * BLOCK_N, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        qt = tl.load(Q + base + offs_m[None, :] * HEAD_DIM + offs_d[:, None])
        m = tl.load(M + bh * N_CTX + offs_m)
        pt = tl.math.exp2(tl.dot(k, qt) * scale - m[None, :])
        pt = tl.where(offs_m[None, :] >= offs_n[:, None], pt, 0.0)
        do = tl.load(dO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
        dv = tl.dot(pt.to(do.dtype), do, dv)
        delta = tl.load(Delta + bh * N_CTX + offs_m)
        dst = pt * (tl.dot(v, tl.trans(do)) - delta[None, :])
        dk = tl.dot(dst.to(qt.dtype), tl.trans(qt), dk)
    tl.store(dV + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], dv.to(dV.dtype.element_ty))
    tl.store(dK + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], (dk * sm_scale).to(dK.dtype.element_ty))
    offs_m = p * BLOCK_M + tl.arange(0, BLOCK_M)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    do = tl.load(dO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m = tl.load(M + bh * N_CTX + offs_m)
    delta = tl.load(Delta + bh * N_CTX + offs_m)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    for start_n in range(0, (p + 1) * BLOCK_M, BLOCK_N):
        cols = start_n + tl.arange(0, BLOCK_N)
        kt = tl.load(K + base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        vt = tl.load(V + base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        pp = tl.math.exp2(tl.dot(q, kt) * scale - m[:, None])
        pp = tl.where(offs_m[:, None] >= cols[None, :], pp, 0.0)
        ds = pp * (tl.dot(do, vt) - delta[:, None])
        dq = tl.dot(ds.to(kt.dtype), tl.trans(kt), dq)
    tl.store(dQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], (dq * sm_scale).to(dQ.dtype.element_ty))
