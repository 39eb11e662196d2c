"""The builds table: one row per candidate with its headline, and the add/remove/order buttons."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, Qt, QTimer
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from advisor.core.advice.criterion import Criterion
from advisor.core.job.plan import PlanPins
from advisor.ui import format as fmt

_DISPLAY, _EDIT, _TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.ToolTipRole
_FOREGROUND, _BACKGROUND = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole
_FONT, _USER = Qt.ItemDataRole.FontRole, Qt.ItemDataRole.UserRole
_EDITABLE = Qt.ItemFlag.ItemIsEditable
_WINNER_BACKGROUND = QColor("#DFF3E4")  # the winner's row
#: How long the job must stay put before the lines under the table give back room they no longer
#: need (ms): longer than the pause between keys of a typed number (the window's own search for
#: "what would make it fit" waits 250 ms for the same reason), short enough to look settled.
PANEL_SHRINK_MS = 600
#: The longest the lines under the table wait for the Fit plot's sweep before they show their new text
#: and take the room they need (ms): the sweep is usually in within a few turns; a slow or failed one
#: does not hold them.
GROW_LATEST_MS = 100
_FIT_COLOURS = {"fits": QColor("#1B7F3B"), "tight": QColor("#A06000")}
_TOO_BIG, _CHECKS_COLOUR = QColor("#C00000"), QColor("#B35900")

# Two-line headers, units in the header and not in every cell: with six builds all eight columns are in
# view at 1280 px (one-line headers and "GiB"/"tok/s" in each cell pushed Price, Checks and Machines out).
COLUMNS = ("Build", "Plan", "Fits? need / usable\nper GPU", "Speed", "Price\ntoday", "Power", "Checks", "Machines")
FIT_COLUMN, SPEED_COLUMN, CHECKS_COLUMN, MACHINES_COLUMN = 2, 3, 6, 7
SPEED_HEADERS = {False: "Speed, tok/s\ndecode / prefill", True: "Training speed\ntok/s · time for 1 B"}


PRICE_COLUMN = 4
HEADER_TIPS = {
    FIT_COLUMN: ("Memory the busiest GPU needs, ± the estimator's median error measured against published "
                 "measurements for this kind of workload, and the memory a framework can use on that GPU"),
    PRICE_COLUMN: ("What the whole machine costs today, the lower of new and used: the cards and the platform that "
                   "carries them (a typical desktop, workstation or server when the build names cards only). The "
                   "winner is chosen on this figure. A cloud instance shows its price per hour"),
    MACHINES_COLUMN: ("Identical machines of the build, joined by its network card (issue 21); double-click to "
                      "change. Price, power and the cloud rate count every machine"),
}


ADD_TIP = "Add a candidate: a GPU × count, a catalog build, a prebuilt system, a cloud instance or this machine"

class FrozenColumnTable(QTableView):
    """A table whose first column (the build's name) stays put while the others scroll sideways.

    A second view over the same model and selection shows column 0 on top of this one (Qt's
    "Frozen Column" example), so at 1280 px a build's name is never scrolled away with its
    numbers (issue 17: Price and Checks were cut).
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.frozen = QTableView(self)
        self.frozen.setObjectName("table_frozen")
        self.frozen.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.frozen.verticalHeader().setVisible(False)
        self.frozen.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.frozen.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.frozen.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.frozen.setFrameShape(QFrame.Shape.NoFrame)  # the main view's frame is around both
        self.viewport().stackUnder(self.frozen)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.horizontalHeader().sectionResized.connect(self._on_section_resized)
        self.verticalHeader().sectionResized.connect(self._on_row_resized)
        self.verticalScrollBar().valueChanged.connect(self.frozen.verticalScrollBar().setValue)
        self.horizontalHeader().geometriesChanged.connect(self._place_frozen)  # a taller header: the rows move
        # (column, a cell's size key) -> its width; (column, header text) -> the header's (``column_need``)
        self._widths: dict[tuple, int] = {}

    def column_need(self, column: int, keys: list) -> int:
        """The width ``column`` needs for its header and every cell: what ``sizeHintForColumn`` and
        ``sectionSizeHint`` answer, with each cell's width kept by its key in ``keys`` (per row,
        what the cell's look depends on: its text and font) and the header's by its text. Measured
        at every change, Qt's own sizing asked the model for every role of every cell (2.6 of the
        table's 5 ms per change with six builds, issue 20); a change measures only new texts."""
        if len(self._widths) > 4096:
            self._widths.clear()
        model = self.model()
        key = (column, model.headerData(column, Qt.Orientation.Horizontal))
        need = self._widths.get(key)
        if need is None:
            need = self._widths[key] = self.horizontalHeader().sectionSizeHint(column)
        option = None
        cells = 0
        for row, cell in enumerate(keys):
            key = (column, cell)
            width = self._widths.get(key)
            if width is None:
                if option is None:
                    option = QStyleOptionViewItem()
                    self.initViewItemOption(option)
                index = model.index(row, column)
                width = self._widths[key] = self.itemDelegateForIndex(index).sizeHint(option, index).width()
            cells = max(cells, width)
        return max(need, cells + (1 if self.showGrid() else 0))  # Qt counts the grid line in a cell's width

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: other fonts or style, other widths
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._widths.clear()
        super().changeEvent(event)

    def setModel(self, model) -> None:  # noqa: N802 - Qt override
        super().setModel(model)
        self.frozen.setModel(model)
        self.frozen.setSelectionModel(self.selectionModel())
        model.modelReset.connect(self._hide_other_columns)  # a reset forgets hidden sections
        self._hide_other_columns()

    def _hide_other_columns(self) -> None:
        for col in range(1, self.model().columnCount()):
            self.frozen.setColumnHidden(col, True)
        self._place_frozen()

    def set_frozen_look(self) -> None:
        """The frozen view copies the main view's look (called once the main one is set up)."""
        f = self.frozen
        f.setSelectionBehavior(self.selectionBehavior())
        f.setSelectionMode(self.selectionMode())
        f.setEditTriggers(self.editTriggers())
        f.setWordWrap(self.wordWrap())
        f.setAlternatingRowColors(self.alternatingRowColors())
        f.setContextMenuPolicy(self.contextMenuPolicy())
        f.show()

    def resize_columns(self, widths: dict[int, int]) -> None:
        """Columns to new widths (pixels, by column), shown by the paint already due.

        ``resizeSection`` emits ``sectionResized``, and ``QTableView``'s slot for it lays the view
        out and repaints it on a 0 ms timer (``columnResized``, qtableview.cpp): a second paint of
        the table, after the one that already showed the new widths (3-5 ms of a change that
        widened a column, issue 20). Here the signal is held while the sections are resized, and
        the view is laid out and its viewport marked for the coming paint at once. (A user
        dragging a column's edge goes through Qt's own path.)"""
        header = self.horizontalHeader()
        blocked = header.blockSignals(True)
        try:
            for column, width in widths.items():
                header.resizeSection(column, width)
            self.updateGeometries()  # (the stretching last column is resized here: held too)
        finally:
            header.blockSignals(blocked)
        self.viewport().update()
        if 0 in widths:
            self._place_frozen()  # what ``_on_section_resized`` does for the name column

    def _on_section_resized(self, index: int, _old: int, new: int) -> None:
        if index == 0:
            self.frozen.setColumnWidth(0, new)
            self._place_frozen()

    def _on_row_resized(self, index: int, _old: int, new: int) -> None:
        self.frozen.setRowHeight(index, new)

    def _place_frozen(self) -> None:
        fw = self.frameWidth()
        self.frozen.setColumnWidth(0, self.columnWidth(0))
        height = self.horizontalHeader().height()  # the tallest header (two lines), not column 0's one
        if self.frozen.horizontalHeader().height() != height:
            self.frozen.horizontalHeader().setFixedHeight(height)
        self.frozen.setGeometry(self.verticalHeader().width() + fw, fw, self.columnWidth(0),
                                self.viewport().height() + self.horizontalHeader().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._place_frozen()

    def moveCursor(self, action, modifiers):  # noqa: N802 - Qt override: the cursor never hides under column 0
        current = super().moveCursor(action, modifiers)
        if action == QAbstractItemView.CursorAction.MoveLeft and current.column() > 0:
            x = self.visualRect(current).topLeft().x()
            if x < self.frozen.columnWidth(0):
                bar = self.horizontalScrollBar()
                bar.setValue(bar.value() + x - self.frozen.columnWidth(0))
        return current

    def scrollTo(self, index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:  # noqa: N802
        if index.column() > 0:  # column 0 is always in view
            super().scrollTo(index, hint)


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
                self._speed_header = header    # header change lays the whole table out again: issue 20)
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, SPEED_COLUMN, SPEED_COLUMN)
            return
        self.beginResetModel()
        self.results = results
        self.endResetModel()

    def _changed_runs(self, cells: list, foreground: list, winner_row: int) -> list[tuple[int, int, int]]:
        """(row, first column, last column) of each run of cells whose text or colour differs from
        ``cells`` and ``foreground`` (the last results'), every cell of the old and the new winner's
        rows (background and bold name). The views repaint only those: a workload edit changes two
        or three columns, and repainting all six rows of both views took 3 ms (issue 20; QTableView
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
        # per results, not through Qt's enum attributes and ``ranking.winner`` per call (issue 20).
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
        if role == _TOOLTIP:
            return fmt.cell_tip(self.results.builds[row], col, self.session.prefs, self.session.workload)
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
        """Several identical machines of one build (issue 21), through the session's undoable replace."""
        from advisor.core.hardware.records import MAX_NODES  # noqa: PLC0415 - a rare edit

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


class BuildsPanel(QWidget):
    """Table of builds plus the buttons that edit the list (all through the session)."""

    def __init__(self, session, actions, parent=None) -> None:
        super().__init__(parent)
        # Its content is laid out from the top and the room the lines under the table take is at
        # its bottom: when it grows, only the new strip and what moved or changed size need
        # painting (Qt::WA_StaticContents, doc.qt.io/qt-6/qt.html#WidgetAttribute-enum: "On resize,
        # such a widget will receive paint events only for parts of itself that are newly
        # visible"). Without it a growth repainted the verdict, the table and every button
        # (8-10 ms of a 25-33 ms turn while the search for what would make it fit ran, issue 20).
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.session = session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        verdict = QHBoxLayout()
        self.label_winner = QLabel()
        self.label_winner.setObjectName("label_winner")
        self.label_winner.setWordWrap(True)
        self.label_winner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label_winner.setStyleSheet("QLabel#label_winner { background: #DFF3E4; border-radius: 4px; padding: 4px; }")
        verdict.addWidget(self.label_winner, 1)
        verdict.addWidget(QLabel("Rank by"))
        self.combo_criterion = QComboBox()
        for criterion, text in ((Criterion.SPEED, "speed"), (Criterion.PRICE, "price"), (Criterion.VALUE, "price per token/s"),
                                (Criterion.BEST, "speed for the money")):
            self.combo_criterion.addItem(text, criterion)
        self.combo_criterion.setToolTip("What the winner is chosen on, among the builds that run the job")
        self.combo_criterion.currentIndexChanged.connect(
            lambda i: session.set_criterion(self.combo_criterion.itemData(i)))
        verdict.addWidget(self.combo_criterion)
        lay.addLayout(verdict)
        bar = QHBoxLayout()
        self.button_add = QToolButton()
        self.button_add.setText("Add build")
        self.button_add.setToolTip(ADD_TIP)
        self.button_add.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.button_add)
        for act in actions:
            menu.addAction(act)
        self.button_add.setMenu(menu)
        bar.addWidget(self.button_add)
        self.buttons = {}
        for key, text, tip in (("duplicate", "Duplicate && tweak…", "Copy the selected build and change its links (e.g. the same pair without the bridge)"),
                               ("remove", "Remove", "Remove the selected build (a comparison keeps at least 2)"),
                               ("up", "▲", "Move the selected build up"), ("down", "▼", "Move the selected build down")):
            b = QPushButton(text)
            b.setToolTip(tip)
            bar.addWidget(b)
            self.buttons[key] = b
        self.button_find = QPushButton("Find builds…")
        self.button_find.setToolTip("Search the catalog for builds that run this job within a budget")
        bar.addWidget(self.button_find)
        bar.addStretch(1)
        self.label_busy = QLabel()
        bar.addWidget(self.label_busy)
        lay.addLayout(bar)
        self.table_builds = FrozenColumnTable()
        self.model = BuildsTableModel(session, self.table_builds)
        self.table_builds.setModel(self.model)
        self.table_builds.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table_builds.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table_builds.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table_builds.verticalHeader().setVisible(False)
        self.table_builds.setWordWrap(False)
        self.table_builds.setAlternatingRowColors(True)
        self.table_builds.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table_builds.customContextMenuRequested.connect(self._on_context_menu)
        self.table_builds.set_frozen_look()
        frozen = self.table_builds.frozen
        frozen.customContextMenuRequested.connect(lambda pos: self._on_context_menu(pos, frozen))
        header = self.table_builds.horizontalHeader()
        # Widths follow the contents (``_fit_columns``), growing at once and giving room back once
        # the job stays put: fitted exactly at every change (Qt's ResizeToContents), the columns
        # jittered as figures were typed and each new width repainted the table a second time.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # No column stretches: a wide window leaves the room right of the last column empty (a stretched
        # Machines column spread "1" over 500 px at 1920).
        header.setStretchLastSection(False)
        self._fitted_builds = None  # the builds the columns were last fitted exactly for
        self.table_builds.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        lay.addWidget(self.table_builds)
        self.label_messages = QLabel()
        self.label_messages.setObjectName("label_messages")
        self.label_messages.setWordWrap(True)
        self.label_messages.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label_messages.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # kept room is below
        lay.addWidget(self.label_messages)
        # Fewer lines under the table give their room back only once the job stays put: a panel
        # that shrank and grew as the user typed re-laid out the window and repainted the plot
        # beside the table each time (10 ms of the table's update, issue 20), and the plot jumped.
        self._shrink_timer = self._settled_timer(lambda: self._fit_panel_height(shrink=True))
        self._columns_timer = self._settled_timer(lambda: self._fit_columns(shrink=True))  # the same for the columns
        # More lines under the table take their room after the new figures have painted: the
        # taller panel re-lays out the window and repaints the plot beside the table, and done in
        # the same turn it delayed the table's paint by 8-17 ms (issue 20). When the Fit plot's
        # sweep is due, the panel grows in the turn after it is in (``GROW_LATEST_MS`` at the
        # latest): done in the sweep's own turn, the two made one 15-25 ms turn. (The plot itself
        # redraws once the search for each build's largest model is in too, later.) With no sweep
        # to wait for, it grows in the turn after the table's paint. (A timer object with a 0 ms interval fires after the pending paint, as
        # the session's sweep timer does.) The lines' new text comes in that same turn, with the
        # room it needs (below); text longer than the room would be cut at the panel's edge, never
        # drawn over the table.
        self._grow_timer = QTimer(self)
        self._grow_timer.setSingleShot(True)
        self._grow_timer.timeout.connect(self._grow)
        self._grow_with_curves = False
        session.curves_computed.connect(self._on_curves_computed)
        # A growth still due when the job, the model or the builds change is for lines about to be
        # replaced: dropped, so that it does not lay the window out and repaint the plot beside the
        # table in the middle of the next change, before its figures paint. The suggestions of the
        # last state often come in just as the user types again (benchmarks/ui_recompute.py
        # --train --idle-ms 300: the two slowest of 60 six-build changes, table painted 27 and 46 ms
        # after the change). The new state's lines take their room after its own table's paint.
        for changed in (session.workload_changed, session.model_changed, session.builds_changed):
            changed.connect(self._drop_pending_lines)
        # The lines' new text is set with their growth (``_grow``), after the table's and the
        # verdict's paint, and after the Fit plot's new curves when they are awaited: after
        # ``QLabel.setText`` the panel's layout asks the lines' height again, and laying out six
        # builds' rich-text lines took 1.5 ms of the 2-3.6 ms of that layout before the table's
        # paint, for lines below the table that are read after its figures (issue 20;
        # ``benchmarks/ui_recompute.py --train``, its events timed). A change drops text not set
        # yet, as it drops the growth.
        self._messages: str | None = None  # the lines' new text, set by ``_grow``
        session.prefs_changed.connect(lambda: self._fit_columns(shrink=True))  # other units: other texts
        self.buttons["remove"].clicked.connect(lambda: self._with_row(session.remove_build))
        self.buttons["up"].clicked.connect(lambda: self._move(-1))
        self.buttons["down"].clicked.connect(lambda: self._move(1))
        session.results_computed.connect(self._on_results_computed)
        session.suggestions_computed.connect(self._on_results_computed)
        session.builds_changed.connect(self._on_builds_changed)

    def _settled_timer(self, slot) -> QTimer:
        """A timer that runs ``slot`` once ``PANEL_SHRINK_MS`` have passed since it was last (re)started."""
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(PANEL_SHRINK_MS)
        timer.timeout.connect(slot)
        return timer

    def selected_row(self) -> int:
        rows = self.table_builds.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _with_row(self, fn) -> None:
        row = self.selected_row()
        if row >= 0:
            fn(row)

    def _move(self, delta: int) -> None:
        row = self.selected_row()
        if row >= 0:
            self.session.move_build(row, delta)
            self.table_builds.selectRow(row + delta)

    def _on_builds_changed(self) -> None:
        can_add = self.session.can_add()
        self.button_add.setEnabled(can_add)
        # A greyed button says why (issue 17): six builds is what the table, the plots and the PDF show side by side.
        self.button_add.setToolTip(ADD_TIP if can_add else "A comparison holds six builds; remove one to add another.")
        self.buttons["remove"].setEnabled(self.session.can_remove())

    def _fit_height(self) -> None:
        """As tall as its rows (≤ 6): the table never hides a build behind a scroll bar."""
        t = self.table_builds
        rows = sum(t.rowHeight(r) for r in range(self.model.rowCount()))
        # Room for the horizontal scroll bar is always kept: it comes and goes with the column
        # widths, and nothing below may ever be drawn over it (issue 17).
        bar = t.horizontalScrollBar().sizeHint().height()
        h = t.horizontalHeader().height() + rows + 2 * t.frameWidth() + bar
        if t.minimumHeight() != h:  # a new limit re-lays out the whole window: only on change
            t.setMinimumHeight(h)
            t.setMaximumHeight(h)

    def _fit_columns(self, shrink: bool) -> None:
        """Each column as wide as its header and cells need: wider at once; narrower only with ``shrink``
        (else ``PANEL_SHRINK_MS`` after the last change)."""
        t = self.table_builds
        header = t.horizontalHeader()
        narrower = False
        widths: dict[int, int] = {}
        for c in range(len(COLUMNS)):
            need = t.column_need(c, self.model.size_keys(c))
            have = header.sectionSize(c)
            if need > have or (shrink and need < have):
                widths[c] = need
            elif need < have:
                narrower = True
        if widths:
            t.resize_columns(widths)
        if narrower:
            self._columns_timer.start()
        elif shrink:
            self._columns_timer.stop()

    def _fit_panel_height(self, shrink: bool = True) -> None:
        """Never shorter than its wrapped lines need at this width: a splitter gives a panel its
        minimum size hint, which knows nothing of word wrap, and the lines under the table were
        then drawn over its last row and scroll bar (seen at 1280×800 in training).
        ``shrink=False``: grow at once, give room back ``PANEL_SHRINK_MS`` after the last call."""
        need = self.layout().totalHeightForWidth(self.width())
        current = self.minimumHeight()
        if need <= 0 or need == current:
            return
        if need > current or shrink:
            self._shrink_timer.stop()
            self.setMinimumHeight(need)
        else:
            self._shrink_timer.start()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override: the scroll bar may come or go
        super().resizeEvent(event)
        self._fit_height()
        self._fit_panel_height()

    def _on_context_menu(self, pos, view=None) -> None:
        view = view or self.table_builds
        row = view.indexAt(pos).row()
        if row < 0:
            return
        self.table_builds.selectRow(row)
        menu = QMenu(self)
        menu.addAction("Plan…", lambda: self.edit_plan(row))
        unpin = menu.addAction("Choose the plan automatically", lambda: self.session.set_build_plan(row, PlanPins()))
        unpin.setEnabled(self.session.builds[row].plan.any)
        menu.exec(view.viewport().mapToGlobal(pos))

    def edit_plan(self, row: int) -> None:
        """Pin parts of one build's plan (GPUs, scheme, offload, checkpointing)."""
        from advisor.ui.plan_dialog import PlanDialog  # noqa: PLC0415 - only when asked for

        result = self.model.results.builds[row] if self.model.results is not None else None
        dialog = PlanDialog(self.session.builds[row], result, self.session.workload, self)
        if dialog.exec():
            self.session.set_build_plan(row, dialog.pins())

    def _on_results_computed(self, results) -> None:
        ranking = self.session.ranking
        sentence = ranking.sentence if ranking is not None else ""
        text = ("★ " if ranking is not None and ranking.winner is not None else "") + sentence
        if text != self.label_winner.text():
            self.label_winner.setText(text)
        self.label_winner.setToolTip(self.session.recommendation)
        i = self.combo_criterion.findData(self.session.criterion)  # follows undo, redo and opened files
        if i >= 0 and i != self.combo_criterion.currentIndex():
            self.combo_criterion.blockSignals(True)
            self.combo_criterion.setCurrentIndex(i)
            self.combo_criterion.blockSignals(False)
        builds = self.session.builds
        self._fit_columns(shrink=builds != self._fitted_builds)  # other builds: fitted exactly at once
        self._fitted_builds = builds
        self._fit_height()
        text = fmt.messages_html(results, self.session.prefs, looking=self.session.suggestions_pending)
        self._messages = text if text != self.label_messages.text() else None  # shown by ``_grow``
        self._grow_with_curves = self.session.sweep_pending  # the plot redraws when its sweep is in
        self._grow_timer.start(GROW_LATEST_MS if self._grow_with_curves else 0)
        self._on_builds_changed()

    def _on_curves_computed(self, _results) -> None:
        if self._grow_with_curves:  # the sweep is in: the growth in the next turn
            self._grow_with_curves = False
            self._grow_timer.start(0)

    def _drop_pending_lines(self, *_args) -> None:
        self._grow_with_curves = False
        self._grow_timer.stop()
        self._messages = None

    @property
    def lines_pending(self) -> bool:
        """The lines under the table have new text not shown yet (it follows the table's paint)."""
        return self._messages is not None

    def _grow(self) -> None:
        """The lines under the table and their room, after the table's and the plot's paint (``_grow_timer``)."""
        self._grow_with_curves = False
        self._grow_timer.stop()
        if self._messages is not None:
            self.label_messages.setText(self._messages)
            self._messages = None
        self._fit_panel_height(shrink=False)
