"""The Fit chart: how big a model fits each build, against each technique's memory curve."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from pyqtgraph.Qt import QtCore

from advisor.core.units import GIB
from advisor.core.units import format_params as fmt_params
from advisor.plots.axes import ThinLogAxis, plot_item
from advisor.plots.legend import SideLegend
from advisor.plots.style import (
    BUILD_COLORS,
    MAX_BUILDS,
    MEMORY_TICKS,
    PARAM_TICKS,
    TECHNIQUE_COLORS,
    WIDE_MEMORY_TICKS,
    hover_points,
    set_line,
    set_text,
    unit_bytes,
)


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
    labels cannot overlap the curves, each other or the plot's edge.
    """

    def __init__(self) -> None:
        axes = {"left": ThinLogAxis("left", (*MEMORY_TICKS, *WIDE_MEMORY_TICKS[7:]), lambda v: f"{v:g}"),
                "bottom": ThinLogAxis("bottom", PARAM_TICKS, fmt_params)}
        self.item = plot_item("How big a model fits", "memory of the whole model", "model parameters", axes=axes)
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
        self.hover = hover_points(self.item)
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
        params = results.curve_params  # the model sizes of the curves
        ub = unit_bytes(unit)
        hx, hy, tips = [], [], []
        entries: list[tuple[object, tuple[str, str]]] = []
        for label, curve in self.curves.items():
            if label not in results.curves:
                curve.setData([], [])
        for label, y in results.curves.items():
            ok = np.isfinite(y)
            c = self._curve(label)
            c.setData(params[ok], y[ok] / ub)
            width = 4 if label == results.current_technique else 1.5
            if c.opts["pen"].widthF() != width:  # a new pen re-renders the curve: only when it changes
                c.setPen(pg.mkPen(c.opts["pen"].color(), width=width))
            entries.append((c, (label, "")))  # the legend lists only the current mode's techniques
            pos = ok & (y > 0)
            hx.append(np.log10(params[pos]))
            hy.append(np.log10(y[pos] / ub))
            tips += [f"{label}: {fmt_params(x)} → {v / ub:.1f} {unit}" for x, v in zip(params[pos], y[pos])]
        current = results.curves.get(results.current_technique)
        self.star_y = None
        if results.chosen_params and results.chosen_need_bytes is not None:
            name = model_name or "chosen model"
            # On the current technique's curve at the model's own size: the lines are on that curve too.
            on_curve = curve_at(params, current, results.chosen_params)
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
        # typed (a new range re-lays out every item: a third of the redraw).
        ranges = (math.log10(0.5), math.ceil(math.log2(max(top / ub, 32))) * math.log10(2))
        if self.__dict__.get("_ranges") != ranges:
            self._ranges = ranges
            self.item.setXRange(math.log10(0.5e9), 12, padding=0.02)
            self.item.setYRange(*ranges, padding=0.02)
        set_text(self.item, "left", f"{unit}, whole model (log)")

    def _build_lines(self, results, current, ub: float, unit: str) -> list[tuple[object, tuple[str, str]]]:
        """Each build's line at its largest model on the current curve, held to its verdict at the star
        (``largest.anchored`` holds the size; the height follows it), and its dots on the other curves."""
        entries = []
        params, top = results.curve_params, results.largest_top_params
        self.line_y = {}
        spots = []
        for i, line in enumerate(self.lines):
            r = results.builds[i] if i < len(results.builds) else None
            size = r.largest_fit.get(results.current_technique) if r is not None else None
            # A build the workload cannot run on (see its messages), or whose search is not in, gets no line.
            y = curve_at(params, current, size) if size is not None and not r.problems and results.fits_found else None
            if y is None:
                set_line(line, [], [])
                continue
            if self.star_y is not None:
                y = max(y, self.star_y) if r.runs else min(y, self.star_y * (1 - 1e-3))
            self.line_y[i] = y
            set_line(line, [0.5e9, 1e12], [y / ub, y / ub])
            entries.append((line, (r.name, f": up to {fmt_largest(size, top)}")))
            for label, curve in results.curves.items():
                other = r.largest_fit.get(label)
                at = curve_at(params, curve, other) if label != results.current_technique and other is not None else None
                if at is not None:
                    spots.append({"pos": (math.log10(other), math.log10(at / ub)), "brush": pg.mkBrush(BUILD_COLORS[i]),
                                  "data": f"{r.name}: up to {fmt_largest(other, top)} with {label}"})
        self.tops.setData(spots)
        return entries


def curve_at(params: np.ndarray, curve: np.ndarray | None, n_params: float | None) -> float | None:
    """A fit curve's bytes at ``n_params`` (log-log interpolation between its sizes ``params``); None off
    the curve."""
    if curve is None or n_params is None:
        return None
    ok = np.isfinite(curve) & (curve > 0)
    if ok.sum() < 2 or not params[ok][0] <= n_params <= params[ok][-1] * (1 + 1e-9):
        return None
    return float(np.exp(np.interp(math.log(n_params), np.log(params[ok]), np.log(curve[ok]))))


def fmt_largest(n_params: float | None, top_params: float) -> str:
    """A build's largest model: '20.5 B'; '1 T or more' at ``top_params``, the top of the search's range
    (``Results.largest_top_params``); '—' when none."""
    if n_params is not None and n_params >= top_params:
        return f"{top_params / 1e12:g} T or more"
    return fmt_params(n_params)

