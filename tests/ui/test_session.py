"""The session composed of the document and the scheduler: an edit recomputes, a rank-by change only ranks
again, and the views that show them get the results with what the renderers read (each build's running cost
under the preferences' cost settings, and its speed basis): computed here once per results and settings,
never by a view, and not in a change's own path."""

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
    assert all(r.chosen.planned.batch == 9 for r in session.results.builds if r.chosen is not None)


def test_rank_by_alone_ranks_again_without_estimating_again(session):
    before = session.results
    seen = []
    session.results_computed.connect(seen.append)
    session.set_criterion(Criterion.PRICE)
    assert seen == [before] and session.results is before  # the same estimates
    assert session.ranking is not None and session.ranking.criterion is Criterion.PRICE
    session.undo_stack.undo()
    assert session.criterion is Criterion.SPEED and session.ranking.criterion is Criterion.SPEED


def test_finished_results_carry_each_builds_running_cost_under_the_preferences(session):
    today = dt.date.today()
    assert session.results.running is None  # a change's own path does not compute them
    finished = session.finished(session.results)
    running = finished.running
    assert running is not None and running.settings == session.prefs.cost and running.today == today
    for r, c in zip(session.results.builds, running.builds, strict=True):
        assert c == build_running_cost(r, session.workload, session.prefs.cost, today)
    assert session.finished(session.results) is finished  # once per results and settings
    seen = []
    session.prefs_changed.connect(lambda: seen.append(session.finished(session.results).running.settings))
    dearer = Settings.model_validate({**session.prefs.model_dump(), "electricity_usd_per_kwh": 0.9})
    session.set_prefs(dearer)
    assert seen == [dearer.cost]  # the views redraw from the new settings
    again = session.finished(session.results)
    assert again is not finished
    for r, c in zip(session.results.builds, again.running.builds, strict=True):
        assert c == build_running_cost(r, session.workload, dearer.cost, today)


def test_finished_results_carry_each_builds_speed_basis(session):
    table = speed_basis_table()
    for r in session.finished(session.results).builds:
        assert r.speed_basis is not None and r.speed_basis == speed_basis_of(r, session.workload, table)


def test_finished_results_are_of_the_job_the_results_are_of(session):
    """While a newer change is computed the results on screen are the last state's: their running costs are
    of that state's job, not of the one being computed."""
    from advisor.core.job.choices import Method, Mode

    shown = session.results
    session.slice_ms = 0.0  # the new pass runs in turns: the old results stay on screen meanwhile
    train = session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA, "dataset_tokens": 10**9})
    session.set_workload(train)
    assert session.results_pending and session.results is shown
    running = session.finished(shown).running
    assert all(c.train_hours is None for c in running.builds)  # inference results: no training run
