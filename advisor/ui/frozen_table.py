"""A table whose first column stays put while the others scroll sideways, and that sizes its columns from
its cells' texts (the builds table's view)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QStyleOptionViewItem, QTableView


class FrozenColumnTable(QTableView):
    """A table whose first column (the build's name) stays put while the others scroll sideways.

    A second view over the same model and selection shows column 0 on top of this one (Qt's
    "Frozen Column" example), so at 1280 px a build's name is never scrolled away with its
    numbers (without it, Price and Checks were cut).
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
        at every change, Qt's own sizing asked the model for every role of every cell (half of the
        table's work per change with six builds); a change measures only new texts."""
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
        the table, after the one that already showed the new widths (a large share of a change that
        widened a column). Here the signal is held while the sections are resized, and
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
