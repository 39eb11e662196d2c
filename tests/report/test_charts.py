"""The report's charts go into the PDF as vectors and text, whatever the window caches."""

from __future__ import annotations

import datetime as dt
import re

from pypdf import PdfReader

from advisor.core.advice.comparison import canonical_comparison
from advisor.storage.catalog_store import load_catalog
from tests.report_export import export


def test_charts_are_vectors_with_their_labels_as_text(qapp, tmp_path):
    """The window paints axes and legend labels from pixmap caches (``plots``); drawn from their caches
    into the PDF they would be pictures of text. The report renders them without: no image on any
    page, and the Fit chart's axis title and legend entries are text."""
    comp = canonical_comparison()
    out = tmp_path / "charts.pdf"
    export(comp, load_catalog().catalog, out, catalog_date="2026-11-01", error_band="",
               made_on=dt.date(2026, 11, 26))
    reader = PdfReader(out)
    assert all(not page.images for page in reader.pages)
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "model parameters" in text  # the Fit chart's axis title
    assert all(f"{b.name}:" in text for b in comp.builds)  # its legend's entries ("2× RTX 3090 + NVLink: 47.3 GiB …")
