"""Fused attention kernels of our own for corpus/triton (issue 14's Triton set): the forward
pass with an online softmax (two tl.dot a step: Q K^T, then P V), causal or not, with a
warp-specialized variant, and the backward pass in three kernels (delta = rowsum(O dO), then
dK/dV and dQ). Tensors are (B*H, N_CTX, HEAD_DIM) fp16, contiguous; M holds each row's
log2-sum-exp2 of the scaled scores (the forward writes it, the backward reads it).

Line numbers matter: the tests and the H200 measurements name lines of this file.
"""

import triton
import triton.language as tl


@triton.jit
def attn_fwd_kernel(Q, K, V, Out, M, sm_scale, stride_h, N_CTX,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # One program per BLOCK_M query rows of one head: Q stays in registers (the wgmma A
    # operand), K^T and V tiles go through shared memory into wgmma.
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    end = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, end, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(K + base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        s = tl.dot(q, kt) * scale
        if CAUSAL:
            s = tl.where(offs_m[:, None] >= cols[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    tl.store(M + tl.program_id(1) * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def attn_fwd_desc_kernel(Q, K, V, Out, sm_scale, N_CTX, BH,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         WARP_SPECIALIZE: tl.constexpr):
    # The forward through device-built TMA descriptors over the (BH * N_CTX, HEAD_DIM)
    # matrices, K read as a (BLOCK_N, HEAD_DIM) tile and transposed for the dot; the key loop
    # is warp-specialized when asked (a producer warp group issuing TMA, consumers the dots).
    start_m = tl.program_id(0)
    rows = BH * N_CTX
    q_desc = tl.make_tensor_descriptor(Q, shape=[rows, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    k_desc = tl.make_tensor_descriptor(K, shape=[rows, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    v_desc = tl.make_tensor_descriptor(V, shape=[rows, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    o_desc = tl.make_tensor_descriptor(Out, shape=[rows, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    row0 = tl.program_id(1) * N_CTX
    q = q_desc.load([row0 + start_m * BLOCK_M, 0])
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    for start_n in tl.range(0, N_CTX, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        k = k_desc.load([row0 + start_n, 0])
        s = tl.dot(q, k.T) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([row0 + start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    o_desc.store([row0 + start_m * BLOCK_M, 0], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def attn_bwd_delta_kernel(Out, dO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    # delta = rowsum(O * dO), fp32, one program per BLOCK_M rows of one head.
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    at = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    o = tl.load(Out + at).to(tl.float32)
    do = tl.load(dO + at).to(tl.float32)
    tl.store(Delta + tl.program_id(1) * N_CTX + offs_m, tl.sum(o * do, axis=1))


@triton.jit
def attn_bwd_dkdv_kernel(Q, K, V, dO, M, Delta, dK, dV, sm_scale, N_CTX,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr):
    # One program per BLOCK_N keys of one head: K and V stay, Q, dO, M and Delta stream
    # past (transposed scores P^T = exp2(K Q^T * scale - M), four dots a step).
    start_n = tl.program_id(0) * BLOCK_N
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N_CTX * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    dk = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    begin = start_n if CAUSAL else 0
    for start_m in range(begin, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        qt = tl.load(Q + base + offs_m[None, :] * HEAD_DIM + offs_d[:, None])
        m = tl.load(M + bh * N_CTX + offs_m)
        pt = tl.math.exp2(tl.dot(k, qt) * scale - m[None, :])
        if CAUSAL:
            pt = tl.where(offs_m[None, :] >= offs_n[:, None], pt, 0.0)
        do = tl.load(dO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
        dv = tl.dot(pt.to(tl.float16), do, dv)
        delta = tl.load(Delta + bh * N_CTX + offs_m)
        dpt = tl.dot(v, tl.trans(do))
        dst = pt * (dpt - delta[None, :])
        dk = tl.dot(dst.to(tl.float16), tl.trans(qt), dk)
    tl.store(dV + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], dv.to(tl.float16))
    tl.store(dK + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], (dk * sm_scale).to(tl.float16))


@triton.jit
def attn_bwd_dq_kernel(Q, K, V, dO, M, Delta, dQ, sm_scale, N_CTX,
                       HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       CAUSAL: tl.constexpr):
    # One program per BLOCK_M queries of one head: Q, dO, M, Delta stay, K and V stream.
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    do = tl.load(dO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m = tl.load(M + bh * N_CTX + offs_m)
    delta = tl.load(Delta + bh * N_CTX + offs_m)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    end = start_m + BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kt = tl.load(K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        vt = tl.load(V + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        p = tl.math.exp2(tl.dot(q, kt) * scale - m[:, None])
        if CAUSAL:
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        ds = p * (tl.dot(do, vt) - delta[:, None])
        dq = tl.dot(ds.to(tl.float16), tl.trans(kt), dq)
    tl.store(dQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], (dq * sm_scale).to(tl.float16))


@triton.jit
def _attn_steps(acc, l_i, m_i, q, k_ptr, v_ptr, offs_m, lo, hi, scale,
                BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    # Key blocks lo..hi through block pointers; MASKED: the diagonal blocks (causal).
    k_ptr = tl.advance(k_ptr, (0, lo))
    v_ptr = tl.advance(v_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        s = tl.dot(q, tl.load(k_ptr)) * scale
        if MASKED:
            s = tl.where(offs_m[:, None] >= start_n + tl.arange(0, BLOCK_N)[None, :], s, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), tl.load(v_ptr), acc * alpha[:, None])
        m_i = m_new
        k_ptr = tl.advance(k_ptr, (0, BLOCK_N))
        v_ptr = tl.advance(v_ptr, (BLOCK_N, 0))
    return acc, l_i, m_i


@triton.jit
def attn_fwd_block_ptr_kernel(Q, K, V, Out, M, sm_scale, stride_h, stride_n, N_CTX,
                              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              CAUSAL: tl.constexpr):
    # The forward through block pointers (tl.make_block_ptr, K read transposed: order (0, 1)),
    # causal as two loops: the blocks below the diagonal unmasked, then the diagonal's masked.
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * stride_h
    q_ptr = tl.make_block_ptr(Q + base, (N_CTX, HEAD_DIM), (stride_n, 1), (start_m * BLOCK_M, 0),
                              (BLOCK_M, HEAD_DIM), (1, 0))
    k_ptr = tl.make_block_ptr(K + base, (HEAD_DIM, N_CTX), (1, stride_n), (0, 0), (HEAD_DIM, BLOCK_N), (0, 1))
    v_ptr = tl.make_block_ptr(V + base, (N_CTX, HEAD_DIM), (stride_n, 1), (0, 0), (BLOCK_N, HEAD_DIM), (1, 0))
    o_ptr = tl.make_block_ptr(Out + base, (N_CTX, HEAD_DIM), (stride_n, 1), (start_m * BLOCK_M, 0),
                              (BLOCK_M, HEAD_DIM), (1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    q = tl.load(q_ptr)
    if CAUSAL:
        acc, l_i, m_i = _attn_steps(acc, l_i, m_i, q, k_ptr, v_ptr, offs_m, 0, start_m * BLOCK_M, scale,
                                    BLOCK_N, False)
        acc, l_i, m_i = _attn_steps(acc, l_i, m_i, q, k_ptr, v_ptr, offs_m, start_m * BLOCK_M,
                                    (start_m + 1) * BLOCK_M, scale, BLOCK_N, True)
    else:
        acc, l_i, m_i = _attn_steps(acc, l_i, m_i, q, k_ptr, v_ptr, offs_m, 0, N_CTX, scale, BLOCK_N, False)
    tl.store(M + tl.program_id(1) * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(o_ptr, (acc / l_i[:, None]).to(Out.type.element_ty))


@triton.jit
def _desc_steps(acc, l_i, m_i, q, k_desc, v_desc, row0, offs_m, lo, hi, scale,
                BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    # Key blocks lo..hi of the head whose rows start at row0, through TMA descriptors.
    for start_n in range(lo, hi, BLOCK_N):
        s = tl.dot(q, k_desc.load([row0 + start_n, 0]).T) * scale
        if MASKED:
            s = tl.where(offs_m[:, None] >= start_n + tl.arange(0, BLOCK_N)[None, :], s, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([row0 + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attn_fwd_host_desc_kernel(sm_scale, M, q_desc, k_desc, v_desc, o_desc, N_CTX,
                              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              CAUSAL: tl.constexpr):
    # The forward through host TensorDescriptors over (B*H*N_CTX, HEAD_DIM): fp16, or fp8
    # e5m2 (P converted to V's dtype; V not K-major, so Triton transposes it in shared
    # memory for the second dot). Causal: the blocks below the diagonal, then the diagonal.
    start_m = tl.program_id(0)
    row0 = tl.program_id(1) * N_CTX
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.4426950408889634
    q = q_desc.load([row0 + start_m * BLOCK_M, 0])
    if CAUSAL:
        acc, l_i, m_i = _desc_steps(acc, l_i, m_i, q, k_desc, v_desc, row0, offs_m, 0, start_m * BLOCK_M, scale,
                                    BLOCK_N, False)
        acc, l_i, m_i = _desc_steps(acc, l_i, m_i, q, k_desc, v_desc, row0, offs_m, start_m * BLOCK_M,
                                    (start_m + 1) * BLOCK_M, scale, BLOCK_N, True)
    else:
        acc, l_i, m_i = _desc_steps(acc, l_i, m_i, q, k_desc, v_desc, row0, offs_m, 0, N_CTX, scale, BLOCK_N, False)
    tl.store(M + tl.program_id(1) * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    o_desc.store([row0 + start_m * BLOCK_M, 0], (acc / l_i[:, None]).to(o_desc.dtype))
