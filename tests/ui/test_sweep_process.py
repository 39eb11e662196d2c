"""The Fit plot's sweep in a process of its own, beside the builds' estimates (issue 20)."""

import multiprocessing
import threading
import time

import numpy as np
import pytest

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import canonical_comparison
from advisor.core.job.workload import Method, Mode
from advisor.ui import sweep_process
from advisor.ui.sweep_process import SKIPPED, SweepProcess, serve

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]

START_S = 60  # a fresh interpreter importing the core on a loaded CI machine


def _same_sweep(out, workload):
    curves, current = out
    want, want_current = evaluate.fit_curves(workload)
    assert current == want_current and set(curves) == set(want)
    for label, y in want.items():
        np.testing.assert_array_equal(curves[label], y)


def test_the_worker_skips_requests_a_newer_one_made_useless():
    """Requests waiting when the worker takes one are answered ``skipped`` (the user typed on), the
    newest is computed as the core computes it, and the worker ends when the window says so."""
    ours, theirs = multiprocessing.Pipe()
    base = canonical_comparison().workload
    jobs = [base.model_copy(update={"batch": b}) for b in (3, 4, 5)]
    for k, job in enumerate(jobs, 1):
        ours.send((k, job))  # all waiting when the worker, its imports done, takes the first
    worker = threading.Thread(target=serve, args=(theirs,))
    worker.start()
    answers = []
    while len(answers) < 4 and ours.poll(30):
        answers.append(ours.recv())
    ours.send(None)
    worker.join(30)
    assert not worker.is_alive()
    assert answers[0] == "ready"
    assert answers[1:3] == [(1, SKIPPED), (2, SKIPPED)]
    key, out = answers[3]
    assert key == 3 and len(answers) == 4
    _same_sweep(out, jobs[2])


def test_a_failed_sweep_is_answered_with_its_exception(monkeypatch):
    ours, theirs = multiprocessing.Pipe()

    def broken(_workload):
        raise ValueError("no curve")

    base = canonical_comparison().workload
    worker = threading.Thread(target=serve, args=(theirs,))
    worker.start()
    assert ours.poll(30) and ours.recv() == "ready"
    monkeypatch.setattr(evaluate, "technique_workloads", broken)  # after the warm-up sweeps
    ours.send((1, base))
    assert ours.poll(30)
    key, out = ours.recv()
    ours.send(None)
    worker.join(30)
    assert key == 1 and isinstance(out, ValueError) and "no curve" in str(out)


def _ready(qtbot, sweeper):
    sweeper.start()
    qtbot.waitUntil(lambda: sweeper.ready or sweeper.failed, timeout=START_S * 1000)
    assert sweeper.ready, "the worker process did not start"


def test_the_worker_process_answers_on_the_ui_thread_and_ends_when_closed(qtbot):
    sweeper = SweepProcess()
    assert not sweeper.submit(canonical_comparison().workload)  # not started: the caller sweeps itself
    _ready(qtbot, sweeper)
    job = canonical_comparison().workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA, "batch": 7})
    with qtbot.waitSignal(sweeper.done, timeout=20000) as answer:
        assert sweeper.submit(job) and sweeper.pending(job)
    workload, out = answer.args
    assert workload == job and not sweeper.pending(job)
    _same_sweep(out, job)
    process = sweeper._process
    sweeper.close()
    process.join(20)
    assert process.exitcode == 0  # it read the closed pipe and returned


def test_the_window_draws_the_sweep_from_its_process_not_from_the_ui_thread(app_window, qtbot, drawn, monkeypatch):
    session, window = app_window
    session.slice_ms = 8.0  # as in the app (the fixture computes every change at once)
    _ready(qtbot, session.sweeper)
    here = []
    real_steps = evaluate.fit_curve_steps
    monkeypatch.setattr(evaluate, "fit_curve_steps", lambda w: here.append(w) or real_steps(w))
    job = session.workload.model_copy(update={"batch": 13, "context_len": 3000})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(job)
        assert session.sweeper.pending(job)  # sent at the change, before the builds are estimated
    drawn(window)
    assert session.results.curves and not here
    _same_sweep((session.results.curves, session.results.current_technique), job)
    assert session.results.builds[0].largest_fit  # the largest fits follow the curves


def test_if_the_process_dies_the_ui_thread_sweeps(app_window, qtbot, drawn):
    session, window = app_window
    session.slice_ms = 8.0
    _ready(qtbot, session.sweeper)
    session.sweeper._process.kill()
    session.sweeper._process.join(20)
    job = session.workload.model_copy(update={"batch": 11})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(job)
    drawn(window)
    assert session.sweeper.failed and not session.sweeper.ready
    _same_sweep((session.results.curves, session.results.current_technique), job)
    later = job.model_copy(update={"batch": 12})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(later)  # from now on, here
    assert not session.sweeper.pending(later)


def test_no_worker_where_processes_cannot_start(qtbot, monkeypatch):
    class NoProcesses:
        def Pipe(self):  # noqa: N802 - multiprocessing's name
            raise OSError("no processes here")

    monkeypatch.setattr(sweep_process.multiprocessing, "get_context", lambda _method: NoProcesses())
    sweeper = SweepProcess()
    sweeper.start()
    assert sweeper.failed and not sweeper.ready and not sweeper.submit(canonical_comparison().workload)


def test_closing_the_window_ends_the_worker(app_window, qtbot):
    session, window = app_window
    session.slice_ms = 8.0
    _ready(qtbot, session.sweeper)
    process = session.sweeper._process
    window.close()
    session.close()
    deadline = time.monotonic() + 20
    while process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not process.is_alive()
