"""The Fine-tuning section's dataset and epochs: a training run's hours and cost per build."""

import pytest

from tests.qt_widgets import shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def test_dataset_and_epochs_reach_the_workload_and_the_running_cost(app_window):
    from advisor.ui.plot_views import _running_cost_html

    session, window = app_window
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    panel.combo_method.setCurrentIndex(panel.combo_method.findText(shown("method", "qlora")))
    panel.spin_seq_len.setValue(1024)
    panel.spin_batch.setValue(1)  # a job both canonical builds run, so each has a speed
    assert all(r.runs for r in session.results.builds)
    assert session.workload.dataset_tokens is None and panel.spin_dataset_tokens.text() == "not set"
    text = _running_cost_html(session.finished(session.results), session.workload, session.prefs)
    assert "training run" not in text.lower() or "dataset" in text.lower()

    panel.spin_dataset_tokens.setValue(500)  # 500 million tokens
    assert session.workload.dataset_tokens == 500_000_000
    panel.spin_epochs.setValue(3)
    assert session.workload.epochs == 3
    once = _running_cost_html(session.finished(session.results), session.workload, session.prefs)
    assert once != text and " h" in once  # hours to finish appear once the run has a size
    panel.spin_epochs.setValue(1)
    assert _running_cost_html(session.finished(session.results), session.workload, session.prefs) != once  # a third of the hours

    panel.spin_dataset_tokens.setValue(0)  # back to 'not set'
    assert session.workload.dataset_tokens is None


def test_a_loaded_job_shows_its_dataset_and_epochs(app_window):
    session, window = app_window
    panel = window.workload_panel
    from advisor.core.job.planned import PlannedJob

    data = session.workload.model_dump() | {"mode": "train", "dataset_tokens": 2_000_000_000, "epochs": 1.5}
    session.set_workload(PlannedJob.model_validate(data))
    assert panel.spin_dataset_tokens.value() == 2000 and panel.spin_epochs.value() == 1.5


def test_each_mode_keeps_its_own_batch(app_window):
    """Concurrent sequences and a training micro-batch are different numbers: switching the mode does
    not carry 16 served sequences into a micro-batch of 16 (a first training job too big everywhere);
    a first switch to training starts at the job's default micro-batch, and each mode gets its own back."""
    from advisor.core.job.choices import Mode
    from advisor.core.job.planned import PlannedJob

    session, window = app_window
    panel = window.workload_panel
    assert session.workload.mode is Mode.INFERENCE and session.workload.batch == 16
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    assert session.workload.batch == PlannedJob.model_fields["batch"].default == 1
    assert panel.spin_batch.value() == 1
    panel.spin_batch.setValue(4)
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "inference")))
    assert session.workload.batch == 16 and panel.spin_batch.value() == 16
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    assert session.workload.batch == 4
    session.undo_stack.undo()  # one edit: the mode and its batch come back together
    assert session.workload.mode is Mode.INFERENCE and session.workload.batch == 16
