"""What one evaluation hands the views: a build runs only with a verdict that runs, and a result is a value."""

import dataclasses

import pytest

from advisor.core.advice.build_results import BuildResult, PreparedBuild, Results
from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.fit_curves import CURVE_PARAMS
from advisor.core.advice.largest import SIZE_HI
from advisor.core.plan.verdict import FitStatus


def test_a_build_runs_only_with_a_verdict_that_runs():
    entry = BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink")
    assert BuildResult(entry=entry).name == "pair"
    assert not BuildResult(entry=entry).runs  # no estimate: no verdict
    assert not BuildResult(entry=entry, status=FitStatus.NO).runs
    assert not BuildResult(entry=entry, status=FitStatus.BLOCKED).runs
    assert BuildResult(entry=entry, status=FitStatus.TIGHT).runs and BuildResult(entry=entry, status=FitStatus.FITS).runs


def test_results_are_frozen_and_default_to_the_fit_plots_axis():
    results = Results((), {}, "bf16", None, None)
    assert results.curve_params is CURVE_PARAMS and results.largest_top_params == SIZE_HI
    assert results.running is None and not results.fits_found
    with pytest.raises(dataclasses.FrozenInstanceError):
        results.notice = "changed"  # type: ignore[misc]
    unresolved = PreparedBuild(resolved=None, money=None, error="cannot resolve: no such build")
    assert unresolved.warnings == ()
