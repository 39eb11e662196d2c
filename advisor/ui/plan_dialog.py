"""Pin parts of one build's plan: GPUs used, how they share the work, offload, checkpointing.

Each control starts at "Automatic" (the planner chooses); a value pins that part for this build.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
)

from advisor.core import (
    CHECKPOINT_WORDS,
    OFFLOAD_WORDS,
    SCHEME_WORDS,
    Checkpointing,
    Job,
    Mode,
    Offload,
    Parallel,
    PlanPins,
)

AUTOMATIC = "Automatic"
INFERENCE_SCHEMES = (Parallel.TP, Parallel.PP, Parallel.LAYER_SPLIT, Parallel.NONE)
TRAINING_SCHEMES = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3, Parallel.FSDP,
                    Parallel.FSDP_GRAD_OP, Parallel.TP, Parallel.PP)
OFFLOADS = ((), (Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS),  # host RAM (ZeRO-Offload)
            (Offload.OPTIMIZER, Offload.NVME), (Offload.OPTIMIZER, Offload.PARAMS, Offload.NVME))  # ZeRO-Infinity


def _combo(items: list[tuple[str, object]], current: object) -> QComboBox:
    combo = QComboBox()
    combo.addItem(AUTOMATIC, None)
    for text, value in items:
        combo.addItem(text, value)
    i = combo.findData(current) if current is not None else 0
    combo.setCurrentIndex(max(i, 0))
    return combo


class PlanDialog(QDialog):
    def __init__(self, entry, result, workload: Job, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Plan for {entry.name}")
        pins: PlanPins = entry.plan
        n_max = result.resolved.gpu_count if result is not None and result.resolved is not None else 8
        training = workload.mode is Mode.TRAIN
        lay = QVBoxLayout(self)
        now = result.plan_text if result is not None and result.plan_text else "not estimated yet"
        intro = QLabel(f"Now: {now}.\nLeave a part on Automatic to let the advisor choose it for this build.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.combo_n_gpus = _combo([(str(n), n) for n in range(1, n_max + 1)], pins.n_gpus)
        form.addRow("GPUs used", self.combo_n_gpus)
        schemes = TRAINING_SCHEMES if training else INFERENCE_SCHEMES
        self.combo_parallel = _combo([(SCHEME_WORDS[p], p) for p in schemes], pins.parallel)
        form.addRow("How they share the work", self.combo_parallel)
        self.combo_offload = _combo([(OFFLOAD_WORDS[o], o) for o in OFFLOADS], pins.offload)
        form.addRow("Offload", self.combo_offload)
        self.combo_checkpointing = _combo([(CHECKPOINT_WORDS[c] or "no activation checkpointing", c)
                                           for c in Checkpointing], pins.checkpointing)
        form.addRow("Activation checkpointing", self.combo_checkpointing)
        self.combo_checkpointing.setEnabled(training)
        self.combo_offload.setEnabled(training)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def pins(self) -> PlanPins:
        return PlanPins(n_gpus=self.combo_n_gpus.currentData(), parallel=self.combo_parallel.currentData(),
                        offload=self.combo_offload.currentData(), checkpointing=self.combo_checkpointing.currentData())
