"""Draw the Fit, Memory, Speed and Value charts into the PDF as vector graphics.

The same ``advisor.plots`` builders as the screen fill an offscreen pyqtgraph layout,
whose scene is rendered straight into the PDF painter (``scene().render``): no raster
image, no SVG step (pyqtgraph's SVG exporter crashes with PySide6 6.12, platform-notes.md).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem

from advisor import plots
from advisor.core import Job, Mode, Results


def _builder(kind: str, results: Results, workload: Job, unit: str, model_name: str):
    training = workload.mode is Mode.TRAIN
    if kind == "fit":
        fit = plots.FitPlot()
        fit.update(results, unit, model_name)
        return fit
    if kind == "memory":
        memory = plots.MemoryPlot()
        memory.update(results, unit)
        return memory
    if kind == "speed":
        speed = plots.SpeedPlot()
        speed.update(results, training)
        return speed
    if kind == "value":
        value = plots.ValuePlot()
        value.update(results, training)
        return value
    raise KeyError(f"unknown chart {kind!r}")


def chart_painter(results: Results, workload: Job, unit: str = "GiB", model_name: str = ""):
    """A ``draw_chart(kind, painter, rect)`` for ``advisor.report.pdf.write_pdf``: the window's plot builders
    drawing ``results`` (with their running costs) on paper."""

    def draw(kind: str, painter: QPainter, rect: QRectF) -> None:
        plots.set_theme(dark=False)  # paper is white whatever the screen's palette
        plot = _builder(kind, results, workload, unit, model_name)
        canvas = pg.GraphicsLayoutWidget()
        try:
            canvas.setBackground("w")
            for row, item in enumerate(plot.items):
                canvas.addItem(item, row=row, col=0)
            size = QRectF(0, 0, rect.width(), rect.height())
            canvas.resize(int(size.width()), int(size.height()))
            canvas.setSceneRect(size)
            canvas.ci.setGeometry(size)  # lay the plot items out without showing a window
            _render_as_vectors(canvas.scene(), painter, rect, size)
        finally:
            canvas.clear()  # the PDF painter has recorded everything: free the scene now
            canvas.close()

    return draw


def _render_as_vectors(scene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    """Render in pyqtgraph's export mode: scatter symbols as paths, not cached pixmaps
    (what pyqtgraph's own exporters do, ``Exporter.setExportMode``)."""
    opts = {"antialias": True, "background": "w", "painter": painter, "resolutionScale": 1.0}
    items = [i for i in scene.items() if hasattr(i, "setExportMode")]
    # Items the window paints from a pixmap cache (axes, legend labels: ``plots``) are drawn here
    # as themselves: a cached item would go into the PDF as a picture of its text.
    cached = [(i, i.cacheMode()) for i in scene.items() if i.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    for item in items:
        item.setExportMode(True, opts)
    for item, _mode in cached:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        scene.render(painter, target, source)
    finally:
        for item in items:
            item.setExportMode(False, opts)
        for item, mode in cached:
            item.setCacheMode(mode)
