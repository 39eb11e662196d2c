"""The builds table's speed tooltip and the Details say what each speed stands on (advisor.core.speed.basis)."""

from __future__ import annotations

import pytest

from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.evaluate import evaluate
from advisor.core.advice.speed_bases import with_speed_bases
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog
from advisor.storage.error_bands import speed_basis_table
from advisor.storage.settings import Settings
from advisor.ui import format as fmt
from tests.ui.test_window_words import RAW


@pytest.fixture(scope="module")
def results():
    catalog = load_catalog().catalog
    job = PlannedJob(weights="q4_k_m", engine="llama.cpp")
    builds = (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),
              BuildEntry(name="old", gpu_id="rtx-2080-ti", gpu_count=2))
    results = evaluate(catalog, catalog.models["llama-3.1-8b"], job, builds)
    return with_speed_bases(results, job, speed_basis_table()), job  # as the session adds them


def test_the_speed_tooltip_says_measured_or_extrapolated(results):
    res, job = results
    prefs = Settings()
    tips = {r.name: fmt.cell_tip(r, 3, prefs, job) for r in res.builds}
    assert tips["pair"].startswith("Speed measured on this GPU family (NVIDIA sm_86) with llama.cpp")
    assert tips["old"].startswith("Speed extrapolated: no published run of this GPU family (NVIDIA sm_75) with llama.cpp")
    details = fmt.details_html(res, job, prefs)
    assert "Speed measured on this GPU family (NVIDIA sm_86)" in details and "Speed extrapolated" in details
    for text in (*tips.values(), details):
        assert not RAW.search(text)
