"""The scheduler seen from the window: a change is computed in two steps, the table's numbers first, the fit sweep after, each
a few builds or model sizes per turn of the event loop; the numbers are those of one synchronous
``evaluate``, and a newer change supersedes the sweep under way."""

import numpy as np
import pytest

from advisor.core.advice import evaluate

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def test_the_table_is_current_at_once_and_the_sweep_follows_with_the_same_numbers(app_window, drawn, synchronous):
    session, window = app_window
    session.set_workload(session.workload.model_copy(update={"batch": 11, "context_len": 3000}))
    assert session.sweep_pending and session.results.curves == {}
    assert all(r.largest_fit == {} for r in session.results.builds)
    reference = synchronous(session)
    for shown, ref in zip(session.results.builds, reference.builds, strict=True):
        assert shown.estimate.memory.total == ref.estimate.memory.total
    drawn(window)
    assert not session.sweep_pending
    assert list(session.results.curves) == list(reference.curves)
    for label, y in reference.curves.items():
        np.testing.assert_array_equal(session.results.curves[label], y)
    assert [r.largest_fit for r in session.results.builds] == [r.largest_fit for r in reference.builds]
    assert session.results.current_technique == reference.current_technique
    fit = window.tabs.view(0).builder
    x, y = fit.curves[reference.current_technique].getOriginalDataset()
    ok = np.isfinite(reference.curves[reference.current_technique])
    np.testing.assert_allclose(y, reference.curves[reference.current_technique][ok] / (1024 ** 3))


def test_rapid_changes_show_only_the_last_workloads_sweep(app_window, qtbot, drawn):
    session, window = app_window
    shown = []
    session.curves_computed.connect(lambda results: shown.append(session.workload))
    last = None
    for batch in range(20, 40):  # no event loop between them: as fast as typing can go
        last = session.workload.model_copy(update={"batch": batch})
        session.set_workload(last)
    drawn(window)
    assert session.workload == last
    assert shown and all(w == last for w in shown)  # a sweep for a superseded workload is never shown
    np.testing.assert_array_equal(session.results.curves[session.results.current_technique],
                                  evaluate.fit_curves(last)[0][session.results.current_technique])


def test_going_back_to_a_workload_draws_its_sweep_without_computing_it_again(app_window, qtbot, drawn):
    session, window = app_window
    first = session.workload
    session.set_workload(first.model_copy(update={"batch": 9}))
    drawn(window)
    session.undo_stack.undo()  # back to the first workload: its sweep is remembered
    assert session.workload == first
    assert not session.sweep_pending and session.results.curves


def test_what_makes_it_fit_is_found_off_the_ui_thread_for_the_last_change_only(app_window, drawn, synchronous):
    """Training a 70B model on the canonical pair does not fit; the search for what would (0.2–0.5 s
    with six builds) runs on the worker, a change made meanwhile supersedes it, and what is shown
    in the end is what one synchronous evaluation finds for the last change."""
    from advisor.core.advice.comparison import ModelRef
    from advisor.core.advice.recommend import recommendation
    from advisor.core.job.choices import Method, Mode

    session, window = app_window
    found = []
    session.suggestions_computed.connect(lambda results: found.append(session.workload))
    session.set_model(ModelRef(preset_id="llama-3.1-70b"))
    train = session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})
    last = None
    for seq in (1024, 2048, 4096):  # no event loop between them
        last = train.model_copy(update={"context_len": seq})
        session.set_workload(last)
    assert session.suggestions_pending
    assert all(not r.suggestions for r in session.results.builds)
    drawn(window)
    assert found and all(w == last for w in found)  # a superseded search is never shown
    reference = synchronous(session)
    assert any(r.suggestions for r in reference.builds)
    assert [r.suggestions for r in session.results.builds] == [r.suggestions for r in reference.builds]
    assert session.recommendation == recommendation(reference, session.workload, session.criterion)


