"""warpscope.triton against the H200: every case of corpus/triton/cases.py measured with
ncu (corpus/triton/measure.py, collect.py -> tests/data/h200/corpus/triton.jsonl).

Kernel totals by ncu metric, and the Source page's four columns per line, must be equal.
Until the measurements are committed this is skipped (test_triton_kernels.py then compares
with `warpscope kernel` on the same PTX and listing)."""

import json
import os

import pytest

pytest.importorskip("triton")
import warpscope  # noqa: E402
import warpscope.triton as wt  # noqa: E402
from conftest import ROOT  # noqa: E402

import cases as C  # noqa: E402

MEASURED = os.path.join(ROOT, "tests", "data", "h200", "corpus", "triton.jsonl")
SOURCE = ["L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L2 Theoretical Sectors Global",
          "L2 Theoretical Sectors Global Ideal"]


def records():
    if not os.path.exists(MEASURED):
        return []
    return [json.loads(l) for l in open(MEASURED) if l.strip()]


@pytest.mark.skipif(not records(), reason="no H200 measurements yet (tests/data/h200/corpus/triton.jsonl)")
@pytest.mark.parametrize("record", records(), ids=lambda r: r["name"])
def test_case_equals_the_h200(record):
    if record.get("status") != "ok":
        pytest.skip(f"{record['name']}: {record.get('status')}")
    case = C.CASES[record["name"]]
    try:
        r = wt.analyze(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"])
    except warpscope.WarpscopeError as e:
        if record["name"] in ("triton_matmul",):
            pytest.xfail(f"needs wgmma (issue 14): {e.message}")
        raise
    diffs = [f"{k}: predicted {r.metrics.get(k)}, measured {v}" for k, v in record["metrics"].items()
             if k in r.metrics and r.metrics[k] != v]
    predicted = {(os.path.basename(l["file"]), l["line"]): l["metrics"] for l in r.lines}
    for ml in record.get("lines", []):
        key = (os.path.basename(ml["file"]), ml["line"])
        for column in SOURCE:
            want = ml["metrics"].get(column)
            got = predicted.get(key, {}).get(column, 0)
            if want is not None and want != got:
                diffs.append(f"{key[0]}:{key[1]} {column}: predicted {got}, measured {want}")
    assert not diffs, "\n".join(diffs)
