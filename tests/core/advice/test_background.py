"""The slow answers of an evaluation: which builds are worth a search, what a search in another process is
sent, and how its answer goes back onto the results (nothing else changes)."""

import dataclasses

import numpy as np
import pytest

from advisor.core.advice import background
from advisor.core.advice.build_results import BuildResult, Results, SearchAnswer
from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.plan.planner import FitStatus
from advisor.core.plan.suggest import Suggestion


@pytest.fixture(scope="module")
def none_fits(catalog):
    """bf16 Llama 3.1 70B on vLLM on the two canonical pairs and a build that does not resolve."""
    c = canonical_comparison()
    entries = (*c.builds, BuildEntry(name="unknown", build_id="no-such-build"))
    arch = resolve_model(catalog, ModelRef(preset_id="llama-3.1-70b"))
    return arch, c.workload, evaluate(catalog, arch, c.workload, entries, suggest=False)


def test_only_builds_that_do_not_fit_or_fit_tightly_are_searched(none_fits):
    _, _, results = none_fits
    pair, other, unknown = results.builds
    assert pair.status is FitStatus.NO and background.needs_suggestions(pair)
    assert not background.needs_suggestions(unknown)  # nothing resolved: nothing to search
    assert not background.needs_suggestions(dataclasses.replace(pair, status=FitStatus.FITS))
    assert background.needs_suggestions(dataclasses.replace(pair, status=FitStatus.TIGHT))
    inputs = background.suggestion_inputs(results)
    assert inputs[0][0] is pair.resolved
    assert inputs[2] is None


def test_a_search_cancelled_before_it_starts_answers_nothing(none_fits):
    arch, workload, results = none_fits
    inputs = background.suggestion_inputs(results)
    assert background.suggestions_for(arch, workload, inputs, cancelled=lambda: True) is None
    assert background.background_search(arch, workload, inputs, fits=background.fit_inputs(results),
                                        cancelled=lambda: True) is None


def test_an_answer_goes_onto_its_builds_and_nothing_else_changes(none_fits):
    entry = BuildEntry(name="x", gpu_id="rtx-4090")
    builds = (BuildResult(entry=entry, status=FitStatus.NO), BuildResult(entry=entry, status=FitStatus.FITS))
    results = Results(builds, {"bf16": np.zeros(3)}, "bf16", 8e9, 16e9)
    change = Suggestion("weights", "Q4_K_M weights", none_fits[2].builds[0].chosen)
    found = ((change,), None)
    with_found = background.with_search(results, found)
    assert with_found.builds[0].suggestions == (change,) and with_found.builds[1] is builds[1]
    assert not with_found.fits_found and with_found.curves is results.curves
    answered = background.with_search(results, SearchAnswer(found, ({"bf16": 9e9}, None)))
    assert answered.fits_found and answered.builds[0].suggestions == (change,)
    # The current technique is held to the verdict: a build that does not run the 8 B model runs less than it.
    assert answered.builds[0].largest_fit["bf16"] < 8e9
    assert answered.builds[1].largest_fit == {}
    with pytest.raises(ValueError):
        background.with_suggestions(results, found[:1])  # one answer per build
