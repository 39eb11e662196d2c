"""The Fine-tuning section's framework and its options: the estimate a user sees follows them."""

import pytest

from advisor.core.job.choices import Framework, Loss, Mode
from advisor.core.job.frameworks import FRAMEWORK_NAMES
from tests.qt_widgets import shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _total(session):
    return session.results.builds[0].estimate.memory.total


def test_framework_loss_and_switches_reach_the_workload_and_the_estimate(app_window):
    session, window = app_window
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    panel.spin_batch.setValue(16)  # a micro-batch whose logits weigh: the loss decides the peak
    combos = {n: getattr(panel, f"combo_{n}") for n in ("framework", "loss", "activation_offload", "compile", "optimizer_in_backward", "optimizer_kernel", "activation_quant")}
    assert [combos["framework"].itemText(i) for i in range(combos["framework"].count())] == list(FRAMEWORK_NAMES.values())
    assert session.workload.framework is Framework.HF and session.workload.loss is None

    combos["framework"].setCurrentIndex(combos["framework"].findText(FRAMEWORK_NAMES[Framework.TORCHTUNE]))
    assert session.workload.framework is Framework.TORCHTUNE

    combos["loss"].setCurrentIndex(combos["loss"].findText(shown("loss", Loss.FP32_LOGITS)))
    full_logits = _total(session)
    combos["loss"].setCurrentIndex(combos["loss"].findText(shown("loss", Loss.FUSED)))
    assert session.workload.loss is Loss.FUSED
    assert _total(session) < full_logits  # the fused loss never holds the vocabulary's logits

    combos["activation_offload"].setCurrentIndex(combos["activation_offload"].findText("on"))
    assert session.workload.activation_offload is True
    combos["activation_offload"].setCurrentIndex(0)
    assert session.workload.activation_offload is None

    combos["loss"].setCurrentIndex(0)  # back to the framework's default
    assert session.workload.loss is None


def test_the_boxes_show_a_loaded_workload(app_window):
    session, window = app_window
    panel = window.workload_panel
    session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN, "framework": Framework.LITGPT,
                                                             "loss": Loss.CHUNKED, "compile": False}))
    combos = {n: getattr(panel, f"combo_{n}") for n in ("framework", "loss", "activation_offload", "compile", "optimizer_in_backward", "optimizer_kernel", "activation_quant")}
    assert combos["framework"].currentText() == FRAMEWORK_NAMES[Framework.LITGPT]
    assert combos["loss"].currentText() == shown("loss", Loss.CHUNKED)
    assert combos["compile"].currentText() == "off"
    session.set_workload(session.workload.model_copy(update={"loss": None, "compile": None}))
    assert combos["loss"].currentIndex() == 0 and combos["compile"].currentIndex() == 0


def test_every_training_option_of_the_command_line_is_a_field_here(app_window):
    """The options a user sets on the command line (optimizer in backward, saved-activation
    format, loss chunks, checkpoint every K layers, tensor / context parallel inside FSDP, old
    bitsandbytes, expandable segments) are fields of the Fine-tuning section, reach the job, and show a
    loaded job; each has a tooltip."""
    from advisor.core.job.choices import (
        ActivationQuant,
        Checkpointing,
        Method,
        Parallel,
    )

    session, window = app_window
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    panel.combo_method.setCurrentIndex(panel.combo_method.findText(shown("method", "qlora")))
    controls = [panel.combo_optimizer_in_backward, panel.combo_activation_quant,
                panel.spin_loss_chunks, panel.spin_checkpoint_every, panel.spin_tp, panel.spin_cp,
                panel.check_bnb_legacy, panel.check_expandable_segments]
    assert all(c.toolTip() for c in controls)

    before = _total(session)
    q = panel.combo_activation_quant
    q.setCurrentIndex(q.findData(ActivationQuant.FP8.value))
    assert session.workload.activation_quant is ActivationQuant.FP8 and _total(session) < before
    panel.check_bnb_legacy.setChecked(True)
    assert session.workload.bnb_legacy is True
    panel.check_expandable_segments.setChecked(True)
    assert session.workload.expandable_segments is True
    ob = panel.combo_optimizer_in_backward
    ob.setCurrentIndex(ob.findText("on"))
    assert session.workload.optimizer_in_backward is True

    panel.combo_checkpointing.setCurrentIndex(panel.combo_checkpointing.findText(shown("checkpointing", "full")))
    assert panel.spin_checkpoint_every.isEnabled()
    panel.spin_checkpoint_every.setValue(2)
    assert session.workload.checkpoint_every == 2
    panel.combo_checkpointing.setCurrentIndex(panel.combo_checkpointing.findText(shown("checkpointing", "none")))
    assert not panel.spin_checkpoint_every.isEnabled()  # nothing is checkpointed: no K to choose

    combos = {n: getattr(panel, f"combo_{n}") for n in ("framework", "loss", "activation_offload", "compile", "optimizer_in_backward", "optimizer_kernel", "activation_quant")}
    combos["loss"].setCurrentIndex(combos["loss"].findText(shown("loss", Loss.CHUNKED)))
    assert panel.spin_loss_chunks.isEnabled()
    panel.spin_loss_chunks.setValue(16)
    assert session.workload.loss_chunks == 16

    panel.spin_tp.setValue(2)
    assert session.workload.tp == 2

    session.set_workload(session.workload.model_copy(update={
        "method": Method.LORA, "checkpointing": Checkpointing.FULL, "checkpoint_every": 3, "cp": 2, "tp": 1,
        "bnb_legacy": False, "activation_quant": ActivationQuant.INT8, "optimizer_in_backward": None,
        "parallel": Parallel.FSDP}))
    assert panel.spin_checkpoint_every.value() == 3 and panel.spin_cp.value() == 2 and panel.spin_tp.value() == 1
    assert not panel.check_bnb_legacy.isChecked() and not panel.check_bnb_legacy.isEnabled()  # LoRA: no 4-bit layers
    assert combos["activation_quant"].currentData() == "int8" and combos["optimizer_in_backward"].currentIndex() == 0


