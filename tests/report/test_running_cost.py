"""The PDF shows running cost and owning vs renting under the settings; stale prices say so."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from pypdf import PdfReader

from advisor.core.advice.comparison import (
    BuildEntry,
    Comparison,
    ModelRef,
    canonical_comparison,
)
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.recommend import recommendation
from advisor.core.advice.running import build_running_cost, rent_vs_buy
from advisor.core.cost.running import CostSettings
from advisor.core.job.choices import Mode
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog
from tests.report_export import export

COST = CostSettings(electricity_usd_per_kwh=0.25, hours_per_day=10, years=2)


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _with_cloud():
    comp = canonical_comparison()
    return comp.model_copy(update={"builds": (*comp.builds, BuildEntry(name="RunPod H200",
                                                                        cloud_id="runpod-h200-secure-cloud"))})


def _text(path) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(path).pages))


def test_pdf_text_has_running_cost_and_owning_vs_renting(qapp, catalog, tmp_path):
    comp = _with_cloud()
    out = tmp_path / "cost.pdf"
    export(comp, catalog, out, catalog_date="2026-11-01", error_band="", cost=COST, made_on=dt.date(2026, 11, 24))
    text = _text(out)
    assert "Running cost" in text and "Owning vs renting" in text
    assert "$0.25/kWh, 10 hours of use a day, 2 years" in text
    arch = resolve_model(catalog, comp.model)
    results = evaluate(catalog, arch, comp.workload, comp.builds)
    first = build_running_cost(results.builds[0], comp.workload, COST, dt.date(2026, 11, 24))
    assert f"${first.energy_usd_per_year:,.0f}" in text  # the energy per year figure of the first build
    rvb = rent_vs_buy(results, comp.workload, COST)
    assert rvb.cloud == "RunPod H200" and any(b.hours for b in rvb.rows)
    hours = next(b.hours for b in rvb.rows if b.hours)
    assert f"{hours:,.0f} h of RunPod H200" in text


def test_pre_training_plan_in_the_report_only_for_a_pre_training_job(qapp, catalog, tmp_path):
    from advisor.core.cost.running import chinchilla_tokens
    from advisor.core.model.params import count_params

    comp = canonical_comparison()
    fine_tune = comp.model_copy(update={"workload": PlannedJob(mode=Mode.TRAIN, dataset_tokens=10**9, epochs=2)})
    out = tmp_path / "train.pdf"
    export(fine_tune, catalog, out, catalog_date="2026-11-01", error_band="", cost=COST)
    text = _text(out)
    assert "Training run (1B tokens × 2)" in text
    assert "Pre-training" not in text and "pre-training" not in text  # a fine-tune is not a pre-training run
    optimal = round(chinchilla_tokens(count_params(resolve_model(catalog, comp.model)).total))
    pre_train = comp.model_copy(update={"workload": PlannedJob(mode=Mode.TRAIN, dataset_tokens=optimal)})
    out = tmp_path / "pre-train.pdf"
    export(pre_train, catalog, out, catalog_date="2026-11-01", error_band="", cost=COST)
    text = _text(out)
    assert "Pre-training compute-optimally" in text and "arXiv:2203.15556" in text and "GPU-days" in text


def test_old_comparison_files_without_a_training_run_stay_valid():
    data = canonical_comparison().model_dump(mode="json")
    data["workload"].pop("dataset_tokens", None)
    data["workload"].pop("epochs", None)
    back = Comparison.model_validate(data)
    assert back.workload.dataset_tokens is None and back.workload.epochs == 1


def test_the_recommendation_says_when_it_leans_on_a_stale_price(catalog):
    comp = canonical_comparison()
    arch = resolve_model(catalog, comp.model)
    results = evaluate(catalog, arch, comp.workload, comp.builds)
    dated = [r for r in results.builds if r.runs and r.price_date is not None]
    assert dated
    oldest = min(r.price_date for r in dated)
    late = oldest + dt.timedelta(days=400)
    assert "stale" in recommendation(results, comp.workload, today=late)
    assert "stale" not in recommendation(results, comp.workload, today=oldest)


def test_a_build_with_no_price_says_no_price(catalog):
    comp = Comparison(model=ModelRef(preset_id="llama-3.1-8b"), builds=(
        BuildEntry(name="2× RTX 3090 + NVLink", build_id="2x-rtx-3090-nvlink"),
        BuildEntry(name="This", inline=evaluate(catalog, None, PlannedJob(), canonical_comparison().builds[:1])
                   .builds[0].resolved.model_copy(update={"gpus": tuple(
                       g.model_copy(update={"prices": ()}) for g in evaluate(catalog, None, PlannedJob(),
                                                                              canonical_comparison().builds[:1])
                       .builds[0].resolved.gpus)})),
    ))
    arch = resolve_model(catalog, comp.model)
    results = evaluate(catalog, arch, comp.workload, comp.builds)
    c = build_running_cost(results.builds[1], comp.workload, COST, dt.date(2026, 11, 24))
    assert c.price_usd is None and "no price" in c.notes and c.usd_per_million_tokens is None
