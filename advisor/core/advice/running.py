"""Running cost of the builds of a comparison: per build (``advisor.core.cost.running``), owning
against renting with the break-even in hours, and Chinchilla's compute-optimal pre-training run.

The window's Value tab, the PDF and ``llm-advisor estimate`` call these, so they say the same.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from advisor.core.advice.evaluate import BuildResult, Results
from advisor.core.advice.running_costs import (
    BreakEven,
    ChinchillaPlan,
    ChinchillaRow,
    RentVsBuy,
    RunningCosts,
)
from advisor.core.cost.machine import is_stale
from advisor.core.cost.running import (
    CostSettings,
    RunningCost,
    break_even_hours,
    chinchilla_tokens,
    energy_usd_per_hour,
    power_draw,
    running_cost,
    training_flops,
)
from advisor.core.job.choices import Method, Mode
from advisor.core.job.job import Job
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params


def headline_rate(r: BuildResult, workload: Job) -> float | None:
    """Generated tokens/s (inference) or training tokens/s of a build that runs the job."""
    if r.estimate is None or not r.runs:
        return None
    s = r.estimate.speed
    return s.train_tokens_per_s if workload.mode is Mode.TRAIN else s.decode_tokens_per_s


def build_running_cost(r: BuildResult, workload: Job, settings: CostSettings, today: dt.date) -> RunningCost:
    """One build's running cost: rented at its hourly rate, else bought at today's price (``BuildResult.price``,
    the one every screen shows). Its cost per million tokens is per generated token for inference and per
    trained token for training."""
    if r.usd_per_hour is not None:
        price, kind = r.usd_per_hour, "per_hour"
    elif r.price is not None and r.price.usd is not None:
        price, kind = r.price.usd, r.price.kind_words
    else:
        price, kind = None, None
    rented = r.entry.cloud_id is not None
    if rented and price is None:
        kind = "per_hour"
    training = workload.mode is Mode.TRAIN
    rate = headline_rate(r, workload)
    n_gpus = r.chosen.plan.n_gpus if r.chosen is not None else (r.resolved.gpu_count if r.resolved else 1)
    return running_cost(
        price_usd=price, price_kind=kind, price_date_=r.price_date,
        power=power_draw(r.resolved) if r.resolved is not None and not rented else None,
        tokens_per_s=rate, settings=settings, today=today, n_gpus=n_gpus,
        dataset_tokens=workload.dataset_tokens if training else None, epochs=workload.epochs,
        train_tokens_per_s=rate if training else None)


def cost_per_token_gap(r: BuildResult, c: RunningCost, workload: Job) -> str:
    """What a build's cost per million tokens lacks, in words ("" when it has one): a Mac whose table shows
    its speed but whose power is not stated lacks the power, not a speed estimate."""
    if c.usd_per_million_tokens is not None:
        return ""
    missing = []
    if headline_rate(r, workload) is None:
        missing.append("no speed: does not run the job" if not r.runs else "no speed estimate")
    if c.price_usd is None:
        missing.append("no price")
    elif not c.rented and c.load_w is None:
        missing.append("power not stated")
    return "; ".join(missing) or "not known"


def rent_vs_buy(results: Results, workload: Job, settings: CostSettings) -> RentVsBuy:
    """Each bought build against the cheapest cloud instance of the comparison that runs the job."""
    rented = [r for r in results.builds if r.usd_per_hour is not None and r.runs]
    if not rented:
        clouds = [r for r in results.builds if r.entry.cloud_id is not None]
        why = ("add a cloud instance to compare owning with renting" if not clouds else
               "no cloud instance of the comparison has an hourly price and runs the job")
        return RentVsBuy(None, None, (), why)
    cloud = min(rented, key=lambda r: r.usd_per_hour if r.usd_per_hour is not None else float("inf"))
    rows = []
    for r in results.builds:
        if r.usd_per_hour is not None or r.entry.cloud_id is not None:
            continue
        price = r.price.usd if r.price is not None and r.usd_per_hour is None else None
        if price is None:
            continue
        energy = energy_usd_per_hour(power_draw(r.resolved).load_w, settings) if r.resolved is not None else None
        rows.append(BreakEven(r.name, price, energy, break_even_hours(price, cloud.usd_per_hour, energy)))
    return RentVsBuy(cloud.name, cloud.usd_per_hour, tuple(rows),
                     "" if rows else "no bought build with a known price")


#: A dataset within this of Chinchilla's 20 tokens per parameter is the compute-optimal one the user asked
#: for (``--dataset-tokens chinchilla`` rounds it to a whole token; a field in millions of tokens to a million).
CHINCHILLA_MATCH = 0.01


def asks_for_pretraining(arch: ModelArch, workload: Job) -> bool:
    """Full training on the compute-optimal dataset: the job is a pre-training run, so its plan is worth
    showing. A fine-tune (any other dataset, or none) is not: its "pre-training: 2,516,206 h" was noise."""
    if workload.mode is not Mode.TRAIN or workload.method is not Method.FULL or workload.dataset_tokens is None:
        return False
    optimal = chinchilla_tokens(count_params(arch).total)
    return abs(workload.dataset_tokens - optimal) <= CHINCHILLA_MATCH * optimal


def chinchilla_plan(arch: ModelArch, results: Results, workload: Job, settings: CostSettings,
                    today: dt.date) -> ChinchillaPlan | None:
    """Pre-training the model compute-optimally, when the job asks for it (``asks_for_pretraining``):
    dataset, FLOPs, and per build the hours, GPU-days and cost at the build's estimated training tokens/s."""
    if not asks_for_pretraining(arch, workload):
        return None
    counts = count_params(arch)
    tokens = chinchilla_tokens(counts.total)
    run = workload.model_copy(update={"dataset_tokens": tokens, "epochs": 1})  # one pass over that dataset
    costs = [(r.name, build_running_cost(r, run, settings, today)) for r in results.builds]
    rows = [ChinchillaRow(name, c.train_hours, c.gpu_days, c.train_usd) for name, c in costs]
    return ChinchillaPlan(counts.total, tokens, training_flops(counts.active, tokens), tuple(rows))


