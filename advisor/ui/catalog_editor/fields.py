"""One small editor widget per pydantic field type, chosen from the field's annotation.

Each editor gives back raw input (``get`` → (value, parse error or None)) and leaves the
rules to the core: numbers go to ``model_validate`` as typed text, so 'abc', '-24' and
'nan' are refused by the core (the form words its messages). A card's NVLink has its own
widgets (buyers edit it, and raw JSON is not for buyers); other nested records (topology, a build's GPUs, MoE …)
are edited as JSON text, the same JSON as in the record's file.
"""

from __future__ import annotations

import datetime as dt
import json
import types
from enum import Enum
from typing import Annotated, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor.core import NvLink
from advisor.storage import json_text

UNKNOWN = "unknown"


def strip_optional(annotation) -> tuple[object, bool]:
    """(inner type, optional?) for ``X | None``; ``Annotated`` constraints dropped (pydantic checks them)."""
    optional = False
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            annotation, optional = args[0], len(args) != len(get_args(annotation))
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation, optional


_W = TypeVar("_W", bound=QWidget)


class FieldEditor(Generic[_W]):
    """Base: ``widget`` to lay out, ``get()``/``set()`` the raw value, ``on_change(fn)``."""

    def __init__(self, name: str, info: FieldInfo, optional: bool) -> None:
        self.name, self.info, self.optional = name, info, optional
        self.widget: _W = self._make()
        self.widget.setObjectName(f"field_{name}")
        if info.description:
            self.widget.setToolTip(info.description)

    def _make(self) -> _W:
        raise NotImplementedError

    def get(self) -> tuple[object, str | None]:
        raise NotImplementedError

    def set(self, value: object) -> None:
        raise NotImplementedError

    def on_change(self, fn) -> None:
        raise NotImplementedError

    def set_read_only(self, read_only: bool) -> None:
        self.widget.setEnabled(not read_only)


class TextEditor(FieldEditor[QLineEdit]):
    """Strings, numbers, dates and URLs: typed text, empty = unknown where the field allows."""

    placeholder = ""

    def _make(self) -> QLineEdit:
        w = QLineEdit()
        w.setPlaceholderText(self.placeholder or (UNKNOWN if self.optional else ""))
        return w

    def get(self) -> tuple[object, str | None]:
        text = self.widget.text().strip()
        return (None if text == "" and self.optional else text), None

    def set(self, value: object) -> None:
        self.widget.setText("" if value is None else str(value))

    def on_change(self, fn) -> None:
        self.widget.textChanged.connect(fn)

    def set_read_only(self, read_only: bool) -> None:
        self.widget.setReadOnly(read_only)


class NumberEditor(TextEditor):
    def set(self, value: object) -> None:
        # Exact: '{:g}' would round 6738415616 to 6.73842e+09 and save a changed number.
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        self.widget.setText("" if value is None else repr(value) if isinstance(value, float) else str(value))


class DateEditor(TextEditor):
    placeholder = "YYYY-MM-DD"


class BoolEditor(FieldEditor[QCheckBox]):
    def _make(self) -> QCheckBox:
        return QCheckBox()

    def get(self) -> tuple[object, str | None]:
        return self.widget.isChecked(), None

    def set(self, value: object) -> None:
        self.widget.setChecked(bool(value))

    def on_change(self, fn) -> None:
        self.widget.toggled.connect(fn)


class ChoiceEditor(FieldEditor[QComboBox]):
    """Enums, and yes/no/unknown for optional booleans."""

    def __init__(self, name: str, info: FieldInfo, optional: bool, choices: list[tuple[str, object]]) -> None:
        self.choices = ([(UNKNOWN, None)] if optional else []) + choices
        super().__init__(name, info, optional)

    def _make(self) -> QComboBox:
        w = QComboBox()
        for label, _ in self.choices:
            w.addItem(label)
        return w

    def get(self) -> tuple[object, str | None]:
        return self.choices[self.widget.currentIndex()][1], None

    def set(self, value: object) -> None:
        values = [v for _, v in self.choices]
        value = value.value if isinstance(value, Enum) else value
        self.widget.setCurrentIndex(values.index(value) if value in values else 0)

    def on_change(self, fn) -> None:
        self.widget.currentIndexChanged.connect(fn)


