"""The plot tabs: each puts the items of one ``advisor.plots`` builder in a widget.

A tab is built the first time it is shown (``PlotTabs``), so start-up pays only for the
visible one; after that every results change is a ``setData`` on existing items. The visible
tab redraws after the table has painted, and the Fit tab once the sweep is in.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QScrollArea,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor import plots
from advisor.core import Mode
from advisor.ui import format as fmt

#: The least height of each of a tab's stacked plots (px): a title, bars with three tick labels, and two
#: lines of build names under them.
STACKED_PLOT_MIN_PX = 165


class _PlotTab(QWidget):
    def __init__(self, builder, session, below: bool = False) -> None:
        super().__init__()
        self.needs_sweep = isinstance(builder, plots.FitPlot)  # curves and largest fits
        self.session = session
        self.builder = builder
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.canvas = pg.GraphicsLayoutWidget()
        for i, item in enumerate(builder.items):  # stacked: bar labels get the full width
            self.canvas.addItem(item, row=i, col=0)
        # Stacked plots keep a readable height each and scroll when the window is short: squeezed
        # into a 1024×700 window the Value tab's three charts lost their bars, and at 1280×800 their
        # y-axis labels ran into each other.
        self.canvas.setMinimumHeight(STACKED_PLOT_MIN_PX * len(builder.items) if len(builder.items) > 1 else 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.canvas)
        # The plot and the text under it share a splitter: the plot gets the room (its labels
        # need height with six builds) and the user can give the text more.
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.scroll_area)
        lay.addWidget(self.splitter, 1)
        # A text browser, not a QLabel: new text in a label re-lays out (and repaints) the
        # whole window on every change; a browser repaints only itself.
        self.label_below = QTextBrowser()
        self.label_below.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.label_below.setMinimumHeight(self.fontMetrics().lineSpacing() * 4 + 8)
        self.label_below.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.label_below.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.label_below.setVisible(below)
        self.splitter.addWidget(self.label_below)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 1)
        self._below_html = ""
        # The text under the plot follows in the next turn of the event loop: the plot is on
        # screen first (laying out the HTML is slow next to a redraw).
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(0)
        self._text_timer.timeout.connect(self._show_text)
        self._text: str | None = None

    def update_from(self, results) -> None:
        training = self.session.workload.mode is Mode.TRAIN
        b = self.builder
        if isinstance(b, plots.FitPlot):
            b.update(results, self.session.prefs.memory_unit, self.session.arch.name if self.session.arch else "")
        elif isinstance(b, plots.MemoryPlot):
            b.update(results, self.session.prefs.memory_unit)
        elif isinstance(b, plots.ValuePlot):
            results = self.session.finished(results)  # with the running costs, under the preferences
            b.update(results, training)
        else:
            b.update(results, training)
        text = None
        if isinstance(b, plots.FitPlot):
            text = fmt.largest_fit_html(results)
        elif isinstance(b, plots.ValuePlot):
            text = _running_cost_html(results, self.session.workload, self.session.prefs) + "<br>" + \
                _rent_vs_buy_html(results, self.session.prefs)
        self._text = text
        if text is not None:
            self._text_timer.start()

    @property
    def text_pending(self) -> bool:
        return self._text_timer.isActive()

    def _show_text(self) -> None:
        if self._text is not None and self._text != self._below_html:
            self._below_html = self._text
            replace_html(self.label_below, self._text)


def replace_html(browser: QTextBrowser, html: str) -> None:
    """New HTML in a text browser whose policy is ``ScrollBarAsNeeded``. ``setHtml`` empties the
    document first: a shown scroll bar went and came back, and the text was laid out twice more at
    the two widths (and the browser repainted) on every change. The bar is held on while the text is
    replaced; it goes only if the new text fits."""
    held = browser.verticalScrollBar().isVisible()
    if held:
        browser.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    browser.setHtml(html)
    if held:
        browser.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)


def _running_cost_html(results, workload, prefs) -> str:
    """Per build: power, energy per year, cost per hour of use and per million tokens, ownership, read from
    ``results.running`` (the session computed them under ``prefs.cost``)."""
    import html

    running = results.running
    cost = running.settings
    training = workload.mode is Mode.TRAIN
    kind = "trained" if training else "generated"
    rows = []
    for r, c, gap in zip(results.builds, running.builds, running.gaps, strict=True):
        name = html.escape(r.name)
        if c.price_usd is None:
            rows.append(f"{name}: no price" + ("" if c.rented or c.energy_usd_per_year is None else
                                               f"; electricity {fmt.usd(c.energy_usd_per_year, prefs, ' a year')}"))
            continue
        seen = f" (seen {c.price_date.isoformat()}{', stale' if c.price_stale else ''})" if c.price_date else ""
        per_m = c.usd_per_million_tokens
        m = (f"{fmt.usd(per_m, prefs)} per million {kind} tokens" if per_m is not None
             else f"per million {kind} tokens: {gap}")
        if c.rented:
            parts = [f"rented {fmt.usd(c.price_usd, prefs, '/h')}{seen}", m]
        else:
            power = f"{c.load_w:,.0f} W at load" if c.load_w is not None else "power not stated"
            if c.idle_w is not None:
                power += f", {c.idle_w:,.0f} W idle"
            if c.load_w is None:  # said once, with what it leaves unknown (not "not known" three times)
                parts = [f"{fmt.usd(c.price_usd, prefs)} {c.price_kind}{seen}",
                         "power not stated: no electricity, cost per token or cost of ownership"]
            else:
                parts = [f"{fmt.usd(c.price_usd, prefs)} {c.price_kind}{seen}", power,
                         f"electricity {fmt.usd(c.energy_usd_per_year, prefs, ' a year')}", m,
                         f"{fmt.usd(c.tco_usd, prefs)} over {cost.years:g} years"]
        if c.train_hours is not None:
            parts.append(f"training run {c.train_hours:,.1f} h, {fmt.usd(c.train_usd, prefs)}")
        rows.append(f"{name}: " + "; ".join(parts))
    head = (f"<b>Running cost</b> at ${cost.electricity_usd_per_kwh:.4g}/kWh, "
            f"{cost.hours_per_day:g} h a day, {cost.years:g} years (Edit ▸ Preferences)")
    return head + "<br>" + "<br>".join(rows)


def _rent_vs_buy_html(results, prefs) -> str:
    """Owning vs renting: each bought build against the cheapest cloud instance here that runs the job,
    with the owned build's electricity counted (``results.running.rent_vs_buy``)."""
    import html

    clouds = [r for r in results.builds if r.entry.cloud_id is not None or r.usd_per_hour is not None]
    unpriced = [r.name for r in results.builds if r not in clouds and r.price_new_usd is None and r.price_used_usd is None]
    tail = f"<br>No price in the catalog for {html.escape(', '.join(unpriced))}: no Value bars." if unpriced else ""
    if not clouds:
        return "Add a cloud instance to see owning vs renting and the break-even hours." + tail
    rvb = results.running.rent_vs_buy
    if rvb.cloud is None:  # a cloud build is there: never ask to add one
        return (f"No hourly price in the catalog (or no fit) for {html.escape(', '.join(c.name for c in clouds))}: "
                "no owning vs renting break-even." + tail)
    rows = []
    for b in rvb.rows:
        if b.hours is None:
            rows.append(f"{html.escape(b.owned)} ({fmt.usd(b.price_usd, prefs)}): {b.verdict}")
            continue
        days = b.hours / prefs.cost.hours_per_day
        rows.append(f"{html.escape(b.owned)} ({fmt.usd(b.price_usd, prefs)}) = {b.hours:,.0f} h of {html.escape(rvb.cloud)} "
                    f"({fmt.usd(rvb.cloud_usd_per_hour, prefs, '/h')}), ≈ {days:,.0f} days at "
                    f"{prefs.cost.hours_per_day:g} h a day")
    note = ("Break-even = price / (cloud rate − the owned build's electricity per hour), against the cheapest cloud "
            "instance here that runs the job; speed difference and resale value not counted.")
    return ("<b>Owning vs renting</b><br>" + "<br>".join(rows or ["no bought build with a known price"])
            + f"<br><i>{note}</i>" + tail)


