"""Axes that keep their labels apart: build names wrapped to their bar's slot."""

import pytest
from PySide6.QtGui import QFont, QFontMetricsF

from advisor.plots import wrap_to_width


@pytest.mark.parametrize(("name", "width", "expect"), [
    ("2× RTX 4090 PCIe", 400, "2× RTX 4090 PCIe"),
    ("2× RTX 3090 + NVLink bridge", 110, "2× RTX 3090 +\nNVLink bridge"),
])
def test_bar_labels_wrap_to_their_slot(qapp, name, width, expect):
    metrics = QFontMetricsF(QFont("DejaVu Sans", 9))
    text = wrap_to_width(name, width, metrics, 2)
    assert all(metrics.horizontalAdvance(line) <= width for line in text.split("\n"))
    if metrics.horizontalAdvance("NVLink bridge") <= width:
        assert text == expect
