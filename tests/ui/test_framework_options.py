"""The Fine-tuning section's framework and its options (issue 14): the estimate a user sees follows them."""

import pytest

from advisor.core.job.workload import Framework, Loss, Mode
from advisor.ui.workload_rules import FRAMEWORK_WORDS, LOSS_WORDS

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _total(session):
    return session.results.builds[0].estimate.memory.total


def test_framework_loss_and_switches_reach_the_workload_and_the_estimate(app_window):
    session, window = app_window
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText("train"))
    combos = panel.data_combos
    assert [combos["framework"].itemText(i) for i in range(combos["framework"].count())] == list(FRAMEWORK_WORDS.values())
    assert session.workload.framework is Framework.HF and session.workload.loss is None

    combos["framework"].setCurrentIndex(combos["framework"].findText(FRAMEWORK_WORDS[Framework.TORCHTUNE]))
    assert session.workload.framework is Framework.TORCHTUNE

    combos["loss"].setCurrentIndex(combos["loss"].findText(LOSS_WORDS[Loss.FP32_LOGITS]))
    full_logits = _total(session)
    combos["loss"].setCurrentIndex(combos["loss"].findText(LOSS_WORDS[Loss.FUSED]))
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
    combos = panel.data_combos
    assert combos["framework"].currentText() == FRAMEWORK_WORDS[Framework.LITGPT]
    assert combos["loss"].currentText() == LOSS_WORDS[Loss.CHUNKED]
    assert combos["compile"].currentText() == "off"
    session.set_workload(session.workload.model_copy(update={"loss": None, "compile": None}))
    assert combos["loss"].currentIndex() == 0 and combos["compile"].currentIndex() == 0
