"""Search, filters and sorting over a ``RecordTableModel``.

Search matches any shown cell (case-insensitive); the vendor, segment and memory range
filters apply to the kinds that have those fields; sorting uses the model's sort role so
numbers sort as numbers and unknown sorts first.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from advisor.ui.catalog_editor.table_model import ORIGIN_ROLE, RECORD_ROLE, SORT_ROLE

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

    def set_filters(self, **values) -> None:
        """Change any of search, vendor, segment, origin, memory_min_gib, memory_max_gib."""
        for name, value in values.items():
            if not hasattr(self, name):
                raise AttributeError(f"no filter named {name!r}")
            setattr(self, name, value)
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        record = model.index(row, 0, parent).data(RECORD_ROLE)
        if record is None:
            return False
        # origin is '' (all) or origin values joined by '|' ('user|override' = your records).
        origin_ok = not self.origin or model.index(row, 0, parent).data(ORIGIN_ROLE) in self.origin.split("|")
        return origin_ok and self._matches_fields(record) and self._matches_search(model, row, parent)

    def _matches_search(self, model, row: int, parent) -> bool:
        words = self.search.lower().split()
        if not words:
            return True
        text = " ".join(str(model.index(row, c, parent).data() or "") for c in range(model.columnCount()))
        text = text.lower() + " " + str(getattr(model.index(row, 0, parent).data(RECORD_ROLE), "notes", "")).lower()
        return all(w in text for w in words)

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
