#!/usr/bin/env python3
"""Opens `warpscope kernel --html` in headless Chromium and checks what a reader would see:
the .cu source lines, the 32-way conflicted line marked, the script run (the worst line is
selected when the page opens), and an SVG bank diagram with 32 bank columns whose conflicting
cells fill one bank. Also takes a screenshot (a PNG, checked for its size).

usage: tests/html_report_test.py BUILD_DIR [--screenshot PNG]
Exit 0: passed; 1: failed; 77: skipped because chromium is not installed (`make deps`)."""
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SKIP = 77
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else os.path.join(root, "build")
screenshot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None

chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium is None:
    print("SKIPPED: chromium is not installed (`make deps` installs the Debian package 'chromium')")
    sys.exit(SKIP)

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


class Dom(html.parser.HTMLParser):
    """Elements as (tag, attributes, text inside), in document order; text of nested elements included."""

    def __init__(self):
        super().__init__()
        self.elements, self.open = [], []

    def handle_starttag(self, tag, attrs):
        element = [tag, dict(attrs), ""]
        self.elements.append(element)
        if tag not in ("meta", "br", "img", "input", "link", "rect", "line"):
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.elements.append([tag, dict(attrs), ""])

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            element[2] += data

    def find(self, tag, cls=None, **attrs):
        def match(e):
            classes = e[1].get("class", "").split()
            return (e[0] == tag and (cls is None or cls in classes)
                    and all(e[1].get(k.replace("_", "-")) == v for k, v in attrs.items()))
        return [e for e in self.elements if match(e)]


def chromium_run(args, timeout=60):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--hide-scrollbars"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


with tempfile.TemporaryDirectory() as tmp:
    page = os.path.join(tmp, "transpose_tiled.html")
    # Run from the source root with relative paths, as docs/kernel.md shows it.
    warpscope = [os.path.abspath(os.path.join(build, "warpscope")), "kernel", "examples/transpose_tiled.ptx",
                 "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                 "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512",
                 "--sass-listing", "tests/data/sass/transpose_tiled.sass",
                 "--no-diagnostics", "--html", page]
    r = subprocess.run(warpscope, capture_output=True, text=True, timeout=120, cwd=root)
    check(r.returncode == 0, "warpscope kernel --html exits 0 " + r.stderr[-300:])
    if r.returncode != 0:
        sys.exit(1)
    text = open(page, encoding="utf-8").read()
    check("http:" not in text and "https:" not in text and "<link" not in text, "the page names no external URL")

    dump = chromium_run(["--virtual-time-budget=2000", "--dump-dom", "file://" + page])
    check(dump.returncode == 0 and "<html" in dump.stdout, "chromium --dump-dom renders the page")
    dom = Dom()
    dom.feed(dump.stdout)

    cu = open(os.path.join(root, "examples", "transpose_tiled.cu"), encoding="utf-8").read().splitlines()
    listing = dom.find("table", "source", data_file="transpose_tiled.cu")
    check(len(listing) == 1, "one listing of transpose_tiled.cu")
    rows = dom.find("tr", "src-line")
    codes = [e[2] for e in dom.find("td", "code")]
    check(len(codes) >= len(cu) and all(c in codes for c in cu if c.strip()), f"all {len(cu)} .cu lines are listed")
    conflicted = [e for e in rows if "conflict" in e[1].get("class", "").split()]
    check(len(conflicted) == 1 and "32-way" in conflicted[0][2], "exactly one line is marked 32-way")
    check(bool(conflicted) and "tile[threadIdx.x][threadIdx.y + j]" in conflicted[0][2],
          "the 32-way line is the column read of tile")
    check(bool(conflicted) and "selected" in conflicted[0][1].get("class", ""),
          "the page's script ran: the worst line is selected")
    shown = [e for e in dom.find("section", "line-detail") if "hidden" not in e[1]]
    check(len(shown) == 1 and shown[0][1].get("id") == conflicted[0][1].get("data-target") if conflicted else False,
          "only the selected line's accesses are shown")
    svgs = dom.find("svg", "bank-diagram")
    check(len(svgs) >= 1, "an SVG bank diagram is drawn")
    bank_cols = dom.find("text", "bank-col")
    check(len(bank_cols) == 32 * len(svgs), f"every diagram has 32 bank columns ({len(bank_cols)} over {len(svgs)})")
    worst_svg = [s for s in svgs if s[1].get("data-wavefronts") == "32"]
    check(len(worst_svg) >= 1, "a diagram has 32 wavefronts (the 32-way read)")
    conflict_cells = dom.find("g", "conflict")
    banks_of_conflicts = {}
    for g in conflict_cells:
        banks_of_conflicts.setdefault(g[1].get("data-bank"), set()).add(g[1].get("data-lane"))
    check(any(len(lanes) == 32 for lanes in banks_of_conflicts.values()),
          "one bank holds 32 conflicting cells, one per lane")
    check(len(dom.find("table", "lanes")) >= 1, "a lane table is shown")

    png = screenshot or os.path.join(tmp, "page.png")
    shot = chromium_run(["--window-size=1600,1000", "--screenshot=" + os.path.abspath(png), "file://" + page])
    ok = shot.returncode == 0 and os.path.exists(png)
    if ok:
        header = open(png, "rb").read(24)
        ok = header[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", header[16:24]) == (1600, 1000)
    check(ok, "chromium --screenshot writes a 1600x1000 PNG" + ("" if ok else " " + shot.stderr[-300:]))

print("FAILED: " + "; ".join(failures) if failures else "PASSED")
sys.exit(1 if failures else 0)
