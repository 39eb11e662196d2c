"""The job panel is made from the settings' declarations: a control per setting, named after its field,
with the declaration's words, tooltip and the model's bounds; greyed with the reason where it does not apply."""

import pytest

from advisor.core.estimation.job_words import say
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import SETTINGS, Widget, setting, whole_bounds
from tests.qt_widgets import pick_value

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def test_every_field_has_a_control_or_a_reason(app_window):
    from advisor.core.advice.comparison import BuildEntry
    from advisor.ui.plan_dialog import PlanDialog

    session, window = app_window
    panel = window.workload_panel
    dialog = PlanDialog(BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), session.results.builds[0],
                        session.workload)
    for name in PlannedJob.model_fields:
        s = setting(name)
        if s.widget is Widget.PLAN:  # set per build: the Plan… dialog, or only the command line (and why)
            assert getattr(dialog, f"combo_{name}", None) is not None or "only the command line" in s.exempt, name
            continue
        control = panel.controls[name]
        assert panel.findChild(type(control.widget), control.widget.objectName()) is control.widget, name
        assert control.widget.objectName().endswith(f"_{name}")
        assert control.widget.toolTip().startswith(s.tooltip)
    dialog.deleteLater()


def test_choices_are_the_declared_words_and_bounds_the_models(app_window):
    _session, window = app_window
    panel = window.workload_panel
    for s in SETTINGS:
        if s.widget is Widget.CHOICE:
            combo = panel.controls[s.name].widget
            assert [combo.itemText(i) for i in range(len(s.choices))] == [say(s.name, c.value) for c in s.choices]
    assert [panel.combo_mode.itemText(i) for i in range(2)] == ["inference", "fine-tuning"]
    assert panel.combo_precision.itemText(0) == "mixed precision"  # not 'amp'
    assert (panel.spin_batch.minimum(), panel.spin_batch.maximum()) == whole_bounds("batch")
    assert panel.spin_gpu_memory_utilization.maximum() == PlannedJob.model_fields["gpu_memory_utilization"].metadata[1].le
    assert panel.spin_prompt_tokens.minimum() == -1 and panel.spin_prompt_tokens.text() == "not set"


def test_a_setting_that_does_not_apply_is_greyed_and_says_why(app_window):
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_mode, "mode", "train")
    assert not panel.spin_lora_rank.isEnabled()
    assert "Not used now: it applies only with LoRA or QLoRA (4-bit base)." in panel.spin_lora_rank.toolTip()
    pick_value(panel.combo_method, "method", "lora")
    assert panel.spin_lora_rank.isEnabled() and "Not used now" not in panel.spin_lora_rank.toolTip()
    assert not panel.check_precompute_ref.isEnabled()
    assert "objective set to DPO (preferences)" in panel.check_precompute_ref.toolTip()
    assert session.workload.lora_rank == 16


def test_the_options_the_window_lacked_are_fields(app_window):
    # The group size of GPTQ/AWQ weights and transformers' whole-prompt logits had a flag or nothing, not a field.
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_engine, "engine", "transformers")
    assert not panel.spin_quant_group_size.isEnabled()  # BF16 weights: no groups
    assert panel.form_inference.isRowVisible(panel.check_full_prompt_logits)
    pick_value(panel.combo_weights, "weights", "gptq")
    assert panel.spin_quant_group_size.isEnabled()
    weights_128 = session.results.builds[0].estimate.memory.weights
    panel.spin_quant_group_size.setValue(32)
    assert session.workload.quant_group_size == 32
    assert session.results.builds[0].estimate.memory.weights > weights_128  # 4 + 20/32 bits against 4 + 20/128
    panel.check_full_prompt_logits.setChecked(True)
    assert session.workload.full_prompt_logits
    pick_value(panel.combo_engine, "engine", "vllm")
    assert not panel.form_inference.isRowVisible(panel.check_full_prompt_logits)  # transformers' own
