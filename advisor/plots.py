"""Plot items built from the app's results: the one home of plot styling (screen and PDF).

No QWidget here: each ``*Plot`` owns pyqtgraph ``PlotItem``s (``.items``) that a screen
puts in a ``GraphicsLayoutWidget`` and the PDF renders with ``scene().render``. Items are
built once; ``update(results, unit)`` only calls ``setData``/``setOpts`` (pyqtgraph
examples/Plotting.py), so a change repaints without rebuilding anything.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from pyqtgraph.Qt import QtCore, QtGui, QtWidgets

from advisor.core.memory.results import MEMORY_TERMS, term_label
from advisor.core.units import GB, GIB
from advisor.core.units import format_params as fmt_params

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
MIN_NAME_CHARS = 10  # shortest cut of a build name in the fit legend when the plot is narrow  # longer build names are cut in the fit legend (the table shows them whole)


def set_theme(dark: bool) -> None:
    """Plot colours for the screen's palette (the PDF uses the light one). Call before building items."""
    pg.setConfigOptions(antialias=False, background="#1E1E1E" if dark else "w", foreground="#DDDDDD" if dark else "#222222")


def _log_ticks(values, fmt) -> list[tuple[float, str]]:
    return [(math.log10(v), fmt(v)) for v in values]


def unit_bytes(unit: str) -> float:
    return GIB if unit == "GiB" else GB


def _tick_font() -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(FONT_PT)
    return font


