"""A real main window (offscreen) with the shipped catalog loaded."""

import math

import pytest


def wait_until_drawn(qtbot, window, timeout_ms: int = 10000) -> None:
    """Wait for what follows a change after the table: the fit sweep (in turns of the event
    loop), the search for what would make each build fit (on the worker thread), then the visible
    tab's redraw and the lines under the table."""
    s = window.session
    qtbot.waitUntil(lambda: not s.results_pending and not s.sweep_pending and not s.suggestions_pending
                    and window.tabs.up_to_date() and not window.builds_panel.lines_pending, timeout=timeout_ms)


def synchronous_results(session):
    """What the window shows once its worker is done: one ``evaluate`` with the fit sweep and the
    search for what would make each build fit inline (what the scheduler's steps must add up to)."""
    from advisor.core.advice import evaluate
    from advisor.storage.error_bands import median_pct

    band = median_pct(session.workload)
    margin = band / 100 if band is not None else 0.0
    curves = evaluate.fit_curves(session.workload)
    return evaluate.evaluate(session.catalog, session.arch, session.workload, session.builds, curves, margin)


@pytest.fixture
def synchronous():
    """``synchronous(session)``: see ``synchronous_results``."""
    return synchronous_results


@pytest.fixture
def slow_sweep(monkeypatch):
    """The fit sweep at ~1 ms a model size: on the UI thread it takes turns of its own (with
    ``slice_ms`` 0), with paints between them, and outlasts ``waitUntil``'s polling."""
    import time

    from advisor.core.advice import fit_curves

    real_point = fit_curves._point

    def slow_point(workload, n_params):
        time.sleep(0.001)
        return real_point(workload, n_params)

    monkeypatch.setattr(fit_curves, "_point", slow_point)


@pytest.fixture
def drawn(qtbot):
    """``drawn(window)``: wait until the plots show the session's current results."""
    return lambda window: wait_until_drawn(qtbot, window)


@pytest.fixture
def app_window(qtbot):
    from advisor.ui.app import build_window

    session, window = build_window()
    # Tests read the table right after a change: every change computed at once, whatever the
    # machine's load (the window's few-builds-per-turn pass has its own tests in test_recompute.py).
    session.slice_ms = math.inf
    window.skip_unsaved_prompt = True  # no modal question when the test closes it
    qtbot.addWidget(window)
    window.show()
    window.finish_start()
    wait_until_drawn(qtbot, window)
    yield session, window
    window.close()
    session.close()  # (closeEvent did it unless the test kept the window from closing)