class DetailsTab(QTextBrowser):
    needs_sweep = False
    text_pending = False

    def __init__(self, session) -> None:
        super().__init__()
        self.session = session
        self.setOpenExternalLinks(True)
        # The tab is built when first shown, after the first paint: the core's evaluation may load now.
        from advisor.core import (
            KeepLast,  # noqa: PLC0415
            detailed_results,  # noqa: PLC0415
        )

        # The window's pass leaves out what only this tab shows (``evaluate_build(quick=True)``): added here, once
        # per results (a redraw for other units or prices uses them again).
        self._detailed = KeepLast(lambda results: detailed_results(self.session.arch, results))

    def update_from(self, results) -> None:
        # With each build's speed basis (the session's ``finished``), then what only this tab shows.
        details = self._detailed(self.session.finished(results))
        replace_html(self, fmt.details_html(details, self.session.workload, self.session.prefs))


TABS = (
    ("Fit", lambda s: _PlotTab(plots.FitPlot(), s, below=True)),
    ("Memory", lambda s: _PlotTab(plots.MemoryPlot(), s)),
    ("Speed", lambda s: _PlotTab(plots.SpeedPlot(), s)),
    ("Value", lambda s: _PlotTab(plots.ValuePlot(), s, below=True)),
    ("Details", DetailsTab),
)


