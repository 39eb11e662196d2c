"""A record's price history: a small table of dated price points and an 'Add' form.

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

from advisor.ui.catalog_editor.fields import FieldEditor
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
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
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
                self.table.setItem(row, col, QTableWidgetItem(text))

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
