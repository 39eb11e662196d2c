"""The model box of the workload panel: a preset, any size (a generic decoder), or a model file.

Edits go to the session (``set_model``, ``import_model``); the box redraws from ``model_changed``.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
)

from advisor.core import ModelRef
from advisor.core import format_params as fmt_params
from advisor.ui.tooltips import TIPS

GENERIC_MIN, GENERIC_MAX = 0.5e9, 1e12
SLIDER_STEPS = 400


def slider_to_params(pos: int) -> float:
    return GENERIC_MIN * (GENERIC_MAX / GENERIC_MIN) ** (pos / SLIDER_STEPS)


def params_to_slider(n: float) -> int:
    n = min(max(n, GENERIC_MIN), GENERIC_MAX)
    return round(SLIDER_STEPS * math.log(n / GENERIC_MIN) / math.log(GENERIC_MAX / GENERIC_MIN))


class ModelBox(QGroupBox):
    """Which model: the catalog's presets, a generic decoder of any size, or an imported file."""

    def __init__(self, session, parent=None) -> None:
        super().__init__("Model", parent)
        self.session = session
        self._build()
        self.combo_model.activated.connect(self._on_preset_chosen)
        self.combo_model.lineEdit().returnPressed.connect(self._on_preset_typed)
        self.slider_generic.valueChanged.connect(self._on_generic_moved)
        self.button_open_model.clicked.connect(self.choose_model_file)
        session.model_changed.connect(self._on_model_changed)
        session.catalog_loaded.connect(self._on_catalog_loaded)

    def _build(self) -> None:
        form = QFormLayout(self)
        self.combo_model = QComboBox()
        self.combo_model.setEditable(True)
        self.combo_model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo_model.setToolTip(TIPS["model"])
        self.combo_model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo_model.setMinimumContentsLength(10)
        self.combo_model.completer().setFilterMode(Qt.MatchFlag.MatchContains)
        self.combo_model.completer().setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        form.addRow("Preset", self.combo_model)
        self.slider_generic = QSlider(Qt.Orientation.Horizontal)
        self.slider_generic.setRange(0, SLIDER_STEPS)
        self.slider_generic.setToolTip(TIPS["generic"])
        self.label_generic = QLabel("—")
        self.label_generic.setMinimumWidth(56)
        row = QHBoxLayout()
        row.addWidget(self.slider_generic, 1)
        row.addWidget(self.label_generic)
        form.addRow("Any size", row)
        self.button_open_model = QPushButton("Open a model file…")
        self.button_open_model.setToolTip(TIPS["import"])
        form.addRow(self.button_open_model)
        self.label_model = QLabel()
        self.label_model.setWordWrap(True)
        form.addRow(self.label_model)

    def _on_catalog_loaded(self) -> None:
        self.combo_model.blockSignals(True)
        self.combo_model.clear()
        models = self.session.catalog.models if self.session.catalog is not None else {}
        for mid, arch in models.items():
            self.combo_model.addItem(f"{arch.name}", mid)
        self.combo_model.blockSignals(False)
        self._on_model_changed(self.session.model)

    def _on_preset_chosen(self, index: int) -> None:
        mid = self.combo_model.itemData(index)
        if mid:
            self.session.set_model(ModelRef(preset_id=mid))

    def _on_preset_typed(self) -> None:
        i = self.combo_model.findText(self.combo_model.currentText(), Qt.MatchFlag.MatchContains)
        if i >= 0:
            self.combo_model.setCurrentIndex(i)
            self._on_preset_chosen(i)

    def _on_generic_moved(self, pos: int) -> None:
        n = float(f"{slider_to_params(pos):.3g}")
        self.label_generic.setText(fmt_params(n))
        self.session.set_model(ModelRef(generic_params=n))

    def _on_model_changed(self, ref: ModelRef) -> None:
        arch = self.session.arch
        self.combo_model.blockSignals(True)
        self.slider_generic.blockSignals(True)
        if ref.kind == "preset":
            i = self.combo_model.findData(ref.preset_id)
            self.combo_model.setCurrentIndex(i)
            if i < 0:
                self.combo_model.setEditText(ref.preset_id)
        else:
            self.combo_model.setCurrentIndex(-1)
            self.combo_model.setEditText("")
        if ref.kind == "generic":
            self.slider_generic.setValue(params_to_slider(ref.generic_params))
            self.label_generic.setText(fmt_params(ref.generic_params))
        self.combo_model.blockSignals(False)
        self.slider_generic.blockSignals(False)
        where = {"preset": "preset", "generic": "generic dense decoder", "imported": f"imported from {ref.imported_path}"}[ref.kind]
        if arch is None:
            self.label_model.setText(f"<i>{where}: architecture unknown — no estimate</i>")
        else:
            self.label_model.setText(f"{arch.name} · {arch.n_layers} layers · hidden {arch.hidden_size} · "
                                     f"{arch.n_heads}/{arch.n_kv_heads} heads · {where}")

    def choose_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a model", "", "Model config (config.json *.json);;GGUF (*.gguf);;All files (*)")
        if path:
            self.session.import_model(path)

