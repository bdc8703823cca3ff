#!/usr/bin/env python3
"""Runs `warpscope kernel --json` on every launch measured on an H200 and compares its
figures with the measurement: kernel totals by ncu metric, and the Source page's per-line
counters for lines of files beside the launch's PTX (the kernel's own .cu or .py).

  tools/compare_measured.py [BUILD_DIR] [--measured FILE.jsonl] [--known FILE]
                            [--sass-dir DIR] [--live-sass] [--all]   (exit 1 on a failure)

Defaults: the example launches (tests/data/h200/examples_h200.jsonl, their known
differences in tests/data/h200/examples_known_differences.txt, SASS listings from
tests/data/sass/). A corpus topic: --measured tests/data/h200/corpus/<topic>.jsonl, its
known differences in <topic>_known.txt beside it, listings from corpus/<topic>/sass/.

Which measured figure each prediction must equal (bench/gpu/collect_examples.py records
both the hardware counters and `sass_ops`, the Source page's per-instruction view summed by
operation):
  shared wavefronts                     the Source page's "L1 Wavefronts Shared" of that op's
                                        instructions, or the hardware counter (which counts a
                                        few more on some kernels: arbitration, seen on the H200)
  global requests                       the hardware counter
  bank conflicts                        wavefronts - ideal of that op's instructions on the
                                        Source page (the hardware counter adds arbitration
                                        noise), or the hardware counter (it takes one ideal
                                        wavefront per lane group with active lanes, where the
                                        Source page's ideal packs them: predicated LDS.64/STS.64)
  global sectors                        the hardware counter or the Source page's
                                        "L2 Theoretical Sectors Global" of that op (either:
                                        the hardware counter drifts by up to 0.3% on some
                                        kernels, the per-instruction view on some LDGSTS)
  per line                              the Source page's columns
A figure warpscope marks timing-dependent (a kernel total in `timing_dependent_metrics`, a line
with `timing_dependent`: CAS loops' and spin locks' retries between warps, spin-wait polls) is
listed, not compared: a CAS loop's is the fewest any run takes, but how often a spin-wait polls
depends on the GPU's scheduling and on the emulator's (rw_scan_lookback polls more here).
A launch measured more than once (repeats/<topic>.jsonl beside the measurements,
tools/measured_runs.py): a figure its runs disagree on equals when the prediction lies between
the fewest and the most any run measured (listed as run-dependent).
Differences we understand and have not fixed are listed, with their reason, in the known
file; any other difference, or a listed one that no longer occurs, fails."""
import json
import os
import shlex
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "tools"))
from measured_runs import SOURCE, Runs, accepted, load_repeats, within  # noqa: E402


def option(name, default=None):
    if name in sys.argv:
        i = sys.argv.index(name)
        if i + 1 < len(sys.argv):
            return sys.argv[i + 1]
    return default


values = {option(n) for n in ("--measured", "--known", "--sass-dir")}
build = next((a for a in sys.argv[1:] if not a.startswith("-") and a not in values), os.path.join(root, "build"))
live_sass = "--live-sass" in sys.argv
show_all = "--all" in sys.argv  # every new difference of a launch, not the first 12 (to write a known file)
measured = option("--measured", os.path.join(root, "tests", "data", "h200", "examples_h200.jsonl"))
default_known = (os.path.join(root, "tests", "data", "h200", "examples_known_differences.txt")
                 if measured.endswith("examples_h200.jsonl") else measured[:-len(".jsonl")] + "_known.txt")
known_path = option("--known", default_known)
sass_dir = option("--sass-dir")

known = set()
if os.path.exists(known_path):
    for k in open(known_path):
        k = k.split("#")[0].strip()
        if k:
            known.add(k)
seen_known = set()


def listing_for(ptx):
    base = os.path.basename(ptx).replace(".ptx", ".sass")
    folders = [sass_dir] if sass_dir else [os.path.join(root, "tests", "data", "sass"),
                                           os.path.join(root, os.path.dirname(ptx), "sass")]
    for folder in folders:
        path = os.path.join(folder, base)
        if os.path.exists(path):
            return path
    return None


def polls_global(ptx):
    path = os.path.join(root, ptx)
    text = open(path).read() if os.path.isfile(path) else ""
    return any(k in text for k in ("ld.volatile.global", "ld.acquire.gpu.global", "ld.relaxed.gpu.global"))


