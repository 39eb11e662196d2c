"""A comparison's PDF as ``llm-advisor report`` writes it: evaluated once by the caller
(``advisor.cli.report.report_results``), then laid out and drawn (``advisor.report.export.export_pdf``)."""

from __future__ import annotations

from advisor.cli.report import report_results
from advisor.report.export import export_pdf


def export(comparison, catalog, out, *, cost=None, made_on=None, **kwargs) -> int:
    """``export_pdf`` of ``comparison``'s results under ``cost`` (default: the defaults) on ``made_on``."""
    arch, results = report_results(comparison, catalog, cost, made_on)
    return export_pdf(comparison, arch, results, out, made_on=made_on, **kwargs)
