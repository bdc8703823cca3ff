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
