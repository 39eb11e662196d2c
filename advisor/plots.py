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

from advisor.core.advice.evaluate import CURVE_PARAMS
from advisor.core.memory.results import MEMORY_TERMS
from advisor.core.units import GB, GIB
from advisor.core.units import format_params as fmt_params

MAX_BUILDS = 6
#: Okabe & Ito (2008) colour-blind-safe palette: one colour per build, in order.
BUILD_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
TECHNIQUE_COLORS = ("#332288", "#117733", "#AA4499", "#882255", "#44AA99", "#999933")
TERM_COLORS = dict(zip(MEMORY_TERMS, ("#4477AA", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377", "#BBBBBB", "#777777")))
INTERCONNECT_COLOR = "#BBBBBB"
FONT_PT = 9
PARAM_TICKS = (0.5e9, 1e9, 3e9, 8e9, 14e9, 32e9, 70e9, 180e9, 405e9, 1e12)
MEMORY_TICKS = (0.5, 1, 2, 4, 8, 16, 24, 32, 48, 80, 141, 192, 256, 512, 1024, 2048, 4096)


def set_theme(dark: bool) -> None:
    """Plot colours for the screen's palette (the PDF uses the light one). Call before building items."""
    pg.setConfigOptions(antialias=False, background="#1E1E1E" if dark else "w", foreground="#DDDDDD" if dark else "#222222")


def _log_ticks(values, fmt) -> list[tuple[float, str]]:
    return [(math.log10(v), fmt(v)) for v in values]


def unit_bytes(unit: str) -> float:
    return GIB if unit == "GiB" else GB


def _plot_item(title: str, left: str, bottom: str = "") -> pg.PlotItem:
    item = pg.PlotItem(title=title)
    item.setLabel("left", left)
    if bottom:
        item.setLabel("bottom", bottom)
    item.showGrid(x=True, y=True, alpha=0.25)
    item.getAxis("left").setWidth(62)  # equal widths keep stacked plots' x axes aligned
    item.setMenuEnabled(False)
    item.hideButtons()
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


def two_lines(name: str, width: int = 16) -> str:
    """A build name broken at the space nearest its middle, so bar labels stay narrow."""
    if len(name) <= width or " " not in name:
        return name if len(name) <= 2 * width else name[: 2 * width - 1] + "…"
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    second = name[cut + 1:]
    return name[:cut] + "\n" + (second if len(second) <= width + 4 else second[: width + 3] + "…")


def _bar_ticks(item: pg.PlotItem, names: list[str]) -> None:
    labels = [two_lines(n) for n in names]
    axis = item.getAxis("bottom")
    if getattr(axis, "_advisor_labels", None) == labels:
        return
    axis._advisor_labels = labels
    axis.setTicks([list(enumerate(labels))])
    # pyqtgraph sizes the axis for one line of text: make room for the second.
    axis.setHeight(int(FONT_PT * 4.4) if any("\n" in t for t in labels) else None)
    item.setXRange(-0.6, max(len(names), 1) - 0.4, padding=0)


class FitPlot:
    """Model size (log, 0.5 B–1 T) vs per-GPU memory: one curve per technique, one line per build."""

    def __init__(self) -> None:
        self.item = _plot_item("How big a model fits", "memory per GPU", "model parameters")
        self.item.setLogMode(x=True, y=True)
        self.item.getAxis("bottom").setTicks([_log_ticks(PARAM_TICKS, fmt_params)])
        self.item.getAxis("left").enableAutoSIPrefix(False)
        self.item.getAxis("bottom").enableAutoSIPrefix(False)
        self.item.addLegend(offset=(8, 8), labelTextSize=f"{FONT_PT}pt")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.lines = []
        for i in range(MAX_BUILDS):
            # Builds often share a usable size (two 24 GB pairs): alternate labels above and below
            # the line, right-aligned at its end (where the curves have long left that height,
            # away from the chosen model's marker), then step left for the next pair.
            anchor = (1, 1) if i % 2 == 0 else (1, 0)
            line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen(BUILD_COLORS[i], width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
                                   label="", labelOpts={"position": 0.98 - 0.3 * (i // 2), "color": BUILD_COLORS[i],
                                                        "anchors": [anchor, anchor]})
            line.setVisible(False)
            self.item.addItem(line)
            self.lines.append(line)
        self.marker = pg.ScatterPlotItem(size=16, symbol="star", brush=pg.mkBrush("#D00000"), pen=pg.mkPen("w"),
                                         hoverable=True, tip=lambda x, y, data: data)
        self.item.addItem(self.marker)
        self.marker_label = pg.TextItem("", color="#D00000", anchor=(1.05, 1.05))  # upper left: the curves rise to the right
        self.item.addItem(self.marker_label)
        self.hover = _hover_points(self.item)
        self.items = [self.item]

    def _curve(self, label: str) -> pg.PlotDataItem:
        if label not in self.curves:  # a new technique set (mode switch) adds items once
            color = TECHNIQUE_COLORS[len(self.curves) % len(TECHNIQUE_COLORS)]
            self.curves[label] = self.item.plot([], [], pen=pg.mkPen(color, width=2), name=label)
        return self.curves[label]

    def update(self, results, unit: str, model_name: str = "") -> None:
        ub = unit_bytes(unit)
        hx, hy, tips = [], [], []
        legend = self.item.legend
        for label, curve in self.curves.items():
            shown = label in results.curves
            if not shown:
                curve.setData([], [])
            # The legend lists only the techniques of the current mode (inference or training).
            listed = any(sample.item is curve for sample, _ in legend.items)
            if listed and not shown:
                legend.removeItem(curve)
            elif shown and not listed:
                legend.addItem(curve, label)
        for label, y in results.curves.items():
            ok = np.isfinite(y)
            c = self._curve(label)
            c.setData(CURVE_PARAMS[ok], y[ok] / ub)
            c.setPen(pg.mkPen(c.opts["pen"].color(), width=4 if label == results.current_technique else 1.5))
            pos = ok & (y > 0)
            hx.append(np.log10(CURVE_PARAMS[pos]))
            hy.append(np.log10(y[pos] / ub))
            tips += [f"{label}: {fmt_params(x)} → {v / ub:.1f} {unit}/GPU" for x, v in zip(CURVE_PARAMS[pos], y[pos])]
        for i, line in enumerate(self.lines):
            r = results.builds[i] if i < len(results.builds) else None
            # A build the workload cannot run on (see its messages) gets no line.
            fit = r.estimate.fit if r is not None and r.estimate is not None and not r.problems else None
            line.setVisible(fit is not None)
            if fit is not None:
                line.setValue(math.log10(max(fit.usable_per_gpu_bytes / ub, 1e-3)))
                text = f"{r.name}: {fit.usable_per_gpu_bytes / ub:.1f} {unit} usable"
                if line.label.format != text:  # setFormat re-lays out HTML: only on change
                    line.label.setFormat(text)
        if results.chosen_params and results.chosen_need_bytes is not None:
            y = results.chosen_need_bytes / ub
            pos = (math.log10(results.chosen_params), math.log10(max(y, 1e-3)))
            self.marker.setData([pos[0]], [pos[1]],
                                data=[f"{model_name or 'chosen model'}: {fmt_params(results.chosen_params)} → {y:.1f} {unit}/GPU"])
            if self.marker_label.toPlainText() != model_name:
                self.marker_label.setText(model_name)
            self.marker_label.setPos(*pos)
        else:
            self.marker.setData([], [])
            self.marker_label.setText("")
        if hx:
            self.hover.setData(x=np.concatenate(hx), y=np.concatenate(hy), data=tips)
        else:
            self.hover.setData([], [])
        self.item.setXRange(math.log10(0.5e9), 12, padding=0.02)
        top = max((float(np.nanmax(y)) for y in results.curves.values() if np.isfinite(y).any()), default=GIB * 100)
        self.item.setYRange(math.log10(0.5), math.log10(max(top / ub, 32)), padding=0.02)
        # Many decades (training curves reach PB): powers of 4 only, so tick labels never collide.
        ticks = MEMORY_TICKS if top / ub < 2048 else tuple(4.0 ** k for k in range(-1, 12))
        if getattr(self, "_y_ticks", None) != ticks:
            self.item.getAxis("left").setTicks([_log_ticks(ticks, lambda v: f"{v:g}")])
            self._y_ticks = ticks
        _set_text(self.item, "left", f"memory per GPU ({unit}, log)")


class MemoryPlot:
    """Stacked bars per build: the memory terms of its busiest GPU against that GPU's usable memory."""

    def __init__(self) -> None:
        self.item = _plot_item("Memory per GPU", "memory")
        # The legend runs across the top in one or two rows; update() leaves head-room for it.
        self.item.addLegend(offset=(8, 4), labelTextSize=f"{FONT_PT}pt", colCount=5)
        self.bars = {t: pg.BarGraphItem(x=[], height=[], width=0.6, brush=TERM_COLORS[t], pen=pg.mkPen(None), name=t.replace("_", " "))
                     for t in MEMORY_TERMS}
        for bar in self.bars.values():
            self.item.addItem(bar)  # named items join the legend by themselves
        self.capacity = pg.BarGraphItem(x=[], height=[], width=0.75, brush=pg.mkBrush(None), pen=pg.mkPen("#D00000", width=2),
                                        name="usable per GPU")
        self.item.addItem(self.capacity)
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
        # A build the workload cannot run on (more GPUs than it has …) gets no capacity box.
        cap = [r.estimate.fit.usable_per_gpu_bytes / ub if r.estimate.fit and not r.problems else 0.0 for _, r in ests]
        self.capacity.setOpts(x=x, y0=np.zeros(len(ests)), height=np.array(cap))
        top = max([*bottom, *cap, 1.0])
        self.item.setYRange(0, top * 1.3, padding=0)
        spots = []
        for (i, r), total, c in zip(ests, bottom, cap):
            parts = ", ".join(f"{t.replace('_', ' ')} {getattr(r.estimate.memory, t) / ub:.2f}" for t in MEMORY_TERMS
                              if getattr(r.estimate.memory, t) > 0)
            spots.append({"pos": (i, total), "data": f"{r.name}: {total:.1f} of {c:.1f} {unit} usable\n{parts}"})
        self.hover.setData(spots)
        _bar_ticks(self.item, [r.name for r in results.builds])
        _set_text(self.item, "left", f"per GPU ({unit})")


class _BarPair:
    """One bar per build split in two stacked parts (kept and lost), with hover numbers."""

    def __init__(self, item: pg.PlotItem, color: str, lost_label: str) -> None:
        self.kept = pg.BarGraphItem(x=[], height=[], width=0.6, brush=color, pen=pg.mkPen(None))
        self.lost = pg.BarGraphItem(x=[], height=[], width=0.6, brush=pg.mkBrush(INTERCONNECT_COLOR), pen=pg.mkPen(color, width=1))
        item.addItem(self.kept)
        item.addItem(self.lost)
        self.item = item
        if lost_label:
            legend = item.addLegend(offset=(-8, 4), labelTextSize=f"{FONT_PT}pt")
            legend.addItem(self.lost, lost_label)
        self.lost_label = lost_label
        self.hover = _hover_points(item)

    def set(self, xs: list[int], values: list[float], lost: list[float], tips: list[str]) -> None:
        x = np.array(xs, dtype=float)
        v = np.array(values)
        self.kept.setOpts(x=x, y0=np.zeros(len(v)), height=v)
        self.lost.setOpts(x=x, y0=v, height=np.array(lost))
        self.hover.setData([{"pos": (a, b + c), "data": t} for a, b, c, t in zip(xs, values, lost, tips)])
        top = max([b + c for b, c in zip(values, lost)] or [1.0])
        self.item.setYRange(0, top * 1.4, padding=0)  # head-room for the legend


class SpeedPlot:
    """Per build: decode and prefill tok/s (inference) or training tok/s and time for N tokens.

    The grey top of a bar is what the interconnect costs: the rate without GPU-to-GPU time
    (rate / (1 − share)) minus the rate with it.
    """

    def __init__(self, train_tokens: float = 1e9) -> None:
        self.train_tokens = train_tokens
        self.top = _plot_item("Decode", "tokens/s")
        self.bottom = _plot_item("Prefill", "tokens/s")
        self.top_bars = _BarPair(self.top, BUILD_COLORS[0], "lost to GPU-to-GPU traffic")
        self.bottom_bars = _BarPair(self.bottom, BUILD_COLORS[2], "lost to GPU-to-GPU traffic")
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
            _set_text(self.top, "title", "Training throughput")
            _set_text(self.top, "left", "tokens/s")
            _set_text(self.bottom, "title", f"Time for {self.train_tokens / 1e9:g} B training tokens")
            _set_text(self.bottom, "left", "hours")
            self.top_bars.set(*self._series(results, "train_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "train_tokens_per_s", "h",
                                               scale=lambda v: self.train_tokens / v / 3600))
        else:
            _set_text(self.top, "title", "Decode (all sequences)")
            _set_text(self.top, "left", "tokens/s")
            _set_text(self.bottom, "title", "Prefill")
            _set_text(self.bottom, "left", "tokens/s")
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
