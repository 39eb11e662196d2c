"""A record's price history: a small table of dated price points, a small chart of the same
points over time (one line per kind of price; a used-market band as a vertical bar), and an
'Add' form.

Adding a point never drops the old ones (a card's launch MSRP stays beside today's street
price); a point is removed only by selecting it and pressing Remove, and that edit is
undoable like any other once the record is saved.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.ui.catalog_editor.fields import CHOICE_WORDS, FieldEditor
from advisor.ui.catalog_editor.model_form import ModelForm, field_label


class PriceDialog(QDialog):
    """Enter one price point (kind, USD, date, source URL …), validated as you type."""

    def __init__(self, item_model: type[BaseModel], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a price point")
        self.form = ModelForm(item_model, self)
        values = self.form.defaults()
        values["date_seen"] = dt.date.today().isoformat()
        if "kind" in values:
            values["kind"] = "street_new"
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.button_ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.button_ok.setText("Add")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.form.validity_changed.connect(self.button_ok.setEnabled)
        lay = QVBoxLayout(self)
        lay.addWidget(self.form)
        lay.addWidget(buttons)
        self.form.set_values(values)
        self.button_ok.setEnabled(bool(self.form.valid))
        self.resize(520, self.sizeHint().height())

    def point(self) -> dict | None:
        record = self.form.revalidate()
        return None if record is None else record.model_dump(mode="json")


#: Words and colours of each kind of price in the chart's legend (buyer words, not field values).
KIND_STYLE = {kind: (CHOICE_WORDS[kind], colour) for kind, colour in
              (("launch_msrp", "#7F7F7F"), ("list", "#9467BD"), ("street_new", "#1F77B4"), ("used", "#FF7F0E"))}


def _timestamp(day: object) -> float | None:
    """Seconds since the epoch at UTC midnight of an ISO day (the chart's date axis), or None."""
    try:
        d = day if isinstance(day, dt.date) else dt.date.fromisoformat(str(day))
    except ValueError:
        return None
    return dt.datetime(d.year, d.month, d.day, tzinfo=dt.UTC).timestamp()


def chart_series(points: list[dict]) -> dict[str, list[tuple[float, float, float | None, float | None]]]:
    """Points grouped by kind and sorted by date: (timestamp, usd, band low, band high) each;
    points without a readable date or price are left out of the chart (the table still shows them)."""
    out: dict[str, list] = {}
    for p in points:
        t, usd = _timestamp(p.get("date_seen")), p.get("usd")
        if t is None or not isinstance(usd, int | float):
            continue
        out.setdefault(str(p.get("kind")), []).append((t, float(usd), p.get("usd_low"), p.get("usd_high")))
    return {k: sorted(v) for k, v in out.items()}


class PriceChart:
    """A small chart of a record's price points over time (pyqtgraph, built on first use)."""

    def __init__(self) -> None:
        import pyqtgraph as pg

        self.widget = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem(orientation="bottom")})
        self.widget.setObjectName("chart_prices")
        self.widget.setFixedHeight(150)  # a fixed size: redrawing never moves the fields below it
        self.widget.setMenuEnabled(False)
        self.widget.setMouseEnabled(x=False, y=False)
        self.widget.hideButtons()
        self.widget.setLabel("left", "USD")
        self.legend = self.widget.addLegend(offset=(8, 4), labelTextSize="8pt")
        self.series: dict[str, list] = {}

    def show(self, points: list[dict]) -> None:
        import numpy as np
        import pyqtgraph as pg

        plot = self.widget.getPlotItem()
        plot.clear()
        self.legend.clear()
        self.series = chart_series(points)
        for kind, rows in self.series.items():
            words, colour = KIND_STYLE.get(kind, (kind.replace("_", " "), "#2CA02C"))
            xs, ys = [r[0] for r in rows], [r[1] for r in rows]
            plot.addItem(pg.PlotDataItem(xs, ys, pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6,
                                         symbolBrush=colour, symbolPen=None, name=words))
            bands = [(r[0], r[1], r[2], r[3]) for r in rows if r[2] is not None and r[3] is not None]
            if bands:  # ErrorBarItem takes arrays, and top/bottom as distances from y
                x, mid, low, high = (np.array(c, dtype=float) for c in zip(*bands, strict=True))
                plot.addItem(pg.ErrorBarItem(x=x, y=mid, top=high - mid, bottom=mid - low, beam=0,
                                             pen=pg.mkPen(colour, width=1)))
        if self.series:  # prices from zero, with room above the highest point for the one-row legend
            top = max(max(r[3] if r[3] is not None else r[1], r[1]) for rows in self.series.values() for r in rows)
            plot.setYRange(0, top * 1.45, padding=0)
            ts = [r[0] for rows in self.series.values() for r in rows]
            pad_s = max((max(ts) - min(ts)) * 0.08, 120 * 86400)  # a lone point still gets a dated axis
            plot.setXRange(min(ts) - pad_s, max(ts) + pad_s, padding=0)
            self.legend.setColumnCount(len(self.series))
        # always shown, at a fixed size: switching records never moves the fields below it
        plot.setTitle(None if self.series else "No dated prices yet", size="9pt")


