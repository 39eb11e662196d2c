"""The report's tables of builds: the verdict table's cost column in one unit for every build, read from the
running costs the results carry."""

from __future__ import annotations

import datetime as dt

from advisor.core.advice.running import with_running_costs
from advisor.core.cost.running import CostSettings
from advisor.core.job.planned import PlannedJob


def test_the_verdict_table_prices_every_build_per_million_tokens():
    """One unit for the column: a rented build's hourly rate over its tokens per hour, an owned one's running cost
    (its cost per unit was its hourly rate over tokens/s, '$0.00/h per tok/s', and owned builds' $ per tok/s sat
    beside rented builds' $ per M tokens)."""
    from advisor.core.advice.comparison import BuildEntry, ModelRef
    from advisor.core.advice.evaluate import evaluate, resolve_model
    from advisor.core.advice.running import build_running_cost
    from advisor.core.job.choices import Method, Mode
    from advisor.report.tables import verdict_table
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    w = PlannedJob(mode=Mode.TRAIN, method=Method.LORA)
    arch = resolve_model(catalog, ModelRef(preset_id="llama-3.1-8b"))
    results = evaluate(catalog, arch, w, (BuildEntry(name="H200", cloud_id="runpod-h200-secure-cloud"),
                                          BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink")))
    table = verdict_table(with_running_costs(results, arch, w, CostSettings(), dt.date(2026, 11, 1)), w, "GiB")
    assert table.columns[-1] == "Cost per million trained tokens"
    rows = {row[0]: row for row in table.rows}
    h200 = results.builds[0]
    expected = h200.usd_per_hour / (h200.estimate.speed.train_tokens_per_s * 3600) * 1e6
    assert rows["H200"][-1] == f"${expected:,.2f}" and "$0.00" not in rows["H200"][-1]
    pair = build_running_cost(results.builds[1], w, CostSettings(), dt.date(2026, 11, 1))
    assert rows["pair"][-1] == f"${pair.usd_per_million_tokens:,.2f}"
    assert not any("tok/s" in row[-1] for row in table.rows)


def test_results_without_running_costs_are_refused_in_words():
    """The report never computes a running cost of its own: results without them are the caller's mistake."""
    import pytest

    from advisor.core.advice.comparison import canonical_comparison
    from advisor.core.advice.evaluate import evaluate, resolve_model
    from advisor.report.tables import verdict_table
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    c = canonical_comparison()
    results = evaluate(catalog, resolve_model(catalog, c.model), c.workload, c.builds, suggest=False)
    with pytest.raises(ValueError, match="running costs"):
        verdict_table(results, c.workload, "GiB")
