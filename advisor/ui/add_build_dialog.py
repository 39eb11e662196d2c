"""Add a build: a catalog GPU × count (with its links, and other cards beside it), a catalog build, a
prebuilt system or a cloud instance."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
)

from advisor.core import Build, BuildEntry, Topology, cloud_display_name, display_name
from advisor.ui.card_row import MAX_OTHER_CARDS, CardRow, OtherCards
from advisor.ui.mixed_build import (
    MIXED_NOTE,
    SaveRefused,
    can_sit_beside_others,
    merge_cards,
    mixed_name,
    mixing_problem,
    save_mixed_build,
    short_name,
)
from advisor.ui.topology_editor import TopologyEditor

KINDS = {"gpu": "GPU × count", "build": "Catalog build", "system": "Prebuilt system", "cloud": "Cloud instance"}
NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # the record's display name, the build name's stem


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
        self._auto_name = ""  # the name the dialog wrote; a name the user typed is kept
        lay = QVBoxLayout(self)
        self._make_picker(lay)
        lay.addLayout(self._make_form())
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
        self._connect()
        self.combo_kind.setCurrentIndex(list(KINDS).index(kind))
        self._fill()
        self.resize(540, 600)

    def _make_picker(self, lay: QVBoxLayout) -> None:
        """The kind of record, a search field and the list of records."""
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

    def _make_form(self) -> QFormLayout:
        """How many of the chosen card, the other cards beside it, and the build's name."""
        form = QFormLayout()
        self.spin_count = QSpinBox()
        self.spin_count.setRange(1, 72)
        self.spin_count.setValue(2)
        self.label_count = QLabel("How many")
        form.addRow(self.label_count, self.spin_count)
        self.box_other_cards = OtherCards()
        self.button_more = self.box_other_cards.button_more
        self.label_other_cards = QLabel("With")
        form.addRow(self.label_other_cards, self.box_other_cards)
        self.edit_name = QLineEdit()
        self.edit_name.setMaxLength(120)
        form.addRow("Name", self.edit_name)
        return form

    def _connect(self) -> None:
        self.combo_kind.currentIndexChanged.connect(self._fill)
        self.edit_filter.textChanged.connect(self._filter)
        self.list_records.currentItemChanged.connect(self._on_current_changed)
        # A click sets the current row before it selects it: the name and the links follow the selection.
        self.list_records.itemSelectionChanged.connect(self._on_cards_changed)
        self.spin_count.valueChanged.connect(self._on_count_changed)
        self.button_more.clicked.connect(self.add_card_row)
        self.box_other_cards.changed.connect(self._on_cards_changed)
        self.edit_name.textChanged.connect(lambda _text: self.label_error.setVisible(False))

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
        # Nothing is chosen for the user: OK waits for a row (a search text alone once added a
        # hidden, unrelated card).
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
    @property
    def card_rows(self) -> list[CardRow]:
        return self.box_other_cards.rows

    def add_card_row(self) -> CardRow | None:
        """One more row of "card × how many" (the first card is the one chosen in the list)."""
        choices = [(self._label(g)[0], gid) for gid, g in self.catalog.gpus.items() if can_sit_beside_others(g)]
        return self.box_other_cards.add_row(choices)

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
        self.box_other_cards.remove_row(row)

    def _first_gpu(self):
        item = self._chosen() if self._is_gpu() else None
        return self.catalog.gpus.get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def _cards(self):
        """The machine's cards, merged by kind (the list's card first); rows with no card yet left out."""
        item = self._chosen()
        first = [(item.data(Qt.ItemDataRole.UserRole), self.spin_count.value())] if item is not None else []
        return merge_cards(first + self.box_other_cards.counts())

    def _mixing_problem(self) -> tuple[str, bool]:
        """(why the cards cannot make a build yet, whether that is an error), or ("", False)."""
        if not self._is_gpu():
            return "", False
        rows = bool(self.card_rows)
        return mixing_problem(self._first_gpu(), self._cards(), rows and self.box_other_cards.incomplete(), rows)

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
        else:
            text = MIXED_NOTE if self.is_mixed() else ""
        self.label_mixing.setText(text)
        self.label_mixing.setVisible(bool(text))

    # --- the rest ----------------------------------------------------------------------
    def _update_ok(self) -> None:
        self.button_ok.setEnabled(self._chosen() is not None and not self._mixing_problem()[0])

    def _on_current_changed(self, item, _prev=None) -> None:
        is_gpu = self._is_gpu()
        rec = self._records().get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        total = sum(c.count for c in self._cards()) if is_gpu and self._chosen() is not None else self.spin_count.value()
        # A bridge joins two cards of one kind: never offered between different cards, nor for modules (their board's
        # NVSwitch joins them already: ``on_baseboard``).
        self.topology_editor.set_nvlink_possible(is_gpu and getattr(rec, "nvlink", None) is not None
                                                 and not getattr(rec, "is_module", False) and total > 1
                                                 and not self.is_mixed())
        self._update_mixing()
        self._set_card_links()
        self._set_auto_name()
        self.label_error.setVisible(False)  # a refused save is about the build as it was
        self._update_ok()

    def _on_count_changed(self, _count: int) -> None:
        self._on_current_changed(self.list_records.currentItem())

    def _set_card_links(self) -> None:
        """The links default to the cards' own (an RTX PRO 6000 on PCIe 5.0, not the form's 4.0)."""
        from advisor.core import gpu_build, mixed_build

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
