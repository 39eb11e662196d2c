"""What a running cost lacks is said as what it lacks; the pre-training plan only for a pre-training job."""

import datetime as dt

import pytest

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.running import (
    BreakEven,
    asks_for_pretraining,
    build_running_cost,
    chinchilla_plan,
    cost_per_token_gap,
)
from advisor.core.cost.running import CostSettings, chinchilla_tokens
from advisor.core.job.choices import Engine, Method, Mode
from advisor.core.job.defaults import default_job
from advisor.core.job.planned import PlannedJob
from advisor.core.model.params import count_params

TODAY = dt.date(2026, 11, 1)


def _one(catalog, entry, workload, model="llama-3.1-8b"):
    return evaluate.evaluate_build(catalog, catalog.models[model], workload, entry, with_suggestions=False)


def test_a_mac_with_a_speed_and_no_stated_power_lacks_the_power(catalog):
    job = default_job(engine=Engine.LLAMA_CPP)
    r = _one(catalog, BuildEntry(name="Mac", system_id="apple-mac-studio-m1-max-32gb"), job)
    assert r.runs and r.estimate.speed.decode_tokens_per_s > 0
    c = build_running_cost(r, job, CostSettings(), TODAY)
    assert c.price_usd is not None and c.load_w is None and c.usd_per_million_tokens is None
    assert cost_per_token_gap(r, c, job) == "power not stated"


def test_a_build_that_does_not_run_the_job_lacks_a_speed(catalog):
    job = default_job()
    r = _one(catalog, BuildEntry(name="one 3060", gpu_id="rtx-3060-12gb", gpu_count=1), job, "llama-3.1-70b")
    c = build_running_cost(r, job, CostSettings(), TODAY)
    assert not r.runs and cost_per_token_gap(r, c, job).startswith("no speed: does not run the job")


def test_a_priced_powered_running_build_lacks_nothing(catalog):
    job = default_job()
    r = _one(catalog, BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), job)
    c = build_running_cost(r, job, CostSettings(), TODAY)
    assert c.usd_per_million_tokens is not None and cost_per_token_gap(r, c, job) == ""


def test_unknown_power_is_not_never():
    assert BreakEven("Mac", 2000, None, None).verdict == "break-even not known: its power is not stated"
    assert BreakEven("Box", 2000, 0.5, None).verdict.startswith("never breaks even")
    assert BreakEven("Box", 2000, 0.05, 900).verdict == ""


@pytest.mark.parametrize(("method", "dataset", "asks"), [
    (Method.FULL, "optimal", True), (Method.FULL, None, False), (Method.FULL, 10**9, False),
    (Method.LORA, "optimal", False), (Method.QLORA, None, False),
])
def test_the_pre_training_plan_only_when_the_job_is_pre_training(catalog, method, dataset, asks):
    arch = catalog.models["llama-3.1-8b"]
    tokens = round(chinchilla_tokens(count_params(arch).total)) if dataset == "optimal" else dataset
    job = PlannedJob(mode=Mode.TRAIN, method=method, dataset_tokens=tokens,
                   weights="nf4" if method is Method.QLORA else "bf16")
    assert asks_for_pretraining(arch, job) is asks
    results = evaluate.evaluate(catalog, arch, job, (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),), suggest=False)
    assert (chinchilla_plan(arch, results, job, CostSettings(), TODAY) is not None) is asks


def test_the_results_carry_every_running_cost_computed_once(catalog):
    """``with_running_costs``: what the Value tab, its plot and the PDF read (none of them computes a cost):
    each build's running cost and what it lacks, owning against renting, and the pre-training plan when asked."""
    from advisor.core.advice.comparison import canonical_comparison
    from advisor.core.advice.running import rent_vs_buy, with_running_costs

    comp = canonical_comparison()
    builds = (*comp.builds, BuildEntry(name="RunPod H200", cloud_id="runpod-h200-secure-cloud"))
    arch = catalog.models["llama-3.1-8b"]
    settings = CostSettings(electricity_usd_per_kwh=0.2, hours_per_day=10, years=3)
    results = evaluate.evaluate(catalog, arch, comp.workload, builds, suggest=False)
    assert results.running is None  # until the caller that holds the settings adds them
    costed = with_running_costs(results, arch, comp.workload, settings, TODAY)
    running = costed.running
    assert (running.settings, running.today) == (settings, TODAY) and costed.builds == results.builds
    assert running.builds == tuple(build_running_cost(r, comp.workload, settings, TODAY) for r in results.builds)
    assert running.gaps == tuple(cost_per_token_gap(r, c, comp.workload) for r, c in zip(results.builds, running.builds))
    assert running.rent_vs_buy == rent_vs_buy(results, comp.workload, settings) and running.rent_vs_buy.cloud
    assert running.chinchilla is None  # inference: no pre-training run
    again = with_running_costs(costed, arch, comp.workload, CostSettings(hours_per_day=24), TODAY)
    assert again.running.settings.hours_per_day == 24 and again.running.builds != running.builds  # replaced


def test_a_pre_training_job_carries_its_chinchilla_plan(catalog):
    from advisor.core.advice.comparison import canonical_comparison
    from advisor.core.advice.running import with_running_costs

    comp = canonical_comparison()
    arch = catalog.models["llama-3.2-1b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, dataset_tokens=round(chinchilla_tokens(count_params(arch).total)))
    results = evaluate.evaluate(catalog, arch, job, comp.builds, suggest=False)
    costed = with_running_costs(results, arch, job, CostSettings(), TODAY)
    assert costed.running.chinchilla == chinchilla_plan(arch, results, job, CostSettings(), TODAY)
    assert costed.running.chinchilla is not None
