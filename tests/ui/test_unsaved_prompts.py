"""Every action that replaces the comparison asks Save / Discard / Cancel when it is unsaved, and
File ▸ New starts from the first launch's job, which runs on the canonical builds."""

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.core.advice.comparison import canonical_comparison
from advisor.core.job.choices import Engine
from advisor.core.job.defaults import default_job
from advisor.storage.settings import Settings

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]
Btn = QMessageBox.StandardButton


@pytest.fixture
def asked(monkeypatch):
    """``asked(answer)``: QMessageBox.question answers ``answer``; the list records each question's buttons."""
    calls = []

    def answer_with(answer):
        def question(parent, title, text, buttons=Btn.Yes | Btn.No, default=Btn.NoButton):
            calls.append((text, buttons))
            return answer
        monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
        return calls
    return answer_with


def _dirty(session, window, tmp_path):
    """A saved comparison, then one unsaved edit (batch 7)."""
    assert session.save(tmp_path / "saved.json")
    window.workload_panel.spin_batch.setValue(7)
    assert session.dirty and window.isWindowModified()
    window.skip_unsaved_prompt = False


def _replacers(window, tmp_path, monkeypatch):
    other = tmp_path / "other.json"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(other), "")))
    return {"new": window.new, "open": window.open_dialog, "open recent": lambda: window.open_recent(str(other))}


@pytest.mark.parametrize("action", ["new", "open", "open recent"])
def test_cancel_keeps_the_unsaved_comparison_and_its_undo(app_window, tmp_path, monkeypatch, asked, action):
    session, window = app_window
    session.save(tmp_path / "other.json")
    _dirty(session, window, tmp_path)
    calls = asked(Btn.Cancel)
    _replacers(window, tmp_path, monkeypatch)[action]()
    assert len(calls) == 1 and calls[0][1] == Btn.Save | Btn.Discard | Btn.Cancel
    assert session.workload.batch == 7 and session.dirty and session.path.name == "saved.json"
    assert window.action_undo.isEnabled()  # the edit can still be undone


@pytest.mark.parametrize("action", ["new", "open", "open recent"])
def test_discard_replaces_it(app_window, tmp_path, monkeypatch, asked, action):
    session, window = app_window
    session.save(tmp_path / "other.json")
    _dirty(session, window, tmp_path)
    calls = asked(Btn.Discard)
    _replacers(window, tmp_path, monkeypatch)[action]()
    assert len(calls) == 1 and not session.dirty and session.workload.batch != 7
    assert (tmp_path / "saved.json").read_text().count('"batch": 7') == 0  # not written


def test_save_writes_it_first(app_window, tmp_path, monkeypatch, asked):
    session, window = app_window
    _dirty(session, window, tmp_path)
    asked(Btn.Save)
    window.new()
    assert '"batch": 7' in (tmp_path / "saved.json").read_text()
    assert session.path is None and not session.dirty


def test_a_save_that_does_not_happen_keeps_it(app_window, tmp_path, monkeypatch, asked):
    session, window = app_window
    window.workload_panel.spin_batch.setValue(7)  # never saved: Save asks for a file name
    window.skip_unsaved_prompt = False
    asked(Btn.Save)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))  # the user cancels
    window.new()
    assert session.workload.batch == 7 and session.dirty


def test_quit_asks_the_same_question(app_window, tmp_path, asked):
    session, window = app_window
    _dirty(session, window, tmp_path)
    calls = asked(Btn.Cancel)
    assert not window.close() and window.isVisible()
    assert calls[0][1] == Btn.Save | Btn.Discard | Btn.Cancel
    window.skip_unsaved_prompt = True


def test_a_saved_comparison_is_replaced_without_a_question(app_window, tmp_path, asked):
    session, window = app_window
    session.save(tmp_path / "saved.json")
    window.skip_unsaved_prompt = False
    calls = asked(Btn.Cancel)
    window.new()
    assert calls == [] and session.path is None


def test_new_starts_from_the_first_launch_job(app_window):
    session, window = app_window
    assert Settings().default_engine is canonical_comparison().workload.engine
    first = session.workload
    window.workload_panel.spin_batch.setValue(3)
    window.new()
    assert session.workload == first == canonical_comparison().workload


@pytest.mark.parametrize("engine", list(Engine))
def test_new_with_any_preferred_engine_runs_on_the_canonical_builds(app_window, engine):
    session, window = app_window
    window.settings = window.settings.model_copy(update={"default_engine": engine})
    window.new()
    assert session.workload == default_job(engine=engine)
    assert [r.status.runs for r in session.results.builds] == [True, True], [r.status for r in session.results.builds]
