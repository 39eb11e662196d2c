"""A form built from a pydantic model's fields that validates as you type.

Every change rebuilds the candidate dict from the field editors and runs the core's own
``Model.model_validate``; each error goes next to its field (a nested error names its
path), errors of the whole record (memory_gib vs memory_gb_marketing …) above the form.

Signals:
  changed()              any field was edited
  validity_changed(bool) the candidate became valid or invalid
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from advisor.ui.catalog_editor.fields import FieldEditor, editor_for

ERROR_STYLE = "color: #c62828;"


def field_label(name: str) -> str:
    """'mem_bandwidth_gb_per_s' → 'Mem bandwidth (GB/s)': the unit suffix said as a unit."""
    units = {"_gb_per_s": "GB/s", "_gib": "GiB", "_gb": "GB", "_w": "W", "_usd": "USD", "_mm": "mm",
             "_tflops_dense": "TFLOP/s dense", "_tops_dense": "TOP/s dense", "_tflops": "TFLOP/s",
             "_gb_marketing": "GB, printed"}
    special = {"usd": "USD", "usd_low": "USD low", "usd_high": "USD high", "usd_per_hour": "USD per hour"}
    if name in special:
        return special[name]
    for suffix, unit in units.items():
        if name.endswith(suffix):
            base = name[: -len(suffix)].replace("_", " ")
            return f"{base[:1].upper()}{base[1:]} ({unit})"
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def error_label() -> QLabel:
    label = QLabel()
    label.setStyleSheet(ERROR_STYLE)
    label.setWordWrap(True)
    label.setVisible(False)
    return label


class ModelForm(QWidget):
    changed = Signal()
    validity_changed = Signal(bool)

    def __init__(self, model: type[BaseModel], parent: QWidget | None = None,
                 special: Callable[[str, object], FieldEditor | None] | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.editors: dict[str, FieldEditor] = {}
        self.errors: dict[str, QLabel] = {}
        self.extra_check: Callable[[dict], dict[str, str]] | None = None
        self.form_error = error_label()
        self.valid: bool | None = None
        self.field_messages: dict[str, str] = {}
        self._loading = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.form_error)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        outer.addLayout(form)
        for name, info in model.model_fields.items():
            editor = (special and special(name, info)) or editor_for(name, info)
            if editor is None:
                continue
            self._add_row(form, name, info, editor)

    def _add_row(self, form: QFormLayout, name: str, info, editor: FieldEditor) -> None:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        lay.addWidget(editor.widget)
        err = error_label()
        err.setObjectName(f"error_{name}")
        lay.addWidget(err)
        label = QLabel(field_label(name))
        label.setToolTip(info.description or "")
        label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.addRow(label, box)
        self.editors[name], self.errors[name] = editor, err
        editor.on_change(self._on_edited)

    # --- values -------------------------------------------------------------------------
    def set_values(self, values: dict) -> None:
        """Fill the editors (``model_dump(mode='json')`` or defaults) and validate."""
        self._loading = True
        try:
            for name, editor in self.editors.items():
                editor.set(values.get(name))
        finally:
            self._loading = False
        self.revalidate()

    def defaults(self) -> dict:
        return {n: (None if f.is_required() else f.get_default(call_default_factory=True))
                for n, f in self.model.model_fields.items()}

    def candidate(self) -> tuple[dict, dict[str, str]]:
        """(raw values by field, parse errors by field)."""
        data, errors = {}, {}
        for name, editor in self.editors.items():
            value, err = editor.get()
            data[name] = value
            if err:
                errors[name] = err
        return data, errors

    def _on_edited(self, *_args) -> None:
        if not self._loading:
            self.revalidate()
            self.changed.emit()

    # --- validation ---------------------------------------------------------------------
    def validate(self) -> tuple[BaseModel | None, dict[str, str], list[str]]:
        """(record or None, field messages, record-level messages) with the core's rules."""
        data, field_msgs = self.candidate()
        form_msgs: list[str] = []
        record = None
        try:
            record = self.model.model_validate({k: v for k, v in data.items() if k not in field_msgs})
        except ValidationError as exc:
            for err in exc.errors(include_url=False, include_input=False):
                loc = [str(p) for p in err["loc"]]
                if loc and loc[0] in self.editors:
                    rest = ".".join(loc[1:])
                    msg = f"{rest}: {err['msg']}" if rest else err["msg"]
                    field_msgs.setdefault(loc[0], msg)
                elif loc and loc[0] in field_msgs:
                    continue  # missing because it did not parse: its parse message says why
                else:
                    form_msgs.append(err["msg"].removeprefix("Value error, "))
        if self.extra_check:
            for name, msg in self.extra_check(data).items():
                field_msgs.setdefault(name, msg)
        if field_msgs or form_msgs:
            record = None
        return record, field_msgs, form_msgs

    def revalidate(self) -> BaseModel | None:
        record, field_msgs, form_msgs = self.validate()
        self.field_messages = field_msgs
        for name, label in self.errors.items():
            msg = field_msgs.get(name, "")
            label.setText(msg.removeprefix("Value error, "))
            label.setVisible(bool(msg))
        self.form_error.setText("\n".join(form_msgs))
        self.form_error.setVisible(bool(form_msgs))
        valid = record is not None
        if valid != self.valid:
            self.valid = valid
            self.validity_changed.emit(valid)
        return record

    def set_read_only(self, names: set[str], read_only: bool = True) -> None:
        for name in names & self.editors.keys():
            self.editors[name].set_read_only(read_only)
