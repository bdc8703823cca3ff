"""tools/measured_runs.py: which figures of a launch measured more than once are run-dependent."""
import json
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
from measured_runs import Runs, load_repeats, repeats_path, within  # noqa: E402


def record(sectors, ideal=4096, wavefronts=2048, counter=4096):
    cols = {"L1 Wavefronts Shared": wavefronts, "L1 Wavefronts Shared Ideal": wavefronts,
            "L2 Theoretical Sectors Global": sectors, "L2 Theoretical Sectors Global Ideal": ideal}
    return {"name": "k", "status": "ok", "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld": counter},
            "lines": [{"file": "/some/where/k.cu", "line": 20, "metrics": cols}]}


def test_a_figure_the_runs_disagree_on_has_their_range():
    runs = Runs(record(4280), [record(4232), record(4216)])
    key = ("k.cu", 20, "L2 Theoretical Sectors Global")
    assert runs.line_range(key) == (4216, 4280)
    assert within(4232, runs.line_range(key)) and within(4216, runs.line_range(key))
    assert not within(4096, runs.line_range(key))  # below every run: still a difference
    assert runs.count() == 3


def test_figures_the_runs_agree_on_have_no_range():
    runs = Runs(record(4280), [record(4232)])
    assert runs.line_range(("k.cu", 20, "L2 Theoretical Sectors Global Ideal")) is None
    assert runs.line_range(("k.cu", 20, "L1 Wavefronts Shared")) is None
    assert not within(4096, None)
    metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"
    assert runs.metric_range(lambda r: [r["metrics"][metric]]) is None
    assert Runs(record(1), [record(1, counter=4100)]).metric_range(lambda r: [r["metrics"][metric]]) == (4096, 4100)


def test_a_launch_measured_once_has_no_range():
    runs = Runs(record(4280), [])
    assert runs.line_range(("k.cu", 20, "L2 Theoretical Sectors Global")) is None


def test_repeats_are_read_by_name_beside_the_measurements(tmp_path):
    measured = tmp_path / "topic.jsonl"
    measured.write_text(json.dumps(record(4280)) + "\n")
    os.makedirs(tmp_path / "repeats")
    failed = dict(record(1), status="not profiled")
    (tmp_path / "repeats" / "topic.jsonl").write_text(json.dumps(record(4232)) + "\n" + json.dumps(failed) + "\n")
    assert repeats_path(str(measured)) == str(tmp_path / "repeats" / "topic.jsonl")
    runs = load_repeats(str(measured))
    assert list(runs) == ["k"] and len(runs["k"]) == 1  # a run that did not measure is left out
    assert load_repeats(str(tmp_path / "other.jsonl")) == {}


def test_the_committed_repeats_name_measured_launches():
    folder = os.path.join(ROOT, "tests", "data", "h200", "corpus")
    for topic in ("frontend", "triton"):
        measured = os.path.join(folder, f"{topic}.jsonl")
        names = {json.loads(l)["name"] for l in open(measured) if l.strip()}
        repeats = load_repeats(measured)
        assert repeats and set(repeats) <= names
