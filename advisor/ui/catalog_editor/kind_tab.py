"""One tab of the editor: a kind's filter bar over its sortable table.

Signals:
  selection_changed(object)  the selected record (None when nothing is selected)
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from advisor.core import Catalog, RecordKind, Segment
from advisor.ui.catalog_editor.filter_proxy import RecordFilterProxy
from advisor.ui.catalog_editor.table_model import RECORD_ROLE, RecordTableModel

MAX_COLUMN_PX = 190
#: Rows a column is fitted to (from the top): more than any shipped kind has (110 GPUs), so those
#: tables fit as before, while 10,000 user records are not all formatted to size a column.
FIT_ROWS = 200
ORIGIN_CHOICES = (("All records", ""), ("Shipped", "shipped"), ("Yours and edited", "user|override"))


def _memory_spin(tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(0, 100_000)
    spin.setDecimals(0)
    spin.setSuffix(" GiB")
    spin.setSpecialValueText("any")  # 0 = no bound
    spin.setToolTip(tip)
    return spin


class KindTab(QWidget):
    selection_changed = Signal(object)

    def __init__(self, kind: RecordKind, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = RecordKind(kind)
        self.model = RecordTableModel(self.kind, catalog, self)
        self.proxy = RecordFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.edit_search = QLineEdit()
        self.edit_search.setPlaceholderText("Search id, name, vendor, notes…")
        self.edit_search.setClearButtonEnabled(True)
        self.edit_search.textChanged.connect(lambda t: self.proxy.set_filters(search=t))
        self.combo_origin = QComboBox()
        for label, value in ORIGIN_CHOICES:
            self.combo_origin.addItem(label, value)
        self.combo_origin.currentIndexChanged.connect(
            lambda _i: self.proxy.set_filters(origin=self.combo_origin.currentData()))
        bar = QHBoxLayout()
        bar.addWidget(self.edit_search, 2)
        self._add_field_filters(bar)
        bar.addWidget(self.combo_origin)
        self.table = self._make_table()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(bar)
        lay.addWidget(self.table, 1)
        self.refresh_choices()
        self._fit_columns()

    def _add_field_filters(self, bar: QHBoxLayout) -> None:
        self.combo_vendor = self.combo_segment = self.spin_memory_min = self.spin_memory_max = None
        if self.kind in (RecordKind.GPU, RecordKind.SYSTEM):
            self.combo_vendor = QComboBox()
            self.combo_vendor.currentIndexChanged.connect(
                lambda _i: self.proxy.set_filters(vendor=self.combo_vendor.currentData() or ""))
            bar.addWidget(self.combo_vendor)
        if self.kind is RecordKind.GPU:
            self.combo_segment = QComboBox()
            self.combo_segment.addItem("All segments", "")
            for seg in Segment:
                self.combo_segment.addItem(seg.value, seg.value)
            self.combo_segment.currentIndexChanged.connect(
                lambda _i: self.proxy.set_filters(segment=self.combo_segment.currentData()))
            self.spin_memory_min = _memory_spin("Smallest memory to show")
            self.spin_memory_max = _memory_spin("Largest memory to show")
            self.spin_memory_min.valueChanged.connect(self._on_memory_changed)
            self.spin_memory_max.valueChanged.connect(self._on_memory_changed)
            bar.addWidget(self.combo_segment)
            bar.addWidget(QLabel("Memory"))
            bar.addWidget(self.spin_memory_min)
            bar.addWidget(QLabel("to"))
            bar.addWidget(self.spin_memory_max)

    def _make_table(self) -> QTableView:
        table = QTableView()
        table.setObjectName(f"table_{self.kind.folder}")
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setResizeContentsPrecision(FIT_ROWS)  # the rows resizeColumnsToContents reads
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.horizontalHeader().setStretchLastSection(True)
        # Origin is the model's last column; shown second so it is never scrolled out of view.
        table.horizontalHeader().moveSection(self.model.origin_column, 1)
        table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        return table

    def _fit_columns(self) -> None:
        # Fit to contents, but a long product name must not push the Origin column off screen.
        self.table.resizeColumnsToContents()
        for col in range(self.model.columnCount()):
            self.table.setColumnWidth(col, min(self.table.columnWidth(col), MAX_COLUMN_PX))

    def _on_memory_changed(self, *_args) -> None:
        low, high = self.spin_memory_min.value(), self.spin_memory_max.value()
        self.proxy.set_filters(memory_min_gib=low or None, memory_max_gib=high or None)

    def _on_selection_changed(self, *_args) -> None:
        self.selection_changed.emit(self.selected())

    # --- public ---------------------------------------------------------------------------
    def set_catalog(self, catalog: Catalog) -> None:
        if catalog is self.model.catalog:  # the one it shows (the editor's first refresh): nothing to redo
            return
        selected = self.selected()
        self.model.set_catalog(catalog)
        self.refresh_choices()
        self._fit_columns()
        if selected is not None and self.model.row_of(selected.id) >= 0 and self.selected() is None:
            self.select(selected.id)

    def refresh_choices(self) -> None:
        if self.combo_vendor is None:
            return
        current = self.combo_vendor.currentData() or ""
        vendors = sorted({r.vendor for r in self.model.catalog.of(self.kind).values()})
        self.combo_vendor.blockSignals(True)
        self.combo_vendor.clear()
        self.combo_vendor.addItem("All vendors", "")
        for v in vendors:
            self.combo_vendor.addItem(v, v)
        self.combo_vendor.setCurrentIndex(max(0, self.combo_vendor.findData(current)))
        self.combo_vendor.blockSignals(False)

    def selected(self):
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(RECORD_ROLE) if rows else None

    def select(self, record_id: str) -> bool:
        row = self.model.row_of(record_id)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():  # filtered out: clear the filters so the record shows
            self.edit_search.clear()
            self.combo_origin.setCurrentIndex(0)
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().select(index, flags)
        self.table.scrollTo(index)
        return True
