"""Shared fixtures of the Python tests: paths, the CLI, and Triton when it is installed."""

import json
import os
import subprocess

import pytest

ROOT = os.environ.get("WARPSCOPE_ROOT", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BUILD = os.environ.get("WARPSCOPE_BUILD", os.path.join(ROOT, "build"))
CLI = os.path.join(BUILD, "warpscope")


def example(name):
    return os.path.join(ROOT, "examples", name)


def sass(name):
    return os.path.join(ROOT, "tests", "data", "sass", name)


def cli(*args, check_status=(0,)):
    """`warpscope ARGS`: (status, stdout, stderr)."""
    run = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode in check_status, run.stderr
    return run.returncode, run.stdout, run.stderr


def cli_json(*args):
    _, out, _ = cli(*args, "--json", check_status=(0, 1))
    return json.loads(out)


def comparable(doc):
    """A --json document without what varies between runs (time, workers)."""
    doc = dict(doc)
    doc.pop("emulation", None)
    doc.pop("frontend", None)
    doc.pop("ptx", None)
    return doc


@pytest.fixture(scope="session")
def cli_path():
    if not os.path.exists(CLI):
        pytest.skip(f"no CLI at {CLI}")
    return CLI
