"""A form built from a pydantic model's fields that validates as you type.

Every change rebuilds the candidate dict from the field editors and runs the core's own
``Model.model_validate``; each error goes next to its field (a nested error names its
path), errors of the whole record (memory_gib vs memory_gb_marketing …) above the form.

Signals:
  changed()              any field was edited
  validity_changed(bool) the candidate became valid or invalid
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from advisor.ui.catalog_editor.fields import FieldEditor, editor_for

ERROR_STYLE = "color: #c62828;"


#: Labels people use, with units (not field names made readable: "Pcie gen", "Tdp (W)", "P2p supported").
LABELS = {
    "id": "Id (file name)", "vendor": "Vendor", "name": "Name", "segment": "Market segment",
    "memory_gib": "Memory reported (GiB)", "memory_gb_marketing": "Memory advertised (GB)",
    "memory_type": "Memory type", "mem_bandwidth_gb_per_s": "Memory bandwidth (GB/s)",
    "fp32_tflops": "FP32 (TFLOP/s)", "bf16_tflops_dense": "BF16 tensor, dense (TFLOP/s)",
    "fp16_acc16_tflops_dense": "FP16 tensor, FP16 acc., dense (TFLOP/s)",
    "fp8_tflops_dense": "FP8 tensor, dense (TFLOP/s)", "int8_tops_dense": "INT8 tensor, dense (TOP/s)",
    "fp4_tflops_dense": "FP4 tensor, dense (TFLOP/s)", "bf16_supported": "Runs BF16",
    "tdp_w": "Board power (W)", "form_factor": "Form factor", "slot_width": "Slot width (slots)",
    "length_mm": "Card length (mm)", "power_connectors": "Power connectors", "pcie_gen": "PCIe generation",
    "pcie_lanes": "PCIe lanes", "p2p_supported": "PCIe peer-to-peer", "nvlink": "NVLink",
    "pci_device_ids": "PCI device ids", "launch_date": "Launch date", "prices": "Prices",
    "sources": "Sources (web addresses)", "notes": "Notes", "host_ram_gib": "Host memory (GiB)",
    "cpu": "CPU", "cpu_pcie_lanes": "CPU PCIe lanes", "platform_cost_usd": "Platform cost (USD)",
    "platform_power_w": "Platform power (W)", "psu_w": "Power supply (W)", "unified_memory": "Unified memory",
    "gpu_id": "GPU", "gpu_count": "GPUs", "provider": "Provider", "instance_type": "Instance type",
    "total_gpu_memory_gb": "GPU memory in total (GB)", "url": "Web page", "kind": "Kind",
    "version": "Version", "total_gb_per_s_per_gpu": "Bandwidth per GPU (GB/s)", "max_gpus": "Most GPUs joined",
    "bridge_slot_spacings": "Bridge slot spacings",
    # platform tiers
    "max_cards": "Most cards", "max_card_slots": "Widest card (slots)", "gpu_power_w": "Power for the cards (W)",
    "board": "Motherboard", "ram": "RAM", "psu": "Power supply(s)", "case": "Case or frame", "cooling": "Cooling",
    "max_ram_gib": "Most RAM the board takes (GiB)", "ram_usd_per_gib": "More RAM (USD per GiB)",
    "ram_price_source": "More RAM: where its price comes from", "ram_price_date": "More RAM: day its price was seen",
    "cools_passive_cards": "Cools fanless cards", "only_passive_cards": "Fanless cards only",
    "passive_cooler_usd": "Fan and shroud per fanless card (USD)",
    "passive_cooler_source": "Fan and shroud: where its price comes from",
    "passive_cooler_date": "Fan and shroud: day its price was seen", "pcie_lanes_per_gpu": "PCIe lanes per card",
    "slot_lanes": "Lanes of each GPU slot", "chipset_slots": "GPU slots behind the chipset",
    "slot_spacing": "Slot spacing (slots)", "sold_new_until": "Sold new until",
    "gpu_memory_limit_gib": "GPU memory limit, macOS (GiB)", "ram_channels": "RAM channels",
    "ram_mt_per_s": "RAM speed (MT/s)",
    "single_thread_mark": "Single-core speed (PassMark single-thread)",
    "cpu_single_thread_mark": "CPU single-core speed (PassMark single-thread)",
}


def field_label(name: str) -> str:
    """The label a buyer reads; else 'mem_bandwidth_gb_per_s' → 'Mem bandwidth (GB/s)'."""
    if name in LABELS:
        return LABELS[name]
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
    """A message line whose space is always kept, so the form never jumps when it fills."""
    label = QLabel()
    label.setStyleSheet(ERROR_STYLE)
    label.setWordWrap(True)
    label.setMinimumHeight(label.fontMetrics().lineSpacing())
    return label


_PYDANTIC_WORDS = {
    "missing": "Needed.", "string_too_short": "Needed.", "too_short": "Needed.",
    "greater_than": "Must be more than {gt:g}.", "greater_than_equal": "Must be at least {ge:g}.",
    "less_than_equal": "Must be at most {le:g}.", "less_than": "Must be less than {lt:g}.",
    "float_parsing": "Enter a number.", "float_type": "Enter a number.", "int_parsing": "Enter a whole number.",
    "int_type": "Enter a whole number.", "int_from_float": "Enter a whole number.",
    "date_from_datetime_parsing": "Enter a date as YYYY-MM-DD.", "date_parsing": "Enter a date as YYYY-MM-DD.",
    "url_parsing": "Enter a web address (https://…).", "url_scheme": "Enter a web address (https://…).",
    "enum": "Choose one of the listed values.", "finite_number": "Enter a number.",
    "string_pattern_mismatch": "Use lower-case letters, digits, dots and dashes (like rtx-4090-oc).",
}


def words_for(err: dict) -> str:
    """A pydantic error as a sentence about the field the user sees (no types, no field names)."""
    template = _PYDANTIC_WORDS.get(err.get("type", ""))
    if template is not None:
        try:
            return template.format(**(err.get("ctx") or {}))
        except (KeyError, IndexError, ValueError, TypeError):
            return template.split("{")[0].strip() + "."
    return record_words(err.get("msg", "").removeprefix("Value error, "))


def record_words(msg: str) -> str:
    """A core validator's message in the form's own words (field names become labels)."""
    m = re.match(r"memory_gib ([\d.]+) is not close to memory_gb_marketing ([\d.]+)", msg)
    if m:
        return (f"Memory reported ({float(m[1]):g} GiB) does not match the advertised {float(m[2]):g} GB: "
                "a card reports roughly the size on its box.")
    if msg == "usd_low is above usd_high":
        return "The low price is above the high price."
    for name in sorted(LABELS, key=len, reverse=True):
        msg = re.sub(rf"\b{re.escape(name)}\b", LABELS[name], msg)
    return msg[:1].upper() + msg[1:]


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
        # The record-wide message's room is fixed (two lines; the whole text in its tooltip): a message
        # that came or grew while typing moved every field below it under the cursor.
        self.form_error.setFixedHeight(2 * self.form_error.fontMetrics().lineSpacing() + 2)
        self.form_error.setObjectName("form_error")
        self.valid: bool | None = None
        self.field_messages: dict[str, str] = {}
        self.touched: set[str] = set()  # messages show only for fields the user has edited
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
        err.setWordWrap(False)  # one line, always there: a wrapped label re-lays out the form
        err.setFixedHeight(err.fontMetrics().lineSpacing() + 2)
        err.setObjectName(f"error_{name}")
        lay.addWidget(err)
        label = QLabel(field_label(name))
        label.setWordWrap(True)  # a long label takes two lines, not the form's width
        label.setFixedWidth(label.fontMetrics().horizontalAdvance("Memory bandwidth (GB/s)") + 8)
        label.setToolTip(info.description or "")
        label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.addRow(label, box)
        self.editors[name], self.errors[name] = editor, err
        editor.on_change(lambda *_a, n=name: self._on_edited(n))

    # --- values -------------------------------------------------------------------------
    def set_values(self, values: dict) -> None:
        """Fill the editors (``model_dump(mode='json')`` or defaults) and validate."""
        self._loading = True
        try:
            for name, editor in self.editors.items():
                editor.set(values.get(name))
        finally:
            self._loading = False
        self.touched = set()  # a fresh record: nothing is said before the user types
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

    def touch(self, names: set[str]) -> None:
        """Show the messages of ``names`` now, as if the user had edited them."""
        self.touched |= names & self.editors.keys()
        self.revalidate()

    def _on_edited(self, name: str = "") -> None:
        if not self._loading:
            self.touched.add(name)
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
                    rest = " ".join(field_label(p) for p in loc[1:] if not p.isdigit())
                    msg = words_for(err)
                    field_msgs.setdefault(loc[0], f"{rest}: {msg}" if rest else msg)
                elif loc and loc[0] in field_msgs:
                    continue  # missing because it did not parse: its parse message says why
                else:
                    form_msgs.append(words_for(err))
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
            msg = field_msgs.get(name, "") if name in self.touched else ""
            label.setText(msg)
            label.setToolTip(msg)  # a message wider than the form is read here
        self.form_error.setText(" ".join(form_msgs) if self.touched else "")
        self.form_error.setToolTip(self.form_error.text())
        valid = record is not None
        if valid != self.valid:
            self.valid = valid
            self.validity_changed.emit(valid)
        return record

    def set_read_only(self, names: set[str], read_only: bool = True) -> None:
        for name in names & self.editors.keys():
            self.editors[name].set_read_only(read_only)
