#!/usr/bin/env python3
"""Regenerates the tables of a GPU results summary from the suite's JSONs, and the plots.

    summarize_results.py RESULTS_DIR [SUMMARY_MD]    (default RESULTS_DIR/SUMMARY.md)

Writes plots/<part>.svg beside SUMMARY_MD (plot_results.py) and, in SUMMARY_MD, everything between
the lines <!-- results:begin --> and <!-- results:end -->: per part a table (median, min, max
ms, GB/s, % of the same run's memcpy_d2d, GFLOP/s where reported), the targets' verdicts and
the plot. Text outside the markers is kept; a summary without them gets them appended. The
command that produced the results is taken from RESULTS_DIR/command.txt when present
(bench/gpu/suite/run.sh writes it). Standard library only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_results  # noqa: E402

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
ORDER = ["transpose", "reduce", "histogram", "scan", "conv3x3", "gemm", "aos_soa", "copies"]


def find(runs, name):
    return next((r for r in runs if r["name"] == name and r.get("ok")), None)


def verdicts(part, data):
    """Lines saying whether the issue's targets were met in this run."""
    runs = data["runs"]
    copy, best = find(runs, "memcpy_d2d"), find(runs, "ours_best")
    out = []
    if part == "transpose" and copy and best:
        pct = 100 * best["gbps"] / copy["gbps"]
        out.append(f"- ours_best ({data.get('ours_best_is', '?')}) reaches {pct:.1f}% of the "
                   f"same run's copy: target >= 95%: {'met' if pct >= 95 else 'NOT met'}.")
        geam = find(runs, "cublas_geam")
        if geam:
            ratio = geam["median_ms"] / best["median_ms"]
            out.append(f"- against cublasSgeam's transpose: {ratio:.3f}x its speed: "
                       f"{'met' if ratio > 1 else 'NOT met'} (faster is the target).")
    for cub in ("cub_reduce", "cub_histogram_even", "cub_exclusive_sum"):
        c = find(runs, cub)
        if not c:
            continue
        mine = best or min((r for r in runs if r.get("ok") and r["name"] not in
                            ("memcpy_d2d", cub)), key=lambda r: r["median_ms"], default=None)
        if mine:
            ratio = c["median_ms"] / mine["median_ms"]
            verdict = "at least CUB: " + ("met" if ratio >= 1 else "NOT met") \
                if part == "reduce" else "reported"
            out.append(f"- fastest of ours ({data.get('ours_best_is', mine['name'])}) runs at "
                       f"{ratio:.3f}x {cub}'s speed ({mine['median_ms']:.4f} against "
                       f"{c['median_ms']:.4f} ms median): {verdict}.")
    if part == "gemm":
        cb = find(runs, "cublas_sgemm")
        for r in runs:
            if cb and r.get("ok") and r["name"] not in ("memcpy_d2d", "cublas_sgemm"):
                out.append(f"- {r['name']}: {100 * r['gflops'] / cb['gflops']:.1f}% of "
                           "cublasSgemm's GFLOP/s.")
    failed = [r["name"] for r in runs if not r.get("ok")]
    if failed:
        out.append("- FAILED (wrong result or CUDA error): " + ", ".join(failed) + ".")
    return out


def table(data):
    gflops = any("gflops" in r for r in data["runs"])
    head = "| variant | median ms | min ms | max ms | GB/s | % of copy |" + \
        (" GFLOP/s |" if gflops else "")
    rows = [head, "|" + " --- |" * (head.count("|") - 1)]
    for r in data["runs"]:
        name = r["name"]
        if name == "ours_best" and data.get("ours_best_is"):
            name += f" ({data['ours_best_is']})"
        if not r.get("ok"):
            rows.append(f"| {name} | FAILED: {r.get('error', '?')} |" +
                        " |" * (head.count("|") - 3))
            continue
        row = (f"| {name} | {r['median_ms']:.4f} | {r['min_ms']:.4f} | {r['max_ms']:.4f} | "
               f"{r['gbps']:.0f} | {r.get('pct_of_copy', 0):.1f} |")
        if gflops:
            row += f" {r.get('gflops', 0):.0f} |"
        rows.append(row)
    return rows


def render(results_dir, summary_dir):
    results = plot_results.load_results(results_dir)
    plots = plot_results.write_plots(results_dir, os.path.join(summary_dir, "plots"))
    lines = [BEGIN, ""]
    cmd = os.path.join(results_dir, "command.txt")
    if os.path.exists(cmd):
        lines += ["Produced by (from `command.txt`):", "", "```"]
        lines += open(cmd).read().strip().splitlines() + ["```", ""]
    parts = [p for p in ORDER if p in results] + sorted(set(results) - set(ORDER))
    for part in parts:
        data = results[part]
        size = " x ".join(str(s) for s in data.get("size", []))
        lines.append(f"### {part}, {size} {data.get('dtype', '')} (`{part}.json`)")
        lines.append("")
        lines += table(data)
        lines.append("")
        lines += verdicts(part, data)
        rel = os.path.relpath(plots[part], summary_dir)
        lines += ["", f"![{part}]({rel})", ""]
    lines.append(END)
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    results_dir = argv[1]
    summary = argv[2] if len(argv) == 3 else os.path.join(results_dir, "SUMMARY.md")
    if not plot_results.load_results(results_dir):
        print(f"{results_dir}: no result JSON (with a \"runs\" list) found", file=sys.stderr)
        return 1
    summary_dir = os.path.dirname(os.path.abspath(summary))
    os.makedirs(summary_dir, exist_ok=True)
    block = render(results_dir, summary_dir)
    old = open(summary).read() if os.path.exists(summary) else "# GPU results\n\n"
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + block + old[old.index(END) + len(END):].lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n## Tables (generated by bench/gpu/summarize_results.py)\n\n" + block
    with open(summary, "w") as f:
        f.write(new)
    print(f"wrote {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
