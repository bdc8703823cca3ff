"""warpscope.analyze and its Report against the CLI on the same launch (the same library,
the same writers: every figure must be equal), errors, writers, the GIL."""

import json
import os
import threading
import time

import pytest

import warpscope
from conftest import ROOT, cli, cli_json, comparable, example, sass

TRANSPOSE = dict(source=example("transpose_tiled.ptx"), kernel="transpose_tiled_f32", grid=(16, 16), block=(32, 8),
                 args=[warpscope.buf(1 << 20), warpscope.buf(1 << 20), warpscope.i32(512)],
                 sass_listing=sass("transpose_tiled.sass"))
TRANSPOSE_CLI = [example("transpose_tiled.ptx"), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                 "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512",
                 "--sass-listing", sass("transpose_tiled.sass")]


def test_metrics_and_lines_are_the_clis(cli_path):
    r = warpscope.analyze(**TRANSPOSE)
    want = cli_json("kernel", *TRANSPOSE_CLI)
    assert r.metrics == want["metrics"]
    assert r.lines == want["lines"]
    assert comparable(json.loads(r.to_json())) == {**comparable(want), "diagnostics": r.diagnostics}
    # The H200's figures (tests/data/h200/examples_h200.jsonl): 32-way on line 27.
    assert r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] == 262144
    assert r.lines[0]["line"] == 27 and r.lines[0]["conflict_degree"] == 32
    assert r.bank_conflicts == 253952
    assert r.excess_wavefronts == 253952
    # The same text, less the CLI's closing hint (the `warpscope fix` command line for a shell).
    text = cli("kernel", *TRANSPOSE_CLI)[1]
    assert "\nNext: warpscope fix" in text
    assert str(r) == text[:text.index("\nNext: warpscope fix")]


def test_plain_numbers_take_the_parameters_type():
    plain = warpscope.analyze(**{**TRANSPOSE, "args": [warpscope.buf(1 << 20), warpscope.buf(1 << 20), 512]})
    typed = warpscope.analyze(**TRANSPOSE)
    assert plain.metrics == typed.metrics


def test_source_as_text():
    with open(example("transpose_tiled.ptx")) as f:
        text = f.read()
    r = warpscope.analyze(**{**TRANSPOSE, "source": text})
    assert r.metrics == warpscope.analyze(**TRANSPOSE).metrics


def test_blocks_sample_and_scale():
    r = warpscope.analyze(**TRANSPOSE, blocks=range(0, 16))
    assert r.data["blocks_run"] == 16 and r.data["sampled"]
    assert r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] == 262144  # uniform blocks: scaled exactly


def test_errors_carry_the_clis_message(cli_path):
    with pytest.raises(warpscope.WarpscopeError) as e:
        warpscope.analyze(**{**TRANSPOSE, "kernel": "nope"})
    _, _, err = cli("kernel", *[a if a != "transpose_tiled_f32" else "nope" for a in TRANSPOSE_CLI], check_status=(1, 2))
    assert err.strip() == "warpscope: " + str(e.value)
    assert e.value.message.startswith("no kernel named 'nope'")
    with pytest.raises(warpscope.WarpscopeError) as e:
        warpscope.analyze(**{**TRANSPOSE, "args": [warpscope.buf(16), 1.5, 512]})
    assert "parameter 'transpose_tiled_f32_param_1'" in e.value.message or "'1.5'" in e.value.message


def test_errors_carry_the_position():
    bad = example("transpose_tiled.ptx")
    with open(bad) as f:
        lines = f.read().split("\n")
    # A syntax error in the kernel body (a lost comma): the parser points at it. (An unknown
    # name is no syntax error: that instruction is kept as unsupported, docs/ptx.md.)
    at = next(i for i, l in enumerate(lines) if "ld.param.u64" in l)
    lines[at] = lines[at].replace(",", "", 1)
    with pytest.raises(warpscope.WarpscopeError) as e:
        warpscope.analyze("\n".join(lines), kernel="transpose_tiled_f32")
    err = e.value
    assert err.file == "<string>" and err.line == at + 1 and err.column > 0, (err.file, err.line, err.column, str(err))
    assert str(err).startswith(f"<string>:{at + 1}:{err.column}: error: ")


def test_emulation_errors_raise_with_the_partial_report():
    # A buffer too small for the kernel: out-of-bounds accesses.
    args = [warpscope.buf(1024), warpscope.buf(1 << 20), 512]
    with pytest.raises(warpscope.WarpscopeError) as e:
        warpscope.analyze(**{**TRANSPOSE, "args": args})
    assert "out-of-bounds" in e.value.message and e.value.report is not None and e.value.report.failed
    assert e.value.file.endswith("transpose_tiled.cu") and e.value.line > 0
    r = warpscope.analyze(**{**TRANSPOSE, "args": args}, check=False)
    assert r.failed and r.diagnostics[0]["severity"] == "error"


def test_writers(tmp_path):
    r = warpscope.analyze(**TRANSPOSE)
    page = r.to_html(tmp_path / "r.html")
    text = open(page).read()
    assert text.startswith("<!DOCTYPE html>") and "transpose_tiled.cu" in text
    assert r._repr_html_().startswith("<iframe") and "srcdoc=" in r._repr_html_()
    doc = json.loads(r.to_json())
    assert doc["metrics"] == r.metrics
    assert "32-way" in str(r) or "32" in str(r)


def test_fix_is_the_clis(cli_path):
    r = warpscope.analyze(**TRANSPOSE)
    fixed = r.fix(registers=20)
    want = json.loads(cli("fix", *TRANSPOSE_CLI, "--registers", "20", "--json")[1])
    for doc in (fixed.data, want):  # the runs' timings differ
        for run in ("kernel_before", "kernel_after"):
            doc[run].pop("emulation", None)
    assert fixed.data == want
    assert fixed.arrays and fixed.arrays[0]["after"] < fixed.arrays[0]["before"]


def test_the_emulation_releases_the_gil():
    ticks = 0
    done = threading.Event()

    def tick():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.0005)

    t = threading.Thread(target=tick)
    t.start()
    start = time.perf_counter()
    warpscope.analyze(**{**TRANSPOSE, "sass_listing": None, "no_sass": True}, jobs=1)
    warpscope.analyze(**TRANSPOSE, jobs=1)
    took = time.perf_counter() - start
    done.set()
    t.join()
    # Holding the GIL, the analyses would leave the other thread a handful of ticks (it
    # would run only between the calls); released, it ticks all along (about 1000 a second).
    assert ticks >= max(20, 100 * took), (ticks, took)


def test_argument_specs():
    assert warpscope.buf(16).spec == "buf:16"
    assert warpscope.file("a.bin").spec == "file:a.bin"
    assert warpscope.u64(2**64 - 1).spec == "u64:18446744073709551615"
    with pytest.raises(ValueError):
        warpscope.i32(2**31)
    assert warpscope.f32(0.5).spec == "f32:0.5"
    t = warpscope.tmap(warpscope.buf(1048576), dtype="f16", dims=(64, 8192), strides=(128,), box=(64, 128),
                       swizzle="128B")
    assert t.spec == "tmap:buf:1048576,dtype=f16,dims=64x8192,strides=128,box=64x128,swizzle=128B"
    with pytest.raises(ValueError):
        warpscope.tmap(warpscope.buf(16), dtype="f16", dims=(64, 64), strides=(), box=(8, 8))