def test_the_sweep_runs_a_few_sizes_per_turn_and_a_change_drops_it(app_window, drawn, qtbot, slow_sweep):
    """The fit sweep is computed on the UI thread in turns (``slice_ms``: here one model size per
    turn), after the table; a change made while it runs drops it, and what is drawn in the end is
    the last workload's sweep, equal to ``fit_curves``. (``slow_sweep``: a fast one was
    missed by waitUntil's polling.)"""
    session, window = app_window
    session.slice_ms = 0.0
    shown = []
    session.curves_computed.connect(lambda results: shown.append(session.workload))
    first = session.workload.model_copy(update={"batch": 13})
    session.set_workload(first)
    qtbot.waitUntil(lambda: session.scheduler._sweep_run is not None, timeout=5000)  # begun, in turns: not done
    assert session.sweep_pending and session.scheduler._sweep_step_timer.isActive()
    last = first.model_copy(update={"batch": 14})
    session.set_workload(last)
    assert session.scheduler._sweep_run is None or session.scheduler._sweep_run.workload == last  # the first one is dropped
    drawn(window)
    assert shown == [last] and first not in session.scheduler._curve_cache
    reference, current = evaluate.fit_curves(last)
    assert session.results.current_technique == current and list(session.results.curves) == list(reference)
    for label, y in reference.items():
        np.testing.assert_array_equal(session.results.curves[label], y)


def test_builds_are_resolved_and_priced_once_per_catalog(app_window, monkeypatch):
    """A workload change re-estimates; it does not resolve, price and check the builds again
    — until the catalog is loaded again (an edit may have changed a price)."""
    session, _window = app_window
    calls = []
    real = evaluate.prepare_build
    monkeypatch.setattr(evaluate, "prepare_build", lambda catalog, entry: calls.append(entry) or real(catalog, entry))
    for batch in (3, 5, 7):
        session.set_workload(session.workload.model_copy(update={"batch": batch}))
    assert calls == []
    session.load_catalog()
    assert calls == list(session.builds)
    session.set_workload(session.workload.model_copy(update={"batch": 9}))
    assert calls == list(session.builds)


def test_the_search_waits_until_the_job_stays_put(app_window, drawn, monkeypatch, qtbot):
    """Typing a value is several changes: the table follows each, the search for what would make a
    build fit starts once, for the last (``SUGGEST_DELAY_MS`` after it)."""
    from advisor.core.advice.comparison import ModelRef
    from advisor.ui.recompute.scheduler import SUGGEST_DELAY_MS

    session, window = app_window
    session.set_model(ModelRef(preset_id="llama-3.1-70b"))
    drawn(window)
    searched = []
    real = evaluate.find_suggestions
    monkeypatch.setattr(evaluate, "find_suggestions",
                        lambda arch, workload, *a, **k: searched.append(workload) or real(arch, workload, *a, **k))
    for n in (1, 12, 128, 1280):  # "1280" typed digit by digit, the event loop turning between keys
        session.set_workload(session.workload.model_copy(update={"context_len": n}))
        qtbot.wait(max(1, SUGGEST_DELAY_MS // 5))
        assert session.suggestions_pending
    drawn(window)
    assert [w.context_len for w in searched] == [1280]
    assert any(r.suggestions for r in session.results.builds)


def _six_entries():
    from advisor.core.advice.comparison import BuildEntry

    return (BuildEntry(name="3090 pair", build_id="2x-rtx-3090-nvlink"),
            BuildEntry(name="4090 pair", build_id="2x-rtx-4090-pcie-x16"),
            BuildEntry(name="Mac", system_id="apple-mac-studio-m3-ultra-96gb"),
            BuildEntry(name="DGX", system_id="nvidia-dgx-h100"),
            BuildEntry(name="Cloud H200", cloud_id="runpod-h200-secure-cloud"),
            BuildEntry(name="5090", gpu_id="rtx-5090", gpu_count=1))


def test_the_builds_are_estimated_a_few_per_turn_and_end_as_one_evaluation(app_window, drawn, synchronous, qtbot):
    """With six builds and a training job the estimates take longer than a frame: the window does a
    few builds per turn of the event loop (``slice_ms``), keeps the previous results until the last
    is in, and ends with what one evaluation gives."""
    from advisor.core.job.choices import Method, Mode

    session, window = app_window
    session.set_builds(_six_entries(), "six")
    drawn(window)
    session.slice_ms = 0.0  # one build per turn
    before = session.results
    turns = []
    session.results_computed.connect(lambda results: turns.append(results))
    session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA}))
    assert session.results_pending and session.results is before and not turns
    drawn(window)
    assert len(turns) == 1 and not session.results_pending
    reference = synchronous(session)
    assert [r.estimate.memory.total for r in session.results.builds] == [
        r.estimate.memory.total for r in reference.builds]
    assert [r.suggestions for r in session.results.builds] == [r.suggestions for r in reference.builds]
    assert session.results.curves.keys() == reference.curves.keys()


