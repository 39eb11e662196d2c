"""Axes that keep their labels apart: a log axis thinned to the room it has, and build names under bars."""

from __future__ import annotations

import math

import pyqtgraph as pg
from pyqtgraph.Qt import QtCore, QtGui, QtWidgets

from advisor.plots.style import tick_font


class ThinLogAxis(pg.AxisItem):
    """A log axis with fixed "nice" candidates, thinned so that no two labels touch.

    pyqtgraph draws every tick it is given, so 141/192/256 ran into each other on a short
    plot: ticks are picked bottom-up, each one a label's extent (plus a gap)
    past the last, at the axis's current length in pixels.
    """

    def __init__(self, orientation: str, candidates, fmt) -> None:
        super().__init__(orientation)
        self.candidates = tuple(candidates)
        self.fmt = fmt
        self.setStyle(tickFont=tick_font())

    def _extent(self, value: float) -> float:
        metrics = QtGui.QFontMetricsF(self.style["tickFont"])
        if self.orientation in ("left", "right"):
            return metrics.height() + 2
        return metrics.horizontalAdvance(self.fmt(value)) + 10

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802 (pyqtgraph API)
        span = maxVal - minVal
        if span <= 0 or size <= 0:
            return [(1.0, [])]
        px = size / span  # pixels per decade
        picked: list[float] = []
        last_value = None
        for v in self.candidates:
            lv = math.log10(v)
            if not minVal <= lv <= maxVal:
                continue
            if picked and (lv - picked[-1]) * px < (self._extent(v) + self._extent(last_value)) / 2:
                continue
            picked.append(lv)
            last_value = v
        return [(1.0, picked)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph API)
        return [self.fmt(10 ** v) for v in values]


class BarAxis(pg.AxisItem):
    """Build names under bars, wrapped to their slot's width (up to 3 lines, then cut with …).

    With six builds fixed two-line labels ran into each other; here the width a
    label may take is the axis length divided by the number of slots, known at each resize.
    """

    MAX_LINES = 2  # plus up to two lines for why a slot has no bar (cut at one, it read "(not estimat…)")
    names: tuple[str, ...] = ()  # class default: AxisItem.__init__ already resizes the axis

    def __init__(self) -> None:
        super().__init__("bottom")
        self.setStyle(tickFont=tick_font())

    notes: tuple[str, ...] = ()

    def set_names(self, names: list[str], notes: dict[int, str] | None = None) -> None:
        """Build names, and for a slot without a bar the reason in brackets on a line of its own."""
        notes_t = tuple((notes or {}).get(i, "") for i in range(len(names)))
        if tuple(names) != self.names or notes_t != self.notes:
            self.names, self.notes = tuple(names), notes_t
            self._relabel()

    def follow(self, view: pg.ViewBox) -> None:
        """Re-wrap when the plot's width changes (a Python resizeEvent here would run inside
        AxisItem.__init__ and crash PySide)."""
        view.sigResized.connect(lambda _v: self._relabel())

    def slot_width(self) -> float:
        view = self.linkedView()
        width = view.width() if view is not None and view.width() > 0 else 140.0 * max(len(self.names), 1)
        return width / max(len(self.names), 1)

    def _relabel(self) -> None:
        metrics = QtGui.QFontMetricsF(self.style["tickFont"])
        room = max(self.slot_width() - 8, 24.0)
        labels = [wrap_to_width(n, room, metrics, self.MAX_LINES) for n in self.names]
        labels = [t + (f"\n({wrap_to_width(note, room - 8, metrics, 2)})" if note else "")  # whole: two lines
                  for t, note in zip(labels, self.notes or ("",) * len(labels))]
        if getattr(self, "_labels", None) == labels:
            return
        self._labels = labels
        self.setTicks([list(enumerate(labels))])
        lines = max((t.count("\n") + 1 for t in labels), default=1)
        self.setHeight(int(metrics.lineSpacing() * lines + 14))


def wrap_to_width(text: str, width: float, metrics: QtGui.QFontMetricsF, max_lines: int) -> str:
    """``text`` in lines no wider than ``width`` pixels (words kept whole where they fit)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if metrics.horizontalAdvance(trial) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1:])]
    elide = QtCore.Qt.TextElideMode.ElideRight
    return "\n".join(metrics.elidedText(line, elide, width) for line in lines)


def plot_item(title: str, left: str, bottom: str = "", axes: dict | None = None) -> pg.PlotItem:
    item = pg.PlotItem(title=title, axisItems=axes or {"bottom": BarAxis()})
    if isinstance(item.getAxis("bottom"), BarAxis):
        item.getAxis("bottom").follow(item.vb)
    item.setLabel("left", left)
    if bottom:
        item.setLabel("bottom", bottom)
    item.showGrid(x=True, y=True, alpha=0.25)
    item.getAxis("left").setWidth(62)  # equal widths keep stacked plots' x axes aligned
    item.setMenuEnabled(False)
    item.hideButtons()
    for side in ("left", "bottom"):
        item.getAxis(side).setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
    return item


def bar_ticks(item: pg.PlotItem, names: list[str], notes: dict[int, str] | None = None) -> None:
    item.getAxis("bottom").set_names(names, notes)
    item.setXRange(-0.5, max(len(names), 1) - 0.5, padding=0)

