"""One table model per record kind: a thin adapter over the core ``Catalog``.

``data()`` formats, the record itself comes back through ``Qt.UserRole``; ``setData()``
builds the edited record with the core's own validation and hands it to ``on_edit`` (the
editor window turns it into an undoable save). The model never writes files itself.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from advisor.core import Catalog, CatalogRecord, Origin, RecordKind
from advisor.ui.catalog_editor.columns import COLUMNS, diff_text, field_diff, format_value

RECORD_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ORIGIN_ROLE = Qt.ItemDataRole.UserRole + 2

ORIGIN_LABELS = {Origin.SHIPPED: "shipped", Origin.USER: "yours", Origin.OVERRIDE: "edited"}
#: Origin column colours, chosen to read on light and dark palettes alike.
ORIGIN_COLOURS = {Origin.USER: QColor(46, 139, 87), Origin.OVERRIDE: QColor(200, 120, 20)}

Index = QModelIndex | QPersistentModelIndex


def validation_message(exc: ValidationError) -> str:
    """One line per error: 'field: message' (the core's own wording)."""
    lines = []
    for err in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(p) for p in err["loc"])
        lines.append(f"{where}: {err['msg']}" if where else err["msg"])
    return "; ".join(lines)


class RecordTableModel(QAbstractTableModel):
    """Records of one kind in id order, with an Origin column (shipped / yours / edited).

    Sized for 10,000 records: cells are formatted only when the view asks for them;
    sorting (``sort_rows``, which the filter proxy forwards its ``sort`` to) orders the rows in
    Python once, not through Qt's per-comparison calls back into ``data``; ``search_texts`` keeps
    each row's text for the search box until the rows change; ``generation`` counts those changes.

    Signals:
      edit_refused(str)  an in-place edit failed validation; the text is the core's message
    """

    edit_refused = Signal(str)

    def __init__(self, kind: RecordKind, catalog: Catalog | None = None, parent=None) -> None:
        super().__init__(parent)
        self.kind = RecordKind(kind)
        self.columns = COLUMNS[self.kind]
        self.origin_column = len(self.columns)
        self.catalog = Catalog()
        self._by_id: list[tuple[CatalogRecord, Origin]] = []  # id order, as the catalog gives them
        self._rows: list[tuple[CatalogRecord, Origin]] = []  # the order shown (sorted)
        self._row_of: dict[str, int] = {}
        self._search: dict[str, str] = {}  # record id -> its lower-case search text
        self._search_rows: tuple[int, list[str]] = (-1, [])  # (generation, the texts in row order)
        self.sort_column, self.sort_order = -1, Qt.SortOrder.AscendingOrder
        self.generation = 0
        self.on_edit: Callable[[CatalogRecord, CatalogRecord], bool] | None = None
        self.set_catalog(catalog or Catalog())

    # --- contents ---------------------------------------------------------------------
    def set_catalog(self, catalog: Catalog) -> None:
        if catalog is self.catalog and self._by_id:
            return  # the catalog it shows
        by_id = [(r, catalog.origin(self.kind, rid)) for rid, r in catalog.of(self.kind).items()]
        same_ids = [r.id for r, _ in by_id] == [r.id for r, _ in self._by_id]
        if same_ids:  # ties keep the order shown, as Qt's proxy kept it when values changed
            new = {r.id: (r, origin) for r, origin in by_id}
            rows = self._sorted([new[r.id] for r, _ in self._rows])
        else:  # new rows: sorted from id order, as Qt's proxy sorted after a reset
            rows = self._sorted(by_id)
        self.catalog, self._by_id, self._search = catalog, by_id, {}
        self.generation += 1
        if same_ids and rows:
            # Same records: refresh in place so selections and the open form survive.
            if [r.id for r, _ in rows] == [r.id for r, _ in self._rows]:
                self._set_rows(rows)
                last = self.index(len(rows) - 1, self.columnCount() - 1)
                self.dataChanged.emit(self.index(0, 0), last)
            else:  # an edited value moved a record in the sorted order
                self._move_rows(rows)
            return
        self.beginResetModel()
        self._set_rows(rows)
        self.endResetModel()

    def _set_rows(self, rows: list[tuple[CatalogRecord, Origin]]) -> None:
        self._rows = rows
        self._row_of = {r.id: i for i, (r, _) in enumerate(rows)}

    def record(self, row: int) -> CatalogRecord:
        return self._rows[row][0]

    def row_of(self, record_id: str) -> int:
        return self._row_of.get(record_id, -1)

    # --- sorting and searching (called by the filter proxy) ------------------------------
    def _sort_key(self, column: int) -> Callable[[tuple[CatalogRecord, Origin]], tuple]:
        """What ``SORT_ROLE`` gives, as a key: numbers as numbers, unknown first, text without case
        (an empty text, as Qt compared it, before any number: a model without a published size)."""
        if column == self.origin_column:
            return lambda row: (2, 0.0, row[1].value)
        col = self.columns[column]

        def key(row: tuple[CatalogRecord, Origin]) -> tuple:
            value = col.value(row[0])
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return (1, float(value), "")
            text = "" if col.unit else str(value or "").lower()
            return (2 if text else 0, 0.0, text)  # unknown (no amount, no text) before everything

        return key

    def _sorted(self, rows: list[tuple[CatalogRecord, Origin]]) -> list[tuple[CatalogRecord, Origin]]:
        # A stable sort of ``rows`` as given: equal values keep that order, as in Qt's proxy.
        if not 0 <= self.sort_column < self.columnCount():
            return list(rows)
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        return sorted(rows, key=self._sort_key(self.sort_column), reverse=descending)

    def sort_rows(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by ``column`` (-1: id order); selections follow their records."""
        self.sort_column, self.sort_order = column, order
        rows = self._sorted(self._rows if column >= 0 else self._by_id)  # ties keep the order shown
        if [r.id for r, _ in rows] != [r.id for r, _ in self._rows]:
            self._move_rows(rows)

    def _move_rows(self, rows: list[tuple[CatalogRecord, Origin]]) -> None:
        """Show ``rows`` (the same records, another order): a layout change, persistent indexes moved."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        ids = [self._rows[i.row()][0].id if 0 <= i.row() < len(self._rows) else None for i in old]
        self._set_rows(rows)
        self.generation += 1
        new = [self.index(self._row_of[rid], i.column()) if rid in self._row_of else QModelIndex()
               for rid, i in zip(ids, old)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def search_texts(self) -> list[str]:
        """Each row's searchable text, lower case: every shown cell and the notes (built once per catalog)."""
        if self._search_rows[0] == self.generation:
            return self._search_rows[1]
        cache = self._search
        for record, origin in self._rows:
            if record.id not in cache:
                cells = [format_value(c.value(record), c.unit) for c in self.columns]
                cache[record.id] = (" ".join([*cells, ORIGIN_LABELS[origin]]).lower() + " "
                                    + str(getattr(record, "notes", "")).lower())
        self._search_rows = (self.generation, [cache[record.id] for record, _ in self._rows])
        return self._search_rows[1]

    def rows_data(self) -> list[tuple[CatalogRecord, Origin]]:
        """(record, origin) of each row, in the order shown (read-only)."""
        return self._rows

    # --- Qt model API -----------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.columns) + 1

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == self.origin_column:
            return "Origin"
        if 0 <= section < len(self.columns):
            col = self.columns[section]
            return f"{col.header} ({col.unit})" if col.unit else col.header
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() < len(self.columns) and self.columns[index.column()].field:
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        record, origin = self._rows[index.row()]
        col = index.column()
        if role == RECORD_ROLE:
            return record
        if role == ORIGIN_ROLE:
            return origin.value
        if col == self.origin_column:
            return self._origin_data(record, origin, role)
        return self._cell_data(record, origin, col, role)

    def _cell_data(self, record: CatalogRecord, origin: Origin, col: int, role: int):
        column = self.columns[col]
        value = column.value(record)
        if role == Qt.ItemDataRole.DisplayRole:
            return format_value(value, column.unit)
        if role == Qt.ItemDataRole.EditRole:
            return "" if value is None else str(value)
        if role == SORT_ROLE:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
            return -1.0 if column.unit else str(value or "").lower()
        if role == Qt.ItemDataRole.TextAlignmentRole and column.unit:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and origin is not Origin.SHIPPED:
            font = QFont()
            font.setItalic(origin is Origin.OVERRIDE)
            font.setBold(origin is Origin.USER)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(record, origin)
        return None

    def _origin_data(self, record: CatalogRecord, origin: Origin, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            return ORIGIN_LABELS[origin]
        if role == SORT_ROLE:
            return origin.value
        if role == Qt.ItemDataRole.ForegroundRole and origin in ORIGIN_COLOURS:
            return QBrush(ORIGIN_COLOURS[origin])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(record, origin)
        return None

    def _tooltip(self, record: CatalogRecord, origin: Origin) -> str:
        if origin is Origin.SHIPPED:
            return f"{record.id}: shipped with the app"
        if origin is Origin.USER:
            return f"{record.id}: your record (not shipped)"
        shipped = self.catalog.shipped.of(self.kind)[record.id]
        diff = field_diff(shipped, record)
        return f"{record.id}: shipped record you edited. Changed:\n{diff_text(diff)}" if diff else \
            f"{record.id}: your copy, same as shipped"

    def setData(self, index: Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not (self.flags(index) & Qt.ItemFlag.ItemIsEditable):
            return False
        record = self.record(index.row())
        field = self.columns[index.column()].field
        text = str(value).strip()
        data = record.model_dump()
        data[field] = None if text == "" and self.kind.record_type.model_fields[field].default is None else text
        try:
            edited = self.kind.record_type.model_validate(data)
        except ValidationError as exc:
            self.edit_refused.emit(validation_message(exc))
            return False
        if edited == record:
            return False
        return bool(self.on_edit and self.on_edit(record, edited))