bad = 0
records = [json.loads(line) for line in open(measured) if line.strip()]
repeats = load_repeats(measured)
for m in records:
    if m.get("status") != "ok":
        print(f"{m['name']}: not measured ({m.get('status')}): skipped")
        continue
    args = shlex.split(m["launch"])[1:]
    ptx = next((a for a in args if a.endswith(".ptx")), "")
    if not live_sass and "--sass-listing" not in args:
        listing = listing_for(ptx)
        if listing:
            args += ["--sass-listing", listing]
    # A kernel that polls global memory other blocks write (volatile or acquire loads: a
    # decoupled look-back) spins as long as the host threads running its blocks make it: one
    # worker runs the blocks in order, each finding its predecessors done (the fewest polls).
    if "-j" not in args and "--jobs" not in args and polls_global(ptx):
        args += ["--jobs", "1"]
    run = subprocess.run([os.path.join(build, "warpscope"), "kernel", *args, "--json", "-q", "--no-diagnostics"],
                         cwd=root, capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout.strip():
        print(f"{m['name']}: warpscope failed: {run.stderr.strip()[:300]}")
        bad += 1
        continue
    got = json.loads(run.stdout)
    diffs = []
    timing = []  # timing-dependent figures the measurement is at least
    timing_metrics = set(got.get("timing_dependent_metrics", []))
    runs = Runs(m, repeats.get(m["name"], []))
    varying = []  # figures the runs disagree on, the prediction within their range
    if run.returncode == 1:
        diffs.append(f"{m['name']}: the emulation failed")
    for k, v in got["metrics"].items():
        want = accepted(k, m)
        if want and v not in want:
            if k in timing_metrics:
                timing.append(f"{k}: predicted {v}, measured {want[0]}")
                continue
            span = runs.metric_range(lambda r, k=k: accepted(k, r))
            if within(v, span):
                varying.append(f"{k}: predicted {v}, measured {span[0]}..{span[1]} in {runs.count()} runs")
                continue
            diffs.append(f"{m['name']} {k}: predicted {v}, measured {want[0]}")
    home = os.path.dirname(ptx)
    own = {f for f in os.listdir(os.path.join(root, home))} if os.path.isdir(os.path.join(root, home)) else set()
    pred_lines = {(l["file"], l["line"]): l["metrics"] for l in got["lines"]}
    timing_lines = {(l["file"], l["line"]) for l in got["lines"] if l.get("timing_dependent")}
    for ml in m.get("lines", []):
        f = os.path.basename(ml["file"])
        if f not in own or not f.endswith((".cu", ".py")):
            continue
        pl = pred_lines.get((f, ml["line"]), {})
        for k in SOURCE:
            want = int(float(ml["metrics"].get(k, 0) or 0))
            have = pl.get(k, 0)
            span = runs.line_range((f, ml["line"], k))
            if want != have and (f, ml["line"]) in timing_lines:
                timing.append(f"{f}:{ml['line']} {k}: predicted {have}, measured {want}")
            elif want != have and within(have, span):
                varying.append(f"{f}:{ml['line']} {k}: predicted {have}, measured {span[0]}..{span[1]} "
                               f"in {runs.count()} runs")
            elif want != have:
                diffs.append(f"{m['name']} {f}:{ml['line']} {k}: predicted {have}, measured {want}")
    expected = [d for d in diffs if d in known]
    seen_known.update(expected)
    unexpected = [d for d in diffs if d not in known]
    status = "ok" if not diffs else f"{len(expected)} known, {len(unexpected)} new differences"
    print(f"{m['name']}: {status} ({got['emulation']['seconds']:.3f} s, priced from {got['priced_from']})")
    for d in (unexpected if show_all else unexpected[:12]):
        print("    NEW:", d)
    for t in timing[:6]:
        print("    timing-dependent:", t)
    for t in varying[:6]:
        print("    run-dependent:", t)
    bad += bool(unexpected)
for k in sorted(known - seen_known):
    print("no longer differs (remove it from the known list):", k)
    bad += 1
print(f"{bad} failures; {len(seen_known)} known differences; {len(records)} launches")
sys.exit(1 if bad else 0)
