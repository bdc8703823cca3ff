"""warpscope.triton against the H200: every case of corpus/triton/cases.py measured with
ncu (corpus/triton/measure_all.sh, collect.py -> tests/data/h200/corpus/triton.jsonl).

Kernel totals by ncu metric, and the Source page's four columns per line, must be equal,
with the rule of tools/compare_measured.py for which measured figure a total must equal
(shared wavefronts: the per-instruction Source page, `sass_ops`, since the hardware counter adds
arbitration noise, or the counter; bank conflicts: the Source page's, or the counter, which takes
one ideal wavefront per lane group with active lanes; global sectors: either). A difference we
understand and have not fixed is listed, with its reason after `#`, in
tests/data/h200/corpus/triton_known.txt; any other difference fails, and so does a listed
one that no longer occurs. A case measured more than once (tests/data/h200/corpus/repeats/
triton.jsonl): a figure its runs disagree on equals when the prediction lies between the fewest
and the most any run measured (tools/measured_runs.py)."""

import json
import os

import sys

import pytest

pytest.importorskip("triton")
import warpscope  # noqa: E402
import warpscope.triton as wt  # noqa: E402
from conftest import ROOT  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tools"))
from measured_runs import SOURCE, Runs, accepted, load_repeats, within  # noqa: E402

import cases as C  # noqa: E402

MEASURED = os.path.join(ROOT, "tests", "data", "h200", "corpus", "triton.jsonl")
KNOWN = os.path.join(ROOT, "tests", "data", "h200", "corpus", "triton_known.txt")
REPEATS = load_repeats(MEASURED)


def records():
    if not os.path.exists(MEASURED):
        return []
    return [json.loads(l) for l in open(MEASURED) if l.strip()]


def known():
    if not os.path.exists(KNOWN):
        return set()
    return {k.split("#")[0].strip() for k in open(KNOWN) if k.split("#")[0].strip()}


def differences(record, r):
    """`NAME what: predicted P, measured M` for every figure that differs."""
    name, diffs = record["name"], []
    # Figures that depend on timing between warps (a lock's retries, what each try moves through
    # shared memory) are not compared, as in tools/compare_measured.py.
    timing_metrics = set(r.data.get("timing_dependent_metrics", []))
    timing_lines = {(os.path.basename(l["file"]), l["line"]) for l in r.lines if l.get("timing_dependent")}
    runs = Runs(record, REPEATS.get(name, []))
    for k, v in r.metrics.items():
        want = accepted(k, record)
        if want and v not in want and k not in timing_metrics:
            if within(v, runs.metric_range(lambda rec, k=k: accepted(k, rec))):
                continue  # the runs disagree and the prediction lies between them
            diffs.append(f"{name} {k}: predicted {v}, measured {want[0]}")
    predicted = {(os.path.basename(l["file"]), l["line"]): l["metrics"] for l in r.lines}
    for ml in record.get("lines", []):
        key = (os.path.basename(ml["file"]), ml["line"])
        if key in timing_lines:
            continue
        for column in SOURCE:
            want = int(float(ml["metrics"].get(column, 0) or 0))
            got = predicted.get(key, {}).get(column, 0)
            if want != got and not within(got, runs.line_range((key[0], key[1], column))):
                diffs.append(f"{name} {key[0]}:{key[1]} {column}: predicted {got}, measured {want}")
    return diffs


SEEN, RAN = set(), set()


@pytest.mark.skipif(not records(), reason="no H200 measurements yet (tests/data/h200/corpus/triton.jsonl)")
@pytest.mark.parametrize("record", records(), ids=lambda r: r["name"])
def test_case_equals_the_h200(record):
    if record.get("status") != "ok":
        pytest.skip(f"{record['name']}: {record.get('status')}")
    case = C.CASES[record["name"]]
    r = wt.analyze(case["fn"], case["grid"], *C.make_args(case, wt.tensor), **case["meta"])
    diffs = differences(record, r)
    RAN.add(record["name"])
    SEEN.update(d for d in diffs if d in known())
    new = [d for d in diffs if d not in known()]
    assert not new, "differences not in triton_known.txt:\n" + "\n".join(new)


@pytest.mark.skipif(not records(), reason="no H200 measurements yet")
def test_every_known_difference_still_occurs():
    """Runs after the cases (pytest keeps the file's order): a fixed difference must leave the list."""
    if RAN != {r["name"] for r in records() if r.get("status") == "ok"}:
        pytest.skip("not every case ran (a -k selection or a failure before the comparison)")
    stale = known() - SEEN
    assert not stale, "no longer differ (remove them from triton_known.txt):\n" + "\n".join(sorted(stale))


def test_the_rule_for_measured_totals():
    """Conflicts: the per-instruction view first, or the hardware counter (as compare_measured.py)."""
    record = {"metrics": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld": 32769,
                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld": 1},
              "sass_ops": {"shared_ld": {"wavefronts": 32768, "wavefronts_ideal": 32768}}}
    # and the counter less the wavefronts it counted beyond the Source page's (arbitration)
    assert accepted("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld", record) == [0, 1, 0]
    assert accepted("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld", record) == [32768, 32769]
    assert accepted("l1tex__t_requests_pipe_lsu_mem_global_op_ld", record) == []