def test_a_change_during_the_pass_starts_it_again_for_the_new_state(app_window, drawn, synchronous):
    session, window = app_window
    session.set_builds(_six_entries(), "six")
    drawn(window)
    session.slice_ms = 0.0
    shown = []
    session.results_computed.connect(lambda results: shown.append(session.workload.batch))
    for batch in (3, 4, 5):  # no event loop between them: the first two passes never finish
        session.set_workload(session.workload.model_copy(update={"batch": batch}))
    drawn(window)
    assert shown == [5]
    reference = synchronous(session)
    assert [r.estimate.memory.total for r in session.results.builds] == [
        r.estimate.memory.total for r in reference.builds]
    np.testing.assert_array_equal(session.results.curves[session.results.current_technique],
                                  reference.curves[reference.current_technique])



def test_a_turn_that_computed_long_leaves_the_table_and_the_plot_to_the_next(app_window, drawn, monkeypatch, qtbot):
    """Builds or a sweep that took ``SPLIT_AFTER_MS`` or more in a turn: the ranking and the table, or
    the Fit plot's redraw, follow in the next turn, so a key typed meanwhile waits for one of the two,
    not both (the pass and the table's redraw together were the longest stalls)."""
    import time

    from PySide6.QtWidgets import QApplication

    from advisor.ui.recompute.turns import SPLIT_AFTER_MS

    real_build, real_steps = evaluate.evaluate_build, evaluate.fit_curve_steps

    def slow_build(*a, **k):
        time.sleep(SPLIT_AFTER_MS / 1e3)
        return real_build(*a, **k)

    def slow_steps(workload):  # every size in one turn, the turn longer than SPLIT_AFTER_MS
        out = yield from real_steps(workload)
        time.sleep(SPLIT_AFTER_MS / 1e3)
        return out

    monkeypatch.setattr(evaluate, "evaluate_build", slow_build)
    monkeypatch.setattr(evaluate, "fit_curve_steps", slow_steps)
    session, window = app_window
    session.slice_ms = 1e3  # every build in one turn
    computed, curves = [], []
    session.results_computed.connect(computed.append)
    session.curves_computed.connect(curves.append)
    first = session.workload.model_copy(update={"batch": 21})
    session.set_workload(first)
    assert session.results_pending and not computed  # every build computed, the table not yet redrawn
    assert len(session.scheduler._pass.done) == len(session.builds) and session.scheduler._pass_timer.isActive()
    deadline = time.monotonic() + 5
    while not (session.scheduler._sweep_run is not None and session.scheduler._sweep_run.out is not None) and time.monotonic() < deadline:
        QApplication.processEvents()  # one pass at a time: that state lasts one turn
    assert session.scheduler._sweep_run is not None and session.scheduler._sweep_run.out is not None
    assert computed and not curves and session.sweep_pending  # the sweep is in, its redraw waits a turn
    second = first.model_copy(update={"batch": 22})
    session.set_workload(second)  # a change before that turn: the first sweep is kept, not drawn
    assert first in session.scheduler._curve_cache and session.scheduler._sweep_run is None
    drawn(window)
    assert len(curves) == 1 and session.workload == second and not session.sweep_pending
    session.undo_stack.undo()
    assert session.workload == first and not session.sweep_pending  # drawn from what was kept


def test_closing_the_window_stops_every_timer_and_job(qtbot, qapp):
    """A pass, a sweep or a search started by a timer after the window went reported to a session
    being destroyed: the whole suite crashed in a later test's event loop."""
    from advisor.ui.app import build_window

    session, window = build_window()
    window.skip_unsaved_prompt = True
    qtbot.addWidget(window)
    window.show()
    window.finish_start()
    session.slice_ms = 0.0  # one build per turn: the pass is still running when the window closes
    session.set_builds(_six_entries(), "six")
    assert session.results_pending
    window.close()
    assert not session.results_pending
    assert not any(t.isActive() for t in (session.scheduler._pass_timer, session.scheduler._sweep_timer, session.scheduler._suggest_timer))
    qtbot.wait(SUGGEST_WAIT_MS)  # the event loop turns: nothing is started, nothing is emitted
    assert session.scheduler._sweep_run is None and session.scheduler.search.job is None
    session.set_workload(session.workload.model_copy(update={"batch": 3}))  # a closed session computes at once
    assert not session.results_pending and session.results.builds[0].estimate is not None


SUGGEST_WAIT_MS = 400
