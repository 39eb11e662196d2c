"""What the bar charts share: whether a build has a bar, why not in words, and a bar split in two parts."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from advisor.plots.style import (
    FONT_PT,
    INTERCONNECT_COLOR,
    hover_points,
    set_text,
    unit_bytes,
)


def runs(r) -> bool:
    """The build can run the job as set: it fits (or has no capacity to check) and nothing contradicts."""
    e = r.estimate
    return e is not None and not r.problems and (e.fit is None or e.fit.fits)


def _cannot(r) -> str:
    """'cannot run' where the software does not run the job on the build, 'cannot run as set' where the settings
    contradict each other or the build."""
    return "cannot run" if r.chosen is not None and r.chosen.unsupported else "cannot run as set"


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
    """The words under an empty bar slot: an empty slot without them said nothing."""
    if r.estimate is None:
        return "no estimate"
    if r.problems:
        return _cannot(r)
    if r.estimate.fit is not None and not r.estimate.fit.fits:
        return "does not fit"
    return ""


class BarPair:
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
        self.hover = hover_points(item)

    def set_title(self, title: str) -> None:
        self.title = title

    def _show_title(self, any_lost: bool) -> None:
        swatch = (f"  <span style='color:{INTERCONNECT_COLOR}'>■</span> "
                  f"<span style='font-size:{FONT_PT}pt'>{self.lost_label}</span>") if self.lost_label and any_lost else ""
        set_text(self.item, "title", self.title + swatch)

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

