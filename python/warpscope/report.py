"""warpscope.report: a kernel's report as Python objects, one more writer of the report model.

``Report.metrics`` and ``Report.lines`` are exactly ``warpscope kernel --json``'s ``metrics``
and ``lines`` (parsed from the C++ JSON writer's output), so a figure read here is the one
the CLI prints:

    r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"]    # kernel total
    r.lines[0]["file"], r.lines[0]["line"], r.lines[0]["metrics"]["L1 Wavefronts Shared"]
"""

from __future__ import annotations

import html as _html
import json
import os

__all__ = ["Report", "FixResult", "ConfigReport"]

SHARED_WAVEFRONTS = "L1 Wavefronts Shared"
SHARED_IDEAL = "L1 Wavefronts Shared Ideal"
GLOBAL_SECTORS = "L2 Theoretical Sectors Global"
GLOBAL_IDEAL = "L2 Theoretical Sectors Global Ideal"


class FixResult:
    """``warpscope fix``'s result as data: ``.data`` is ``warpscope fix --json``'s document
    (``arrays``, ``global``, ``occupancy``, ``kernel_before``, ``kernel_after``)."""

    def __init__(self, core_fix):
        self.data = json.loads(core_fix.json)
        self.text = core_fix.text
        self._html = core_fix.html
        self.failed = core_fix.failed

    @property
    def arrays(self):
        return self.data.get("arrays", [])

    @property
    def global_suggestions(self):
        return self.data.get("global", [])

    def to_json(self, indent=2):
        return json.dumps(self.data, indent=indent)

    def to_html(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._html)
        return os.fspath(path)

    def __getitem__(self, key):
        return self.data[key]

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<warpscope.FixResult: {len(self.arrays)} arrays, {len(self.global_suggestions)} global suggestions>"


class Report:
    """One analysed kernel launch: ``metrics`` (ncu metric name -> total), ``lines`` (per
    source line, worst first), ``diagnostics``; ``to_json()``, ``to_html(path)``, ``fix()``,
    ``str(report)`` is the CLI's text report. For an autotuned Triton kernel, ``configs``
    lists every configuration with its own report (``ConfigReport``)."""

    def __init__(self, core_analysis, extra=None):
        self._core = core_analysis
        self.data = json.loads(core_analysis.json())
        positions = core_analysis.diagnostic_positions()
        for d, (file, line, column, ptx_line) in zip(self.data.get("diagnostics", []), positions):
            d.update(file=file, line=line, column=column, ptx_line=ptx_line)
        self.configs: list[ConfigReport] = []
        self.config = None         # warpscope.triton: the triton.Config of this report, if autotuned
        self.triton_kernel = None  # warpscope.triton: Triton's CompiledKernel (its .asm, .metadata)
        self.extra = dict(extra or {})  # what a front end adds (Triton: the compiled kernel's metadata)

    # --- the JSON document's parts ---
    @property
    def metrics(self) -> dict:
        return self.data["metrics"]

    @property
    def lines(self) -> list:
        return self.data["lines"]

    @property
    def diagnostics(self) -> list:
        return self.data["diagnostics"]

    @property
    def kernel(self) -> str:
        return self.data["kernel"]

    @property
    def failed(self) -> bool:
        return bool(self._core.failed)

    # --- figures summed over the lines (the Source page's columns) ---
    def _sum(self, column):
        return sum(line["metrics"].get(column, 0) for line in self.lines)

    @property
    def shared_wavefronts(self) -> float:
        return self._sum(SHARED_WAVEFRONTS)

    @property
    def shared_ideal_wavefronts(self) -> float:
        return self._sum(SHARED_IDEAL)

    @property
    def excess_wavefronts(self) -> float:
        return sum(line.get("excess_wavefronts", 0) for line in self.lines)

    @property
    def bank_conflicts(self) -> float:
        """ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_* summed."""
        return sum(v for k, v in self.metrics.items() if k.startswith("l1tex__data_bank_conflicts_pipe_lsu_mem_shared"))

    @property
    def global_sectors(self) -> float:
        return self._sum(GLOBAL_SECTORS)

    @property
    def global_ideal_sectors(self) -> float:
        return self._sum(GLOBAL_IDEAL)

    @property
    def excess_sectors(self) -> float:
        return sum(line.get("excess_sectors", 0) for line in self.lines)

    @property
    def sector_efficiency(self):
        """Global ideal sectors / sectors over the kernel; None without global accesses."""
        sectors = self.global_sectors
        return self.global_ideal_sectors / sectors if sectors else None

    def conflicting_lines(self) -> list:
        """The lines whose shared accesses take more wavefronts than the ideal, worst first."""
        return [line for line in self.lines if line.get("excess_wavefronts", 0) > 0]

    def line(self, number, file=None):
        """The report line for a source line number (and file, when several), or None."""
        for line in self.lines:
            if line["line"] == number and (file is None or os.path.basename(line["file"]) == os.path.basename(file)):
                return line
        return None

    def check(self, condition: str):
        """``warpscope kernel --fail-on CONDITION``: why the condition holds, or None."""
        return self._core.check(condition)

    # --- writers ---
    def to_json(self, indent=2) -> str:
        doc = dict(self.data)
        if self.configs:
            doc["configs"] = [c.summary() for c in self.configs]
        if self.extra:
            doc["frontend"] = self.extra
        return json.dumps(doc, indent=indent, default=str)

    def to_html(self, path) -> str:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._core.html())
        return os.fspath(path)

    def html(self) -> str:
        return self._core.html()

    def _repr_html_(self):
        page = self._core.html()
        return ('<iframe style="width:100%;height:640px;border:1px solid #ccc" srcdoc="'
                + _html.escape(page, quote=True) + '"></iframe>')

    def fix(self, keep=5, registers=0) -> FixResult:
        """``warpscope fix`` on the same launch: layouts that remove the shared-memory
        conflicts, proved by re-running the kernel (the GIL is released meanwhile)."""
        return FixResult(self._core.fix(keep, registers))

    def __str__(self):
        return self._core.text()

    def __repr__(self):
        return (f"<warpscope.Report {self.kernel}: {self.shared_wavefronts:g} shared wavefronts "
                f"(ideal {self.shared_ideal_wavefronts:g}), {self.global_sectors:g} global sectors "
                f"(ideal {self.global_ideal_sectors:g}){', failed' if self.failed else ''}>")


class ConfigReport:
    """One configuration of an autotuned kernel and its report."""

    def __init__(self, config, report: Report):
        self.config = config
        self.report = report

    @property
    def metrics(self):
        return self.report.metrics

    def summary(self) -> dict:
        r = self.report
        return {
            "config": str(self.config),
            "metrics": r.metrics,
            "shared_wavefronts": r.shared_wavefronts,
            "shared_ideal_wavefronts": r.shared_ideal_wavefronts,
            "excess_wavefronts": r.excess_wavefronts,
            "bank_conflicts": r.bank_conflicts,
            "global_sectors": r.global_sectors,
            "global_ideal_sectors": r.global_ideal_sectors,
            "excess_sectors": r.excess_sectors,
            "conflicting_lines": [f"{os.path.basename(l['file'])}:{l['line']}" for l in r.conflicting_lines()],
        }

    def __repr__(self):
        r = self.report
        return (f"<{self.config}: excess wavefronts {r.excess_wavefronts:g}, bank conflicts {r.bank_conflicts:g}, "
                f"excess sectors {r.excess_sectors:g}>")
