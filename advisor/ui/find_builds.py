"""Builds ▸ Find builds…: search the catalog for builds that run the user's jobs within a budget.

The jobs start with the window's current one; "Add the current job" adds whatever the workload
panel shows now (so a chat model and a fine-tune can be searched together). The search itself is
``advisor.core.advice.catalog_search`` (the same as ``llm-advisor advise``); the plot shows price against
speed with the Pareto front joined, and the chosen rows go into the comparison.
"""

from __future__ import annotations

import datetime as dt

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.core import GIB, Criterion, ModelJob, PriceChoice, SearchRequest, Where, job_of, price_words, say, search
from advisor.storage.error_bands import (
    extrapolated_band_pct,
    median_pct,
    speed_basis_table,
)

COLUMNS = ("Build", "Price", "Speed", "Plan", "Need per GPU", "Power", "Notes")
FRONT_COLOR = "#1B7F3B"
MIN_ROWS_SHOWN = 6
TITLE_BAR_PX = 40  # room left for a window manager's title bar when the dialog is cut to the screen
OTHER_COLOR = "#7A7A7A"


def job_words(model_job: ModelJob) -> str:
    """A job in one line, its settings in their declared words (``job_words.say``)."""
    w = model_job.job
    if w.mode.value == "train":
        return (f"{model_job.arch.name}: {say('method', w.method)}, {w.seq_len:,}-token sequences, micro-batch {w.batch}")
    return (f"{model_job.arch.name}: {say('weights', w.weights, w)} on {w.engine.label}, {w.batch} × {w.context_len:,} tokens")


def _speed_words(found) -> str:
    parts = []
    for p, basis in zip(found.chosen, found.basis or (None,) * len(found.chosen), strict=True):
        s = p.headline_tokens_per_s
        guess = " (extrapolated)" if basis is not None and not basis.calibrated else ""
        parts.append("unknown" if not s else f"{s:,.1f} {'train ' if p.planned.mode.value == 'train' else ''}tok/s{guess}")
    return " · ".join(parts)


def _price_words(c) -> str:
    """The figure the table, the winner sentence and the PDF show for the same machine and kind of price."""
    return "already yours" if c.price is None else price_words(c.price)


def _notes(found) -> str:
    notes = list(found.reasons)
    if not found.usable:
        notes.insert(0, f"below a usable speed: {found.unusable}")
    if found.folded:
        names = ", ".join(f.candidate.name for f in found.folded[:3])
        more = f" and {len(found.folded) - 3} more" if len(found.folded) > 3 else ""
        notes.append(f"no better, folded under it: {names}{more}")
    return "; ".join(notes)


