"""The Value chart draws what the results carry: price per GB and per token/s from each build's price, and the
running cost per million tokens from ``Results.running`` (the caller computed it under the user's settings)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from advisor import plots
from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry, canonical_comparison
from advisor.core.advice.running import with_running_costs
from advisor.core.cost.running import CostSettings
from advisor.storage.catalog_store import load_catalog

pytestmark = [pytest.mark.gui]

BUILDS = (*canonical_comparison().builds, BuildEntry(name="RunPod H200", cloud_id="runpod-h200-secure-cloud"))


@pytest.fixture(scope="module")
def results():
    catalog = load_catalog().catalog
    comp = canonical_comparison()
    arch = evaluate.resolve_model(catalog, comp.model)
    plain = evaluate.evaluate(catalog, arch, comp.workload, BUILDS, suggest=False)
    cost = CostSettings(electricity_usd_per_kwh=0.3, hours_per_day=6, years=4)
    return plain, with_running_costs(plain, arch, comp.workload, cost, dt.date(2026, 11, 1))


def test_the_running_cost_bars_are_the_results_running_costs(qapp, results):
    _plain, costed = results
    plot = plots.ValuePlot()
    plot.update(costed, training=False)
    want = {i: c.usd_per_million_tokens for i, c in enumerate(costed.running.builds)
            if c.usd_per_million_tokens is not None}
    assert want and plot.million_values == want
    tips = [spot.data() for spot in plot.million_bars.hover.points()]
    assert any("energy + price over 4 years of 6 h a day" in t for t in tips)  # the settings the caller used
    assert any("/h rented" in t for t in tips)


def test_other_settings_in_the_results_draw_other_bars(qapp, results):
    plain, costed = results
    cheaper = dataclasses.replace(costed.running, settings=CostSettings(hours_per_day=24))
    plot = plots.ValuePlot()
    plot.update(dataclasses.replace(costed, running=cheaper), training=False)
    tips = [spot.data() for spot in plot.million_bars.hover.points()]
    assert any("of 24 h a day" in t for t in tips)  # what the results carry, nothing of the plot's own


def test_results_without_running_costs_say_so_under_each_slot(qapp, results):
    plain, _costed = results
    plot = plots.ValuePlot()
    plot.update(plain, training=False)
    assert plot.million_values == {}
    assert set(plot.million_bars.note_texts().values()) == {"running cost not computed"}
