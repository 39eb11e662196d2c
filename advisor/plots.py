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

from advisor.core.results import MEMORY_TERMS
from advisor.core.units import GB, GIB

MAX_BUILDS = 6
#: Okabe & Ito (2008) colour-blind-safe palette: one colour per build, in order.
BUILD_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
TECHNIQUE_COLORS = ("#332288", "#117733", "#AA4499", "#882255", "#44AA99", "#999933")
TERM_COLORS = dict(zip(MEMORY_TERMS, ("#4477AA", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377", "#BBBBBB", "#777777")))
INTERCONNECT_COLOR = "#BBBBBB"
FONT_PT = 9


def unit_bytes(unit: str) -> float:
    return GIB if unit == "GiB" else GB


def fmt_params(n: float | None) -> str:
    if n is None or not math.isfinite(n):
        return "—"
    return f"{n / 1e12:.2f} T" if n >= 1e12 else f"{n / 1e9:.3g} B"


def _plot_item(title: str, left: str, bottom: str = "") -> pg.PlotItem:
    item = pg.PlotItem(title=title)
    item.setLabel("left", left)
    if bottom:
        item.setLabel("bottom", bottom)
    item.showGrid(x=True, y=True, alpha=0.25)
    item.setMenuEnabled(False)
    item.hideButtons()
    return item


def _hover_points(item: pg.PlotItem) -> pg.ScatterPlotItem:
    """Invisible points whose tooltip shows the numbers (pyqtgraph's hoverable scatter)."""
    pts = pg.ScatterPlotItem(size=14, pen=None, brush=pg.mkBrush(0, 0, 0, 1), hoverable=True,
                             tip=lambda x, y, data: data)
    item.addItem(pts)
    return pts


def _bar_ticks(item: pg.PlotItem, names: list[str]) -> None:
    short = [(i, n if len(n) <= 18 else n[:17] + "…") for i, n in enumerate(names)]
    item.getAxis("bottom").setTicks([short])
    item.setXRange(-0.6, max(len(names), 1) - 0.4, padding=0)


class FitPlot:
    """Model size (log, 0.5 B–1 T) vs per-GPU memory: one curve per technique, one line per build."""

    def __init__(self) -> None:
        self.item = _plot_item("How big a model fits", "memory per GPU", "model parameters (log)")
        self.item.setLogMode(x=True, y=False)
        self.item.addLegend(offset=(8, 8), labelTextSize=f"{FONT_PT}pt")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.lines = []
        for i in range(MAX_BUILDS):
            line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen(BUILD_COLORS[i], width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
                                   label="", labelOpts={"position": 0.03 + 0.16 * i, "color": BUILD_COLORS[i], "anchors": [(0, 1), (0, 1)]})
            line.setVisible(False)
            self.item.addItem(line)
            self.lines.append(line)
        self.marker = pg.ScatterPlotItem(size=12, symbol="star", brush=pg.mkBrush("#000000"), pen=pg.mkPen("w"),
                                         hoverable=True, tip=lambda x, y, data: data)
        self.item.addItem(self.marker)
        self.hover = _hover_points(self.item)
        self.items = [self.item]

    def _curve(self, label: str) -> pg.PlotDataItem:
        if label not in self.curves:  # a new technique set (mode switch) adds items once
            color = TECHNIQUE_COLORS[len(self.curves) % len(TECHNIQUE_COLORS)]
            self.curves[label] = self.item.plot([], [], pen=pg.mkPen(color, width=2), name=label)
        return self.curves[label]

    def update(self, results, unit: str) -> None:
        from advisor.ui.compute import CURVE_PARAMS

        ub = unit_bytes(unit)
        spots = []
        for label, curve in self.curves.items():
            if label not in results.curves:
                curve.setData([], [])
        for label, y in results.curves.items():
            ok = np.isfinite(y)
            c = self._curve(label)
            c.setData(CURVE_PARAMS[ok], y[ok] / ub)
            c.setPen(pg.mkPen(c.opts["pen"].color(), width=4 if label == results.current_technique else 1.5))
            spots += [{"pos": (math.log10(x), v / ub), "data": f"{label}: {fmt_params(x)} → {v / ub:.1f} {unit}/GPU"}
                      for x, v in zip(CURVE_PARAMS[ok], y[ok])]
        for i, line in enumerate(self.lines):
            r = results.builds[i] if i < len(results.builds) else None
            fit = r.estimate.fit if r is not None and r.estimate is not None else None
            line.setVisible(fit is not None)
            if fit is not None:
                line.setValue(fit.usable_per_gpu_bytes / ub)
                line.label.setFormat(f"{r.name}: {fit.usable_per_gpu_bytes / ub:.1f} {unit} usable")
        if results.chosen_params and results.chosen_need_bytes is not None:
            y = results.chosen_need_bytes / ub
            self.marker.setData([math.log10(results.chosen_params)], [y],
                                data=[f"chosen model: {fmt_params(results.chosen_params)} → {y:.1f} {unit}/GPU"])
        else:
            self.marker.setData([], [])
        self.hover.setData(spots)
        self.item.setXRange(math.log10(0.5e9), 12, padding=0.02)
        self.item.setLabel("left", f"memory per GPU ({unit})")


class MemoryPlot:
    """Stacked bars per build: the memory terms of its busiest GPU against that GPU's usable memory."""

    def __init__(self) -> None:
        self.item = _plot_item("Memory per GPU", "memory")
        self.item.addLegend(offset=(-8, 8), labelTextSize=f"{FONT_PT}pt", colCount=2)
        self.bars = {t: pg.BarGraphItem(x=[], height=[], width=0.6, brush=TERM_COLORS[t], pen=pg.mkPen(None), name=t.replace("_", " "))
                     for t in MEMORY_TERMS}
        for bar in self.bars.values():
            self.item.addItem(bar)
            self.item.legend.addItem(bar, bar.opts["name"])
        self.capacity = pg.BarGraphItem(x=[], height=[], width=0.75, brush=pg.mkBrush(None), pen=pg.mkPen("#D00000", width=2))
        self.item.addItem(self.capacity)
        self.item.legend.addItem(self.capacity, "usable")
        self.hover = _hover_points(self.item)
        self.items = [self.item]

    def update(self, results, unit: str) -> None:
        ub = unit_bytes(unit)
        ests = [(i, r) for i, r in enumerate(results.builds) if r.estimate is not None]
        x = np.array([i for i, _ in ests], dtype=float)
        bottom = np.zeros(len(ests))
        for term, bar in self.bars.items():
            h = np.array([getattr(r.estimate.memory, term) / ub for _, r in ests])
            bar.setOpts(x=x, y0=bottom.copy(), height=h)
            bottom += h
        cap = [r.estimate.fit.usable_per_gpu_bytes / ub if r.estimate.fit else 0.0 for _, r in ests]
        self.capacity.setOpts(x=x, y0=np.zeros(len(ests)), height=np.array(cap))
        spots = []
        for (i, r), total, c in zip(ests, bottom, cap):
            parts = ", ".join(f"{t.replace('_', ' ')} {getattr(r.estimate.memory, t) / ub:.2f}" for t in MEMORY_TERMS
                              if getattr(r.estimate.memory, t) > 0)
            spots.append({"pos": (i, total), "data": f"{r.name}: {total:.1f} of {c:.1f} {unit} usable\n{parts}"})
        self.hover.setData(spots)
        _bar_ticks(self.item, [r.name for r in results.builds])
        self.item.setLabel("left", f"per GPU ({unit})")


class _BarPair:
    """One bar per build split in two stacked parts (kept and lost), with hover numbers."""

    def __init__(self, item: pg.PlotItem, color: str, lost_label: str) -> None:
        self.kept = pg.BarGraphItem(x=[], height=[], width=0.6, brush=color, pen=pg.mkPen(None))
        self.lost = pg.BarGraphItem(x=[], height=[], width=0.6, brush=pg.mkBrush(INTERCONNECT_COLOR), pen=pg.mkPen(color, width=1))
        item.addItem(self.kept)
        item.addItem(self.lost)
        self.lost_label = lost_label
        self.hover = _hover_points(item)

    def set(self, xs: list[int], values: list[float], lost: list[float], tips: list[str]) -> None:
        x = np.array(xs, dtype=float)
        v = np.array(values)
        self.kept.setOpts(x=x, y0=np.zeros(len(v)), height=v)
        self.lost.setOpts(x=x, y0=v, height=np.array(lost))
        self.hover.setData([{"pos": (a, b + c), "data": t} for a, b, c, t in zip(xs, values, lost, tips)])


class SpeedPlot:
    """Per build: decode and prefill tok/s (inference) or training tok/s and time for N tokens.

    The grey top of a bar is what the interconnect costs: the rate without GPU-to-GPU time
    (rate / (1 − share)) minus the rate with it.
    """

    def __init__(self, train_tokens: float = 1e9) -> None:
        self.train_tokens = train_tokens
        self.top = _plot_item("Decode", "tokens/s")
        self.bottom = _plot_item("Prefill", "tokens/s")
        self.top_bars = _BarPair(self.top, BUILD_COLORS[0], "interconnect")
        self.bottom_bars = _BarPair(self.bottom, BUILD_COLORS[2], "interconnect")
        self.items = [self.top, self.bottom]

    def _series(self, results, attr: str, unit: str, scale=None):
        xs, vals, lost, tips = [], [], [], []
        for i, r in enumerate(results.builds):
            s = r.estimate.speed if r.estimate is not None else None
            v = getattr(s, attr, None) if s is not None else None
            if v is None:
                continue
            share = s.interconnect_share
            ideal = v / (1 - share) if share < 1 else v
            shown, lost_v = (scale(v), 0.0) if scale else (v, ideal - v)
            xs.append(i)
            vals.append(shown)
            lost.append(lost_v)
            tips.append(f"{r.name}: {shown:,.1f} {unit}; interconnect {share:.0%} of the time"
                        + (f" (≈{ideal - v:,.0f} tok/s lost)" if not scale and share > 0 else ""))
        return xs, vals, lost, tips

    def update(self, results, training: bool) -> None:
        names = [r.name for r in results.builds]
        if training:
            self.top.setTitle("Training throughput")
            self.top.setLabel("left", "tokens/s")
            self.bottom.setTitle(f"Time for {self.train_tokens / 1e9:g} B training tokens")
            self.bottom.setLabel("left", "hours")
            self.top_bars.set(*self._series(results, "train_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "train_tokens_per_s", "h",
                                               scale=lambda v: self.train_tokens / v / 3600))
        else:
            self.top.setTitle("Decode (all sequences)")
            self.top.setLabel("left", "tokens/s")
            self.bottom.setTitle("Prefill")
            self.bottom.setLabel("left", "tokens/s")
            self.top_bars.set(*self._series(results, "decode_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "prefill_tokens_per_s", "tok/s"))
        for item in self.items:
            _bar_ticks(item, names)


class ValuePlot:
    """Price against capability: $ per GB of GPU memory and $ per token/s (bought builds)."""

    def __init__(self) -> None:
        self.per_gb = _plot_item("Price per GB of GPU memory", "USD / GB")
        self.per_tps = _plot_item("Price per token/s", "USD / (tok/s)")
        self.gb_bars = _BarPair(self.per_gb, BUILD_COLORS[4], "")
        self.tps_bars = _BarPair(self.per_tps, BUILD_COLORS[3], "")
        self.items = [self.per_gb, self.per_tps]

    def update(self, results, training: bool) -> None:
        gb_rows, tps_rows = ([], [], [], []), ([], [], [], [])
        for i, r in enumerate(results.builds):
            price = r.price_new_usd or r.price_used_usd
            if price is None or r.resolved is None:
                continue
            gb = sum(g.memory_gb_marketing for g in r.resolved.gpus)
            for rows, v, tip in ((gb_rows, price / gb, f"{r.name}: ${price:,.0f} / {gb:g} GB = ${price / gb:,.0f}/GB"),):
                for lst, val in zip(rows, (i, v, 0.0, tip)):
                    lst.append(val)
            s = r.estimate.speed if r.estimate is not None else None
            rate = (s.train_tokens_per_s if training else s.decode_tokens_per_s) if s is not None else None
            if rate:
                for lst, val in zip(tps_rows, (i, price / rate, 0.0, f"{r.name}: ${price:,.0f} / {rate:,.1f} tok/s = ${price / rate:,.1f} per tok/s")):
                    lst.append(val)
        self.gb_bars.set(*gb_rows)
        self.tps_bars.set(*tps_rows)
        names = [r.name for r in results.builds]
        for item in self.items:
            _bar_ticks(item, names)


def break_even_hours(buy_usd: float | None, rent_usd_per_hour: float | None) -> float | None:
    """Hours of renting that cost as much as buying (power and resale left out; said in the UI)."""
    if not buy_usd or not rent_usd_per_hour:
        return None
    return buy_usd / rent_usd_per_hour
