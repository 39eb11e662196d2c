"""The recompute scheduler alone: no document, no session, no window. Inputs in, results out in steps (the
builds' estimates, then the fit sweep, then what would make each build fit), a newer change superseding an
older one, and nothing more once it is closed. The core's process is left out: the sweep runs on the UI
thread in turns and the search on the worker thread."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import ModelRef, canonical_comparison
from advisor.storage.catalog_store import load_catalog
from advisor.ui.recompute.scheduler import Inputs, RecomputeScheduler


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _inputs(catalog, model="llama-3.1-8b", **workload) -> Inputs:
    c = canonical_comparison()
    arch = evaluate.resolve_model(catalog, ModelRef(preset_id=model))
    return Inputs(catalog, arch, c.workload.model_copy(update=workload), c.builds, 0.0)


@pytest.fixture
def scheduler(qapp):
    s = RecomputeScheduler()
    s.seen = []
    for name in ("results_computed", "curves_computed", "suggestions_computed", "problem_reported"):
        getattr(s, name).connect(lambda out, name=name: s.seen.append((name, out)))
    yield s
    s.close()


def _names(s) -> list[str]:
    return [name for name, _ in s.seen]


def test_the_builds_come_first_then_the_sweep_then_the_search(scheduler, catalog, qtbot):
    inputs = _inputs(catalog)
    scheduler.slice_ms = math.inf  # the builds in this call, whatever the machine's load
    scheduler.recompute(inputs)
    assert _names(scheduler) == ["results_computed"] and scheduler.sweep_pending and scheduler.suggestions_pending
    first = scheduler.results
    assert first.curves == {} and not first.fits_found
    qtbot.waitUntil(lambda: not scheduler.sweep_pending and not scheduler.suggestions_pending, timeout=20000)
    assert _names(scheduler) == ["results_computed", "curves_computed", "suggestions_computed"]
    want = evaluate.evaluate(catalog, inputs.arch, inputs.workload, inputs.builds)
    got = scheduler.results
    assert [r.estimate.memory.total for r in got.builds] == [r.estimate.memory.total for r in want.builds]
    assert [r.largest_fit for r in got.builds] == [r.largest_fit for r in want.builds] and got.fits_found
    for label, y in want.curves.items():
        np.testing.assert_array_equal(got.curves[label], y)


def test_a_pass_of_one_build_per_turn_keeps_the_previous_results_until_the_last(scheduler, catalog, qtbot):
    scheduler.slice_ms = math.inf
    scheduler.recompute(_inputs(catalog))
    before = scheduler.results
    scheduler.slice_ms = 0.0
    scheduler.recompute(_inputs(catalog, batch=3))
    assert scheduler.results_pending and scheduler.results is before
    qtbot.waitUntil(lambda: not scheduler.results_pending, timeout=10000)
    assert scheduler.results is not before and scheduler.results.builds[0].entry == before.builds[0].entry


def test_a_newer_change_supersedes_the_pass_and_the_search(scheduler, catalog, qtbot):
    scheduler.slice_ms = 0.0
    for batch in (2, 3, 4):  # no event loop between them: the first two passes never finish
        scheduler.recompute(_inputs(catalog, batch=batch))
    qtbot.waitUntil(lambda: not (scheduler.results_pending or scheduler.sweep_pending
                                 or scheduler.suggestions_pending), timeout=20000)
    results = [out for name, out in scheduler.seen if name == "results_computed"]
    assert len(results) == 1 and scheduler.inputs.workload.batch == 4
    assert all(r.chosen.planned.batch == 4 for r in scheduler.results.builds if r.chosen is not None)


def test_a_sweep_that_fails_is_said_once_and_the_numbers_stand(scheduler, catalog, qtbot, monkeypatch):
    def broken(workload):
        yield
        raise ValueError("no such format")

    monkeypatch.setattr(evaluate, "fit_curve_steps", broken)
    scheduler.recompute(_inputs(catalog, batch=6))
    qtbot.waitUntil(lambda: ("problem_reported", "fit curves: no such format") in scheduler.seen, timeout=10000)
    assert scheduler.results.builds[0].estimate is not None and "curves_computed" not in _names(scheduler)


def test_a_closed_scheduler_starts_nothing_more_and_computes_a_change_at_once(scheduler, catalog, qtbot):
    scheduler.slice_ms = 0.0
    scheduler.recompute(_inputs(catalog, batch=7))
    assert scheduler.results_pending
    scheduler.close()
    assert not scheduler.results_pending
    qtbot.wait(400)  # past the search's delay: nothing was started by a timer
    assert scheduler.seen == [] and scheduler.search.job is None
    scheduler.recompute(_inputs(catalog, batch=8))
    assert not scheduler.results_pending and _names(scheduler) == ["results_computed"]
    qtbot.wait(400)
    assert _names(scheduler) == ["results_computed"]  # no sweep or search after it either


def test_without_a_model_no_search_is_due(scheduler, catalog, qtbot):
    inputs = dataclasses.replace(_inputs(catalog), arch=None)
    scheduler.slice_ms = math.inf
    scheduler.recompute(inputs)
    assert not scheduler.suggestions_pending and scheduler.results.builds[0].error == "no model chosen"
