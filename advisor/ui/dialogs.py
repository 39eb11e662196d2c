"""Dialogs: add a build from the catalog, tweak a build's links, preferences, text pages."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor.core.advice.comparison import BuildEntry
from advisor.core.hardware.catalog import cloud_display_name, display_name
from advisor.core.hardware.records import Build, ResolvedBuild, Topology
from advisor.core.job.workload import Engine
from advisor.storage.settings import Settings
from advisor.ui.mixed_build import (
    SaveRefused,
    can_sit_beside_others,
    merge_cards,
    mixed_name,
    save_mixed_build,
    short_name,
)

KINDS = {"gpu": "GPU × count", "build": "Catalog build", "system": "Prebuilt system", "cloud": "Cloud instance"}
NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # the record's display name, the build name's stem


class TopologyEditor(QFormLayout):
    """The links between a build's GPUs: NVLink bridges, P2P, PCIe generation and lanes."""

    def __init__(self, topology: Topology, n_gpus: int, nvlink_possible: bool = True) -> None:
        super().__init__()
        self.n_gpus = n_gpus
        self.check_nvlink = QCheckBox("NVLink bridge on each pair (0–1, 2–3 …)")
        self.check_nvlink.setToolTip("A bridge joins two cards directly (RTX 3090: 112.5 GB/s total); "
                                     "tensor-parallel all-reduces then skip PCIe and host memory.")
        self.check_nvlink.setChecked(bool(topology.nvlink_pairs))
        self.check_p2p = QCheckBox("PCIe peer-to-peer")
        self.check_p2p.setToolTip("Cards copy to each other over PCIe without staging in host memory "
                                  "(off on GeForce RTX 4090 with stock drivers).")
        self.check_p2p.setChecked(topology.p2p)
        self.spin_pcie_gen = QSpinBox()
        self.spin_pcie_gen.setRange(1, 7)
        self.spin_pcie_gen.setValue(topology.pcie_gen)
        self.spin_pcie_lanes = QSpinBox()
        self.spin_pcie_lanes.setRange(0, 32)
        self.spin_pcie_lanes.setSpecialValueText("card's own")
        self.spin_pcie_lanes.setValue(topology.pcie_lanes_per_gpu[0] if topology.pcie_lanes_per_gpu else 0)
        self.spin_pcie_lanes.setToolTip("Electrical lanes each slot gives its card (x8/x8 on many desktop boards)")
        self.addRow(self.check_nvlink)
        self.addRow(self.check_p2p)
        self.addRow("PCIe generation", self.spin_pcie_gen)
        self.addRow("Lanes per GPU", self.spin_pcie_lanes)
        self.base = topology
        self.set_nvlink_possible(nvlink_possible or bool(topology.nvlink_pairs))

    def set_base(self, topology: Topology, widgets: bool) -> None:
        """The links the chosen cards have by themselves (``gpu_build``: their PCIe generation, peer-to-peer,
        an NVSwitch baseboard); ``widgets``: the fields show them too (a card was chosen, not a count)."""
        self.base = topology
        if widgets:
            self.check_p2p.setChecked(topology.p2p)
            self.spin_pcie_gen.setValue(topology.pcie_gen)

    def set_nvlink_possible(self, possible: bool) -> None:
        """Offer the bridge only for cards that have NVLink (issue 17): hidden and off otherwise."""
        self.check_nvlink.setVisible(possible)
        if not possible:
            self.check_nvlink.setChecked(False)

    def topology(self) -> Topology:
        pairs = tuple((i, i + 1) for i in range(0, self.n_gpus - 1, 2)) if self.check_nvlink.isChecked() else ()
        lanes = self.spin_pcie_lanes.value()
        return self.base.model_copy(update={
            "nvlink_pairs": pairs, "p2p": self.check_p2p.isChecked(), "pcie_gen": self.spin_pcie_gen.value(),
            "pcie_lanes_per_gpu": (lanes,) * self.n_gpus if lanes else (),
            "lane_sources": self.base.lane_sources if len(self.base.lane_sources) == self.n_gpus else (),
        })