class LinesEditor(FieldEditor[QPlainTextEdit]):
    """A list of short strings (source URLs, PCI ids): one per line."""

    def _make(self) -> QPlainTextEdit:
        w = QPlainTextEdit()
        w.setMaximumHeight(80)
        w.setPlaceholderText("one per line")
        return w

    def get(self) -> tuple[object, str | None]:
        return [line.strip() for line in self.widget.toPlainText().splitlines() if line.strip()], None

    def set(self, value: object) -> None:
        self.widget.setPlainText("\n".join(str(v) for v in (value or ())))

    def on_change(self, fn) -> None:
        self.widget.textChanged.connect(fn)

    def set_read_only(self, read_only: bool) -> None:
        self.widget.setReadOnly(read_only)


class NotesEditor(LinesEditor):
    """Free text over several lines (a record's notes)."""

    def get(self) -> tuple[object, str | None]:
        return self.widget.toPlainText(), None

    def set(self, value: object) -> None:
        self.widget.setPlainText("" if value is None else str(value))


class JsonEditor(LinesEditor):
    """Nested records as JSON text (empty = none where the field allows it)."""

    def _make(self) -> QPlainTextEdit:
        w = QPlainTextEdit()
        w.setMaximumHeight(110)
        w.setPlaceholderText("JSON; empty = none" if self.optional else "JSON")
        return w

    def get(self) -> tuple[object, str | None]:
        text = self.widget.toPlainText().strip()
        if text == "" and self.optional:
            return None, None
        try:
            return json_text.loads(text), None
        except json_text.JSONTextError as exc:  # a 5,000-digit number too, not only bad syntax
            return None, str(exc)

    def set(self, value: object) -> None:
        self.widget.setPlainText("" if value is None else json.dumps(value, indent=1, ensure_ascii=False))


class NvLinkEditor(FieldEditor[QWidget]):
    """A card's NVLink as widgets, not raw JSON: on/off, version, bandwidth, group size, bridges."""

    def _make(self) -> QWidget:
        box = QWidget()
        outer = QVBoxLayout(box)
        outer.setContentsMargins(0, 0, 0, 0)
        self.check_has = QCheckBox("Has NVLink")
        self.check_has.setToolTip("NVLink, or another direct GPU-to-GPU link (AMD Infinity Fabric)")
        outer.addWidget(self.check_has)
        self.details = QWidget()
        form = QFormLayout(self.details)
        form.setContentsMargins(16, 0, 0, 0)
        self.edit_version = QLineEdit()
        self.edit_version.setPlaceholderText("NVLink 3")
        self.edit_bandwidth = QLineEdit()
        self.edit_bandwidth.setPlaceholderText("112.5")
        self.spin_max_gpus = QSpinBox()
        self.spin_max_gpus.setRange(2, 576)
        self.edit_spacings = QLineEdit()
        self.edit_spacings.setPlaceholderText("3, 4 (empty: no bridge)")
        form.addRow("Version", self.edit_version)
        form.addRow("Bandwidth (GB/s)", self.edit_bandwidth)
        self.edit_bandwidth.setToolTip("Per GPU, both directions added (an RTX 3090 pair: 112.5)")
        form.addRow("Most GPUs joined", self.spin_max_gpus)
        form.addRow("Bridge slot spacings", self.edit_spacings)
        outer.addWidget(self.details)
        self.check_has.toggled.connect(self.details.setEnabled)
        self.details.setEnabled(False)
        return box

    def get(self) -> tuple[object, str | None]:
        if not self.check_has.isChecked():
            return None, None
        try:
            spacings = [int(t) for t in self.edit_spacings.text().replace(",", " ").split()]
        except ValueError:
            return None, "Bridge slot spacings: whole numbers separated by commas."
        return {"version": self.edit_version.text().strip(), "total_gb_per_s_per_gpu": self.edit_bandwidth.text().strip(),
                "max_gpus": self.spin_max_gpus.value(), "bridge_slot_spacings": spacings}, None

    def set(self, value: object) -> None:
        value = value or {}
        self.check_has.setChecked(bool(value))
        self.details.setEnabled(bool(value))
        self.edit_version.setText(str(value.get("version", "")))
        bw = value.get("total_gb_per_s_per_gpu")
        self.edit_bandwidth.setText("" if bw is None else f"{bw:g}")
        self.spin_max_gpus.setValue(int(value.get("max_gpus", 2)))
        self.edit_spacings.setText(", ".join(str(v) for v in value.get("bridge_slot_spacings", ())))

    def on_change(self, fn) -> None:
        self.check_has.toggled.connect(fn)
        self.edit_version.textChanged.connect(fn)
        self.edit_bandwidth.textChanged.connect(fn)
        self.spin_max_gpus.valueChanged.connect(fn)
        self.edit_spacings.textChanged.connect(fn)