class FindBuildsDialog(QDialog):
    """Signals: none; ``chosen_entries()`` after ``exec()`` returns what to add to the comparison."""

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Find builds")
        self.jobs: list[ModelJob] = []
        self.found: list = []
        lay = QVBoxLayout(self)
        lay.addWidget(self._jobs_box())
        lay.addWidget(self._limits_box())
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self._plot_stack())
        split.addWidget(self._found_table())
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)  # the ranking is the answer: it gets two thirds, the plot one
        lay.addWidget(split, 1)
        self.label_summary = QLabel()
        self.label_summary.setWordWrap(True)
        lay.addWidget(self.label_summary)
        buttons = QDialogButtonBox()
        self.button_add = buttons.addButton("Add to comparison", QDialogButtonBox.ButtonRole.AcceptRole)
        self.button_add.setEnabled(False)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.add_current_job()
        self.resize(1000, 720)
        screen = self.screen() or (parent.screen() if parent is not None else None)
        if screen is not None:  # inside a 1024×700 screen, title bar included
            free = screen.availableGeometry()
            self.resize(min(self.width(), free.width()), min(self.height(), free.height() - TITLE_BAR_PX))

    def _plot_stack(self) -> QStackedWidget:
        """Price against speed of every build found; before the first search, a line saying what Search draws
        (not an empty 0–1 plot)."""
        self.stack_plot = QStackedWidget()
        self.label_before_search = QLabel("Press Search: every catalog build that runs these jobs within the limits "
                                          "is drawn here as price against speed, and listed below.")
        self.label_before_search.setWordWrap(True)
        self.label_before_search.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack_plot.addWidget(self.label_before_search)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setLabel("bottom", "Price (USD; per hour when rented)")
        self.plot.setLabel("left", "Speed (tokens/s)")
        self.plot.setMinimumHeight(180)
        self.scatter = pg.ScatterPlotItem(size=8, hoverable=True)
        self.front = pg.PlotDataItem(pen=pg.mkPen(FRONT_COLOR, width=2), symbol="o", symbolBrush=FRONT_COLOR,
                                     symbolSize=9)
        self.plot.addItem(self.scatter)
        self.plot.addItem(self.front)
        self.stack_plot.addWidget(self.plot)
        return self.stack_plot

    def _found_table(self) -> QTableWidget:
        """The ranking of the builds found."""
        t = self.table_found = QTableWidget(0, len(COLUMNS))
        t.setHorizontalHeaderLabels(COLUMNS)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t.horizontalHeader().setStretchLastSection(True)
        t.verticalHeader().setVisible(False)
        t.itemSelectionChanged.connect(self._on_selection_changed)
        # Six whole rows at least (it showed three and a half at 1024×700): the plot gives up its room first.
        rows = t.verticalHeader().defaultSectionSize() * MIN_ROWS_SHOWN
        t.setMinimumHeight(rows + t.horizontalHeader().sizeHint().height()
                           + t.horizontalScrollBar().sizeHint().height() + 4)
        return t

    # --- inputs ---------------------------------------------------------------------
    def _jobs_box(self) -> QWidget:
        box = QWidget()
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        self.list_jobs = QListWidget()
        self.list_jobs.setMaximumHeight(70)
        lay.addWidget(self.list_jobs, 1)
        col = QVBoxLayout()
        add = QPushButton("Add the current job")
        add.setToolTip("Adds the model and settings the main window shows now; every job must run on a build")
        add.clicked.connect(self.add_current_job)
        remove = QPushButton("Remove job")
        remove.clicked.connect(self._remove_job)
        col.addWidget(add)
        col.addWidget(remove)
        lay.addLayout(col)
        return box

    def _limits_box(self) -> QWidget:
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.spin_budget = QDoubleSpinBox()
        self.spin_budget.setRange(0, 10_000_000)
        self.spin_budget.setDecimals(0)
        self.spin_budget.setSingleStep(500)
        self.spin_budget.setPrefix("$")
        self.spin_budget.setSpecialValueText("no limit")
        self.combo_price = QComboBox()
        for text, price in (("new prices", PriceChoice.NEW), ("used or new, whichever is lower", PriceChoice.EITHER),
                            ("used prices only", PriceChoice.USED)):
            self.combo_price.addItem(text, price)
        self.combo_where = QComboBox()
        for text, where in (("to buy", Where.OWNED), ("to rent (budget per hour)", Where.CLOUD),
                            ("to buy or rent", Where.ANY)):
            self.combo_where.addItem(text, where)
        for widget in (self.spin_budget, self.combo_price, self.combo_where):
            row.addWidget(widget)
        form.addRow("Budget", row)
        row = QHBoxLayout()
        self.spin_max_gpus = QSpinBox()
        self.spin_max_gpus.setRange(1, 8)
        self.spin_max_gpus.setValue(8)
        self.spin_max_power = QSpinBox()
        self.spin_max_power.setRange(0, 20_000)
        self.spin_max_power.setSingleStep(100)
        self.spin_max_power.setSuffix(" W")
        self.spin_max_power.setSpecialValueText("any power")
        self.combo_sort = QComboBox()
        for text, criterion in (("speed for the money, at a usable speed", Criterion.BEST), ("price", Criterion.PRICE),
                                ("speed", Criterion.SPEED), ("price per token/s", Criterion.VALUE)):
            self.combo_sort.addItem(text, criterion)
        self.button_search = QPushButton("Search")
        self.button_search.setDefault(True)
        self.button_search.clicked.connect(self.run_search)
        for label, w in (("At most", self.spin_max_gpus), ("GPUs,", self.spin_max_power), ("best by", self.combo_sort)):
            row.addWidget(QLabel(label))
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.button_search)
        form.addRow("Limits", row)
        return box

    def add_current_job(self) -> None:
        s = self.session
        if s.arch is None:
            self.label_summary.setText("Choose a model in the main window first.")
            return
        job = ModelJob(arch=s.arch, job=job_of(s.workload))
        if job in self.jobs:
            return
        self.jobs.append(job)
        self.list_jobs.addItem(job_words(job))

    def _remove_job(self) -> None:
        row = self.list_jobs.currentRow()
        if row >= 0 and len(self.jobs) > 1:
            self.jobs.pop(row)
            self.list_jobs.takeItem(row)

    def request(self) -> SearchRequest:
        budget = self.spin_budget.value() or None
        power = self.spin_max_power.value() or None
        return SearchRequest(budget_usd=budget, price=self.combo_price.currentData(),
                             where=self.combo_where.currentData(), max_gpus=self.spin_max_gpus.value(),
                             max_power_w=power, sort=Criterion(self.combo_sort.currentData()))

    # --- results --------------------------------------------------------------------
    def run_search(self) -> None:
        if not self.jobs or self.session.catalog is None:
            self.label_summary.setText("Nothing to search: no job, or the catalog is not loaded.")
            return
        band = median_pct(self.jobs[0].job)
        result = search(self.session.catalog, tuple(self.jobs), self.request(), today=dt.date.today(),
                        margin=band / 100 if band is not None else 0.0, basis_table=speed_basis_table(),
                        fallback_band_pct=extrapolated_band_pct())
        self.found = list(result.ranked)
        self.stack_plot.setCurrentWidget(self.plot)
        self._fill_table()
        self._fill_plot(result)
        head = (f"{len(self.found)} builds run every job within the limits." if self.found else
                "No build in the catalog runs every job within these limits: raise the budget, allow used "
                "prices or renting, or make a job lighter.")
        order = next((a for a in result.assumptions if a.startswith("order:")), "")
        words = [head, "Prices: whole machines, cards and what carries them, dated."]
        if order:
            words.append(order[len("order: "):].capitalize() + ".")
        self.label_summary.setText(" ".join(words))  # short: the table keeps its rows; the rest in the tooltip
        self.label_summary.setToolTip("\n".join(result.assumptions))

    def _fill_table(self) -> None:
        t = self.table_found
        t.setRowCount(len(self.found))
        for row, f in enumerate(self.found):
            c = f.candidate
            need = max(p.estimate.fit.need_per_gpu_bytes for p in f.chosen)
            cells = (c.name, _price_words(c), _speed_words(f), " · ".join(f.plans_text), f"{need / GIB:.1f} GiB",
                     f"{c.power_w:,.0f} W" if c.power_w is not None else "unknown", _notes(f))
            tips = {1: "Includes: " + c.price.includes if c.price is not None and c.price.includes else None,
                    2: "; ".join(b.words for b in f.basis) or None}
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tips.get(col) or text)
                t.setItem(row, col, item)

    def _fill_plot(self, result) -> None:
        pts = [f for f in self.found if f.candidate.price_usd is not None and f.speed_score]
        front = {id(f) for f in result.pareto}
        self.scatter.setData([{"pos": (f.candidate.price_usd, f.speed_score), "data": f.candidate.name,
                               "brush": pg.mkBrush(OTHER_COLOR)} for f in pts if id(f) not in front])
        line = sorted((f for f in pts if id(f) in front), key=lambda f: f.candidate.price_usd)
        self.front.setData([f.candidate.price_usd for f in line], [f.speed_score for f in line])
        self.plot.setTitle("Price against speed — the green line joins the builds no other beats on both")

    def _on_selection_changed(self) -> None:
        rows = {i.row() for i in self.table_found.selectedIndexes()}
        room = 6 - len(self.session.builds)
        self.button_add.setEnabled(0 < len(rows) <= max(room, 0))
        self.button_add.setToolTip("" if len(rows) <= room else f"The comparison has room for {room} more")

    def chosen_entries(self) -> list:
        rows = sorted({i.row() for i in self.table_found.selectedIndexes()})
        return [self.found[r].candidate.entry for r in rows]
