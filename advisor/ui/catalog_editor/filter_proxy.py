"""Search, filters and sorting over a ``RecordTableModel``.

Search matches any shown cell (case-insensitive); the vendor, segment and memory range
filters apply to the kinds that have those fields; sorting uses the model's sort role so
numbers sort as numbers and unknown sorts first.

Sized for 10,000 records: which rows pass is worked out once per change, over the
model's rows and cached search texts, and ``filterAcceptsRow`` only looks the answer up (it had
formatted every cell of the row again, through Qt, on each keystroke); ``sort`` is the model's
own (``RecordTableModel.sort_rows``), so the proxy keeps the model's order.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from advisor.ui.catalog_editor.table_model import SORT_ROLE, RecordTableModel

ALL = ""


class RecordFilterProxy(QSortFilterProxyModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search = ""
        self.vendor = ALL
        self.segment = ALL
        self.origin = ALL
        self.memory_min_gib: float | None = None
        self.memory_max_gib: float | None = None
        self._filters_changed = 0
        self._accepted: list[bool] = []
        self._accepted_for: tuple = ()

    def set_filters(self, **values) -> None:
        """Change any of search, vendor, segment, origin, memory_min_gib, memory_max_gib."""
        for name, value in values.items():
            if name.startswith("_") or not hasattr(self, name):
                raise AttributeError(f"no filter named {name!r}")
            setattr(self, name, value)
        self._filters_changed += 1
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The header's sort, done by the model (one Python sort, not a call back per comparison)."""
        model = self.sourceModel()
        if isinstance(model, RecordTableModel):
            model.sort_rows(column, order)
        else:
            super().sort(column, order)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        key = (model, model.generation, self._filters_changed)
        if key != self._accepted_for:
            self._accepted, self._accepted_for = self.accepted_rows(model), key
        return 0 <= row < len(self._accepted) and self._accepted[row]

    def accepted_rows(self, model: RecordTableModel) -> list[bool]:
        """For each of the model's rows, whether it passes every filter (each filter a pass only when set)."""
        rows = model.rows_data()
        keep = [True] * len(rows)
        if self.origin:  # '' (all) or origin values joined by '|' ('user|override' = your records)
            origins = set(self.origin.split("|"))
            keep = [origin.value in origins for _, origin in rows]
        if self.vendor or self.segment or self.memory_min_gib is not None or self.memory_max_gib is not None:
            keep = [k and self._matches_fields(record) for k, (record, _) in zip(keep, rows)]
        words = self.search.lower().split()
        if words:
            keep = [k and all(w in text for w in words) for k, text in zip(keep, model.search_texts())]
        return keep

    def _matches_fields(self, record) -> bool:
        if self.vendor and getattr(record, "vendor", self.vendor) != self.vendor:
            return False
        segment = getattr(record, "segment", None)
        if self.segment and segment is not None and segment.value != self.segment:
            return False
        memory = getattr(record, "memory_gib", None)
        if memory is not None:
            if self.memory_min_gib is not None and memory < self.memory_min_gib:
                return False
            if self.memory_max_gib is not None and memory > self.memory_max_gib:
                return False
        return True