#: Choices as a buyer reads them (the stored value is unchanged): kinds of price, parts, fabrics.
CHOICE_WORDS = {
    "launch_msrp": "launch price", "street_new": "new", "used": "used", "list": "list price",
    "unified-memory": "unified memory", "cpu": "CPU", "psu": "power supply", "ram": "RAM kit",
    "nvlink_bridge": "NVLink bridge", "nic": "network card", "infiniband": "InfiniBand", "efa": "AWS EFA",
    "roce": "RoCE (RDMA over Ethernet)", "ethernet": "Ethernet",
}


def choice_words(value: object) -> str:
    text = str(value)
    return CHOICE_WORDS.get(text, text.replace("_", " "))


def is_model_sequence(annotation) -> type[BaseModel] | None:
    """The item model of ``tuple[Model, ...]`` (price histories), else None."""
    if get_origin(annotation) is tuple:
        args = get_args(annotation)
        if args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            return args[0]
    return None


def editor_for(name: str, info: FieldInfo) -> FieldEditor | None:
    """The editor of one field; None for fields the form does not show (schema_version)."""
    inner, optional = strip_optional(info.annotation)
    if get_origin(inner) is Literal:
        return None
    if inner is NvLink:
        return NvLinkEditor(name, info, optional)
    return _value_editor(name, info, inner, optional) or _text_editor(name, info, inner, optional)


def _value_editor(name: str, info: FieldInfo, inner, optional: bool) -> FieldEditor | None:
    """A yes/no, a choice, a number or a date; None for fields edited as text."""
    if inner is bool:
        if optional:
            return ChoiceEditor(name, info, True, [("yes", True), ("no", False)])
        return BoolEditor(name, info, False)
    if isinstance(inner, type) and issubclass(inner, Enum):
        return ChoiceEditor(name, info, optional, [(choice_words(m.value), m.value) for m in inner])
    if inner in (int, float):
        return NumberEditor(name, info, optional)
    if inner is dt.date:
        return DateEditor(name, info, optional)
    return None


def _text_editor(name: str, info: FieldInfo, inner, optional: bool) -> FieldEditor:
    """Notes, one line of text, a list of lines, or JSON for anything else (nested records)."""
    if inner is str and name == "notes":
        return NotesEditor(name, info, optional)
    if inner is str or (isinstance(inner, type) and not issubclass(inner, BaseModel) and get_origin(inner) is None):
        return TextEditor(name, info, optional)  # str, HttpUrl
    args = get_args(inner)
    if get_origin(inner) in (list, tuple) and args and not (isinstance(args[0], type) and issubclass(args[0], BaseModel)) \
            and get_origin(args[0]) is None and args[0] is not int:
        return LinesEditor(name, info, optional)
    return JsonEditor(name, info, optional)
