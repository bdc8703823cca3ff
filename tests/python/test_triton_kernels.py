"""warpscope.triton on the kernels of corpus/triton: compiled by Triton 3.6 for sm_90 here,
with stand-in tensors (no torch, no GPU).

Until the H200 measurements of these cases are committed (test_triton_measured.py), each is
checked against `warpscope kernel` on the same PTX, SASS listing and arguments: the Python
front end must add nothing and lose nothing (the launch, every parameter, the listing)."""

import json
import os
import re

import pytest

triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import warpscope  # noqa: E402
import warpscope.testing  # noqa: E402
import warpscope.triton as wt  # noqa: E402
from conftest import cli_json, comparable  # noqa: E402

import cases as C  # noqa: E402  (corpus/triton, on PYTHONPATH)
import kernels as K  # noqa: E402

NEEDS_WGMMA = {"triton_matmul"}  # wgmma: the Hopper work (issue 14)


def run_case(name, **kw):
    case = C.CASES[name]
    return wt.analyze(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"], **kw)


@pytest.mark.parametrize("name", [n for n in C.CASES if n not in NEEDS_WGMMA])
def test_case_equals_the_cli_on_the_same_launch(name, tmp_path, cli_path):
    case = C.CASES[name]
    (launch,) = wt.prepare(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"])
    r = launch.analyze()
    assert not r.failed and r.data["priced_from"] == "sass"
    (tmp_path / "k.ptx").write_text(launch.ptx)
    (tmp_path / "k.sass").write_text(launch.sass)
    want = cli_json("kernel", *launch.cli_args(tmp_path / "k.ptx", tmp_path / "k.sass"))
    assert r.metrics == want["metrics"]
    assert r.lines == want["lines"]
    assert comparable(r.data) == comparable(want)


@pytest.mark.parametrize("name", sorted(NEEDS_WGMMA))
def test_wgmma_cases(name):
    try:
        r = run_case(name)
    except warpscope.WarpscopeError as e:
        pytest.xfail(f"needs wgmma (issue 14): {e.message}")
    assert not r.failed


def test_lines_are_lines_of_the_python_source():
    r = run_case("triton_add")
    src = K.add_kernel.fn.__code__.co_filename
    assert {os.path.basename(l["file"]) for l in r.lines} == {"kernels.py"}
    text = open(src).read().split("\n")
    for l in r.lines:
        assert l["source"] == text[l["line"] - 1]
    load_x = next(i + 1 for i, t in enumerate(text) if "x = tl.load(x_ptr + offs" in t)
    line = r.line(load_x)
    # 65536 floats read once: 8192 sectors, all of them needed; 16-byte loads, 4 per warp-row.
    assert line["metrics"]["L2 Theoretical Sectors Global"] == 8192
    assert line["metrics"]["L2 Theoretical Sectors Global Ideal"] == 8192
    assert r.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld"] == 2 * 64 * 4 * 2
    warpscope.testing.assert_sector_efficiency(r, 1.0)
    warpscope.testing.assert_no_bank_conflicts(r)


def test_specialization_is_tritons():
    case = C.CASES["triton_add"]
    # n = 65536 (divisible by 16): an i32 with tt.divisibility; pointers too.
    (l,) = wt.prepare(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"])
    assert l.kernel.src.signature["n"] == "i32"
    assert l.kernel.src.attrs[(3,)] == [["tt.divisibility", 16]]
    assert l.specs == ["buf:262144", "buf:262144", "buf:262144", "i32:65536", "u64:0", "u64:0"]
    assert l.grid == (64, 1, 1) and l.block == (128, 1, 1)
    # n = 1: a constant, dropped from the PTX's parameters.
    x = wt.tensor((1,), "float32")
    (l1,) = wt.prepare(K.add_kernel, (1,), x, x, x, 1, BLOCK=128)
    assert l1.kernel.src.signature["n"] == "constexpr"
    assert l1.specs == ["buf:4", "buf:4", "buf:4", "u64:0", "u64:0"]
    assert len(re.findall(r"\.param ", l1.ptx.split(")")[0])) == 5
    # A misaligned view (an offset of 4 bytes) is not divisible by 16.
    (l2,) = wt.prepare(K.add_kernel, (1,), wt.Tensor((8,), "float32", offset_bytes=4), x, x, 17, BLOCK=128)
    attrs = l2.kernel.src.attrs
    assert not attrs.get((0,)) and not attrs.get((3,)) and attrs[(1,)] == [["tt.divisibility", 16]]


def test_grid_callable_and_launch_options():
    x = wt.tensor((4096,), "float16")
    grid = lambda meta: (triton.cdiv(4096, meta["BLOCK"]),)  # noqa: E731
    r = wt.analyze(K.add_kernel, grid, x, x, x, 4096, BLOCK=512, num_warps=2)
    assert r.data["grid"] == [8, 1, 1] and r.data["block"] == [64, 1, 1]
    assert r.extra["triton"]["num_warps"] == 2
    assert r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st"] == 4096 * 2 // 32


def test_autotune_lists_every_config_and_finds_the_conflict_free_one():
    # As the H200 measured them (tests/data/h200/corpus/triton.jsonl: triton_matmul_fma,
    # _128x16, _16x64): on `a = tl.load`, 32x32 and 16x64 conflict-free, 128x16 not (LDS.128
    # 8 wavefronts a warp; lanes paired: 16-lane groups of 8 rows 64 bytes apart, 4-way; the
    # hardware conflict counter agrees with us, 24576; the Source page's Ideal column counts
    # quarter-warps for such a conflicting paired LDS.128: 20480 on the line, as ours).
    case = C.CASES["triton_matmul_fma"]
    args = C.make_args(case, wt.tensor)
    r = wt.analyze(K.matmul_fma_autotuned, lambda m: (128 // m["BM"], 128 // m["BN"]), *args)
    assert len(r.configs) == 3
    by_tile = {(c.config.kwargs["BM"], c.config.kwargs["BN"]): c.report for c in r.configs}
    a_load = next(i + 1 for i, t in enumerate(open(K.matmul_fma_kernel.fn.__code__.co_filename).read().split("\n"))
                  if "a = tl.load(a_ptrs)" in t and i > 90)
    degrees = {tile: rep.line(a_load)["conflict_degree"] for tile, rep in by_tile.items()}
    # Lines as ncu's Source page shows them (the SASS's line table): the H200 measured no bank
    # conflicts for 32x32 (batch 3, triton_matmul_fma) and 24576 for 128x16.
    assert degrees == {(32, 32): 1, (128, 16): 4, (16, 64): 1}, degrees
    line = by_tile[(128, 16)].line(a_load)["metrics"]
    assert line["L1 Wavefronts Shared"] == 36864 and line["L1 Wavefronts Shared Ideal"] == 20480
    assert r.config.kwargs == {"BM": 32, "BN": 32, "BK": 32}  # the report returned: the first conflict-free
    warpscope.testing.assert_no_bank_conflicts(r.configs[0].report)
    warpscope.testing.assert_no_bank_conflicts(r.configs[2].report)
    with pytest.raises(AssertionError, match=r"kernels.py:\d+ +a = tl.load\(a_ptrs\).*4-way"):
        warpscope.testing.assert_no_bank_conflicts(r.configs[1].report)
    warpscope.testing.assert_no_bank_conflicts(r)  # the config returned
    with pytest.raises(AssertionError, match="BM: 128") as e:
        warpscope.testing.assert_no_bank_conflicts(r, all_configs=True)  # names the configs that conflict
    assert "BM: 16," not in str(e.value) and "BM: 32," not in str(e.value)
    doc = json.loads(r.to_json())
    assert [c["conflicting_lines"] for c in doc["configs"]] == [[], [f"kernels.py:{a_load}"], []]


def test_heuristics_set_meta_parameters():
    add = triton.heuristics({"BLOCK": lambda args: 256 if args["n"] < 10000 else 1024})(K.add_kernel)
    x = wt.tensor((4096,), "float32")
    r = wt.analyze(add, (16,), x, x, x, 4096)
    assert r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"] == 2 * 4096 * 4 // 32


@triton.jit
def copy_2d_kernel(x_ptr, out_ptr, sx0, sx1, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * sx0 + rn[None, :] * sx1)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], x)


def test_stand_in_views_are_the_same_bytes_with_other_strides():
    x = wt.tensor((128, 256), "float32")
    xt = x.T
    assert (xt.shape, xt.stride(), xt.data_ptr()) == ((256, 128), (1, 256), x.data_ptr())
    assert x.transpose(0, 1).stride() == x.t().stride() == (1, 256)
    assert wt.tensor((2, 3, 4), "float16").permute(2, 0, 1).stride() == (1, 12, 4)
    with pytest.raises(ValueError):
        x.permute(0, 0)
    out = wt.tensor((256, 128), "float32")
    # The view is launched as a stand-in made with its strides is: every figure alike. (Triton
    # specializes the stride 1 and lays the load out along x's rows, so each sector is read
    # once: 256 x 128 floats, 4096 sectors.)
    viewed = wt.analyze(copy_2d_kernel, (4,), xt, out, xt.stride(0), xt.stride(1), 256, 128, BM=64, BN=128)
    strided = wt.tensor((256, 128), "float32", strides=(1, 256))
    same = wt.analyze(copy_2d_kernel, (4,), strided, out, 1, 256, 256, 128, BM=64, BN=128)
    assert viewed.metrics == same.metrics
    assert viewed.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"] == 256 * 128 * 4 // 32


@triton.jit
def gather_kernel(idx_ptr, x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.load(x_ptr + i))


def test_data_decides_addresses():
    n = 128
    x, out = wt.tensor((n * 32,), "float32"), wt.tensor((n,), "float32")
    zeros = wt.analyze(gather_kernel, (1,), wt.tensor((n,), "int32"), x, out, BLOCK=n)
    spread = bytes(b for i in range(n) for b in (i * 32).to_bytes(4, "little"))  # one sector per lane
    spaced = wt.analyze(gather_kernel, (1,), wt.tensor((n,), "int32", data=spread), x, out, BLOCK=n)
    line = next(i + 1 for i, t in enumerate(open(__file__).read().split("\n")) if "tl.load(x_ptr + i)" in t)
    assert zeros.line(line)["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"] == 4  # one sector per warp
    assert spaced.line(line)["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"] == n


@triton.jit
def desc_copy_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    t = in_desc.load([pid * BM, 0])
    out_desc.store([pid * BM, 0], t)


def test_host_descriptors_become_tensor_maps():
    from triton.tools.tensor_descriptor import TensorDescriptor

    a, b = wt.tensor((256, 64), "float16"), wt.tensor((256, 64), "float16")
    da, db = TensorDescriptor.from_tensor(a, [64, 64]), TensorDescriptor.from_tensor(b, [64, 64])
    (l,) = wt.prepare(desc_copy_kernel, (4,), da, db, BM=64, BN=64)
    # cuTensorMapEncodeTiled's order: innermost first, strides in bytes; Triton's NVMMA
    # layout for a 64 x 64 fp16 tile: 128-byte swizzle.
    tm = "tmap:buf:32768,dtype=f16,dims=64x256,strides=128,box=64x64,swizzle=128B"
    assert l.specs == [tm, "i32:256", "i32:64", "i64:64", "i64:1"] * 2 + ["u64:0", "u64:0"]
    assert l.dyn_smem == l.metadata.shared > 0
    try:
        r = l.analyze()
    except warpscope.WarpscopeError as e:  # tmap: and TMA come with issue 14
        pytest.xfail(f"needs TMA and tmap: (issue 14): {e.message}")
    assert not r.failed


def test_bad_arguments_are_clear():
    x = wt.tensor((16,), "float32")
    with pytest.raises(triton.compiler.errors.CompilationError):  # Triton's own, for an int as a pointer
        wt.prepare(K.add_kernel, (1,), 0, x, x, 16, BLOCK=16)
    with pytest.raises(TypeError, match="expected a @triton.jit function"):
        wt.analyze(lambda: None, (1,))
    with pytest.raises(ValueError, match="unknown dtype"):
        wt.tensor((4,), "float13")


@triton.jit
def scalar_params_kernel(x_ptr, out_ptr, flag, spread: tl.float16, stride: tl.int16, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if flag:
        tl.store(out_ptr + offs * spread.to(tl.int32), tl.load(x_ptr + offs * stride))


def test_bool_and_narrow_scalar_parameters():
    # A bool is Triton's u1 (a .u8 parameter), an fp16 scalar a 2-byte .b8 array, an int16 a
    # .u16: their values decide the addresses (8 floats apart: a sector per lane).
    x, out = wt.tensor((128 * 8,), "float32"), wt.tensor((128 * 8,), "float32")
    (l,) = wt.prepare(scalar_params_kernel, (1,), x, out, True, 8.0, 8, BLOCK=128)
    assert l.kernel.src.signature["flag"] == "u1"
    assert l.specs[2:5] == ["u8:1", "f16:8.0", "i16:8"]
    r = l.analyze()
    assert r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"] == 128
    assert r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st"] == 128
    near = wt.analyze(scalar_params_kernel, (1,), x, out, True, 1.0, 1, BLOCK=128)
    assert near.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st"] == 128 * 4 // 32
    off = wt.analyze(scalar_params_kernel, (1,), x, out, False, 8.0, 8, BLOCK=128)
    assert off.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st"] == 0
