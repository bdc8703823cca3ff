"""warpscope.testing: the gates a project puts in its own pytest suite."""

import pytest

import warpscope
import warpscope.testing as wt
from conftest import example, sass


def analyze(name, kernel, listing):
    return warpscope.analyze(example(name), kernel=kernel, grid=(16, 16), block=(32, 8),
                             args=[warpscope.buf(1 << 20), warpscope.buf(1 << 20), 512], sass_listing=sass(listing))


def test_no_bank_conflicts():
    wt.assert_no_bank_conflicts(analyze("transpose_padded.ptx", "_Z16transpose_paddedIfEvPT_PKS0_i",
                                        "transpose_padded.sass"))
    tiled = analyze("transpose_tiled.ptx", "transpose_tiled_f32", "transpose_tiled.sass")
    with pytest.raises(AssertionError) as e:
        wt.assert_no_bank_conflicts(tiled)
    text = str(e.value)
    assert "253952 shared wavefronts beyond the ideal" in text
    assert "transpose_tiled.cu:27" in text and "262144 wavefronts (ideal 8192), 32-way" in text


def test_sector_efficiency():
    naive = warpscope.analyze(example("transpose_naive.ptx"), kernel="transpose_naive_f32", grid=(16, 16),
                              block=(32, 8), args=[warpscope.buf(1 << 20), warpscope.buf(1 << 20), 512],
                              no_sass=True)
    # 32768 load sectors + 262144 store sectors (both on line 19) against 32768 + 32768 ideal: 22.2%.
    assert naive.sector_efficiency == pytest.approx(65536 / 294912)
    wt.assert_sector_efficiency(naive, 0.2)
    with pytest.raises(AssertionError, match=r"transpose_naive.cu:19 .*294912 sectors \(ideal 65536\)"):
        wt.assert_sector_efficiency(naive, 0.9)
    with pytest.raises(ValueError):
        wt.assert_sector_efficiency(naive, 90)
