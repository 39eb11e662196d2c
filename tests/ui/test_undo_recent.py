"""Edit ▸ Undo/Redo over every session edit, File ▸ Open Recent, and "no GPU" said in a dialog."""

import pytest
from PySide6.QtGui import QKeySequence

from advisor.core.advice.comparison import BuildEntry, ModelRef
from advisor.core.advice.ranking import Criterion
from advisor.core.job.planned import PlanPins
from advisor.probe.models import DetectedHost, Detection
from advisor.storage.settings import load_settings
from advisor.ui.recent import MAX_RECENT, with_recent
from tests.qt_widgets import shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _undo_redo_round_trip(session, window, edit, check_after):
    before = (session.workload, session.model, session.builds, session.criterion)
    edit()
    after = (session.workload, session.model, session.builds, session.criterion)
    assert after != before and check_after()
    assert window.action_undo.isEnabled()
    window.action_undo.trigger()
    assert (session.workload, session.model, session.builds, session.criterion) == before
    window.action_redo.trigger()
    assert (session.workload, session.model, session.builds, session.criterion) == after
    assert check_after()


def test_edit_menu_has_undo_and_redo_with_their_keys(app_window):
    _session, window = app_window
    assert window.action_undo.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert QKeySequence("Ctrl+Shift+Z") in window.action_redo.shortcuts()
    edit = next(m for m in window.menuBar().actions() if m.text() == "&Edit").menu()
    assert edit.actions()[:2] == [window.action_undo, window.action_redo]
    assert not window.action_undo.isEnabled()  # nothing done yet


def test_every_edit_is_undone_and_redone(app_window):
    session, window = app_window
    panel = window.workload_panel
    n = len(session.builds)
    _undo_redo_round_trip(session, window, lambda: panel.spin_batch.setValue(7),
                          lambda: panel.spin_batch.value() == 7 and session.workload.batch == 7)
    _undo_redo_round_trip(session, window, lambda: panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train"))),
                          lambda: panel.box_training.isVisibleTo(panel))
    _undo_redo_round_trip(session, window, lambda: session.set_model(ModelRef(preset_id="llama-3.1-70b")),
                          lambda: session.arch.id == "llama-3.1-70b")
    _undo_redo_round_trip(session, window, lambda: session.add_build(BuildEntry(name="One 5090", build_id="1x-rtx-5090")),
                          lambda: window.builds_panel.model.rowCount() == n + 1)
    _undo_redo_round_trip(session, window, lambda: session.move_build(0, 1),
                          lambda: session.builds[1].build_id == "2x-rtx-3090-nvlink")
    _undo_redo_round_trip(session, window, lambda: session.rename_build(0, "Mine"),
                          lambda: session.builds[0].name == "Mine")
    _undo_redo_round_trip(session, window, lambda: session.set_build_plan(0, PlanPins(n_gpus=1)),
                          lambda: session.builds[0].plan.n_gpus == 1)
    _undo_redo_round_trip(session, window, lambda: session.replace_build(0, BuildEntry(name="X", build_id="1x-rtx-5090")),
                          lambda: session.builds[0].build_id == "1x-rtx-5090")
    combo = window.builds_panel.combo_criterion
    _undo_redo_round_trip(session, window, lambda: session.set_criterion(Criterion.PRICE),
                          lambda: combo.currentData() == Criterion.PRICE)
    window.action_undo.trigger()
    assert combo.currentData() == Criterion.SPEED  # the combo follows the undo


def test_remove_is_undoable_and_named_in_the_menu(app_window):
    session, window = app_window
    session.add_build(BuildEntry(name="One 5090", build_id="1x-rtx-5090"))
    window.builds_panel.table_builds.selectRow(2)
    window.builds_panel.buttons["remove"].click()
    assert len(session.builds) == 2
    assert window.action_undo.text() == "&Undo Remove “One 5090”"
    window.action_undo.trigger()
    assert [b.name for b in session.builds][-1] == "One 5090"
    assert session.results.builds[-1].name == "One 5090"