def stale_prices(results: Results, today: dt.date) -> list[BuildResult]:
    """Builds that run the job and are priced on a price older than a year."""
    return [r for r in results.builds if r.runs and is_stale(r.price_date, today)
            and r.price is not None and r.price.usd is not None]


def running_costs(arch: ModelArch | None, results: Results, workload: Job, settings: CostSettings,
                  today: dt.date) -> RunningCosts:
    """Every build's running cost, what each one's cost per million tokens lacks, owning against renting
    and, for a compute-optimal pre-training job, Chinchilla's run: computed once, read by every renderer."""
    costs = tuple(build_running_cost(r, workload, settings, today) for r in results.builds)
    gaps = tuple(cost_per_token_gap(r, c, workload) for r, c in zip(results.builds, costs, strict=True))
    plan = chinchilla_plan(arch, results, workload, settings, today) if arch is not None else None
    return RunningCosts(settings, today, costs, gaps, rent_vs_buy(results, workload, settings), plan)


def with_running_costs(results: Results, arch: ModelArch | None, workload: Job, settings: CostSettings,
                       today: dt.date) -> Results:
    """``results`` carrying their ``running_costs`` (replaced when the settings or the day change)."""
    return dataclasses.replace(results, running=running_costs(arch, results, workload, settings, today))


__all__ = ["BreakEven", "ChinchillaPlan", "ChinchillaRow", "RentVsBuy", "RunningCosts", "asks_for_pretraining",
           "build_running_cost", "chinchilla_plan", "cost_per_token_gap", "headline_rate", "rent_vs_buy",
           "running_costs", "stale_prices", "with_running_costs"]