class PricesEditor(FieldEditor):
    """The ``prices`` field: a table of points (newest first) with Add and Remove."""

    def __init__(self, name: str, info, item_model: type[BaseModel]) -> None:
        self.item_model = item_model
        self.columns = [n for n in item_model.model_fields]
        self.points: list[dict] = []
        self._callbacks: list = []
        super().__init__(name, info, optional=False)

    def _make(self) -> QWidget:
        box = QWidget()
        self.table = QTableWidget(0, len(self.columns))
        self.table.setObjectName("table_prices")
        self.table.setHorizontalHeaderLabels([field_label(c) for c in self.columns])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumHeight(110)
        self.table.setMaximumHeight(160)
        self.button_add = QPushButton("Add price point…")
        self.button_remove = QPushButton("Remove")
        self.button_add.clicked.connect(self._on_add_clicked)
        self.button_remove.clicked.connect(self._on_remove_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(self.button_add)
        buttons.addWidget(self.button_remove)
        buttons.addStretch(1)
        self.chart = PriceChart()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
        lay.addWidget(self.chart.widget)
        lay.addLayout(buttons)
        return box

    def get(self) -> tuple[object, str | None]:
        return list(self.points), None

    def set(self, value: object) -> None:
        self.points = [dict(p) for p in (value or ())]
        self._fill()

    def on_change(self, fn) -> None:
        self._callbacks.append(fn)

    def set_read_only(self, read_only: bool) -> None:
        self.button_add.setEnabled(not read_only)
        self.button_remove.setEnabled(not read_only)

    def add_point(self, point: dict) -> None:
        """Append a validated point (kept in the order entered; shown newest first)."""
        self.points.append(dict(point))
        self._fill()
        self._emit()

    def _fill(self) -> None:
        order = sorted(range(len(self.points)), key=lambda i: str(self.points[i].get("date_seen")), reverse=True)
        self._row_to_point = order
        self.table.setRowCount(len(order))
        for row, i in enumerate(order):
            for col, name in enumerate(self.columns):
                value = self.points[i].get(name)
                text = "" if value is None else f"{value:,.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
                if name == "kind" and text in KIND_STYLE:
                    text = KIND_STYLE[text][0]  # buyer words, as in the chart's legend
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.chart.show(self.points)

    def _emit(self) -> None:
        for fn in self._callbacks:
            fn()

    def _on_add_clicked(self) -> None:
        dialog = PriceDialog(self.item_model, self.widget)
        if dialog.exec() and (point := dialog.point()) is not None:
            self.add_point(point)

    def _on_remove_clicked(self) -> None:
        doomed = sorted({self._row_to_point[i.row()] for i in self.table.selectedIndexes()}, reverse=True)
        for i in doomed:
            del self.points[i]
        if doomed:
            self._fill()
            self._emit()
