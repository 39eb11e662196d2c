"""Legends in a column of their own beside a plot, so they never cover its data."""

from __future__ import annotations

import math

import pyqtgraph as pg
from pyqtgraph.Qt import QtCore, QtWidgets

from advisor.plots.style import FONT_PT, LEGEND_NAME_CHARS, MIN_NAME_CHARS, cut


class ColumnLegend(pg.LegendItem):
    """A legend filled column by column: the techniques stay together, the builds together."""

    def arrange(self, columns: int) -> None:
        self.columnCount = columns
        rows = max(math.ceil(len(self.items) / columns), 1)
        for i in range(self.layout.count() - 1, -1, -1):
            self.layout.removeAt(i)
        for k, (sample, label) in enumerate(self.items):
            row, col = k % rows, (k // rows) * 2
            self.layout.addItem(sample, row, col, alignment=QtCore.Qt.AlignmentFlag.AlignVCenter)
            self.layout.addItem(label, row, col + 1)
        self.rowCount = rows
        self.layout.activate()
        self.updateSize()

    def updateSize(self) -> None:  # noqa: N802 (pyqtgraph API)
        # pyqtgraph's own sum leaves out the spacing between columns: the labels then ran
        # past the plot's right edge. The layout's preferred size counts everything.
        hint = self.layout.effectiveSizeHint(QtCore.Qt.SizeHint.PreferredSize)
        self.setGeometry(0, 0, hint.width(), hint.height())


class SideLegend(pg.GraphicsWidget):
    """A legend in its own column right of the plot, so it never covers data.

    Its column count follows the height the plot gets: a short plot (1024×700 window)
    spreads the entries over two or three columns instead of running past the x axis.
    """

    MIN_DATA_PX = 320  # the axis and the data keep at least this much of the plot's width

    def __init__(self, plot: pg.PlotItem) -> None:
        super().__init__()
        self.plot = plot
        self._name_chars = LEGEND_NAME_CHARS
        self._terse = False
        self.legend = ColumnLegend(offset=None, labelTextSize=f"{FONT_PT}pt", verSpacing=0, horSpacing=8, frame=False)
        self.legend.layout.setContentsMargins(2, 2, 2, 2)
        self.legend.setParentItem(self)
        self.legend.setPos(6, 0)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Fixed, QtWidgets.QSizePolicy.Policy.Ignored)
        plot.layout.addItem(self, 2, 3)
        self._entries: list[tuple[object, tuple[str, str]]] = []
        self._rows: dict[int, tuple] = {}  # id(plot item) → (item, sample, label): its row, shown or not
        self._stale = False
        self._shrunk_at: float | None = None  # the room the legend had when its names were last cut
        self.view = plot.vb
        plot.vb.sigResized.connect(lambda _v: self._fit_columns())  # same row: the view's height is ours

    def set_entries(self, entries: list[tuple[object, tuple[str, str]]]) -> None:
        """(plot item, (name, suffix)) in order; rebuilt only when something changed.

        Names are cut (never the suffix) when the legend would take more than its share of
        the width: the table under the plot names every build in full.
        """
        if [(id(i), t) for i, t in entries] == [(id(i), t) for i, t in self._entries]:
            return
        # New figures under the same names keep the names' cut: starting again from whole names
        # set every build's label two or three times per workload change (whole, then without
        # "usable", then cut: 9 label layouts a change with six builds).
        # A suffix that got shorter by more than a digit or two (" on 2 GPUs" gone) may leave room
        # for whole names again: measured from the start then.
        same_names = [(id(i), t[0]) for i, t in entries] == [(id(i), t[0]) for i, t in self._entries]
        longest = max((len(t[1]) for _, t in entries), default=0)
        shorter = longest < max((len(t[1]) for _, t in self._entries), default=0) - 2
        self._entries = list(entries)
        if not same_names or shorter:
            self._name_chars = LEGEND_NAME_CHARS
            self._terse = False
            self._shrunk_at = None
        self._fill()

    def _fill(self) -> None:
        texts = []
        for _, (name, suffix) in self._entries:
            if self._terse:
                suffix = suffix.replace(" usable", "")  # ": 47.3 GiB on 2 GPUs" when narrow (the dashed lines are usable memory; hover and Details say so)
            texts.append((cut(name, self._name_chars) if suffix else name) + suffix)  # techniques stay whole
        # Each plot item keeps its row (sample and label) for the plot's life: a workload change
        # sets new texts on the labels there, and a build whose line comes and goes (it fits, then
        # not) gets its row back instead of a new one (building a label lays out HTML, and the
        # legend's clear-and-refill was most of a redraw's time).
        rows = [self._row(item) for item, _ in self._entries]
        for (_, label), text in zip(rows, texts):
            if label.text != text:
                label.setText(text)
                label.setMaximumHeight(label.preferredHeight())
        if [id(label) for _, label in rows] != [id(label) for _, label in self.legend.items]:
            shown = {id(label) for _, label in rows}
            for sample, label in self.legend.items:
                if id(label) not in shown:
                    for part in (sample, label):
                        self.legend.layout.removeItem(part)
                        part.hide()
            for sample, label in rows:
                sample.show()
                label.show()
            self.legend.items = rows
            self._stale = True  # the set of rows changed: laid out again (``arrange``)
        self._fit_columns()

    def _row(self, item) -> tuple:
        """The legend's (sample, label) of ``item``, made once (as ``LegendItem.addItem`` makes them)."""
        row = self._rows.get(id(item))
        if row is None or row[0] is not item:
            legend = self.legend
            label = pg.LabelItem(" ", color=legend.opts["labelTextColor"], justify="left",
                                 size=legend.opts["labelTextSize"])
            label.item.document().setDocumentMargin(1)  # compact rows: 13 entries on a short plot
            label.item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
            sample = legend.sampleType(item)
            sample.sigClicked.connect(legend.sigSampleClicked)
            for part in (sample, label):
                part.setParentItem(legend)
            row = self._rows[id(item)] = (item, sample, label)
        return row[1], row[2]

    def labels(self) -> list[str]:
        return [label.text for _, label in self.legend.items]

    def _fit_columns(self) -> None:
        n = len(self.legend.items)
        if n == 0:
            self._set_width(0)
            return
        height = self.view.height()
        row_h = max(max(s.boundingRect().height(), label.preferredHeight()) for s, label in self.legend.items)
        rows_fit = max(int((height - 4) // row_h), 1) if height > 0 else n
        columns = min(max(1, math.ceil(n / rows_fit)), n)
        if columns != self.legend.columnCount or self._stale:
            self.legend.arrange(columns)
            self._stale = False
        else:  # the same rows (new texts, or a resize): the grid measures its columns again, nothing re-added
            self.legend.layout.activate()
            self.legend.updateSize()
        outer = self.plot.parentWidget()
        room = outer.width() - self.MIN_DATA_PX if outer is not None and outer.width() > 0 else None
        if room is not None and self._shrunk_at is not None and room > self._shrunk_at + 40:
            # The plot grew (the window was enlarged or first shown at full size): names whole again.
            self._name_chars, self._terse, self._shrunk_at = LEGEND_NAME_CHARS, False, None
            self._fill()
            return
        if room is not None and self.legend.width() > room and (not self._terse or self._name_chars > MIN_NAME_CHARS):
            self._shrunk_at = room
            if self._terse:
                self._name_chars = max(MIN_NAME_CHARS, self._name_chars - 4)
            self._terse = True  # first drop the word "usable", then cut names
            self._fill()  # measure again
            return
        self._set_width(self.legend.width() + 8)

    def _set_width(self, w: float) -> None:
        if abs(self.minimumWidth() - w) > 0.5:
            self.setMinimumWidth(w)
            self.setMaximumWidth(w)

