"""The Memory chart: per build, its busiest GPU's memory by term, stacked against that GPU's usable memory."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from advisor.core.terms import MEMORY_TERMS, term_label
from advisor.plots.axes import bar_ticks, plot_item
from advisor.plots.bars import why_not_in_bar
from advisor.plots.legend import SideLegend
from advisor.plots.style import TERM_COLORS, hover_points, set_text, unit_bytes


class MemoryPlot:
    """Stacked bars per build: the memory terms of its busiest GPU against that GPU's usable memory.

    The legend is a column right of the bars (``SideLegend``: no bar can cover it; over the
    bars, a Mac's tall bar hid it at 1024×700) and lists the terms some build has: an inference job shows
    no gradients, optimizer states or adapters."""

    def __init__(self) -> None:
        self.item = plot_item("Memory per GPU", "memory")
        self.side = SideLegend(self.item)
        self.bars = {t: pg.BarGraphItem(x=[], height=[], width=0.6, brush=TERM_COLORS[t], pen=pg.mkPen(None))
                     for t in MEMORY_TERMS}
        for bar in self.bars.values():
            self.item.addItem(bar)
        self.capacity = pg.BarGraphItem(x=[], height=[], width=0.75, brush=pg.mkBrush(None), pen=pg.mkPen("#D00000", width=2))
        self.item.addItem(self.capacity)
        self.hover = hover_points(self.item)
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
        # unified pool after the GPU's share), or vLLM's KV cache (without it a training chart showed the
        # Mac and Spark well inside capacity beside their "does not fit").
        notes = {i: why_not_in_bar(r, unit) for i, r in ests if why_not_in_bar(r, unit)}
        bar_ticks(self.item, [r.name for r in results.builds], notes)
        set_text(self.item, "left", f"per GPU ({unit})")

