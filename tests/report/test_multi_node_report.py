"""The PDF names several machines: node count, their network card, the link that bounds the traffic."""

from __future__ import annotations

import datetime as dt

import pytest

from advisor.core.advice.comparison import BuildEntry, Comparison, ModelRef
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.running import with_running_costs
from advisor.core.cost.running import CostSettings
from advisor.core.job.planned import PlannedJob
from advisor.report.content import build_document
from advisor.report.document import Table
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_the_pdf_names_the_machines_and_their_network(catalog):
    comparison = Comparison(
        workload=PlannedJob(mode="train", method="full", seq_len=8192, batch=2), model=ModelRef(preset_id="llama-3.1-8b"),
        builds=(BuildEntry(name="One DGX", system_id="nvidia-dgx-h100"),
                BuildEntry(name="Four DGX", system_id="nvidia-dgx-h100", nodes=4),
                BuildEntry(name="Two desks", build_id="2x-rtx-4090-pcie-x16", nodes=2)))
    arch = resolve_model(catalog, comparison.model)
    results = with_running_costs(evaluate(catalog, arch, comparison.workload, comparison.builds), arch,
                                 comparison.workload, CostSettings(), dt.date(2026, 11, 22))
    doc = build_document(comparison, arch, results, catalog_date="2026-11-09", error_band="", made_on=dt.date(2026, 11, 22))
    tables = [b for b in doc.blocks if isinstance(b, Table) and b.columns[0] == "Build"]
    builds = next(t for t in tables if "Links" in t.columns)
    rows = {row[0]: row for row in builds.rows}
    assert "(4 machines × 8)" in rows["Four DGX"][1] and rows["Four DGX"][1].startswith("32×")
    assert "4 machines joined by 8× ConnectX-7" in rows["Four DGX"][3] and "InfiniBand" not in rows["One DGX"][1]
    assert "2 machines joined by no network card named" in rows["Two desks"][3]
    verdict = next(t for t in tables if "Plan" in t.columns)
    vrows = {row[0]: row for row in verdict.rows}
    assert "InfiniBand between 4 machines" in vrows["Four DGX"][1]
    assert "mostly the InfiniBand link between the 4 machines" in vrows["Four DGX"][4]