def test_undo_back_to_the_saved_state_is_clean(app_window, tmp_path):
    session, window = app_window
    window.workload_panel.spin_batch.setValue(5)
    assert session.dirty and window.isWindowModified()
    assert session.save(tmp_path / "c.json")
    assert not session.dirty
    window.workload_panel.spin_batch.setValue(6)
    assert session.dirty
    window.action_undo.trigger()
    assert not session.dirty and not window.isWindowModified()
    session.open(tmp_path / "c.json")  # another document: nothing to undo into it
    assert not window.action_undo.isEnabled()


def test_workload_edits_are_named_by_their_control(app_window):
    _session, window = app_window
    window.workload_panel.spin_context_len.setValue(16384)
    assert window.action_undo.text() == "&Undo Change Context length"


def test_open_recent_lists_saved_and_opened_files(app_window, tmp_path):
    session, window = app_window
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert session.save(a) and session.save(b)
    assert window.settings.recent_comparisons[:2] == (str(b.resolve()), str(a.resolve()))
    assert load_settings().settings.recent_comparisons[:2] == (str(b.resolve()), str(a.resolve()))  # stored
    window.menu_recent.aboutToShow.emit()
    texts = [act.text() for act in window.menu_recent.actions()]
    assert texts[:2] == ["&1 b.json", "&2 a.json"] and texts[-1] == "Clear the list"
    session.new()
    window.menu_recent.actions()[1].trigger()
    assert session.path == a.resolve() or session.path == a
    assert window.settings.recent_comparisons[0] == str(a.resolve())


def test_a_missing_recent_file_is_removed_with_a_message(app_window, tmp_path):
    session, window = app_window
    a = tmp_path / "gone.json"
    assert session.save(a)
    session.new()
    a.unlink()
    window.open_recent(str(a.resolve()))
    assert str(a.resolve()) not in window.settings.recent_comparisons
    assert window.dialog_missing_recent.isVisible()
    assert "gone.json" in window.dialog_missing_recent.text() and "removed" in window.dialog_missing_recent.text()
    window.dialog_missing_recent.close()
    assert session.path is None


def test_recent_list_is_capped_and_deduplicated(tmp_path):
    recent = ()
    for i in range(12):
        recent = with_recent(recent, tmp_path / f"{i}.json")
    recent = with_recent(recent, tmp_path / "5.json")
    assert len(recent) == MAX_RECENT and recent[0].endswith("5.json") and len(set(recent)) == MAX_RECENT


def _no_gpu(ram_bytes):
    return Detection(host=DetectedHost(cpu_model="AMD Ryzen 9 7950X", ram_total_bytes=ram_bytes),
                     gpus=(), status_lines=("nvml: library not found",))


def test_no_gpu_is_a_dialog_that_offers_a_cpu_only_build(app_window):
    session, window = app_window
    window._on_detection_finished(_no_gpu(64 * 2**30))
    box = window.dialog_no_gpu
    assert box.isVisible() and box.text() == "No GPU was found on this computer."
    assert "CPU-only" in box.informativeText() and "nvml" in box.detailedText()
    assert window.button_cpu_only.isEnabled()
    window.button_cpu_only.click()
    entry = session.builds[-1]
    assert entry.name == "This machine (CPU only)" and entry.inline.unified_memory
    gpu = entry.inline.gpus[0]
    assert gpu.memory_gib == 64 and gpu.mem_bandwidth_gb_per_s == 51.2
    r = session.results.builds[-1]
    assert r.estimate is not None and r.error is None  # estimated like any build
    model = window.builds_panel.model
    assert model.data(model.index(2, 1)) == "CPU and RAM"  # not "1 GPU"
    window.action_undo.trigger()
    assert len(session.builds) == 2


def test_no_gpu_and_no_ram_read_still_offers_find_builds(app_window, monkeypatch):
    session, window = app_window
    asked = []
    monkeypatch.setattr(window, "find_builds", lambda: asked.append(True))
    window._on_detection_finished(_no_gpu(None))
    box = window.dialog_no_gpu
    assert not window.button_cpu_only.isEnabled() and "RAM" in box.informativeText()
    find = next(b for b in box.buttons() if b.text() == "Find builds…")
    find.click()
    assert asked == [True] and len(session.builds) == 2
