"""The builds panel: the verdict and rank-by above, the buttons that edit the list, the builds table
(``builds_table_model`` over a ``frozen_table.FrozenColumnTable``) and the lines under it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from advisor.core import Criterion, PlanPins
from advisor.ui import format as fmt
from advisor.ui.builds_table_model import COLUMNS, BuildsTableModel
from advisor.ui.frozen_table import FrozenColumnTable

#: How long the job must stay put before the lines under the table give back room they no longer
#: need (ms): longer than the pause between keys of a typed number (the window's own search for
#: "what would make it fit" waits 250 ms for the same reason), short enough to look settled.
PANEL_SHRINK_MS = 600
#: The longest the lines under the table wait for the Fit plot's sweep before they show their new text
#: and take the room they need (ms): the sweep is usually in within a few turns; a slow or failed one
#: does not hold them.
GROW_LATEST_MS = 100
ADD_TIP = "Add a candidate: a GPU × count, a catalog build, a prebuilt system, a cloud instance or this machine"
#: (key, text, tooltip) of the buttons beside "Add build".
BUTTONS = (("duplicate", "Duplicate && tweak…", "Copy the selected build and change its links (e.g. the same pair "
                                                "without the bridge)"),
           ("remove", "Remove", "Remove the selected build (a comparison keeps at least 2)"),
           ("up", "▲", "Move the selected build up"), ("down", "▼", "Move the selected build down"))
CRITERIA = ((Criterion.SPEED, "speed"), (Criterion.PRICE, "price"), (Criterion.VALUE, "price per token/s"),
            (Criterion.BEST, "speed for the money"))


class BuildsPanel(QWidget):
    """Table of builds plus the buttons that edit the list (all through the session)."""

    def __init__(self, session, actions, parent=None) -> None:
        super().__init__(parent)
        # Its content is laid out from the top and the room the lines under the table take is at
        # its bottom: when it grows, only the new strip and what moved or changed size need
        # painting (Qt::WA_StaticContents, doc.qt.io/qt-6/qt.html#WidgetAttribute-enum: "On resize,
        # such a widget will receive paint events only for parts of itself that are newly
        # visible"). Without it a growth repainted the verdict, the table and every button
        # (a third of a turn while the search for what would make it fit ran).
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.session = session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(self._make_verdict_row())
        lay.addLayout(self._make_button_bar(actions))
        lay.addWidget(self._make_table())
        lay.addWidget(self._make_messages())
        self._make_timers()
        self._connect(session)

    def _make_verdict_row(self) -> QHBoxLayout:
        """The winner's sentence and what it is chosen on."""
        verdict = QHBoxLayout()
        self.label_winner = QLabel()
        self.label_winner.setObjectName("label_winner")
        self.label_winner.setWordWrap(True)
        self.label_winner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label_winner.setStyleSheet("QLabel#label_winner { background: #DFF3E4; border-radius: 4px; padding: 4px; }")
        verdict.addWidget(self.label_winner, 1)
        verdict.addWidget(QLabel("Rank by"))
        self.combo_criterion = QComboBox()
        for criterion, text in CRITERIA:
            self.combo_criterion.addItem(text, criterion)
        self.combo_criterion.setToolTip("What the winner is chosen on, among the builds that run the job")
        self.combo_criterion.currentIndexChanged.connect(
            lambda i: self.session.set_criterion(self.combo_criterion.itemData(i)))
        verdict.addWidget(self.combo_criterion)
        return verdict

    def _make_button_bar(self, actions) -> QHBoxLayout:
        """Add build (a menu of ``actions``), duplicate, remove, up, down, find builds, and a busy label."""
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
        for key, text, tip in BUTTONS:
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
        return bar

    def _make_table(self) -> FrozenColumnTable:
        self.table_builds = t = FrozenColumnTable()
        self.model = BuildsTableModel(self.session, t)
        t.setModel(self.model)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        t.verticalHeader().setVisible(False)
        t.setWordWrap(False)
        t.setAlternatingRowColors(True)
        t.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        t.customContextMenuRequested.connect(self._on_context_menu)
        t.set_frozen_look()
        t.frozen.customContextMenuRequested.connect(lambda pos: self._on_context_menu(pos, t.frozen))
        header = t.horizontalHeader()
        # Widths follow the contents (``_fit_columns``), growing at once and giving room back once
        # the job stays put: fitted exactly at every change (Qt's ResizeToContents), the columns
        # jittered as figures were typed and each new width repainted the table a second time.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # No column stretches: a wide window leaves the room right of the last column empty (a stretched
        # Machines column spread "1" over 500 px at 1920).
        header.setStretchLastSection(False)
        self._fitted_builds = None  # the builds the columns were last fitted exactly for
        t.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        return t

    def _make_messages(self) -> QLabel:
        """The lines under the table: each build's problems, checks and what would make it fit."""
        self.label_messages = QLabel()
        self.label_messages.setObjectName("label_messages")
        self.label_messages.setWordWrap(True)
        self.label_messages.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label_messages.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # kept room is below
        return self.label_messages

    def _make_timers(self) -> None:
        # Fewer lines under the table give their room back only once the job stays put: a panel
        # that shrank and grew as the user typed re-laid out the window and repainted the plot
        # beside the table each time, and the plot jumped.
        self._shrink_timer = self._settled_timer(lambda: self._fit_panel_height(shrink=True))
        self._columns_timer = self._settled_timer(lambda: self._fit_columns(shrink=True))  # the same for the columns
        # More lines under the table take their room after the new figures have painted: the
        # taller panel re-lays out the window and repaints the plot beside the table, and done in
        # the same turn it delayed the table's paint. When the Fit plot's sweep is due, the panel
        # grows in the turn after it is in (``GROW_LATEST_MS`` at the latest): done in the sweep's
        # own turn, the two made one long turn. (The plot itself redraws once the search for each
        # build's largest model is in too, later.) With no sweep to wait for, it grows in the turn
        # after the table's paint. (A timer object with a 0 ms interval fires after the pending
        # paint, as the scheduler's sweep timer does.) The lines' new text comes in that same turn,
        # with the room it needs (below); text longer than the room would be cut at the panel's
        # edge, never drawn over the table.
        self._grow_timer = QTimer(self)
        self._grow_timer.setSingleShot(True)
        self._grow_timer.timeout.connect(self._grow)
        self._grow_with_curves = False
        # The lines' new text is set with their growth (``_grow``), after the table's and the
        # verdict's paint, and after the Fit plot's new curves when they are awaited: after
        # ``QLabel.setText`` the panel's layout asks the lines' height again, and laying out six
        # builds' rich-text lines took most of that layout before the table's paint, for lines
        # below the table that are read after its figures (``benchmarks/ui_recompute.py --train``,
        # its events timed). A change drops text not set yet, as it drops the growth.
        self._messages: str | None = None  # the lines' new text, set by ``_grow``

    def _connect(self, session) -> None:
        session.curves_computed.connect(self._on_curves_computed)
        # A growth still due when the job, the model or the builds change is for lines about to be
        # replaced: dropped, so that it does not lay the window out and repaint the plot beside the
        # table in the middle of the next change, before its figures paint. The suggestions of the
        # last state often come in just as the user types again (benchmarks/ui_recompute.py
        # --train --idle-ms 300: the two slowest of 60 six-build changes). The new state's lines
        # take their room after its own table's paint.
        for changed in (session.workload_changed, session.model_changed, session.builds_changed):
            changed.connect(self._drop_pending_lines)
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
        # A greyed button says why: six builds is what the table, the plots and the PDF show side by side.
        self.button_add.setToolTip(ADD_TIP if can_add else "A comparison holds six builds; remove one to add another.")
        self.buttons["remove"].setEnabled(self.session.can_remove())

    def _fit_height(self) -> None:
        """As tall as its rows (≤ 6): the table never hides a build behind a scroll bar."""
        t = self.table_builds
        rows = sum(t.rowHeight(r) for r in range(self.model.rowCount()))
        # Room for the horizontal scroll bar is always kept: it comes and goes with the column
        # widths, and nothing below may ever be drawn over it.
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
