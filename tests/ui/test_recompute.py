"""A change is computed in two steps (issue 20): the table's numbers at once, the fit sweep on a
worker thread after; the numbers are those of one synchronous ``evaluate``, and a newer change
supersedes the sweeps waiting."""

import numpy as np
import pytest

from advisor.core.advice import evaluate
from advisor.storage.error_bands import median_pct

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def _synchronous(session):
    """What the window showed before issue 20: one evaluate with the sweep in it."""
    band = median_pct(session.workload)
    margin = band / 100 if band is not None else 0.0
    curves = evaluate.fit_curves(session.workload)
    return evaluate.evaluate(session.catalog, session.arch, session.workload, session.builds, curves, margin)


def test_the_table_is_current_at_once_and_the_sweep_follows_with_the_same_numbers(app_window, drawn):
    session, window = app_window
    session.set_workload(session.workload.model_copy(update={"batch": 11, "context_len": 3000}))
    assert session.sweep_pending and session.results.curves == {}
    assert all(r.largest_fit == {} for r in session.results.builds)
    reference = _synchronous(session)
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
