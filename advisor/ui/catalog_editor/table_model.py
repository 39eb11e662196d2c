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

from advisor.core.hardware.catalog import Catalog, CatalogRecord, Origin, RecordKind
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
        self._rows: list[tuple[CatalogRecord, Origin]] = []
        self.on_edit: Callable[[CatalogRecord, CatalogRecord], bool] | None = None
        self.set_catalog(catalog or Catalog())

    # --- contents ---------------------------------------------------------------------
    def set_catalog(self, catalog: Catalog) -> None:
        rows = [(r, catalog.origin(self.kind, rid)) for rid, r in catalog.of(self.kind).items()]
        same_ids = [r.id for r, _ in rows] == [r.id for r, _ in self._rows]
        self.catalog = catalog
        if same_ids and rows:
            # Same rows: refresh in place so selections and the open form survive.
            self._rows = rows
            last = self.index(len(rows) - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def record(self, row: int) -> CatalogRecord:
        return self._rows[row][0]

    def row_of(self, record_id: str) -> int:
        return next((i for i, (r, _) in enumerate(self._rows) if r.id == record_id), -1)

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
