"""Helpers shared by the advice tests."""

from __future__ import annotations

from advisor.core.advice.comparison import Comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.build_results import Results
from advisor.core.hardware.catalog import Catalog


def results_of(catalog: Catalog, comparison: Comparison) -> Results:
    """Every build of ``comparison`` evaluated for its model and job, as the window does after a change."""
    arch = resolve_model(catalog, comparison.model)
    return evaluate(catalog, arch, comparison.workload, comparison.builds)