class ThinLogAxis(pg.AxisItem):
    """A log axis with fixed "nice" candidates, thinned so that no two labels touch.

    pyqtgraph draws every tick it is given, so 141/192/256 ran into each other on a short
    plot (issue 17): ticks are picked bottom-up, each one a label's extent (plus a gap)
    past the last, at the axis's current length in pixels.
    """

    def __init__(self, orientation: str, candidates, fmt) -> None:
        super().__init__(orientation)
        self.candidates = tuple(candidates)
        self.fmt = fmt
        self.setStyle(tickFont=_tick_font())

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

    With six builds fixed two-line labels ran into each other (issue 17); here the width a
    label may take is the axis length divided by the number of slots, known at each resize.
    """

    MAX_LINES = 2  # plus up to two lines for why a slot has no bar (cut at one, it read "(not estimat…)")
    names: tuple[str, ...] = ()  # class default: AxisItem.__init__ already resizes the axis

    def __init__(self) -> None:
        super().__init__("bottom")
        self.setStyle(tickFont=_tick_font())

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


def _plot_item(title: str, left: str, bottom: str = "", axes: dict | None = None) -> pg.PlotItem:
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


def _set_text(item: pg.PlotItem, where: str, text: str) -> None:
    """Set a title ('title') or axis label only when it changes: each set re-lays out HTML."""
    cache = item.__dict__.setdefault("_advisor_texts", {})
    if cache.get(where) == text:
        return
    cache[where] = text
    if where == "title":
        item.setTitle(text)
    else:
        item.setLabel(where, text)


def _hover_points(item: pg.PlotItem) -> pg.ScatterPlotItem:
    """Invisible points whose tooltip shows the numbers (pyqtgraph's hoverable scatter)."""
    pts = pg.ScatterPlotItem(size=14, pen=pg.mkPen(None), brush=pg.mkBrush(None), hoverable=True,
                             tip=lambda x, y, data: data)
    item.addItem(pts)
    return pts


def _bar_ticks(item: pg.PlotItem, names: list[str], notes: dict[int, str] | None = None) -> None:
    item.getAxis("bottom").set_names(names, notes)
    item.setXRange(-0.5, max(len(names), 1) - 0.5, padding=0)


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
    """A legend in its own column right of the plot, so it never covers data (issue 17).

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
        self._entries: list[tuple[object, str]] = []
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
        # "usable", then cut: 9 label layouts a change with six builds, issue 20).
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
            texts.append((_cut(name, self._name_chars) if suffix else name) + suffix)  # techniques stay whole
        # Each plot item keeps its row (sample and label) for the plot's life: a workload change
        # sets new texts on the labels there, and a build whose line comes and goes (it fits, then
        # not) gets its row back instead of a new one (building a label lays out HTML, and the
        # legend's clear-and-refill was most of a redraw's time, issue 20).
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


class FitPlot:
    """Model size (log, 0.5 B–1 T) vs the memory a whole copy needs: one curve per technique the
    engine runs, and per build a line where the job's own technique tops out on it.

    Each build's line is drawn at the current technique's curve at the largest model the build's own
    plan search runs (``advisor.core.advice.largest``): where the line meets that curve is the
    build's largest model, and the chosen model's star, drawn on the same curve at its own size,
    is under a build's line exactly when that build's verdict says it runs the job. On the other
    techniques' curves a dot in the build's colour marks its largest model with that technique.

    Every label sits in the side legend: technique curves, the chosen model's star and each
    build's largest model (a dashed line in its colour). Nothing is written on the data, so
    labels cannot overlap the curves, each other or the plot's edge (issue 17).
    """

    def __init__(self) -> None:
        axes = {"left": ThinLogAxis("left", (*MEMORY_TICKS, *WIDE_MEMORY_TICKS[7:]), lambda v: f"{v:g}"),
                "bottom": ThinLogAxis("bottom", PARAM_TICKS, fmt_params)}
        self.item = _plot_item("How big a model fits", "memory of the whole model", "model parameters", axes=axes)
        self.item.setLogMode(x=True, y=True)
        for side in ("left", "bottom"):
            self.item.getAxis(side).enableAutoSIPrefix(False)
        self.side = SideLegend(self.item)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.lines = []
        for i in range(MAX_BUILDS):
            pen = pg.mkPen(BUILD_COLORS[i], width=2, style=QtCore.Qt.PenStyle.DashLine)
            line = pg.PlotDataItem([], [], pen=pen)  # a data item (not InfiniteLine): the legend can draw it
            self.item.addItem(line)
            self.lines.append(line)
        # Each build's largest model on the other techniques' curves (hover: the size).
        self.tops = pg.ScatterPlotItem(size=8, symbol="o", pen=pg.mkPen("w", width=0.5), hoverable=True,
                                       tip=lambda x, y, data: data)
        self.item.addItem(self.tops)
        self.marker = pg.ScatterPlotItem(size=16, symbol="star", brush=pg.mkBrush("#D00000"), pen=pg.mkPen("w"),
                                         hoverable=True, tip=lambda x, y, data: data)
        self.item.addItem(self.marker)
        self.hover = _hover_points(self.item)
        self.items = [self.item]
        self.line_y: dict[int, float] = {}  # build index → its line's height (bytes), for tests and the PDF
        self.star_y: float | None = None  # the star's height (bytes)

    @property
    def legend(self) -> pg.LegendItem:
        return self.side.legend

    def technique_labels(self) -> list[str]:
        return [t for t in self.side.labels() if t in self.curves]

    def _curve(self, label: str) -> pg.PlotDataItem:
        if label not in self.curves:  # a new technique set (mode switch) adds items once
            color = TECHNIQUE_COLORS[len(self.curves) % len(TECHNIQUE_COLORS)]
            self.curves[label] = self.item.plot([], [], pen=pg.mkPen(color, width=2))
        return self.curves[label]

    def update(self, results, unit: str, model_name: str = "") -> None:
        from advisor.core.advice.evaluate import CURVE_PARAMS  # the estimator loads after the first paint

        ub = unit_bytes(unit)
        hx, hy, tips = [], [], []
        entries: list[tuple[object, str]] = []
        for label, curve in self.curves.items():
            if label not in results.curves:
                curve.setData([], [])
        for label, y in results.curves.items():
            ok = np.isfinite(y)
            c = self._curve(label)
            c.setData(CURVE_PARAMS[ok], y[ok] / ub)
            width = 4 if label == results.current_technique else 1.5
            if c.opts["pen"].widthF() != width:  # a new pen re-renders the curve: only when it changes
                c.setPen(pg.mkPen(c.opts["pen"].color(), width=width))
            entries.append((c, (label, "")))  # the legend lists only the current mode's techniques
            pos = ok & (y > 0)
            hx.append(np.log10(CURVE_PARAMS[pos]))
            hy.append(np.log10(y[pos] / ub))
            tips += [f"{label}: {fmt_params(x)} → {v / ub:.1f} {unit}" for x, v in zip(CURVE_PARAMS[pos], y[pos])]
        current = results.curves.get(results.current_technique)
        self.star_y = None
        if results.chosen_params and results.chosen_need_bytes is not None:
            name = model_name or "chosen model"
            # On the current technique's curve at the model's own size: the lines are on that curve too.
            on_curve = curve_at(current, results.chosen_params)
            self.star_y = on_curve if on_curve is not None else results.chosen_need_bytes
            need = results.chosen_need_bytes / ub
            self.marker.setData([math.log10(results.chosen_params)], [math.log10(max(self.star_y / ub, 1e-3))],
                                data=[f"{name}: {fmt_params(results.chosen_params)}, needs {need:.1f} {unit} without a "
                                      f"build (drawn on the {results.current_technique} curve at its size)"])
            entries.append((self.marker, (name, f" ({fmt_params(results.chosen_params)})")))
        else:
            self.marker.setData([], [])
        entries += self._build_lines(results, current, ub, unit)
        self.side.set_entries(entries)
        if hx:
            self.hover.setData(x=np.concatenate(hx), y=np.concatenate(hy), data=tips)
        else:
            self.hover.setData([], [])
        top = max((float(np.nanmax(y)) for y in results.curves.values() if np.isfinite(y).any()), default=GIB * 100)
        # The top of the axis at the next power of two: it stays put while a batch or a context is
        # typed (a new range re-lays out every item: a third of the redraw, issue 20).
        ranges = (math.log10(0.5), math.ceil(math.log2(max(top / ub, 32))) * math.log10(2))
        if self.__dict__.get("_ranges") != ranges:
            self._ranges = ranges
            self.item.setXRange(math.log10(0.5e9), 12, padding=0.02)
            self.item.setYRange(*ranges, padding=0.02)
        _set_text(self.item, "left", f"{unit}, whole model (log)")

    def _build_lines(self, results, current, ub: float, unit: str) -> list[tuple[object, tuple[str, str]]]:
        """Each build's line at its largest model on the current curve, held to its verdict at the star
        (``largest.anchored`` holds the size; the height follows it), and its dots on the other curves."""
        entries = []
        self.line_y = {}
        spots = []
        for i, line in enumerate(self.lines):
            r = results.builds[i] if i < len(results.builds) else None
            size = r.largest_fit.get(results.current_technique) if r is not None else None
            # A build the workload cannot run on (see its messages), or whose search is not in, gets no line.
            y = curve_at(current, size) if size is not None and not r.problems and results.fits_found else None
            if y is None:
                _set_line(line, [], [])
                continue
            if self.star_y is not None:
                y = max(y, self.star_y) if r.runs else min(y, self.star_y * (1 - 1e-3))
            self.line_y[i] = y
            _set_line(line, [0.5e9, 1e12], [y / ub, y / ub])
            entries.append((line, (r.name, f": up to {fmt_largest(size)}")))
            for label, curve in results.curves.items():
                other = r.largest_fit.get(label)
                at = curve_at(curve, other) if label != results.current_technique and other is not None else None
                if at is not None:
                    spots.append({"pos": (math.log10(other), math.log10(at / ub)), "brush": pg.mkBrush(BUILD_COLORS[i]),
                                  "data": f"{r.name}: up to {fmt_largest(other)} with {label}"})
        self.tops.setData(spots)
        return entries


def curve_at(curve, n_params: float | None) -> float | None:
    """A fit curve's bytes at ``n_params`` (log-log interpolation between its sizes); None off the curve."""
    from advisor.core.advice.evaluate import CURVE_PARAMS

    if curve is None or n_params is None:
        return None
    ok = np.isfinite(curve) & (curve > 0)
    if ok.sum() < 2 or not CURVE_PARAMS[ok][0] <= n_params <= CURVE_PARAMS[ok][-1] * (1 + 1e-9):
        return None
    return float(np.exp(np.interp(math.log(n_params), np.log(CURVE_PARAMS[ok]), np.log(curve[ok]))))


def fmt_largest(n_params: float | None) -> str:
    """A build's largest model: '20.5 B'; '1 T or more' at the top of the range; '—' when none."""
    from advisor.core.advice.largest import SIZE_HI

    if n_params is not None and n_params >= SIZE_HI:
        return "1 T or more"
    return fmt_params(n_params)


def _set_line(line: pg.PlotDataItem, x: list[float], y: list[float]) -> None:
    """``setData`` only when the points change (a build's usable memory stays put when the job changes)."""
    if line.__dict__.get("_advisor_xy") != (x, y):
        line.__dict__["_advisor_xy"] = (x, y)
        line.setData(x, y)


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class MemoryPlot:
    """Stacked bars per build: the memory terms of its busiest GPU against that GPU's usable memory.

    The legend is a column right of the bars (``SideLegend``: no bar can cover it, issue 41: a
    Mac's tall bar hid it at 1024×700) and lists the terms some build has: an inference job shows
    no gradients, optimizer states or adapters."""

    def __init__(self) -> None:
        self.item = _plot_item("Memory per GPU", "memory")
        self.side = SideLegend(self.item)
        self.bars = {t: pg.BarGraphItem(x=[], height=[], width=0.6, brush=TERM_COLORS[t], pen=pg.mkPen(None))
                     for t in MEMORY_TERMS}
        for bar in self.bars.values():
            self.item.addItem(bar)
        self.capacity = pg.BarGraphItem(x=[], height=[], width=0.75, brush=pg.mkBrush(None), pen=pg.mkPen("#D00000", width=2))
        self.item.addItem(self.capacity)
        self.hover = _hover_points(self.item)
        self.items = [self.item]

    @property
    def legend(self) -> pg.LegendItem:
        return self.side.legend

    def update(self, results, unit: str) -> None:
        ub = unit_bytes(unit)
        ests = [(i, r) for i, r in enumerate(results.builds) if r.estimate is not None]
        x = np.array([i for i, _ in ests], dtype=float)
        bottom = np.zeros(len(ests))
        entries = []
        for term, bar in self.bars.items():
            h = np.array([getattr(r.estimate.memory, term) / ub for _, r in ests])
            bar.setOpts(x=x, y0=bottom.copy(), height=h)
            bottom += h
            if h.any():
                entries.append((bar, (term_label(term), "")))
        # A build the workload cannot run on (more GPUs than it has …) gets no capacity box.
        cap = [r.estimate.fit.usable_per_gpu_bytes / ub if r.estimate.fit and not r.problems else 0.0 for _, r in ests]
        self.capacity.setOpts(x=x, y0=np.zeros(len(ests)), height=np.array(cap))
        entries.append((self.capacity, ("usable per GPU", "")))
        self.side.set_entries(entries)
        top = max([*bottom, *cap, 1.0])
        self.item.setYRange(0, top * 1.05, padding=0)
        spots = []
        for (i, r), total, c in zip(ests, bottom, cap):
            parts = ", ".join(f"{term_label(t)} {getattr(r.estimate.memory, t) / ub:.2f}" for t in MEMORY_TERMS
                              if getattr(r.estimate.memory, t) > 0)
            spots.append({"pos": (i, total), "data": f"{r.name}: {total:.1f} of {c:.1f} {unit} usable\n{parts}"})
        self.hover.setData(spots)
        # A bar inside its box whose verdict is "does not fit" says why under its name: the host RAM (a Mac's
        # unified pool after the GPU's share), or vLLM's KV cache (issue 41: a training PDF's chart showed
        # the Mac and Spark well inside capacity beside their "does not fit").
        notes = {i: why_not_in_bar(r, unit) for i, r in ests if why_not_in_bar(r, unit)}
        _bar_ticks(self.item, [r.name for r in results.builds], notes)
        _set_text(self.item, "left", f"per GPU ({unit})")


def runs(r) -> bool:
    """The build can run the job as set: it fits (or has no capacity to check) and nothing contradicts."""
    e = r.estimate
    return e is not None and not r.problems and (e.fit is None or e.fit.fits)


def _cannot(r) -> str:
    """'cannot run' where the software does not run the job on the build, 'cannot run as set' where the settings
    contradict each other or the build."""
    return "cannot run" if r.planned is not None and r.planned.unsupported else "cannot run as set"


def why_not_in_bar(r, unit: str = "GiB") -> str:
    """Why a build whose GPU bar fits its box does not run the job, in a few words ("" when it runs, or
    when its bar already shows it does not)."""
    fit = r.estimate.fit if r.estimate is not None else None
    if fit is None or r.runs or fit.need_per_gpu_bytes > fit.usable_per_gpu_bytes:
        return ""
    if r.problems:
        return _cannot(r)
    if fit.host_short:
        ub = unit_bytes(unit)
        if fit.host_available_bytes is None:  # RAM not known is not RAM enough
            return f"host RAM not known: needs {fit.host_need_bytes / ub:,.0f} {unit}"
        return f"host RAM short: {fit.host_need_bytes / ub:,.0f} of {fit.host_available_bytes / ub:,.0f} {unit}"
    if "KV cache" in fit.reason:
        return "KV cache too small"
    return "does not fit"


def why_no_bar(r) -> str:
    """The words under an empty bar slot (issue 17: empty Value bars said nothing)."""
    if r.estimate is None:
        return "no estimate"
    if r.problems:
        return _cannot(r)
    if r.estimate.fit is not None and not r.estimate.fit.fits:
        return "does not fit"
    return ""


class _BarPair:
    """One bar per build split in two stacked parts (kept and lost), with hover numbers.

    A slot without a bar says why under the build's name ("does not fit", "no price").
    What the grey top means is said in the title, never in a legend on the bars.
    """

    def __init__(self, item: pg.PlotItem, color: str, lost_label: str) -> None:
        self.kept = pg.BarGraphItem(x=[], height=[], width=0.6, brush=color, pen=pg.mkPen(None))
        self.lost = pg.BarGraphItem(x=[], height=[], width=0.6, brush=pg.mkBrush(INTERCONNECT_COLOR), pen=pg.mkPen(color, width=1))
        item.addItem(self.kept)
        item.addItem(self.lost)
        self.item = item
        self.lost_label = lost_label
        self.title = ""
        self.notes: dict[int, str] = {}
        self.hover = _hover_points(item)

    def set_title(self, title: str) -> None:
        self.title = title

    def _show_title(self, any_lost: bool) -> None:
        swatch = (f"  <span style='color:{INTERCONNECT_COLOR}'>■</span> "
                  f"<span style='font-size:{FONT_PT}pt'>{self.lost_label}</span>") if self.lost_label and any_lost else ""
        _set_text(self.item, "title", self.title + swatch)

    def set(self, xs: list[int], values: list[float], lost: list[float], tips: list[str],
            notes: dict[int, str] | None = None) -> None:
        x = np.array(xs, dtype=float)
        v = np.array(values)
        self.kept.setOpts(x=x, y0=np.zeros(len(v)), height=v)
        self.lost.setOpts(x=x, y0=v, height=np.array(lost))
        self.hover.setData([{"pos": (a, b + c), "data": t} for a, b, c, t in zip(xs, values, lost, tips)])
        top = max([b + c for b, c in zip(values, lost)] or [1.0])
        self.item.setYRange(0, top * 1.15, padding=0)
        axis = self.item.getAxis("left")
        if axis.style["showValues"] != bool(values):  # no bar at all: no numbers on an empty scale
            axis.setStyle(showValues=bool(values))
        self._show_title(any(c > 0 for c in lost))
        self.notes = dict(notes or {})

    def note_texts(self) -> dict[int, str]:
        """Slot → why it has no bar (shown under the build's name)."""
        return dict(self.notes)


class SpeedPlot:
    """Per build: decode and prefill tok/s (inference) or training tok/s and time for N tokens.

    The grey top of a bar is what the interconnect costs: the rate without GPU-to-GPU time
    (rate / (1 − share)) minus the rate with it. A build that cannot run the job (does not
    fit, contradicts the settings) gets no bar and a word why (issue 17).
    """

    def __init__(self, train_tokens: float = 1e9) -> None:
        self.train_tokens = train_tokens
        self.top = _plot_item("Decode", "tokens/s")
        self.bottom = _plot_item("Prefill", "tokens/s")
        self.top_bars = _BarPair(self.top, BUILD_COLORS[0], "lost to GPU-to-GPU traffic")
        self.bottom_bars = _BarPair(self.bottom, BUILD_COLORS[2], "lost to GPU-to-GPU traffic")
        self.items = [self.top, self.bottom]

    def _series(self, results, attr: str, unit: str, scale=None):
        xs, vals, lost, tips, notes = [], [], [], [], {}
        for i, r in enumerate(results.builds):
            s = r.estimate.speed if r.estimate is not None else None
            v = getattr(s, attr, None) if s is not None else None
            if not runs(r) or v is None:
                notes[i] = why_no_bar(r) or "not estimated"
                continue
            share = s.interconnect_share
            ideal = v / (1 - share) if share < 1 else v
            shown, lost_v = (scale(v), 0.0) if scale else (v, ideal - v)
            xs.append(i)
            vals.append(shown)
            lost.append(lost_v)
            tips.append(f"{r.name}: {shown:,.1f} {unit}; interconnect {share:.0%} of the time"
                        + (f" (≈{ideal - v:,.0f} tok/s lost)" if not scale and share > 0 else ""))
        return xs, vals, lost, tips, notes

    def update(self, results, training: bool) -> None:
        names = [r.name for r in results.builds]
        if training:
            self.top_bars.set_title("Training throughput")
            _set_text(self.top, "left", "tokens/s")
            self.bottom_bars.set_title(f"Time for {self.train_tokens / 1e9:g} B training tokens")
            _set_text(self.bottom, "left", "hours")
            self.top_bars.set(*self._series(results, "train_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "train_tokens_per_s", "h",
                                               scale=lambda v: self.train_tokens / v / 3600))
        else:
            self.top_bars.set_title("Decode (all sequences)")
            _set_text(self.top, "left", "tokens/s")
            self.bottom_bars.set_title("Prefill")
            _set_text(self.bottom, "left", "tokens/s")
            self.top_bars.set(*self._series(results, "decode_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "prefill_tokens_per_s", "tok/s"))
        _bar_ticks(self.top, names, self.top_bars.notes)
        _bar_ticks(self.bottom, names, self.bottom_bars.notes)


class ValuePlot:
    """Price against capability: $ per GB of GPU memory and $ per token/s (bought builds), and what a
    million tokens cost to run under the running-cost settings (bought and rented builds, issue 18).

    Empty slots say why: "no price", "rented" (see rent vs buy below) or "does not fit".
    """

    def __init__(self) -> None:
        self.per_gb = _plot_item("Price per GB of GPU memory", "USD / GB")
        self.per_tps = _plot_item("Price per token/s", "USD / (tok/s)")
        self.per_million = _plot_item("Running cost per million tokens", "USD / M tok")
        self.per_million.getAxis("left").enableAutoSIPrefix(False)  # cents per million, not "(x0.001)"
        self.gb_bars = _BarPair(self.per_gb, BUILD_COLORS[4], "")
        self.tps_bars = _BarPair(self.per_tps, BUILD_COLORS[3], "")
        self.million_bars = _BarPair(self.per_million, BUILD_COLORS[2], "")
        self.gb_bars.set_title("Price per GB of GPU memory")
        self.tps_bars.set_title("Price per token/s")
        self.million_bars.set_title("Running cost per million tokens")
        self.items = [self.per_gb, self.per_tps, self.per_million]
        self.million_values: dict[int, float] = {}  # slot → USD per million tokens (what the bars show)

    def update(self, results, training: bool, cost=None, workload=None) -> None:
        gb_rows, tps_rows = ([], [], [], [], {}), ([], [], [], [], {})
        for i, r in enumerate(results.builds):
            price = r.price.usd if r.price is not None and r.usd_per_hour is None else None  # today's, as the table
            if price is None or r.resolved is None:
                note = "rented" if r.usd_per_hour is not None else ("no price" if r.resolved is not None else "no estimate")
                gb_rows[4][i] = tps_rows[4][i] = note
                continue
            gb = sum(g.memory_gb_marketing for g in r.resolved.gpus)
            for lst, val in zip(gb_rows, (i, price / gb, 0.0, f"{r.name}: ${price:,.0f} / {gb:g} GB = ${price / gb:,.0f}/GB")):
                lst.append(val)
            s = r.estimate.speed if r.estimate is not None else None
            rate = (s.train_tokens_per_s if training else s.decode_tokens_per_s) if s is not None else None
            if runs(r) and rate:
                for lst, val in zip(tps_rows, (i, price / rate, 0.0, f"{r.name}: ${price:,.0f} / {rate:,.1f} tok/s = ${price / rate:,.1f} per tok/s")):
                    lst.append(val)
            else:
                tps_rows[4][i] = why_no_bar(r) or "speed not estimated"
        self.gb_bars.set(*gb_rows)
        self.tps_bars.set(*tps_rows)
        self._update_million(results, training, cost, workload)
        names = [r.name for r in results.builds]
        _bar_ticks(self.per_gb, names, self.gb_bars.notes)
        _bar_ticks(self.per_tps, names, self.tps_bars.notes)
        _bar_ticks(self.per_million, names, self.million_bars.notes)

    def _update_million(self, results, training: bool, cost, workload) -> None:
        """USD per million generated (or trained) tokens: owned, energy plus the price spread over the
        hours of use while owned; rented, the hourly rate (``advisor.core.cost.running``)."""
        import datetime as dt

        from advisor.core.advice.running import build_running_cost
        from advisor.core.cost.running import CostSettings
        from advisor.core.job.workload import Mode, Workload

        cost = cost or CostSettings()
        workload = workload or Workload(mode=Mode.TRAIN if training else Mode.INFERENCE)
        kind = "trained" if training else "generated"
        rows: tuple = ([], [], [], [], {})
        self.million_values = {}
        for i, r in enumerate(results.builds):
            rc = build_running_cost(r, workload, cost, dt.date.today())
            per_m = rc.usd_per_million_tokens
            if per_m is None:
                why = ("no price" if rc.price_usd is None else "power not stated" if rc.usd_per_hour is None
                       else why_no_bar(r) or "speed not estimated")
                rows[4][i] = why
                continue
            self.million_values[i] = per_m
            how = (f"${rc.usd_per_hour:,.2f}/h rented" if rc.rented else
                   f"${rc.usd_per_hour:,.3f}/h (energy + price over {cost.years:g} years of {cost.hours_per_day:g} h a day)")
            for lst, val in zip(rows, (i, per_m, 0.0, f"{r.name}: ${per_m:,.3f} per million {kind} tokens; {how}")):
                lst.append(val)
        self.million_bars.set_title(f"Running cost per million {kind} tokens")
        self.million_bars.set(*rows)


def break_even_hours(buy_usd: float | None, rent_usd_per_hour: float | None) -> float | None:
    """Hours of renting that cost as much as buying (power and resale left out; said in the UI)."""
    if not buy_usd or not rent_usd_per_hour:
        return None
    return buy_usd / rent_usd_per_hour
