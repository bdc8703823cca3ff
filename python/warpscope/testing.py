"""warpscope.testing: memory-cost checks for a project's own pytest suite.

    import warpscope.testing as wt
    wt.assert_no_bank_conflicts(report)          # like `warpscope kernel --fail-on bank-conflicts`
    wt.assert_sector_efficiency(report, 0.9)     # like `--fail-on sector-efficiency<0.9`

A failure is an AssertionError naming the lines at fault (file:line, the source text, the
figures and the conflict degree), worst first. For an autotuned Triton kernel the report
checked is the one warpscope.triton.analyze returned (the config with the least excess);
``all_configs=True`` checks every config and names those that fail.
"""

from __future__ import annotations

import os

from .report import GLOBAL_IDEAL, GLOBAL_SECTORS, SHARED_IDEAL, SHARED_WAVEFRONTS, Report

__all__ = ["assert_no_bank_conflicts", "assert_sector_efficiency"]


def _where(line) -> str:
    text = f"{os.path.basename(line['file'])}:{line['line']}"
    source = line.get("source", "").strip()
    return f"{text}  {source}" if source else text


def _reports(report, all_configs):
    """The report, or each configuration's of an autotuned kernel (named)."""
    if all_configs and isinstance(report, Report) and report.configs:
        return [(str(c.config), c.report) for c in report.configs]
    return [("", report)]


def assert_no_bank_conflicts(report: Report, all_configs: bool = False):
    """Fails when any shared-memory access takes more wavefronts than its ideal."""
    problems = []
    for name, r in _reports(report, all_configs):
        why = r.check("bank-conflicts")
        if why is None:
            continue
        lines = [f"  {_where(l)}: {l['metrics'].get(SHARED_WAVEFRONTS, 0):g} wavefronts (ideal "
                 f"{l['metrics'].get(SHARED_IDEAL, 0):g}), {l.get('conflict_degree', 0)}-way"
                 for l in r.conflicting_lines()]
        problems.append((f"{name}: " if name else "") + f"{r.kernel}: {why}\n" + "\n".join(lines))
    if problems:
        raise AssertionError("shared-memory bank conflicts:\n" + "\n".join(problems))


def assert_sector_efficiency(report: Report, minimum: float = 0.9, all_configs: bool = False):
    """Fails when the kernel's global sector efficiency (ideal sectors / sectors, the Source
    page's L2 Theoretical Sectors Global) is below ``minimum`` (a fraction, 0..1)."""
    if not 0 <= minimum <= 1:
        raise ValueError(f"an efficiency is 0 to 1, got {minimum}")
    problems = []
    for name, r in _reports(report, all_configs):
        why = r.check(f"sector-efficiency<{minimum!r}")
        if why is None:
            continue
        worst = sorted((l for l in r.lines if l["metrics"].get(GLOBAL_SECTORS, 0) > l["metrics"].get(GLOBAL_IDEAL, 0)),
                       key=lambda l: l["metrics"][GLOBAL_IDEAL] - l["metrics"][GLOBAL_SECTORS])
        lines = [f"  {_where(l)}: {l['metrics'][GLOBAL_SECTORS]:g} sectors (ideal {l['metrics'][GLOBAL_IDEAL]:g})"
                 for l in worst]
        problems.append((f"{name}: " if name else "") + f"{r.kernel}: {why}\n" + "\n".join(lines))
    if problems:
        raise AssertionError("global sector efficiency:\n" + "\n".join(problems))