class PlotTabs(QTabWidget):
    """Fit, Memory, Speed, Value and Details; built lazily, updated on every result.

    Signals:
      view_drawn(int)   tab ``index`` was redrawn from the session's current results (the Fit
                        tab: with the sweep in)
    """

    view_drawn = Signal(int)

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.views: dict[int, QWidget] = {}
        self._stale: set[int] = set()  # built tabs whose last results are not drawn yet
        # The visible tab redraws in a later turn of the event loop than the table: a QTimer
        # object with a 0 ms interval fires after the pending paint, so the table and the verdict
        # are on screen first; several changes before it fires are drawn once.
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(0)
        self._redraw.timeout.connect(self._draw_current)
        for title, _ in TABS:
            self.addTab(QWidget(), title)
        self.currentChanged.connect(self._on_current_changed)
        session.results_computed.connect(self._on_results_computed)
        session.curves_computed.connect(self._on_curves_computed)
        session.suggestions_computed.connect(self._on_curves_computed)  # the builds' largest models
        session.prefs_changed.connect(self._on_prefs_changed)
        self._on_current_changed(0)

    def view(self, index: int) -> QWidget:
        """The real widget of tab ``index`` (built now if it was never shown)."""
        if index not in self.views:
            title, factory = TABS[index]
            widget = factory(self.session)
            current = self.currentIndex()
            self.blockSignals(True)
            self.removeTab(index)
            self.insertTab(index, widget, title)
            self.setCurrentIndex(current)
            self.blockSignals(False)
            self.views[index] = widget
            if self.session.results is not None:
                widget.update_from(self.session.results)
                if not (widget.needs_sweep and self._fit_pending()):
                    self.view_drawn.emit(index)
                else:
                    self._stale.add(index)
        return self.views[index]

    def up_to_date(self) -> bool:
        """The visible tab shows the session's current results (tests wait on this)."""
        view = self.views.get(self.currentIndex())
        return self.currentIndex() not in self._stale and not (view is not None and view.text_pending)

    def _on_current_changed(self, index: int) -> None:
        if index < 0:
            return
        self.view(index)
        self._draw_current()

    def _draw_current(self) -> None:
        """Redraw the visible tab if its results changed and are complete for it."""
        index = self.currentIndex()
        view = self.views.get(index)
        results = self.session.results
        if view is None or index not in self._stale or results is None:
            return
        if view.needs_sweep and self._fit_pending():
            return  # ``curves_computed`` or ``suggestions_computed`` comes next
        self._stale.discard(index)
        view.update_from(results)
        self.view_drawn.emit(index)

    def _fit_pending(self) -> bool:
        """The Fit tab waits for the sweep (its curves) and the search (each build's largest model, for
        its line): it redraws once, whole, and never shows a line from before the change."""
        return self.session.sweep_pending or self.session.suggestions_pending

    def _on_results_computed(self, results) -> None:
        """The visible tab redraws after the table has painted; a hidden one when it is next shown."""
        if results is None:
            return
        self._stale = set(self.views)
        self._redraw.start()

    def _on_curves_computed(self, _results) -> None:
        """The sweep is in (the table has painted long before): the Fit tab redraws now."""
        self._stale |= {i for i, v in self.views.items() if v.needs_sweep}
        if not self._redraw.isActive():
            self._draw_current()

    def _on_prefs_changed(self) -> None:  # units or prices: redraw what is on screen now
        if self.session.results is not None:
            self._stale = set(self.views)
            self._draw_current()
