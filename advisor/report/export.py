"""Export a comparison's results as a PDF: the one function ``llm-advisor report`` (and through it the
window) calls.

Lays the report out from results the caller evaluated (the same numbers the window shows, with their
running costs) and writes it atomically. Needs a Qt application object (the charts are drawn by
pyqtgraph); the caller makes one.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from advisor import APP_NAME, __version__
from advisor.core import Comparison, ModelArch, Results
from advisor.report.charts import chart_painter
from advisor.report.content import build_document
from advisor.report.pdf import write_pdf


def export_pdf(comparison: Comparison, arch: ModelArch, results: Results, out: Path | str, *, catalog_date: str,
               error_band: str, page_size: str = "a4", unit: str = "GiB", overwrite: bool = False,
               made_on: dt.date | None = None) -> int:
    """Write the report of ``comparison`` (``results``: its evaluation, carrying its running costs) to
    ``out``; returns the page count. Raises ``PdfWriteError`` when the file cannot be written (nothing is
    replaced then)."""
    document = build_document(comparison, arch, results, catalog_date=catalog_date, error_band=error_band,
                              made_on=made_on, unit=unit)
    draw = chart_painter(results, comparison.workload, unit, arch.name)
    return write_pdf(document, out, page_size=page_size, draw_chart=draw, overwrite=overwrite,
                     creator=f"{APP_NAME} {__version__}")


def default_page_size() -> str:
    """Letter where the locale measures in inches (US, Canada…), else A4 (QLocale)."""
    from PySide6.QtCore import QLocale

    return "letter" if QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem else "a4"
