"""The Value tab shows running cost under the user's settings; Preferences edits them."""

import pytest

from advisor.core.advice.comparison import BuildEntry
from advisor.ui.preferences_dialog import PreferencesDialog

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def _value_tab(window):
    index = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == "Value")
    window.tabs.setCurrentIndex(index)
    return window.tabs.view(index)


def test_changing_the_electricity_price_changes_the_value_tab(app_window, qtbot, drawn):
    session, window = app_window
    assert session.results is not None
    tab = _value_tab(window)
    drawn(window)  # the text under the plot follows the plot
    before = dict(tab.builder.million_values)
    text_before = tab.label_below.toPlainText()
    assert before and "Running cost" in text_before and "a year" in text_before
    dearer = session.prefs.model_copy(update={"electricity_usd_per_kwh": session.prefs.electricity_usd_per_kwh * 4})
    window.settings = dearer
    session.set_prefs(dearer)
    after = dict(tab.builder.million_values)
    assert set(after) == set(before) and all(after[i] > before[i] for i in before)
    drawn(window)
    assert tab.label_below.toPlainText() != text_before


def test_owning_vs_renting_counts_electricity_and_names_the_cloud(app_window, qtbot, drawn):
    session, window = app_window
    with qtbot.waitSignal(session.results_computed, timeout=20000):
        session.add_build(BuildEntry(name="RunPod H200", cloud_id="runpod-h200-secure-cloud"))
    tab = _value_tab(window)
    drawn(window)  # the plot redraws after the table, its text after the plot
    text = tab.label_below.toPlainText()
    assert "Owning vs renting" in text and "RunPod H200" in text and "h of RunPod H200" in text


def test_preferences_dialog_edits_the_running_cost_settings(qtbot):
    from advisor.storage.settings import Settings

    d = PreferencesDialog(Settings())
    qtbot.addWidget(d)
    d.spin_electricity.setValue(0.32)
    d.spin_hours.setValue(24)
    d.spin_years.setValue(5)
    prefs = d.result_prefs()
    assert (prefs.electricity_usd_per_kwh, prefs.hours_per_day, prefs.years) == (0.32, 24, 5)


def test_preferences_dialog_lists_engines_as_their_users_write_them(qtbot):
    from advisor.core.job.choices import Engine
    from advisor.storage.settings import Settings

    d = PreferencesDialog(Settings(default_engine=Engine.TENSORRT_LLM))
    qtbot.addWidget(d)
    combo = d.combo_default_engine
    assert combo.currentText() == "TensorRT-LLM"
    assert d.result_prefs().default_engine is Engine.TENSORRT_LLM  # kept as it was
    combo.setCurrentIndex(combo.findText("vLLM"))
    assert d.result_prefs().default_engine is Engine.VLLM


def test_a_mac_without_stated_power_says_that_not_no_speed(app_window, qtbot, drawn):
    from advisor.core.job.choices import Engine

    session, window = app_window
    session.add_build(BuildEntry(name="Mac", system_id="apple-mac-studio-m1-max-32gb"))
    session.set_workload(session.workload.model_copy(update={"engine": Engine.LLAMA_CPP, "batch": 1, "context_len": 4096}))
    tab = _value_tab(window)
    drawn(window)
    mac = next(line for line in tab.label_below.toPlainText().splitlines() if line.startswith("Mac:"))
    assert "power not stated" in mac and "no speed" not in mac and "not known" not in mac
