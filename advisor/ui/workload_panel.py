"""The workload panel: model and every setting of ``Workload``, one widget per field.

Widgets are named after the field they edit (``spin_batch`` ↔ ``workload.batch``), so the
binding table below reads like the model. An edit builds a new validated Workload and
hands it to the session; a rejected value is explained under the controls.
"""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor.core.job.frameworks import FRAMEWORK_NAMES, PROFILES, apply_framework
from advisor.core.job.workload import (
    ATTENTION_OPTION_ENGINES,
    LORA_TARGETS,
    AttentionImpl,
    Checkpointing,
    DecodeAttention,
    Engine,
    Loss,
    Method,
    Mode,
    Objective,
    Optimizer,
    Precision,
    Workload,
)
from advisor.ui import words
from advisor.ui.model_box import ModelBox
from advisor.ui.tooltips import TIPS
from advisor.ui.workload_rules import (
    ACTIVATION_QUANT_WORDS,
    DEFAULT_WEIGHTS,
    KV_DTYPES,
    LOSS_WORDS,
    OBJECTIVE_WORDS,
    OPTIMIZER_KERNEL_WORDS,
    TRT_LLM_VERSIONS,
    SWITCH_WORDS,
    WEIGHT_FORMATS,
    allowed_kv,
    allowed_weights,
    base_choices,
    fix_for_engine,
    weights_key,
)


def _combo(values, tip: str, editable: bool = False, labels=None) -> QComboBox:
    """``labels``: the words shown for ``values`` (kept as each item's data, what the job takes)."""
    c = QComboBox()
    if labels is None:
        c.addItems([str(v) for v in values])
    else:
        for value, label in zip(values, labels, strict=True):
            c.addItem(str(label), str(value))
    # Size to a short text, not the longest item: the panel must stay narrow at 1280 px.
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(8)
    c.setEditable(editable)
    c.setToolTip(tip)
    return c


def _spin(lo: int, hi: int, tip: str, step: int = 1) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setSingleStep(step)
    s.setToolTip(tip)
    s.setKeyboardTracking(False)  # one recompute per committed number, not per keystroke
    s.setAccelerated(True)
    return s


def _decimal_spin(lo: float, hi: float, decimals: int, tip: str, suffix: str = "") -> QDoubleSpinBox:
    s = QDoubleSpinBox()
    s.setRange(lo, hi)
    s.setDecimals(decimals)
    s.setSuffix(suffix)
    s.setToolTip(tip)
    s.setKeyboardTracking(False)  # one recompute per committed number, not per keystroke
    s.setAccelerated(True)
    return s


