"""The look every plot shares, on screen and on paper: colours, fonts, tick candidates, the plot frame.

Styling lives here once, so the window and the PDF draw the same charts (``advisor.report.charts`` renders
these items into the PDF).
"""

from __future__ import annotations

import pyqtgraph as pg
from pyqtgraph.Qt import QtGui

from advisor.core.terms import MEMORY_TERMS
from advisor.core.units import GB, GIB

MAX_BUILDS = 6
#: Okabe & Ito (2008) colour-blind-safe palette: one colour per build, in order.
BUILD_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
TECHNIQUE_COLORS = ("#332288", "#117733", "#AA4499", "#882255", "#44AA99", "#999933")
TERM_COLORS = dict(zip(MEMORY_TERMS, ("#4477AA", "#225599", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377",
                                      "#BBBBBB", "#DDDDDD", "#777777"), strict=True))
INTERCONNECT_COLOR = "#BBBBBB"
FONT_PT = 9
PARAM_TICKS = (0.5e9, 1e9, 3e9, 8e9, 14e9, 32e9, 70e9, 180e9, 405e9, 1e12)
MEMORY_TICKS = (0.5, 1, 2, 4, 8, 16, 24, 32, 48, 80, 141, 192, 256, 512, 1024, 2048, 4096)
#: Beyond the usual card sizes (training reaches PB per GPU): powers of 4.
WIDE_MEMORY_TICKS = tuple(4.0 ** k for k in range(-1, 16))
LEGEND_NAME_CHARS = 22
MIN_NAME_CHARS = 10  # the shortest cut of a build name in the fit legend when the plot is narrow


def set_theme(dark: bool) -> None:
    """Plot colours for the screen's palette (the PDF uses the light one). Call before building items."""
    pg.setConfigOptions(antialias=False, background="#1E1E1E" if dark else "w", foreground="#DDDDDD" if dark else "#222222")


def unit_bytes(unit: str) -> float:
    return GIB if unit == "GiB" else GB


def tick_font() -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(FONT_PT)
    return font


def set_text(item: pg.PlotItem, where: str, text: str) -> None:
    """Set a title ('title') or axis label only when it changes: each set re-lays out HTML."""
    cache = item.__dict__.setdefault("_advisor_texts", {})
    if cache.get(where) == text:
        return
    cache[where] = text
    if where == "title":
        item.setTitle(text)
    else:
        item.setLabel(where, text)


def hover_points(item: pg.PlotItem) -> pg.ScatterPlotItem:
    """Invisible points whose tooltip shows the numbers (pyqtgraph's hoverable scatter)."""
    pts = pg.ScatterPlotItem(size=14, pen=pg.mkPen(None), brush=pg.mkBrush(None), hoverable=True,
                             tip=lambda x, y, data: data)
    item.addItem(pts)
    return pts


def set_line(line: pg.PlotDataItem, x: list[float], y: list[float]) -> None:
    """``setData`` only when the points change (a build's usable memory stays put when the job changes)."""
    if line.__dict__.get("_advisor_xy") != (x, y):
        line.__dict__["_advisor_xy"] = (x, y)
        line.setData(x, y)


def cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"

