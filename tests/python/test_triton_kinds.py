"""The kinds of Triton kernel issue 14's set has (corpus/triton: attention.py, gemm.py,
norms.py): each case of cases.py runs to completion (test_triton_kernels.py checks it equals
the CLI), and here its figures are checked against what the kernel must move: global sectors
from the bytes each program reads and writes, TMA bytes from the tiles, tensor-core
wavefronts from the number of dots, atomics from the lock protocol. Until the H200 has
measured these cases (test_triton_measured.py), this is what says the figures are right."""

import pytest

pytest.importorskip("triton")
import warpscope.triton as wt  # noqa: E402

import cases as C  # noqa: E402

SEC = 32  # bytes a sector
LD, ST, ATOM = (f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}" for op in ("ld", "st", "atom"))
GMMA = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"
TMA_LD = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld"
TMA_ST = "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st"

_reports = {}


def report(name):
    if name not in _reports:
        case = C.CASES[name]
        (launch,) = wt.prepare(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"])
        _reports[name] = (launch, launch.analyze())
    return _reports[name]


def line_of(module, text):
    src = open(module.__file__).read().split("\n")
    (at,) = [i + 1 for i, t in enumerate(src) if text in t]
    return at


BH, N, D = C.BH, C.N_CTX, C.D
TILE = 64 * D * 2  # a 64-row fp16 tile of Q, K, V or dO


def attention_fwd_loads(causal, block_m=128, block_n=64):
    """Bytes the forward reads: per program its Q rows, and the K and V rows of its steps."""
    total = 0
    for m in range(N // block_m):
        keys = (m + 1) * block_m if causal else N
        total += block_m * D * 2 + 2 * keys * D * 2
    return BH * total


@pytest.mark.parametrize("name,causal", [("triton_attn_fwd", False), ("triton_attn_fwd_causal", True),
                                         ("triton_attn_fwd_block_ptr", True)])
def test_attention_forward_reads_each_tile_once_per_step(name, causal):
    _, r = report(name)
    assert not r.failed
    assert r.metrics[LD] == attention_fwd_loads(causal) // SEC
    assert r.metrics[ST] == BH * N * (D * 2 + 4) // SEC  # Out (fp16) and M (fp32)


def test_attention_forward_causal_runs_six_of_eight_steps():
    # Per head: non-causal 2 programs x 4 key blocks; causal 2 + 4: the dots' shared reads too.
    full, causal = report("triton_attn_fwd")[1], report("triton_attn_fwd_causal")[1]
    assert full.metrics[GMMA] > 0
    assert causal.metrics[GMMA] * 8 == full.metrics[GMMA] * 6
    # Block pointers, the causal loop split at the diagonal: the same steps.
    assert report("triton_attn_fwd_block_ptr")[1].metrics[GMMA] == causal.metrics[GMMA]


def test_attention_forward_through_tma_and_warp_specialized():
    plain, tma = report("triton_attn_fwd"), report("triton_attn_fwd_tma")
    ws_launch, ws = report("triton_attn_fwd_ws")
    # The same tiles through TMA: no LSU global traffic, the bytes as the pointer version's
    # (Q, K, V in; Out out, no M).
    for r in (tma[1], ws):
        assert not r.failed
        assert r.metrics[LD] == 0 and r.metrics[ST] == 0
        assert r.metrics[TMA_LD] == attention_fwd_loads(False)
        assert r.metrics[TMA_ST] == BH * N * D * 2
        assert r.metrics[GMMA] == plain[1].metrics[GMMA]
    # Warp-specialized (num_warps=4): Triton adds a producer warp group: 3 x 128 threads.
    assert ws_launch.block == (384, 1, 1) and tma[0].block == (256, 1, 1)
    assert "setmaxnreg" in ws_launch.ptx and "setmaxnreg" not in tma[0].ptx


def test_attention_backward_reads():
    per_row = (4 + 4) // 1  # M and Delta, fp32
    _, delta = report("triton_attn_bwd_delta")
    assert delta.metrics[LD] == 2 * BH * N * D * 2 // SEC and delta.metrics[ST] == BH * N * 4 // SEC
    # dK/dV: per program K, V once; per step of 64 queries Q, dO, M and Delta.
    for name, causal in (("triton_attn_bwd_dkdv", False), ("triton_attn_bwd_dkdv_causal", True)):
        _, r = report(name)
        steps = sum((N // 64 - n) if causal else N // 64 for n in range(N // 64))
        assert r.metrics[LD] == BH * (N // 64 * 2 * TILE + steps * (2 * TILE + 64 * per_row)) // SEC, name
        assert r.metrics[ST] == 2 * BH * N * D * 2 // SEC
    # dQ (causal): per program Q, dO, M, Delta once; per step K and V.
    _, dq = report("triton_attn_bwd_dq")
    steps = sum(m + 1 for m in range(N // 64))
    assert dq.metrics[LD] == BH * (N // 64 * (2 * TILE + 64 * per_row) + steps * 2 * TILE) // SEC
    assert dq.metrics[ST] == BH * N * D * 2 // SEC


@pytest.mark.parametrize("name", ["triton_matmul_persistent", "triton_matmul_persistent_tma",
                                  "triton_matmul_persistent_devdesc", "triton_matmul_persistent_ws",
                                  "triton_matmul_tma_ws"])
def test_persistent_matmul_covers_every_tile_once(name):
    # 16 output tiles over 6 programs: each tile reads a 128-row strip of A and of B (128 x 512
    # fp16 each) and writes 128 x 128 fp16, whichever program takes it.
    launch, r = report(name)
    assert not r.failed and launch.grid == ((4, 4, 1) if name == "triton_matmul_tma_ws" else (6, 1, 1))
    # Warp-specialized: a producer warp group beside two consumers (the flattened persistent
    # loop is not specialized by Triton 3.6 on sm_90: 4 warps as asked).
    assert launch.block == {"triton_matmul_tma_ws": (384, 1, 1), "triton_matmul_persistent_ws": (128, 1, 1)}.get(
        name, (256, 1, 1))
    strips = 16 * 2 * 128 * C.MNK * 2
    if name == "triton_matmul_persistent":
        assert r.metrics[LD] == strips // SEC and r.metrics[ST] == C.MNK * C.MNK * 2 // SEC
    else:
        assert r.metrics[TMA_LD] == strips and r.metrics[TMA_ST] == C.MNK * C.MNK * 2
        assert r.metrics[LD] == 0
    # 16 tiles x 8 k-steps of a 128 x 128 x 64 wgmma, alike in the three.
    assert r.metrics[GMMA] == report("triton_matmul_persistent")[1].metrics[GMMA] > 0


def test_fp8_persistent_tma_gemm():
    # fp8 in and out through TMA: half the bytes of the fp16 persistent GEMM each way; the
    # epilogue converts pairs to e4m3 (cvt.rn.satfinite.e4m3x2.f32) and stores two halves.
    launch, r = report("triton_matmul_persistent_fp8_tma")
    fp16 = report("triton_matmul_persistent_tma")[1]
    assert not r.failed and "cvt.rn.satfinite.e4m3x2.f32" in launch.ptx
    assert r.metrics[TMA_LD] * 2 == fp16.metrics[TMA_LD] and r.metrics[TMA_ST] * 2 == fp16.metrics[TMA_ST]
    assert r.metrics[GMMA] > 0


def test_fp8_gemm():
    # 2 x 2 tiles of 128 x 128, each a 128 x 256 strip of A and B (1 byte each).
    strips = 4 * 2 * 128 * 256
    launch, r = report("triton_matmul_fp8")
    assert not r.failed and ".e4m3" in launch.ptx
    assert r.metrics[LD] == strips // SEC and r.metrics[ST] == 256 * 256 * 2 // SEC
    _, t = report("triton_matmul_fp8_tma")
    assert t.metrics[TMA_LD] == strips and t.metrics[TMA_ST] == 256 * 256 * 2
    # fp8 wgmma reads K = 32 a byte wide: the same bytes of shared memory per dot.
    assert t.metrics[GMMA] == r.metrics[GMMA] > 0


def test_layernorm_backward_lock_protocol():
    # Every row takes its group's lock at the first try (blocks in order on one worker: the
    # fewest tries, the same every run), the first row of each group sets its count, every
    # row releases: 64 + 8 + 64 atomics, one sector each.
    import norms

    _, r = report("triton_layernorm_bwd_dx")
    assert not r.failed
    m, n, g = C.LN_M, C.LN_N, C.GROUP
    assert r.metrics[ATOM] == m + g + m
    take = line_of(norms, "while tl.atomic_cas(lock, 0, 1) == 1:")
    assert r.line(take)["metrics"][ATOM] == m
    # Rows after the first of their group read the partial dw and db back.
    dw = line_of(norms, "dw += tl.load(DW + part, mask=mask)")
    assert r.line(dw)["metrics"][LD] == (m - g) * n * 2 // SEC
    _, s = report("triton_layernorm_bwd_dwdb")
    assert s.metrics[LD] == 2 * g * n * 2 // SEC and s.metrics[ST] == 2 * n * 2 // SEC


def test_layernorm_backward_is_the_same_every_run():
    case = C.CASES["triton_layernorm_bwd_dx"]
    runs = {tuple(sorted(wt.analyze(case["fn"], case["grid"], *C.make_args(case, wt.tensor), ws_jobs=4,
                                    **case["meta"]).metrics.items())) for _ in range(3)}
    assert len(runs) == 1


def test_descriptor_arguments():
    from triton.tools.tensor_descriptor import TensorDescriptor

    args = C.make_args(C.CASES["triton_matmul_persistent_tma"], wt.tensor)
    assert [type(a) for a in args[:3]] == [TensorDescriptor] * 3
    assert [list(a.block_shape) for a in args[:3]] == [[128, 64], [128, 64], [128, 128]]
    made = C.make_args(C.CASES["triton_matmul_persistent_tma"], lambda s, d: (s, d), lambda t, b: ("desc", t, b))
    assert made[0] == ("desc", ((512, 512), "float16"), [128, 64])


@pytest.mark.parametrize("name,elem", [("triton_matmul_persistent_masked", 2), ("triton_matmul_persistent_fp8_out", 1)])
def test_masked_persistent_matmul_stores_every_element_once(name, elem):
    # 500 x 500 x 480: the edge tiles' stores masked; the Ideal column needs each 500-element
    # row's sectors (rows start unaligned: 1000 or 500 bytes apart), the k tail zero-filled.
    import gemm

    launch, r = report(name)
    assert not r.failed
    store = r.line(line_of(gemm, "tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c,"))["metrics"]
    assert store["L2 Theoretical Sectors Global Ideal"] == 500 * -(-500 * elem // SEC)
    assert store["L2 Theoretical Sectors Global"] >= store["L2 Theoretical Sectors Global Ideal"]
    assert r.metrics[GMMA] > 0
    if elem == 1:
        assert "cvt.rn.satfinite.e4m3x2.f32" in launch.ptx  # the fp8 epilogue


@pytest.mark.parametrize("name,causal,elem", [("triton_attn_fwd_host_tma", True, 2), ("triton_attn_fwd_fp8", False, 1)])
def test_attention_forward_through_host_descriptors(name, causal, elem):
    # The tiles by TMA (fp8: half the bytes of fp16), M by the LSU.
    launch, r = report(name)
    assert not r.failed and launch.specs[2].startswith("tmap:")
    assert r.metrics[TMA_LD] == attention_fwd_loads(causal) // 2 * elem
    assert r.metrics[TMA_ST] == BH * N * D * elem
    assert r.metrics[ST] == BH * N * 4 // SEC and r.metrics[LD] == 0
    steps = 6 if causal else 8
    assert r.metrics[GMMA] * 8 == report("triton_attn_fwd")[1].metrics[GMMA] * steps * elem // 2
