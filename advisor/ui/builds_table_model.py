"""The builds table's model: one row per build with its headline, a thin adapter over the session's results
(``data`` formats through ``advisor.ui.format``, ``setData`` renames or sets the machine count through the
session's undoable edits)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from advisor.ui import format as fmt

_DISPLAY, _EDIT, _TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.ToolTipRole
_FOREGROUND, _BACKGROUND = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole
_FONT, _USER = Qt.ItemDataRole.FontRole, Qt.ItemDataRole.UserRole
_EDITABLE = Qt.ItemFlag.ItemIsEditable
_WINNER_BACKGROUND = QColor("#DFF3E4")  # the winner's row
_FIT_COLOURS = {"fits": QColor("#1B7F3B"), "tight": QColor("#A06000")}
_TOO_BIG, _CHECKS_COLOUR = QColor("#C00000"), QColor("#B35900")

# Two-line headers, units in the header and not in every cell: with six builds all eight columns are in
# view at 1280 px (one-line headers and "GiB"/"tok/s" in each cell pushed Price, Checks and Machines out).
COLUMNS = ("Build", "Plan", "Fits? need / usable\nper GPU", "Speed", "Price\ntoday", "Power", "Checks", "Machines")
FIT_COLUMN, SPEED_COLUMN, PRICE_COLUMN, CHECKS_COLUMN, MACHINES_COLUMN = 2, 3, 4, 6, 7
SPEED_HEADERS = {False: "Speed, tok/s\ndecode / prefill", True: "Training speed\ntok/s · time for 1 B"}
HEADER_TIPS = {
    FIT_COLUMN: ("Memory the busiest GPU needs, ± the estimator's median error measured against published "
                 "measurements for this kind of workload, and the memory a framework can use on that GPU"),
    PRICE_COLUMN: ("What the whole machine costs today, the lower of new and used: the cards and the platform that "
                   "carries them (a typical desktop, workstation or server when the build names cards only). The "
                   "winner is chosen on this figure. A cloud instance shows its price per hour"),
    MACHINES_COLUMN: ("Identical machines of the build, joined by its network card; double-click to "
                      "change. Price, power and the cloud rate count every machine"),
}


class BuildsTableModel(QAbstractTableModel):
    """Thin adapter over the session's results: ``data`` formats, ``setData`` renames."""

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.results = session.results
        self._bold = QFont()
        self._bold.setBold(True)
        self.cells = self._format(self.results)
        self._speed_header = self.headerData(SPEED_COLUMN, Qt.Orientation.Horizontal)
        session.results_computed.connect(self._on_results_computed)
        session.suggestions_computed.connect(self._on_results_computed)  # tooltips and the winner's row
        session.prefs_changed.connect(self._on_prefs_changed)

    def _format(self, results) -> list[list[str]]:
        """Every cell's text, once per results (the view asks for each cell many times), and with
        it each row's colours and the winner's row."""
        self._foreground: list[dict[int, QColor]] = []
        ranking = self.session.ranking
        winner = ranking.winner if ranking is not None else None
        self._winner_row = -1
        if results is None:
            return []
        for i, r in enumerate(results.builds):
            colours = {}
            if r.status is not None:
                colours[FIT_COLUMN] = _FIT_COLOURS.get(r.status.value, _TOO_BIG)
            if r.problems or r.warnings or r.error:
                colours[CHECKS_COLUMN] = _CHECKS_COLOUR
            self._foreground.append(colours)
            if winner is not None and winner is r:
                self._winner_row = i
        prefs, workload = self.session.prefs, self.session.workload
        return [[r.name, *(fmt.cell(r, c, prefs, workload) for c in range(1, len(COLUMNS)))] for r in results.builds]

    def size_keys(self, column: int) -> list[tuple[str, bool]]:
        """Per row, what the width of the cell in ``column`` depends on: its text, and whether it is bold."""
        return [(cells[column], column == 0 and row == self._winner_row) for row, cells in enumerate(self.cells)]

    def _on_results_computed(self, results) -> None:
        same_rows = self.results is not None and len(self.results.builds) == len(results.builds)
        before = (self.cells, self._foreground, self._winner_row)
        self.cells = self._format(results)
        if same_rows:  # the common case (a workload edit): repaint the cells, keep the view's state
            self.results = results
            for row, first, last in self._changed_runs(*before):
                self.dataChanged.emit(self.index(row, first), self.index(row, last))
            header = self.headerData(SPEED_COLUMN, Qt.Orientation.Horizontal)
            if header != self._speed_header:  # inference ↔ training; else the header is left alone (a
                self._speed_header = header    # header change lays the whole table out again)
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, SPEED_COLUMN, SPEED_COLUMN)
            return
        self.beginResetModel()
        self.results = results
        self.endResetModel()

    def _changed_runs(self, cells: list, foreground: list, winner_row: int) -> list[tuple[int, int, int]]:
        """(row, first column, last column) of each run of cells whose text or colour differs from
        ``cells`` and ``foreground`` (the last results'), every cell of the old and the new winner's
        rows (background and bold name). The views repaint only those: a workload edit changes two
        or three columns, and repainting all six rows of both views was a large share of the table's update (QTableView
        paints only the cells its update region holds)."""
        runs = []
        for row, texts in enumerate(self.cells):
            if row in (winner_row, self._winner_row) and winner_row != self._winner_row:
                runs.append((row, 0, len(COLUMNS) - 1))
                continue
            old_texts, old_colours, colours = cells[row], foreground[row], self._foreground[row]
            first = None
            for col, text in enumerate(texts):
                if text != old_texts[col] or colours.get(col) != old_colours.get(col):
                    first = col if first is None else first
                elif first is not None:
                    runs.append((row, first, col - 1))
                    first = None
            if first is not None:
                runs.append((row, first, len(texts) - 1))
        return runs

    def _on_prefs_changed(self) -> None:
        self.cells = self._format(self.results)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, len(COLUMNS) - 1))

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self.results is None else len(self.results.builds)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return HEADER_TIPS.get(section)
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            if section == SPEED_COLUMN:
                return SPEED_HEADERS[self.session.workload.mode.value == "train"]
            if section == FIT_COLUMN:
                return fmt.fit_header(self.session.workload)
            return COLUMNS[section]
        return None

    def flags(self, index):
        base = super().flags(index)
        return base | _EDITABLE if index.column() in (0, MACHINES_COLUMN) else base

    def data(self, index, role=_DISPLAY):
        # Asked ~1,300 times per change with six builds (two views, every role of every cell, the
        # header's sizing): plain comparisons against roles read once, the winner's row found once
        # per results, not through Qt's enum attributes and ``ranking.winner`` per call.
        if self.results is None or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == _DISPLAY:
            return self.cells[row][col]
        if role == _EDIT:
            return self.session.builds[row].nodes if col == MACHINES_COLUMN else self.cells[row][col]
        if role == _FOREGROUND:
            return self._foreground[row].get(col)
        if role == _BACKGROUND:
            return _WINNER_BACKGROUND if row == self._winner_row else None
        if role == _FONT:
            return self._bold if col == 0 and row == self._winner_row else None
        if role == _TOOLTIP:  # with each build's speed basis (the session's ``finished``: once per results)
            r = self.session.finished(self.results).builds[row]
            return fmt.cell_tip(r, col, self.session.prefs, self.session.workload)
        if role == _USER:
            return self.results.builds[row]
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() not in (0, MACHINES_COLUMN):
            return False
        if index.column() == MACHINES_COLUMN:
            return self.set_machines(index.row(), value)
        return self.session.rename_build(index.row(), str(value))

    def set_machines(self, row: int, value) -> bool:
        """Several identical machines of one build, through the session's undoable replace."""
        from advisor.core import MAX_NODES  # noqa: PLC0415 - a rare edit

        try:
            nodes = int(value)
        except (TypeError, ValueError):
            nodes = 0
        if not 1 <= nodes <= MAX_NODES:
            self.session.problem_reported.emit(f"“{value}” machines: a build is 1 to {MAX_NODES} identical machines")
            return False
        entry = self.session.builds[row]
        if entry.nodes != nodes:
            self.session.replace_build(row, entry.model_copy(update={"nodes": nodes}))
        return True
