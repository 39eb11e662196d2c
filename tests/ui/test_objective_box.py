"""The Fine-tuning section's Objective box: buyer words, training only, and it changes the estimate."""

import pytest

from advisor.core.estimation.job_rules import ADAPTER_BASES
from advisor.core.job.choices import Method, Mode, Objective
from tests.qt_widgets import pick as _pick
from tests.qt_widgets import pick_value, shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _memory(session):
    return [r.estimate.memory for r in session.results.builds if r.estimate is not None]


def test_objective_box_lists_buyer_words_and_is_enabled_only_in_training(app_window):
    session, window = app_window
    panel = window.workload_panel
    combo = panel.combo_objective
    assert [combo.itemText(i) for i in range(combo.count())] == [shown("objective", o) for o in Objective]
    assert combo.currentText() == "SFT (instructions)"
    assert session.workload.mode is Mode.INFERENCE
    assert not combo.isEnabled() and not panel.check_precompute_ref.isEnabled()
    pick_value(panel.combo_mode, "mode", "train")
    assert combo.isEnabled()
    assert not panel.check_precompute_ref.isEnabled()  # DPO only
    pick_value(panel.combo_mode, "mode", "inference")
    assert not combo.isEnabled()


def test_changing_the_objective_changes_the_estimate(app_window):
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_mode, "mode", "train")
    pick_value(panel.combo_method, "method", "lora")
    sft = _memory(session)
    assert sft
    _pick(panel.combo_objective, shown("objective", Objective.DPO))
    assert session.workload.objective is Objective.DPO
    dpo = _memory(session)
    # Chosen and rejected: more activations; LoRA's reference is the base with adapters off.
    assert all(d.activations + d.buffers > s.activations + s.buffers for s, d in zip(sft, dpo, strict=True))
    assert all(d.reference_weights == 0 for d in dpo)
    assert panel.check_precompute_ref.isEnabled()
    pick_value(panel.combo_method, "method", "full")
    dpo_full = _memory(session)

    def reference(ms):  # on the GPU, or in host RAM when the plan offloads the parameters
        return [m.reference_weights + m.host for m in ms]

    panel.check_precompute_ref.setChecked(True)
    assert session.workload.precompute_ref
    precomputed = _memory(session)
    assert all(m.reference_weights == 0 for m in precomputed)
    assert all(p < d for p, d in zip(reference(precomputed), reference(dpo_full), strict=True))
    _pick(panel.combo_objective, shown("objective", Objective.SFT))
    assert session.workload.objective is Objective.SFT and not session.workload.precompute_ref
    assert not panel.check_precompute_ref.isEnabled()
    assert all(s < d for s, d in zip(reference(_memory(session)), reference(dpo_full), strict=True))
    assert panel.label_problems.text() == ""


def test_adapter_methods_are_in_the_method_box_with_their_bases(app_window):
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_mode, "mode", "train")
    for method in ("adapter", "adapter-v2"):
        pick_value(panel.combo_method, "method", method)
        assert session.workload.method is Method(method)
        assert [panel.combo_weights.itemText(i) for i in range(panel.combo_weights.count())] == [shown("weights", w) for w in ADAPTER_BASES]
        assert session.workload.weights == "bf16"
        assert not panel.spin_lora_rank.isEnabled()
        assert panel.label_problems.text() == ""
        assert all(r.estimate is not None for r in session.results.builds)