def test_the_optimizer_kernel_is_a_field_that_moves_memory_and_speed(app_window):
    """Which AdamW kernel the step runs (``--optimizer-kernel``) is a field; foreach holds a
    state-sized temporary and passes over the states more often, so the same full fine-tune needs more
    memory and trains slower than with the fused kernel; the field is greyed for other optimizers."""
    from advisor.core.advice.comparison import ModelRef
    from advisor.core.job.choices import OptimizerKernel

    session, window = app_window
    panel = window.workload_panel
    session.set_model(ModelRef(preset_id="llama-3.2-1b"))  # fits the shown builds without offload
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    panel.combo_method.setCurrentIndex(panel.combo_method.findText(shown("method", "full")))
    panel.spin_seq_len.setValue(512)  # short sequences: the optimizer step sets the peak
    panel.combo_checkpointing.setCurrentIndex(panel.combo_checkpointing.findText(shown("checkpointing", "full")))
    combo = panel.combo_optimizer_kernel
    assert combo.toolTip() and combo.isEnabled()
    assert [combo.itemText(i) for i in range(combo.count())] == [shown("optimizer_kernel", v) for v in (None, OptimizerKernel.FUSED, OptimizerKernel.FOREACH)]
    assert session.workload.optimizer_kernel is None  # the framework's (Hugging Face: fused)
    default = session.results.builds[0].estimate
    combo.setCurrentIndex(combo.findText(shown("optimizer_kernel", OptimizerKernel.FOREACH)))
    assert session.workload.optimizer_kernel is OptimizerKernel.FOREACH
    foreach = session.results.builds[0].estimate
    assert foreach.memory.total > default.memory.total
    if default.speed.train_tokens_per_s and foreach.speed.train_tokens_per_s:
        assert foreach.speed.train_tokens_per_s < default.speed.train_tokens_per_s
    session.set_workload(session.workload.model_copy(update={"optimizer_kernel": OptimizerKernel.FUSED}))
    assert combo.currentText() == shown("optimizer_kernel", OptimizerKernel.FUSED)  # a loaded job shows its kernel
    panel.combo_optimizer.setCurrentIndex(panel.combo_optimizer.findText(shown("optimizer", "adamw-8bit")))
    assert not combo.isEnabled()  # bitsandbytes' 8-bit AdamW is its own kernel


def test_the_plan_dialog_offers_nvme_offload(app_window):
    """ZeRO-Infinity's NVMe offload (``--offload nvme``) is a choice of a build's plan too."""
    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import Offload
    from advisor.ui.plan_dialog import PlanDialog

    session, _window = app_window
    session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN}))
    dialog = PlanDialog(BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), session.results.builds[0], session.workload)
    texts = [dialog.combo_offload.itemText(i) for i in range(dialog.combo_offload.count())]
    assert "optimizer on NVMe" in texts and "optimizer and parameters on NVMe" in texts
    dialog.combo_offload.setCurrentIndex(texts.index("optimizer on NVMe"))
    assert dialog.pins().offload == (Offload.OPTIMIZER, Offload.NVME)
    dialog.deleteLater()


def test_each_framework_says_what_it_changes(app_window):
    """A tooltip per framework in the choice, from the profile the estimate applies."""
    from PySide6.QtCore import Qt

    from advisor.core.job.frameworks import PROFILES

    _session, window = app_window
    combo = window.workload_panel.combo_framework
    for i in range(combo.count()):
        framework = Framework(combo.itemData(i))
        tip = combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
        assert tip == f"{FRAMEWORK_NAMES[framework]}: {PROFILES[framework].summary}."
    assert "pure bf16" in combo.itemData(combo.findText("LitGPT"), Qt.ItemDataRole.ToolTipRole)
