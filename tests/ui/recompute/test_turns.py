"""The work done a turn of the event loop at a time, Qt-free: a turn's budget, the builds' pass, the sweep,
and the sweeps kept by workload."""

from __future__ import annotations

import math
import time

import pytest

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import canonical_comparison
from advisor.storage.catalog_store import load_catalog
from advisor.ui.recompute import turns
from advisor.ui.recompute.turns import BuildsPass, CurveCache, Progress, SweepRun, Turn


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _pass(catalog, workload=None):
    c = canonical_comparison()
    w = workload or c.workload
    arch = evaluate.resolve_model(catalog, c.model)
    prepared = tuple(evaluate.prepare_build(catalog, e) for e in c.builds)
    return BuildsPass(catalog, arch, w, c.builds, prepared, ({}, "bf16"), 0.0)


def _turn(slice_ms: float, used_ms: float) -> Turn:
    """A turn that has used ``used_ms`` so far (its start moved back: no sleeping, whatever the load)."""
    turn = Turn(slice_ms)
    turn.start = time.perf_counter() - used_ms / 1e3
    return turn


def test_a_turn_is_spent_at_its_budget_and_an_unlimited_one_never_splits():
    assert Turn(0.0).spent() and Turn(0.0).split()
    assert not _turn(8.0, -1e6).spent()  # (a start in the future: nothing used yet)
    assert _turn(8.0, 9.0).spent()
    endless = _turn(math.inf, 1e6)
    assert not endless.spent() and not endless.split()  # tests and a closed window: everything at once


def test_a_turn_splits_after_split_after_ms_even_below_its_budget():
    assert not _turn(1e3, -1e6).split()
    turn = _turn(1e3, turns.SPLIT_AFTER_MS * 1.5)
    assert turn.split() and not turn.spent()


def test_the_pass_estimates_one_build_per_spent_turn_then_is_done(catalog):
    p = _pass(catalog)
    n = len(p.entries)
    for i in range(n):
        assert p.advance(Turn(0.0)) is Progress.SPENT and len(p.done) == i + 1
    assert p.advance(Turn(0.0)) is Progress.IDLE  # nothing left: the scheduler assembles now


def test_the_pass_gives_the_quick_estimates_of_evaluate_build(catalog):
    p = _pass(catalog)
    assert p.advance(Turn(math.inf)) is Progress.COMPUTED
    for entry, got in zip(p.entries, p.done, strict=True):
        want = evaluate.evaluate_build(catalog, p.arch, p.workload, entry, 0.0, False, quick=True)
        assert got.status == want.status and got.estimate.memory == want.estimate.memory
        assert got.estimate.speed == want.estimate.speed and not got.detailed


def test_the_sweep_runs_in_turns_and_ends_with_fit_curves(catalog):
    w = canonical_comparison().workload
    run = SweepRun(w, evaluate.fit_curve_steps(w))
    turns_taken = 0
    while (progress := run.advance(Turn(0.0))) is Progress.SPENT:
        turns_taken += 1
    assert progress is Progress.COMPUTED and turns_taken > 1
    curves, current = run.out
    want, want_current = evaluate.fit_curves(w)
    assert current == want_current and list(curves) == list(want)
    assert run.advance(Turn(0.0)) is Progress.IDLE  # computed: the scheduler draws it


def test_a_sweep_that_raises_keeps_its_exception_as_its_answer():
    def steps():
        yield
        raise ValueError("no such format")

    run = SweepRun(canonical_comparison().workload, steps())
    assert run.advance(Turn(math.inf)) is Progress.COMPUTED
    assert isinstance(run.out, ValueError)


def test_a_sweep_answered_whole_is_not_stepped():
    run = SweepRun(canonical_comparison().workload, None, ({}, "bf16"))
    assert run.advance(Turn(0.0)) is Progress.IDLE and run.out == ({}, "bf16")


def test_the_curve_cache_keeps_the_newest_sweeps():
    base = canonical_comparison().workload
    cache = CurveCache(2)
    ws = [base.model_copy(update={"batch": b}) for b in (1, 2, 3)]
    for i, w in enumerate(ws):
        cache.put(w, ({}, str(i)))
    assert ws[0] not in cache and cache.get(ws[1]) == ({}, "1") and ws[2] in cache
    cache.put(ws[1], ({}, "again"))  # a sweep put again is the newest
    cache.put(ws[0], ({}, "0"))
    assert ws[2] not in cache and cache.get(ws[1]) == ({}, "again")
