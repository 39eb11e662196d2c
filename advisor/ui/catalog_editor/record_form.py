"""The record form: every field of one record, validated as you type, Save and Revert.

Editing an existing record locks its id (the id is the file name); a new record (from
scratch or duplicated from a sibling) needs an id no record of its kind has. Save stays
disabled while anything is invalid or nothing changed.

Signals:
  save_requested(object)  the validated record the user asked to save
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from advisor.core import CatalogRecord, Origin, RecordKind
from advisor.ui.catalog_editor.columns import KIND_WORDS, PROVENANCE_FIELDS, diff_text, field_diff
from advisor.ui.catalog_editor.fields import is_model_sequence
from advisor.ui.catalog_editor.model_form import ModelForm
from advisor.ui.catalog_editor.price_history import PricesEditor


def _special_editor(name: str, info):
    item = is_model_sequence(info.annotation)
    return PricesEditor(name, info, item) if name == "prices" and item is not None else None


class RecordForm(QWidget):
    save_requested = Signal(object)

    def __init__(self, kind: RecordKind, taken_ids: Callable[[], set[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = RecordKind(kind)
        self.taken_ids = taken_ids
        self.original: CatalogRecord | None = None
        self.is_new = False
        self.title = QLabel()
        self.title.setObjectName("form_title")
        self.title.setWordWrap(True)
        self.changes = QLabel()
        self.changes.setObjectName("form_changes")
        self.changes.setWordWrap(True)
        self.form = ModelForm(self.kind.record_type, special=_special_editor)
        self.form.extra_check = self._check_id
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        buttons = QDialogButtonBox()
        self.button_save = QPushButton("Save")
        self.button_save.setObjectName("button_save")
        self.button_save.setDefault(True)
        self.button_revert = QPushButton("Revert")
        buttons.addButton(self.button_save, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.button_revert, QDialogButtonBox.ButtonRole.ResetRole)
        self.button_save.clicked.connect(self._on_save_clicked)
        self.button_revert.clicked.connect(self.revert)
        self.form.changed.connect(self._update_buttons)
        self.form.validity_changed.connect(self._update_buttons)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.title)
        lay.addWidget(self.changes)
        lay.addWidget(scroll, 1)
        lay.addWidget(buttons)
        self.clear()

    # --- what the form shows --------------------------------------------------------------
    def clear(self) -> None:
        self.original, self.is_new = None, False
        self.title.setText("Select a record, or add one")
        self.changes.setVisible(False)
        self.form.setEnabled(False)
        self._update_buttons()

    def edit(self, record: CatalogRecord, origin: Origin, shipped: CatalogRecord | None = None) -> None:
        """Show an existing record; its id is locked."""
        self.original, self.is_new = record, False
        self.form.setEnabled(True)
        self.title.setText(f"<b>{record.id}</b> — {self._origin_text(origin)}")
        self.show_changes(shipped, record)
        self.form.set_values(record.model_dump(mode="json"))
        self.form.set_read_only({"id"}, True)
        self._update_buttons()

    def new(self, template: CatalogRecord | None = None) -> None:
        """A new record: blank, or ``template``'s specs (not its provenance: ``PROVENANCE_FIELDS``)
        under an id that must be changed."""
        self.original, self.is_new = None, True
        self.form.setEnabled(True)
        self.changes.setVisible(False)
        noun = KIND_WORDS[self.kind]
        values = self.form.defaults()
        if template is None:
            self.title.setText(f"<b>New {noun}</b> — fill in the fields, then Save")
        else:
            copied = template.model_dump(mode="json")
            values.update({k: v for k, v in copied.items() if k not in PROVENANCE_FIELDS})
            values["id"] = f"{template.id}-copy"
            self.title.setText(f"<b>New {noun}</b> with the specs of {template.id}: give it its own id, and "
                               "the sources of its numbers")
        self.form.set_read_only({"id"}, False)
        self.form.set_values(values)
        if template is not None:
            self.form.touch({"sources"})  # say at once that a copy needs its own sources
        self._update_buttons()

    def orphan(self) -> None:
        """The record shown is gone (an undone save, a change on disk) while the form holds edits:
        the edits stay, as a new record that Save adds again."""
        if self.original is None:
            return
        gone = self.original.id
        self.original, self.is_new = None, True
        self.form.set_read_only({"id"}, False)
        self.title.setText(f"<b>{gone}</b> is no longer in the catalog; your edits are kept here as a new "
                           f"{KIND_WORDS[self.kind]} — Save adds it again, Revert drops them")
        self._update_buttons()

    def show_changes(self, shipped: CatalogRecord | None, record: CatalogRecord) -> None:
        diff = field_diff(shipped, record) if shipped is not None else []
        self.changes.setText("Changed from shipped:\n" + diff_text(diff) if diff else "")
        self.changes.setVisible(bool(diff))

    @staticmethod
    def _origin_text(origin: Origin) -> str:
        return {Origin.SHIPPED: "shipped with the app (saving makes it your edited copy)",
                Origin.USER: "your record", Origin.OVERRIDE: "shipped record you edited"}[origin]

    # --- state ------------------------------------------------------------------------------
    def _check_id(self, data: dict) -> dict[str, str]:
        if self.is_new and data.get("id") in self.taken_ids():
            return {"id": f"a {KIND_WORDS[self.kind]} with id {data['id']!r} already exists: choose another"}
        return {}

    def current(self) -> CatalogRecord | None:
        """The valid record the fields describe, or None."""
        return self.form.revalidate() if self.form.isEnabled() else None

    def is_dirty(self) -> bool:
        if not self.form.isEnabled():
            return False
        if self.is_new:
            return True
        record, _, _ = self.form.validate()
        return record is None or record != self.original

    def _update_buttons(self, *_args) -> None:
        enabled = self.form.isEnabled()
        valid = bool(self.form.valid) and enabled
        self.button_save.setEnabled(valid and self.is_dirty())
        self.button_revert.setEnabled(enabled and self.is_dirty())

    def revert(self) -> None:
        if self.original is not None:
            self.form.set_values(self.original.model_dump(mode="json"))
        elif self.is_new:
            self.clear()
        self._update_buttons()

    def _on_save_clicked(self) -> None:
        record = self.current()
        if record is not None:
            self.save_requested.emit(record)