MAX_OTHER_CARDS = 7  # eight kinds of card in one machine is already more than a board has slots


class CardRow(QWidget):
    """One more kind of card in the machine: the card (type to search) × how many, and Remove."""

    changed = Signal()
    remove_requested = Signal(object)

    def __init__(self, choices: list[tuple[str, str]], parent=None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.combo_card = QComboBox()
        self.combo_card.setEditable(True)
        self.combo_card.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        # As wide as the dialog gives it, not as its longest card name (which widened the dialog).
        self.combo_card.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo_card.setMinimumContentsLength(16)
        for text, gpu_id in choices:
            self.combo_card.addItem(text, gpu_id)
        completer = QCompleter(self.combo_card.model(), self.combo_card)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.combo_card.setCompleter(completer)
        self.combo_card.setCurrentIndex(-1)
        self.combo_card.lineEdit().setPlaceholderText("Type or pick a card")
        self.combo_card.setToolTip("A different card in the same machine")
        self.spin_count = QSpinBox()
        self.spin_count.setRange(1, 72)
        self.spin_count.setPrefix("× ")
        self.spin_count.setToolTip("How many of this card")
        self.button_remove = QPushButton("Remove")
        self.button_remove.setToolTip("Take this card out of the build")
        lay.addWidget(self.combo_card, 1)
        lay.addWidget(self.spin_count)
        lay.addWidget(self.button_remove)
        self.combo_card.currentTextChanged.connect(self.changed)
        self.combo_card.currentIndexChanged.connect(lambda _i: self.combo_card.lineEdit().setCursorPosition(0))
        self.spin_count.valueChanged.connect(self.changed)
        self.button_remove.clicked.connect(lambda: self.remove_requested.emit(self))

    def gpu_id(self) -> str | None:
        """The chosen card's id; None while the text names no card of the list."""
        i = self.combo_card.findText(self.combo_card.currentText().strip(), Qt.MatchFlag.MatchFixedString)
        return self.combo_card.itemData(i) if i >= 0 else None

    def set_card(self, gpu_id: str) -> None:
        self.combo_card.setCurrentIndex(self.combo_card.findData(gpu_id))


class AddBuildDialog(QDialog):
    """Pick a catalog GPU (× count, with its links), build, prebuilt system or cloud instance.

    "Add another card" puts different cards in one machine (an RTX 3090 beside an RTX 4090):
    on OK that build is saved in the user's catalog (``advisor.ui.mixed_build``) and
    ``entry()`` names it by id; ``saved_build`` is the record (None for every other build).
    """

    def __init__(self, catalog, kind: str = "build", parent=None, user_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a build")
        self.catalog = catalog
        self.user_dir = user_dir
        self.saved_build: Build | None = None
        self.card_rows: list[CardRow] = []
        lay = QVBoxLayout(self)
        self.combo_kind = QComboBox()
        for k, label in KINDS.items():
            self.combo_kind.addItem(label, k)
        lay.addWidget(self.combo_kind)
        self.edit_filter = QLineEdit()
        self.edit_filter.setPlaceholderText("Search…")
        self.edit_filter.setClearButtonEnabled(True)
        lay.addWidget(self.edit_filter)
        self.list_records = QListWidget()
        self.list_records.viewport().installEventFilter(self)
        lay.addWidget(self.list_records, 1)
        form = QFormLayout()
        self.spin_count = QSpinBox()
        self.spin_count.setRange(1, 72)
        self.spin_count.setValue(2)
        self.label_count = QLabel("How many")
        form.addRow(self.label_count, self.spin_count)
        self.box_other_cards = QWidget()  # the rows of other cards, then the button that adds one
        other = QVBoxLayout(self.box_other_cards)
        other.setContentsMargins(0, 0, 0, 0)
        self.rows_layout = QVBoxLayout()
        other.addLayout(self.rows_layout)
        self.button_more = QPushButton("Add another card")
        self.button_more.setToolTip("Put a different card in the same machine, e.g. an RTX 4090 beside an RTX 3090")
        other.addWidget(self.button_more, 0, Qt.AlignmentFlag.AlignLeft)
        self.label_other_cards = QLabel("With")
        form.addRow(self.label_other_cards, self.box_other_cards)
        self.edit_name = QLineEdit()
        self.edit_name.setMaxLength(120)
        form.addRow("Name", self.edit_name)
        lay.addLayout(form)
        self.label_mixing = QLabel()
        self.label_mixing.setObjectName("label_mixing")
        self.label_mixing.setWordWrap(True)
        lay.addWidget(self.label_mixing)
        self.topology_editor = TopologyEditor(Topology(p2p=False), 2)
        lay.addLayout(self.topology_editor)
        self.label_error = QLabel()
        self.label_error.setObjectName("label_error")
        self.label_error.setWordWrap(True)
        self.label_error.setStyleSheet("QLabel#label_error { color: #C00000; }")
        self.label_error.setVisible(False)
        lay.addWidget(self.label_error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.button_ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        lay.addWidget(buttons)
        self._auto_name = ""  # the name the dialog wrote; a name the user typed is kept
        self.combo_kind.currentIndexChanged.connect(self._fill)
        self.edit_filter.textChanged.connect(self._filter)
        self.list_records.currentItemChanged.connect(self._on_current_changed)
        # A click sets the current row before it selects it: the name and the links follow the selection.
        self.list_records.itemSelectionChanged.connect(self._on_cards_changed)
        self.spin_count.valueChanged.connect(self._on_count_changed)
        self.button_more.clicked.connect(self.add_card_row)
        self.edit_name.textChanged.connect(lambda _text: self.label_error.setVisible(False))
        self.combo_kind.setCurrentIndex(list(KINDS).index(kind))
        self._fill()
        self.resize(540, 600)

    def _records(self) -> dict:
        kind = self.combo_kind.currentData()
        if self.catalog is None:
            return {}
        # A system without a verified GPU configuration cannot be evaluated: it is not offered (data_checks).
        systems = {sid: s for sid, s in self.catalog.systems.items() if s.build is not None}
        return {"gpu": self.catalog.gpus, "build": self.catalog.builds, "system": systems, "cloud": self.catalog.cloud}[kind]

    def _label(self, rec) -> tuple[str, str]:
        """(list text, build name stem): names as people read them, no ids or vendor notes."""
        if hasattr(rec, "instance_type"):
            return cloud_display_name(self.catalog, rec), f"{rec.provider} {rec.instance_type}"
        if hasattr(rec, "vendor") and hasattr(rec, "kind"):
            name = display_name(rec.vendor, rec.name)
            return name, name
        if hasattr(rec, "memory_gib"):
            name = display_name(rec.vendor, rec.name)
            return f"{name} · {rec.memory_gb_marketing:g} GB", name
        return rec.name, rec.name

    def _is_gpu(self) -> bool:
        return self.combo_kind.currentData() == "gpu"

    def _fill(self) -> None:
        self.list_records.clear()
        for rid, rec in self._records().items():
            text, name = self._label(rec)
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, rid)
            item.setData(NAME_ROLE, name)
            self.list_records.addItem(item)
        is_gpu = self._is_gpu()
        self.spin_count.setEnabled(is_gpu)
        self.label_other_cards.setVisible(is_gpu)
        self.box_other_cards.setVisible(is_gpu)
        for i in range(self.topology_editor.rowCount()):
            for role in (QFormLayout.ItemRole.FieldRole, QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.SpanningRole):
                it = self.topology_editor.itemAt(i, role)
                if it is not None and it.widget() is not None:
                    it.widget().setEnabled(is_gpu)
        self._filter(self.edit_filter.text())
        # Nothing is chosen for the user: OK waits for a row (issue 17: a search text alone
        # once added a hidden, unrelated card).
        self.list_records.setCurrentRow(-1)
        self._on_current_changed(None)

    def _filter(self, text: str) -> None:
        t = text.lower()
        for i in range(self.list_records.count()):
            item = self.list_records.item(i)
            item.setHidden(bool(t) and t not in item.text().lower() and t not in item.data(Qt.ItemDataRole.UserRole))
        current = self.list_records.currentItem()
        if current is not None and current.isHidden():
            self.list_records.setCurrentRow(-1)  # a hidden row is never what OK adds
        self._update_ok()

    def _chosen(self) -> QListWidgetItem | None:
        item = self.list_records.currentItem()
        return item if item is not None and not item.isHidden() and item.isSelected() else None

    # --- other cards in the same machine ----------------------------------------------
    def add_card_row(self) -> CardRow | None:
        """One more row of "card × how many" (the first card is the one chosen in the list)."""
        if len(self.card_rows) >= MAX_OTHER_CARDS:
            return None
        choices = [(self._label(g)[0], gid) for gid, g in self.catalog.gpus.items() if can_sit_beside_others(g)]
        row = CardRow(choices, self.box_other_cards)
        row.changed.connect(self._on_cards_changed)
        row.remove_requested.connect(self.remove_card_row)
        self.rows_layout.addWidget(row)
        self.card_rows.append(row)
        row.combo_card.setFocus()
        self._on_cards_changed()
        return row

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        # Rows and the note about mixing shorten the list: the chosen card stays in view.
        # (After the view has taken its new size: this filter runs before the view's own.)
        if watched is self.list_records.viewport() and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self.list_records, self._keep_chosen_in_view)
        return super().eventFilter(watched, event)

    def _keep_chosen_in_view(self) -> None:
        if self.list_records.currentItem() is not None:
            self.list_records.scrollToItem(self.list_records.currentItem())

    def remove_card_row(self, row: CardRow) -> None:
        if row in self.card_rows:
            self.card_rows.remove(row)
            self.rows_layout.removeWidget(row)
            row.deleteLater()
            self._on_cards_changed()

    def _first_gpu(self):
        item = self._chosen() if self._is_gpu() else None
        return self.catalog.gpus.get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def _cards(self):
        """The machine's cards, merged by kind (the list's card first); rows with no card yet left out."""
        item = self._chosen()
        first = [(item.data(Qt.ItemDataRole.UserRole), self.spin_count.value())] if item is not None else []
        return merge_cards(first + [(r.gpu_id(), r.spin_count.value()) for r in self.card_rows if r.gpu_id()])

    def _mixing_problem(self) -> tuple[str, bool]:
        """(why the cards cannot make a build yet, whether that is an error), or ("", False)."""
        if not self._is_gpu() or not self.card_rows:
            return "", False
        first = self._first_gpu()
        if first is not None and not can_sit_beside_others(first):
            return "A computer with unified memory takes no other cards: remove the other cards or choose a card.", True
        if any(c.count > 72 for c in self._cards()):
            return "A build holds at most 72 of one card.", True
        if any(r.gpu_id() is None for r in self.card_rows):
            return "Choose a card in each row (or remove the row).", False  # a row being filled: a hint
        return "", False

    def is_mixed(self) -> bool:
        return self._is_gpu() and len(self._cards()) > 1

    def _on_cards_changed(self, *_args) -> None:
        self._on_current_changed(self.list_records.currentItem())

    def _update_mixing(self) -> None:
        first = self._first_gpu()
        self.button_more.setEnabled(len(self.card_rows) < MAX_OTHER_CARDS
                                    and (first is None or can_sit_beside_others(first)))
        self.label_other_cards.setText("With" if self.card_rows else "")
        # With other cards below, "How many" says which card it counts (the one chosen above).
        name = short_name(first) if first is not None and self.card_rows else ""
        self.label_count.setText(f"How many {name if len(name) <= 24 else name[:23] + '…'}".strip())
        problem, is_error = self._mixing_problem()
        if problem:
            text = f"<span style='color:#C00000'>{problem}</span>" if is_error else problem
        elif self.is_mixed():
            text = ("<b>Different cards in one machine.</b> With llama.cpp each card holds layers in proportion "
                    "to its memory; split evenly (vLLM, tensor parallel), every card works at the slowest card's "
                    "pace. OK also saves this build in your catalog, to edit or find later.")
        else:
            text = ""
        self.label_mixing.setText(text)
        self.label_mixing.setVisible(bool(text))

    # --- the rest ----------------------------------------------------------------------
    def _update_ok(self) -> None:
        self.button_ok.setEnabled(self._chosen() is not None and not self._mixing_problem()[0])

    def _on_current_changed(self, item, _prev=None) -> None:
        is_gpu = self._is_gpu()
        rec = self._records().get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        total = sum(c.count for c in self._cards()) if is_gpu and self._chosen() is not None else self.spin_count.value()
        # A bridge joins two cards of one kind: never offered between different cards.
        self.topology_editor.set_nvlink_possible(is_gpu and getattr(rec, "nvlink", None) is not None
                                                 and total > 1 and not self.is_mixed())
        self._update_mixing()
        self._set_card_links()
        self._set_auto_name()
        self.label_error.setVisible(False)  # a refused save is about the build as it was
        self._update_ok()

    def _on_count_changed(self, _count: int) -> None:
        self._on_current_changed(self.list_records.currentItem())

    def _set_card_links(self) -> None:
        """The links default to the cards' own (an RTX PRO 6000 on PCIe 5.0, not the form's 4.0)."""
        from advisor.core.hardware.catalog import gpu_build, mixed_build

        cards = self._cards() if self._is_gpu() and self._chosen() is not None else ()
        if not cards:
            return
        try:
            built = (gpu_build(self.catalog, cards[0].gpu_id, cards[0].count) if len(cards) == 1
                     else mixed_build(self.catalog, [c.gpu_id for c in cards for _ in range(c.count)]))
        except (LookupError, ValueError):  # a count past what a build holds: said by the mixing note
            return
        ids = tuple(c.gpu_id for c in cards)
        self.topology_editor.set_base(built.topology, widgets=ids != getattr(self, "_links_of", None))
        self._links_of = ids

    def _set_auto_name(self) -> None:
        """The name follows the record and "How many" until the user types one of their own."""
        item = self._chosen()
        if item is None:
            auto = ""
        elif self._is_gpu() and self.card_rows:
            cards = self._cards()
            auto = mixed_name(self.catalog, cards) if len(cards) > 1 else f"{cards[0].count}× {item.data(NAME_ROLE)}"
        elif self._is_gpu():
            auto = f"{self.spin_count.value()}× {item.data(NAME_ROLE)}"
        else:
            auto = item.data(NAME_ROLE)
        if self.edit_name.text().strip() in ("", self._auto_name):
            self.edit_name.setText(auto)
        self._auto_name = auto

    def _topology(self, n_gpus: int) -> Topology:
        self.topology_editor.n_gpus = n_gpus
        return self.topology_editor.topology()

    def accept(self) -> None:
        """OK: a build of different cards is saved in the user's catalog first; a refused save is
        said in one line under the links and the dialog stays open, nothing written."""
        if not self.button_ok.isEnabled():
            return
        if self.is_mixed():
            cards = self._cards()
            try:
                self.saved_build = save_mixed_build(self.catalog, cards, self.edit_name.text(),
                                                    self._topology(sum(c.count for c in cards)), self.user_dir)
            except SaveRefused as exc:
                self.label_error.setText(str(exc))
                self.label_error.setVisible(True)
                return
        super().accept()

    def entry(self) -> BuildEntry | None:
        """What joins the comparison; for a build of different cards, only once OK has saved it."""
        item = self._chosen()
        if item is None:
            return None
        rid = item.data(Qt.ItemDataRole.UserRole)
        name = self.edit_name.text().strip() or self._auto_name or item.data(NAME_ROLE)
        kind = self.combo_kind.currentData()
        if kind == "gpu":
            if self._mixing_problem()[0]:
                return None
            if self.is_mixed():
                saved = self.saved_build
                return BuildEntry(name=saved.name, build_id=saved.id) if saved is not None else None
            n = sum(c.count for c in self._cards())
            return BuildEntry(name=name, gpu_id=rid, gpu_count=n, topology=self._topology(n))
        return BuildEntry(name=name, **{f"{kind}_id": rid})


class TweakDialog(QDialog):
    """Duplicate a build and change its links: e.g. the same pair with and without the bridge."""

    def __init__(self, name: str, resolved: ResolvedBuild, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Duplicate and tweak: {name}")
        self.resolved = resolved
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.edit_name = QLineEdit(f"{name} (tweaked)")
        form.addRow("Name", self.edit_name)
        lay.addLayout(form)
        nvlink = resolved.gpu_count > 1 and all(g.nvlink is not None for g in resolved.gpus)
        self.topology_editor = TopologyEditor(resolved.topology, resolved.gpu_count, nvlink_possible=nvlink)
        lay.addLayout(self.topology_editor)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def entry(self) -> BuildEntry:
        try:
            inline = self.resolved.model_copy(update={"topology": self.topology_editor.topology(), "name": self.edit_name.text()})
            inline = ResolvedBuild.model_validate(inline.model_dump())
        except ValueError:
            inline = self.resolved
        return BuildEntry(name=self.edit_name.text().strip() or "tweaked", inline=inline)


class PreferencesDialog(QDialog):
    def __init__(self, prefs: Settings, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.prefs = prefs
        form = QFormLayout(self)
        self.combo_memory_unit = QComboBox()
        self.combo_memory_unit.addItems(["GiB", "GB"])
        self.combo_memory_unit.setCurrentText(prefs.memory_unit)
        self.combo_memory_unit.setToolTip("GiB = 1024³ bytes (what the card reports); GB = 10⁹ bytes (the box)")
        form.addRow("Memory sizes in", self.combo_memory_unit)
        self.combo_currency_style = QComboBox()
        self.combo_currency_style.addItem("$1,234", "symbol")
        self.combo_currency_style.addItem("1,234 USD", "code")
        self.combo_currency_style.setCurrentIndex(0 if prefs.currency_style == "symbol" else 1)
        form.addRow("Prices shown as", self.combo_currency_style)
        self.combo_default_engine = QComboBox()
        for e in Engine:
            self.combo_default_engine.addItem(e.label, e.value)
        self.combo_default_engine.setCurrentIndex(self.combo_default_engine.findData(prefs.default_engine.value))
        form.addRow("Engine of a new comparison", self.combo_default_engine)
        # Running cost (issue 18): defaults and sources in advisor.core.cost.running.
        from advisor.core.cost.running import ELECTRICITY_SOURCE

        self.spin_electricity = self._spin(prefs.electricity_usd_per_kwh, 0.001, 5.0, 4, 0.01)
        self.spin_electricity.setToolTip(f"What a kWh costs you. Default: {ELECTRICITY_SOURCE}")
        form.addRow("Electricity price ($/kWh)", self.spin_electricity)
        self.spin_hours = self._spin(prefs.hours_per_day, 0.5, 24.0, 1, 1.0)
        self.spin_hours.setToolTip("Hours a day the machine works (8: a working day; 24: a server around the clock)")
        form.addRow("Hours of use per day", self.spin_hours)
        self.spin_years = self._spin(prefs.years, 0.5, 20.0, 1, 0.5)
        self.spin_years.setToolTip("Years you keep the hardware: its price is spread over the hours of use in them")
        form.addRow("Years of ownership", self.spin_years)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @staticmethod
    def _spin(value: float, low: float, high: float, decimals: int, step: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(low, high)
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        spin.setValue(value)
        return spin

    def result_prefs(self) -> Settings:
        # Validated again (the spin boxes' ranges sit inside the settings' bounds).
        return Settings.model_validate({**self.prefs.model_dump(), **{
            "memory_unit": self.combo_memory_unit.currentText(),
            "currency_style": self.combo_currency_style.currentData(),
            "default_engine": Engine(self.combo_default_engine.currentData()),
            "electricity_usd_per_kwh": self.spin_electricity.value(),
            "hours_per_day": self.spin_hours.value(),
            "years": self.spin_years.value(),
        }})


def text_dialog(parent, title: str, html: str) -> QDialog:
    d = QDialog(parent)
    d.setWindowTitle(title)
    lay = QVBoxLayout(d)
    view = QTextBrowser()
    view.setOpenExternalLinks(True)
    view.setHtml(html)
    lay.addWidget(view)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(640, 520)
    return d
