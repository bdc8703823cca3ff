#!/usr/bin/env python3
"""Draws one SVG bar chart per GPU suite result (bench/gpu/suite/run.sh's <part>.json).

    plot_results.py RESULTS_DIR [OUT_DIR]      (OUT_DIR defaults to RESULTS_DIR/plots)

Each chart has one horizontal bar per variant: GB/s (GFLOP/s for gemm), labelled with the
figure and its percentage of the same run's memcpy_d2d (of cublas_sgemm for gemm), a dashed
line at that ceiling, failed variants marked FAILED. Standard library only; the SVG is
written by hand.
"""
import html
import json
import os
import sys


def load_results(results_dir):
    """{part: parsed JSON} for every *.json in results_dir that has a "runs" list."""
    out = {}
    for name in sorted(os.listdir(results_dir)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(results_dir, name)
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise SystemExit(f"{path}: {e}")
        if isinstance(data, dict) and isinstance(data.get("runs"), list):
            out[name[:-5]] = data
    return out


def metric(part, data):
    """(key in each run, unit, name of the ceiling run) for a part."""
    if part == "gemm" or any("gflops" in r for r in data["runs"]):
        return "gflops", "GFLOP/s", "cublas_sgemm"
    return "gbps", "GB/s", "memcpy_d2d"


def svg_chart(part, data):
    key, unit, ceiling_name = metric(part, data)
    runs = data["runs"]
    if key == "gflops":  # the copy has no GFLOP/s: leave it to the table
        runs = [r for r in runs if "gflops" in r or not r.get("ok")]
    ceiling = next((r.get(key, 0) for r in runs if r["name"] == ceiling_name and r.get("ok")), 0)
    values = [r.get(key, 0) if r.get("ok") else 0 for r in runs]
    top = max(values + [ceiling, 1e-9]) * 1.08
    label_w, bar_w, right_w, row_h, head = 210, 520, 150, 22, 56
    width = label_w + bar_w + right_w
    height = head + row_h * len(runs) + 30
    size = "x".join(str(s) for s in data.get("size", []))
    title = f"{part} {size} {data.get('dtype', '')} on {data.get('device', '?')}: {unit}"
    if ceiling:
        title += f" (dashed: {ceiling_name})"
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="10" y="22" font-size="14" font-weight="bold">{html.escape(title)}</text>']
    # Axis ticks at quarters of the scale.
    for q in range(5):
        x = label_w + bar_w * q / 4
        p.append(f'<line x1="{x:.1f}" y1="{head - 8}" x2="{x:.1f}" y2="{height - 28}" '
                 'stroke="#ddd"/>')
        p.append(f'<text x="{x:.1f}" y="{head - 12}" text-anchor="middle" fill="#666">'
                 f'{top * q / 4:.0f}</text>')
    best = data.get("ours_best_is")
    for i, (r, v) in enumerate(zip(runs, values)):
        y = head + i * row_h
        name = r["name"] + (f" = {best}" if r["name"] == "ours_best" and best else "")
        p.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">'
                 f'{html.escape(name)}</text>')
        if not r.get("ok"):
            p.append(f'<text x="{label_w + 4}" y="{y + 15}" fill="#c00" font-weight="bold">'
                     'FAILED</text>')
            continue
        w = bar_w * v / top
        colour = ("#888" if r["name"] in ("memcpy_d2d", ceiling_name) or r["name"].startswith("cub")
                  else "#2a7" if r["name"] == "ours_best" else "#47c")
        p.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" '
                 f'fill="{colour}"/>')
        pct = f" ({100 * v / ceiling:.1f}%)" if ceiling else ""
        p.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 15}">{v:.0f}{pct}</text>')
    if ceiling:
        x = label_w + bar_w * ceiling / top
        p.append(f'<line x1="{x:.1f}" y1="{head - 4}" x2="{x:.1f}" y2="{height - 28}" '
                 'stroke="#c00" stroke-dasharray="5,4"/>')
    p.append(f'<text x="10" y="{height - 10}" fill="#666">median of {data.get("reps", "?")} '
             'timed launches; green: ours_best, grey: ceilings</text>')
    p.append("</svg>")
    return "\n".join(p) + "\n"


def write_plots(results_dir, out_dir=None):
    """Writes out_dir/<part>.svg for every result; returns {part: svg path}."""
    out_dir = out_dir or os.path.join(results_dir, "plots")
    os.makedirs(out_dir, exist_ok=True)
    written = {}
    for part, data in load_results(results_dir).items():
        path = os.path.join(out_dir, part + ".svg")
        with open(path, "w") as f:
            f.write(svg_chart(part, data))
        written[part] = path
    return written


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    written = write_plots(argv[1], argv[2] if len(argv) == 3 else None)
    if not written:
        print(f"{argv[1]}: no result JSON (with a \"runs\" list) found", file=sys.stderr)
        return 1
    for path in written.values():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
