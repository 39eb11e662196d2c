"""The session composed of the document and the scheduler: an edit recomputes, a rank-by change only ranks
again, and the results it shows carry what the renderers read (each build's running cost under the
preferences' cost settings, and its speed basis) — computed here once, never by a view."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from advisor.core.advice.criterion import Criterion
from advisor.core.advice.running import build_running_cost
from advisor.core.advice.speed_bases import speed_basis_of
from advisor.storage.error_bands import speed_basis_table
from advisor.storage.settings import Settings
from advisor.ui.session import Session


@pytest.fixture
def session(qapp):
    s = Session()
    s.slice_ms = math.inf  # every change computed at once
    s.load_catalog()
    yield s
    s.close()


def test_it_is_made_of_the_document_and_the_scheduler(session):
    assert session.workload is session.document.workload and session.builds is session.document.builds
    assert session.results is session.scheduler.results and session.results is not None
    assert session.arch is not None and session.arch.id == session.model.preset_id  # resolved by the catalog


def test_an_edit_of_the_document_is_computed_and_said_once(session):
    seen = []
    session.results_computed.connect(seen.append)
    session.set_workload(session.workload.model_copy(update={"batch": 9}))
    assert len(seen) == 1 and seen[0] is session.results
    assert all(r.planned.workload.batch == 9 for r in session.results.builds if r.planned is not None)


def test_rank_by_alone_ranks_again_without_estimating_again(session):
    before = session.results
    seen = []
    session.results_computed.connect(seen.append)
    session.set_criterion(Criterion.PRICE)
    assert seen == [before] and session.results is before  # the same estimates
    assert session.ranking is not None and session.ranking.criterion is Criterion.PRICE
    session.undo_stack.undo()
    assert session.criterion is Criterion.SPEED and session.ranking.criterion is Criterion.SPEED


def test_the_results_carry_each_builds_running_cost_under_the_preferences(session):
    today = dt.date.today()
    running = session.results.running
    assert running is not None and running.settings == session.prefs.cost and running.today == today
    for r, c in zip(session.results.builds, running.builds, strict=True):
        assert c == build_running_cost(r, session.workload, session.prefs.cost, today)
    seen = []
    session.prefs_changed.connect(lambda: seen.append(session.results.running.settings))
    dearer = Settings.model_validate({**session.prefs.model_dump(), "electricity_usd_per_kwh": 0.9})
    session.set_prefs(dearer)
    assert seen == [dearer.cost]  # in place before the views redraw
    for r, c in zip(session.results.builds, session.results.running.builds, strict=True):
        assert c == build_running_cost(r, session.workload, dearer.cost, today)


def test_the_results_carry_each_builds_speed_basis(session):
    table = speed_basis_table()
    for r in session.results.builds:
        assert r.speed_basis is not None and r.speed_basis == speed_basis_of(r, session.workload, table)


def test_what_the_session_adds_outlasts_the_sweep_and_the_search(session, qtbot):
    session.slice_ms = 8.0
    session.set_workload(session.workload.model_copy(update={"batch": 3}))
    qtbot.waitUntil(lambda: not (session.results_pending or session.sweep_pending or session.suggestions_pending),
                    timeout=20000)
    assert session.results.fits_found and session.results.running is not None
    assert all(r.speed_basis is not None for r in session.results.builds)