class WorkloadPanel(QScrollArea):
    """Edits the session's model and workload.

    Signals:
      open_model_requested()   the user asked to open a model file (handled here too)
    """

    open_model_requested = Signal()

    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        self.setWidget(body)
        lay = QVBoxLayout(body)
        self.box_model = ModelBox(session)
        lay.addWidget(self.box_model)
        self.combo_model = self.box_model.combo_model  # the tests and the binding table read it here
        lay.addWidget(self._common_box())
        self.box_inference = self._inference_box()
        self.box_training = self._training_box()
        lay.addWidget(self.box_inference)
        lay.addWidget(self.box_training)
        lay.addWidget(self._plan_box())
        self.label_note = QLabel()  # what the panel changed by itself, and why (grey, not an error)
        self.label_note.setWordWrap(True)
        self.label_note.setObjectName("label_note")
        self.label_note.setStyleSheet("color: palette(mid)")
        lay.addWidget(self.label_note)
        self.label_problems = QLabel()
        self.label_problems.setWordWrap(True)
        self.label_problems.setStyleSheet("color: #C00000")
        self.label_problems.setObjectName("label_problems")
        lay.addWidget(self.label_problems)
        lay.addStretch(1)
        # Weights kept per kind (inference's, LoRA's base, QLoRA's base): switching mode or
        # method shows that kind's last choice, never another kind's (issue 17).
        self._weights_kept: dict = dict(DEFAULT_WEIGHTS)
        # Concurrent sequences and a training micro-batch are different numbers: each mode keeps its
        # own; a first switch to training starts at the job's default micro-batch (Workload.batch: 1).
        self._batch_kept: dict[Mode, int] = {}
        self._weights_key = None
        self._connect()
        session.workload_changed.connect(self._on_workload_changed)
        session.results_computed.connect(self._on_results_computed)
        self._on_workload_changed(session.workload)

    def showEvent(self, event) -> None:
        self._fit_width()
        super().showEvent(event)

    def _fit_width(self) -> None:
        """Never narrower than the widest section, shown or hidden (no horizontal scroll bar)."""
        margins = self.widget().layout().contentsMargins()
        boxes = max(b.minimumSizeHint().width() for b in (self.box_inference, self.box_training))
        content = max(self.widget().minimumSizeHint().width(), boxes + margins.left() + margins.right())
        need = content + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
        if self.minimumWidth() < need:
            self.setMinimumWidth(need)

    # --- building -------------------------------------------------------------------
    def _common_box(self) -> QGroupBox:
        box = QGroupBox("Task")
        form = QFormLayout(box)
        self.combo_mode = _combo([m.value for m in Mode], TIPS["mode"])
        self.combo_mode.setItemText(1, "train")
        form.addRow("Mode", self.combo_mode)
        self.combo_weights = _combo(WEIGHT_FORMATS, TIPS["weights"], editable=True)
        self.label_weights = QLabel("Weights")
        form.addRow(self.label_weights, self.combo_weights)
        self.spin_batch = _spin(1, 100_000, TIPS["batch"])
        self.label_batch = QLabel("Concurrent sequences")
        form.addRow(self.label_batch, self.spin_batch)
        # Training's activations and a prompt's speed both depend on it (issue 15: prefill with and without
        # flash attention); in inference only the engines that let it be chosen take it.
        self.combo_attention = _combo([a.value for a in AttentionImpl], TIPS["attention"])
        form.addRow("Attention", self.combo_attention)
        return box

    def _inference_box(self) -> QGroupBox:
        box = QGroupBox("Inference")
        form = QFormLayout(box)
        self.form_inference = form
        self.combo_engine = _combo([e.value for e in Engine], TIPS["engine"], labels=[e.label for e in Engine])
        form.addRow("Engine", self.combo_engine)
        self.spin_context_len = _spin(1, 10_000_000, TIPS["context_len"], 1024)
        form.addRow("Context length", self.spin_context_len)
        self.spin_prompt_tokens = _spin(-1, 10_000_000, TIPS["prompt_tokens"], 128)
        self.spin_prompt_tokens.setSpecialValueText("not set")  # -1: None (0 is a request with no prompt)
        form.addRow("Prompt tokens", self.spin_prompt_tokens)
        self.combo_kv_dtype = _combo(KV_DTYPES, TIPS["kv_dtype"])
        form.addRow("KV cache type", self.combo_kv_dtype)
        self.combo_decode_attention = _combo([d.value for d in DecodeAttention], TIPS["decode_attention"])
        form.addRow("Decode attention", self.combo_decode_attention)
        self.combo_engine_version = _combo([v for _t, v in TRT_LLM_VERSIONS], TIPS["engine_version"],
                                           labels=[t for t, _v in TRT_LLM_VERSIONS])
        self.combo_engine_version.currentIndexChanged.connect(self._on_control_edited)
        form.addRow("TensorRT-LLM version", self.combo_engine_version)
        self.spin_gpu_memory_utilization = QDoubleSpinBox()
        self.spin_gpu_memory_utilization.setRange(0.05, 1.0)
        self.spin_gpu_memory_utilization.setSingleStep(0.05)
        self.spin_gpu_memory_utilization.setKeyboardTracking(False)
        self.spin_gpu_memory_utilization.setToolTip(TIPS["gpu_memory_utilization"])
        form.addRow("vLLM memory share", self.spin_gpu_memory_utilization)
        return box

    def _training_box(self) -> QGroupBox:
        box = QGroupBox("Fine-tuning")
        form = QFormLayout(box)
        self.combo_method = _combo([m.value for m in Method], TIPS["method"])
        form.addRow("Method", self.combo_method)
        # The objective in words; its item data is the Objective (not bound by text like the rest).
        self.combo_objective = _combo([], TIPS["objective"])
        for objective, text in OBJECTIVE_WORDS.items():
            self.combo_objective.addItem(text, objective.value)
        form.addRow("Objective", self.combo_objective)
        self.check_precompute_ref = QCheckBox("reference scores computed beforehand")
        self.check_precompute_ref.setToolTip(TIPS["precompute_ref"])
        form.addRow(self.check_precompute_ref)
        self.combo_precision = _combo([p.value for p in Precision], TIPS["precision"])
        form.addRow("Precision", self.combo_precision)
        self.combo_optimizer = _combo([o.value for o in Optimizer], TIPS["optimizer"])
        form.addRow("Optimizer", self.combo_optimizer)
        self.spin_seq_len = _spin(1, 10_000_000, TIPS["seq_len"], 512)
        form.addRow("Sequence length", self.spin_seq_len)
        self.spin_grad_accum_steps = _spin(1, 100_000, TIPS["grad_accum_steps"])
        form.addRow("Grad. accumulation", self.spin_grad_accum_steps)
        # The run's size, for its hours and cost per build (issue 18); 0 million tokens = not set.
        self.spin_dataset_mtokens = _decimal_spin(0, 1e9, 0, TIPS["dataset_tokens"], " M tokens")
        self.spin_dataset_mtokens.setSpecialValueText("not set")
        form.addRow("Dataset", self.spin_dataset_mtokens)
        self.spin_epochs = _decimal_spin(0.1, 10_000, 1, TIPS["epochs"])
        form.addRow("Epochs", self.spin_epochs)
        self.combo_checkpointing = _combo([c.value for c in Checkpointing], TIPS["checkpointing"])
        form.addRow("Checkpointing", self.combo_checkpointing)
        self.spin_lora_rank = _spin(1, 65536, TIPS["lora_rank"])
        form.addRow("LoRA rank", self.spin_lora_rank)
        grid = QGridLayout()  # three rows: seven boxes in one row widen the whole panel
        self.check_lora_targets = {}
        for i, t in enumerate(LORA_TARGETS):
            cb = QCheckBox(t)
            cb.setToolTip(TIPS["lora_targets"])
            self.check_lora_targets[t] = cb
            grid.addWidget(cb, i // 3, i % 3)
        form.addRow("LoRA targets", grid)
        self.check_double_quant = QCheckBox("double quantization")
        self.check_double_quant.setToolTip(TIPS["double_quant"])
        form.addRow(self.check_double_quant)
        # The framework and the choices it makes unless told otherwise (issue 14); item data is the value.
        self.data_combos: dict[str, QComboBox] = {}
        for field, label, choices in (("framework", "Framework", FRAMEWORK_NAMES), ("loss", "Loss", LOSS_WORDS),
                                      ("activation_offload", "Activations to RAM", SWITCH_WORDS),
                                      ("compile", "torch.compile", SWITCH_WORDS),
                                      ("optimizer_in_backward", "Optimizer in backward", SWITCH_WORDS),
                                      ("optimizer_kernel", "Optimizer kernel", OPTIMIZER_KERNEL_WORDS),
                                      ("activation_quant", "Saved activations", ACTIVATION_QUANT_WORDS)):
            combo = _combo([], TIPS[field])
            for value, text in choices.items():
                combo.addItem(text, getattr(value, "value", value))
                if field == "framework":  # each framework says what it changes (issue 14)
                    combo.setItemData(combo.count() - 1, f"{text}: {PROFILES[value].summary}.",
                                      Qt.ItemDataRole.ToolTipRole)
            combo.currentIndexChanged.connect(self._on_control_edited)
            self.data_combos[field] = combo
            form.addRow(label, combo)
        # The rest of the training options (issue 14: each CLI option is a field here too).
        self.spin_loss_chunks = _spin(1, 1024, TIPS["loss_chunks"])
        form.addRow("Loss chunks", self.spin_loss_chunks)
        self.spin_checkpoint_every = _spin(1, 1000, TIPS["checkpoint_every"])
        form.addRow("Checkpoint every", self.spin_checkpoint_every)
        self.spin_tp = _spin(1, 1024, TIPS["tp"])
        form.addRow("Tensor parallel in FSDP", self.spin_tp)
        self.spin_cp = _spin(1, 1024, TIPS["cp"])
        form.addRow("Context parallel in FSDP", self.spin_cp)
        self.check_bnb_legacy = QCheckBox("bitsandbytes before 0.43.2")
        self.check_bnb_legacy.setToolTip(TIPS["bnb_legacy"])
        form.addRow(self.check_bnb_legacy)
        self.check_expandable_segments = QCheckBox("PyTorch expandable segments")
        self.check_expandable_segments.setToolTip(TIPS["expandable_segments"])
        form.addRow(self.check_expandable_segments)
        return box

    def _plan_box(self) -> QGroupBox:
        """GPUs, scheme and offload belong to each build's plan (chosen per build, pinned in the table)."""
        box = QGroupBox("GPUs and parallelism")
        lay = QVBoxLayout(box)
        self.label_plan = QLabel("Chosen for each build: all of its GPUs, the layout the engine uses, and "
                                 "offload only when nothing else fits. See the Plan column; right-click a "
                                 "build to pin its plan.")
        self.label_plan.setWordWrap(True)
        lay.addWidget(self.label_plan)
        return box

    # --- binding --------------------------------------------------------------------
    def _fields(self) -> dict[str, QWidget]:
        return {
            "mode": self.combo_mode, "batch": self.spin_batch, "weights": self.combo_weights,
            "engine": self.combo_engine, "context_len": self.spin_context_len, "kv_dtype": self.combo_kv_dtype,
            "decode_attention": self.combo_decode_attention, "gpu_memory_utilization": self.spin_gpu_memory_utilization, "method": self.combo_method,
            "precision": self.combo_precision, "optimizer": self.combo_optimizer, "seq_len": self.spin_seq_len,
            "grad_accum_steps": self.spin_grad_accum_steps, "checkpointing": self.combo_checkpointing,
            "attention": self.combo_attention, "lora_rank": self.spin_lora_rank,
            "double_quant": self.check_double_quant, "loss_chunks": self.spin_loss_chunks,
            "checkpoint_every": self.spin_checkpoint_every, "tp": self.spin_tp, "cp": self.spin_cp,
            "bnb_legacy": self.check_bnb_legacy, "expandable_segments": self.check_expandable_segments,
        }

    def _connect(self) -> None:
        for w in self._fields().values():
            if isinstance(w, QComboBox):
                (w.currentTextChanged if w.isEditable() else w.currentIndexChanged).connect(self._on_control_edited)
            elif isinstance(w, QCheckBox):
                w.toggled.connect(self._on_control_edited)
            else:
                w.valueChanged.connect(self._on_control_edited)
        for cb in self.check_lora_targets.values():
            cb.toggled.connect(self._on_control_edited)
        self.combo_objective.currentIndexChanged.connect(self._on_control_edited)
        self.check_precompute_ref.toggled.connect(self._on_control_edited)
        self.spin_dataset_mtokens.valueChanged.connect(self._on_control_edited)
        self.spin_prompt_tokens.valueChanged.connect(self._on_control_edited)
        self.spin_epochs.valueChanged.connect(self._on_control_edited)

    @staticmethod
    def _value(w: QWidget):
        if isinstance(w, QComboBox):
            data = w.currentData()  # the value behind a label (``_combo``'s ``labels``)
            return data if data is not None else w.currentText().strip()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        return w.value()

    @staticmethod
    def _show(w: QWidget, value) -> None:
        if WorkloadPanel._value(w) == (getattr(value, "value", value) if isinstance(w, QComboBox) else value):
            return  # unchanged: setting it again would repaint the control for nothing
        w.blockSignals(True)
        if isinstance(w, QComboBox):
            text = str(getattr(value, "value", value))
            i = w.findData(text)
            if i < 0:
                i = w.findText(text)
            if i >= 0:
                w.setCurrentIndex(i)
            elif w.isEditable():
                w.setEditText(text)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        else:
            w.setValue(value)
        w.blockSignals(False)

    def _read(self) -> dict:
        """The workload the controls describe: only what applies to the chosen mode and method.

        A control that does not apply is not sent, so its greyed-out value can never be
        blamed on the user (issue 17: "a LoRA rank needs …" for full fine-tuning)."""
        data = self.session.workload.model_dump()
        data.update({f: self._value(w) for f, w in self._fields().items()})
        data["lora_targets"] = tuple(t for t, cb in self.check_lora_targets.items() if cb.isChecked())
        mode, method = Mode(data["mode"]), Method(data["method"])
        if mode is Mode.INFERENCE:
            prompt = self.spin_prompt_tokens.value()
            data["prompt_tokens"] = prompt if prompt >= 0 else None
            trt = Engine(data["engine"]) is Engine.TENSORRT_LLM
            data["engine_version"] = (self.combo_engine_version.currentData() or None) if trt else None
        shown = self.session.workload
        if mode is not shown.mode:
            self._batch_kept[shown.mode] = shown.batch
            data["batch"] = self._batch_kept.get(mode, Workload.model_fields["batch"].default
                                                 if mode is Mode.TRAIN else data["batch"])
        if mode is Mode.TRAIN:
            data.update({f: c.currentData() for f, c in self.data_combos.items()})
            data["objective"] = Objective(self.combo_objective.currentData())
            data["precompute_ref"] = (self.check_precompute_ref.isChecked()
                                      and data["objective"] is Objective.DPO)
            mtokens = self.spin_dataset_mtokens.value()
            data["dataset_tokens"] = round(mtokens * 1e6) if mtokens > 0 else None
            data["epochs"] = self.spin_epochs.value()
        if mode is Mode.TRAIN and method is Method.FULL:
            data.pop("weights")  # full fine-tuning trains in its precision's format
        if mode is Mode.TRAIN and method in (Method.LORA, Method.QLORA):
            return data
        data.pop("lora_rank")  # the rank applies to LoRA and QLoRA only
        return data

    def _on_control_edited(self, *_args) -> None:
        mode, method = Mode(self._value(self.combo_mode)), Method(self._value(self.combo_method))
        self._show_weights_of(weights_key(mode, method))
        note = self._fit_engine(mode)
        try:
            workload = Workload.model_validate(self._read())
        except ValidationError as exc:
            self.label_problems.setText(words.validation_sentence(exc.errors()[0]))
            return
        self.label_note.setText(note)
        self._update_visibility(workload)
        self.session.set_workload(workload)

    def _fit_engine(self, mode: Mode) -> str:
        """Weights and KV type the chosen engine runs, and a sentence if one had to change."""
        if mode is not Mode.INFERENCE:
            return ""
        engine = Engine(self._value(self.combo_engine))
        weights, kv, note = fix_for_engine(engine, self._value(self.combo_weights), self._value(self.combo_kv_dtype))
        self._show(self.combo_weights, weights)
        self._show(self.combo_kv_dtype, kv)
        return note

    def _show_weights_of(self, key, value: str | None = None) -> None:
        """Fill the Weights box with the choices of ``key`` (inference, or a method's base) and
        its kept choice; a training base's label says it is the base."""
        precision = Precision(self._value(self.combo_precision))
        changed = key != self._weights_key or key is Method.FULL
        if changed:
            self._weights_key = key
            c = self.combo_weights
            c.blockSignals(True)
            c.clear()
            c.addItems(base_choices(key, precision))
            c.blockSignals(False)
        if value is None and changed:
            value = base_choices(key, precision)[0] if key is Method.FULL else self._weights_kept[key]
        if value is not None:
            self._show(self.combo_weights, value)
        self.label_weights.setText("Weights" if key is Mode.INFERENCE else "Base weights")
        self.combo_weights.setEnabled(key is not Method.FULL)
        self.combo_weights.setToolTip(TIPS["weights"] if key is not Method.FULL else
                                      "Full fine-tuning trains every weight, stored in the precision's format. "
                                      "Choose LoRA or QLoRA to train adapters on a frozen or 4-bit base.")

    def _on_workload_changed(self, workload: Workload) -> None:
        key = weights_key(workload.mode, workload.method)
        if key is not Method.FULL:
            self._weights_kept[key] = workload.weights
        for f, w in self._fields().items():
            if f == "weights":
                continue
            value = getattr(workload, f)
            if f == "lora_rank":
                value = workload.lora_rank_effective
            self._show(w, value)
        self._show_weights_of(key, None if key is Method.FULL else workload.weights)
        for t, cb in self.check_lora_targets.items():
            self._show(cb, t in workload.lora_targets)
        i = self.combo_objective.findData(workload.objective.value)
        if i >= 0 and i != self.combo_objective.currentIndex():
            self.combo_objective.blockSignals(True)
            self.combo_objective.setCurrentIndex(i)
            self.combo_objective.blockSignals(False)
        self._show(self.check_precompute_ref, workload.precompute_ref)
        self._show(self.spin_dataset_mtokens, (workload.dataset_tokens or 0) / 1e6)
        self._show(self.spin_prompt_tokens, -1 if workload.prompt_tokens is None else workload.prompt_tokens)
        self._show_engine_version(workload.engine_version or "")
        self._show(self.spin_epochs, workload.epochs)
        for f, combo in self.data_combos.items():
            value = getattr(workload, f)
            i = combo.findData(getattr(value, "value", value))
            if i >= 0 and i != combo.currentIndex():
                combo.blockSignals(True)
                combo.setCurrentIndex(i)
                combo.blockSignals(False)
        self._update_visibility(workload)

    def _show_engine_version(self, value: str) -> None:
        """The job's TensorRT-LLM version; one the list does not offer (a file's, the CLI's 0.9.0) is added."""
        combo = self.combo_engine_version
        i = combo.findData(value)
        if i < 0:
            combo.addItem(value, value)
            i = combo.count() - 1
        if i != combo.currentIndex():
            combo.blockSignals(True)
            combo.setCurrentIndex(i)
            combo.blockSignals(False)

    def _update_visibility(self, workload: Workload) -> None:
        """Sections and options that apply to this mode, method and engine; the rest hidden or greyed."""
        training = workload.mode is Mode.TRAIN
        self.box_inference.setVisible(not training)
        self.box_training.setVisible(training)
        self.label_batch.setText("Micro-batch" if training else "Concurrent sequences")
        lora = workload.method in (Method.LORA, Method.QLORA)
        for w in (self.spin_lora_rank, *self.check_lora_targets.values()):
            w.setEnabled(lora)
        self.check_double_quant.setEnabled(workload.method is Method.QLORA)
        self.check_bnb_legacy.setEnabled(workload.method is Method.QLORA)  # 4-bit Linears only
        effective = apply_framework(workload)  # what the framework sets where the job does not
        self.spin_loss_chunks.setEnabled(effective.loss is Loss.CHUNKED)
        self.spin_checkpoint_every.setEnabled(effective.checkpointing is not Checkpointing.NONE)
        self.data_combos["optimizer_kernel"].setEnabled(workload.optimizer is Optimizer.ADAMW)  # PyTorch's AdamW only
        self.combo_objective.setEnabled(training)  # an objective is what a training step optimizes
        self.check_precompute_ref.setEnabled(training and workload.objective is Objective.DPO)
        self.form_inference.setRowVisible(self.spin_gpu_memory_utilization, workload.engine is Engine.VLLM)
        self.form_inference.setRowVisible(self.combo_engine_version, workload.engine is Engine.TENSORRT_LLM)
        self.combo_attention.setEnabled(training or workload.engine in ATTENTION_OPTION_ENGINES)
        if not training:
            _enable_items(self.combo_weights, lambda t: allowed_weights(workload.engine, t))
        _enable_items(self.combo_kv_dtype, lambda t: allowed_kv(workload.engine, t))

    # --- problems -------------------------------------------------------------------
    def _on_results_computed(self, results) -> None:
        lines = []
        for r in results.builds:
            lines += [f"{r.name} — {words.problem(p)}" for p in r.problems]
        text = "\n".join(dict.fromkeys(lines))
        if text != self.label_problems.text():
            self.label_problems.setText(text)


def _enable_items(combo: QComboBox, allowed) -> None:
    """Grey out the items an engine cannot run (they stay listed, so the user sees they exist)."""
    model = combo.model()
    for i in range(combo.count()):
        item = model.item(i)
        if item is not None:
            item.setEnabled(bool(allowed(combo.itemText(i))))
