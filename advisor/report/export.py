"""Export a comparison as a PDF: the one function the window and ``llm-advisor report`` call.

Evaluates the comparison with the core (the same numbers the window shows), lays the
report out and writes it atomically. Needs a Qt application object (the charts are drawn
by pyqtgraph); the caller makes one.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from advisor import APP_NAME, __version__
from advisor.core.advice.comparison import Comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.hardware.catalog import Catalog
from advisor.report.charts import chart_painter
from advisor.report.content import build_document
from advisor.report.pdf import write_pdf
from advisor.storage.error_bands import median_pct


def export_pdf(comparison: Comparison, catalog: Catalog | None, out: Path | str, *, catalog_date: str,
               error_band: str, page_size: str = "a4", unit: str = "GiB", overwrite: bool = False,
               made_on: dt.date | None = None, cost=None) -> int:
    """Write the comparison's report to ``out``; returns the page count. ``cost``: the running-cost
    settings (``CostSettings``; default: the defaults).

    Raises ``LookupError`` when the model cannot be resolved and ``PdfWriteError`` when the
    file cannot be written (nothing is replaced then).
    """
    arch = resolve_model(catalog, comparison.model)
    band = median_pct(comparison.workload)  # "tight" within the measured median error, as in the window
    results = evaluate(catalog, arch, comparison.workload, comparison.builds, margin=band / 100 if band else 0.0)
    document = build_document(comparison, arch, results, catalog_date=catalog_date, error_band=error_band,
                              made_on=made_on, unit=unit, cost=cost)
    draw = chart_painter(results, comparison.workload, unit, arch.name, cost=cost)
    return write_pdf(document, out, page_size=page_size, draw_chart=draw, overwrite=overwrite,
                     creator=f"{APP_NAME} {__version__}")


def default_page_size() -> str:
    """Letter where the locale measures in inches (US, Canada…), else A4 (QLocale)."""
    from PySide6.QtCore import QLocale

    return "letter" if QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem else "a4"
