"""Find builds: every machine in the catalog that runs all of the user's jobs within a budget, ranked.

Each candidate gets its best plan for every job (``advisor.core.plan.planner.best_plan``). Its speed is the
geometric mean of each job's headline tokens/s (so no job's unit dominates), named with its basis:
calibrated on measurements of its GPU family with that software, or extrapolated, and then ranked at
the low end of its band (``advisor.core.advice.usable``). Its price is today's price of the whole
machine of the kind asked (``advisor.core.cost.machine``), a stale part ranked at its pessimistic end.

Orders: ``best`` (the default) — the machines that run every job at a usable speed first, the most speed
for the money among them (price per token/s), then the rest; ``price``, ``speed`` or ``value`` (price
per token/s) alone. Two passes keep an estimate from deciding what it cannot: for the money, a machine with
fewer GPUs comes first where the other's value lead is within the speed estimate's own error
(``fewer_cards_first``); and an extrapolated machine never stays above a measured one on its estimate alone
(``measured_first``). A candidate no better than one ranked above it — no faster (within the speed
estimate's own error, ``SPEED_TIE``), no cheaper and with no fewer GPUs — folds under it. Candidates
without a price come last, marked "no price", and are left out when a budget is set. The Pareto front
is the candidates no other candidate beats on both price and speed.

Speed of the search: a candidate is skipped before any estimate when its price is over the budget, and when
no plan could run the job there (``advisor.core.plan.bounds``: the software does not run it on those GPUs, or
the weights fit neither the GPUs nor where a plan may move them) — never a candidate ``best_plan`` would run.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from advisor.core.advice.candidates import (
    MAX_GPUS,
    MAX_NODES_SEARCHED,
    Candidate,
    PriceChoice,
    Where,
    catalog_candidates,
)
from advisor.core.advice.found import Found, SearchResult
from advisor.core.advice.passes import (
    fewer_cards_first,
    fold,
    measured_first,
    pareto_front,
)
from advisor.core.advice.criterion import Criterion
from advisor.core.advice.usable import (
    USABLE_TOKENS_PER_S,
    low_factor,
    rate_words,
    speed_basis,
    usable_why,
)
from advisor.core.hardware.catalog import Catalog
from advisor.core.hardware.memory import with_gpu_memory_limit
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.job.planned import alone, job_of
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.plan.bounds import movable_bytes, ruled_out
from advisor.core.plan.planner import SPEED_TIE, ChosenPlan, best_plan
from advisor.core.plan.words import plan_words
from advisor.core.schema import Frozen
from advisor.core.units import GIB

__all__ = ["Found", "ModelJob", "SearchRequest", "SearchResult", "evaluate_candidate", "search"]


class ModelJob(Frozen):
    """One thing the user wants to run or train: a model and the job (no hardware)."""

    model_config = Frozen.model_config | {"arbitrary_types_allowed": True}
    arch: ModelArch
    job: Job


class SearchRequest(Frozen):
    budget_usd: float | None = None  # to buy; per hour for cloud candidates
    price: PriceChoice = PriceChoice.NEW
    where: Where = Where.OWNED
    max_gpus: int = MAX_GPUS  # per machine
    max_nodes: int | None = None  # machines of one system or instance; None: up to 4 for training, else 1
    max_power_w: float | None = None
    sort: Criterion = Criterion.BEST
    top: int | None = None
    min_tokens_per_s: float = USABLE_TOKENS_PER_S  # per sequence: an inference job's usable speed
    max_hours: float | None = None  # a training run must end within this (with a dataset); None: no deadline
    gpu_memory_limit_gib: float | None = None  # every Mac's raised GPU memory limit (iogpu.wired_limit_mb); None: macOS's


def _ruled_out(candidate: Candidate, model_jobs: tuple[ModelJob, ...], need_weights: list[float]) -> str | None:
    """Why no plan runs some job on the candidate (``advisor.core.plan.bounds``: only what ``best_plan`` would
    refuse too), or None."""
    for model_job, weights in zip(model_jobs, need_weights, strict=True):
        why = ruled_out(model_job.arch, model_job.job, candidate.build, weights)
        if why is not None:
            return why
    return None


def _score(chosen: tuple[ChosenPlan, ...]) -> float | None:
    speeds = [s for p in chosen if (s := p.headline_tokens_per_s)]
    if not speeds or len(speeds) < len(chosen):
        return None
    return math.exp(sum(math.log(s) for s in speeds) / len(speeds))


def _key(found: Found, sort: Criterion) -> tuple[float, ...]:
    c, inf = found.candidate, float("inf")
    priced = 0 if c.price_usd is not None else 1
    speed = -(found.rank_speed or 0.0)
    price = c.rank_usd if c.rank_usd is not None else inf
    value = found.value if found.value is not None else inf
    if sort is Criterion.BEST:
        return (0 if found.usable else 1, priced, value, speed)
    return (priced, *{Criterion.PRICE: (price, speed), Criterion.SPEED: (speed, price),
                      Criterion.VALUE: (value, speed)}[sort])


def _limits(c: Candidate, request: SearchRequest) -> str | None:
    if request.budget_usd is not None:
        if c.price_usd is None:
            return "no price"
        if c.price_usd > request.budget_usd:
            return "over budget"
    if request.max_power_w is not None and c.power_w is not None and c.power_w > request.max_power_w:
        return "over the power limit"
    return None


def evaluate_candidate(candidate: Candidate, model_jobs: tuple[ModelJob, ...], margin: float = 0.0,
                       request: SearchRequest | None = None, basis_table: Mapping[str, Any] | None = None,
                       fallback_band_pct: float | None = None) -> Found | None:
    """A candidate's plan for every job; None when some job does not run on it."""
    chosen = []
    for model_job in model_jobs:
        p = best_plan(model_job.arch, model_job.job, candidate.build, margin=margin, quick=True)
        if not p.status.runs:
            return None
        chosen.append(p)
    mode_words = tuple(plan_words(p.plan, candidate.build, p.planned.mode) for p in chosen)
    score = _score(tuple(chosen))
    request = request or SearchRequest()
    bases = tuple(speed_basis(basis_table or {}, candidate.build.gpus, p.planned) for p in chosen)
    factors = [low_factor(b, fallback_band_pct) for b in bases]
    factor = min(factors) if factors else 1.0
    why = next((w for p, f in zip(chosen, factors, strict=True)
                if (w := usable_why(p, f, request.min_tokens_per_s, request.max_hours)) is not None), None)
    reasons = candidate.notes + (() if score else ("speed unknown: the catalog lacks a figure it needs",))
    return Found(candidate, tuple(chosen), mode_words, score, reasons, bases, factor, why)


def search(catalog: Catalog, model_jobs: tuple[ModelJob, ...], request: SearchRequest | None = None,
           this_machine: ResolvedBuild | None = None, today: dt.date | None = None, margin: float = 0.0,
           basis_table: Mapping[str, Any] | None = None, fallback_band_pct: float | None = None) -> SearchResult:
    """Candidates that run every job within the limits, best first (see the module docstring).
    ``basis_table``: the shipped speed-basis table (``advisor.storage.error_bands.speed_basis_table``);
    ``fallback_band_pct``: the band of an extrapolated speed where the table has none."""
    request = request or SearchRequest()
    today = today or dt.date.today()
    model_jobs = tuple(ModelJob(arch=m.arch, job=job_of(m.job)) for m in model_jobs)
    weights = [estimate_memory(m.arch, alone(m.job)).breakdown.weights for m in model_jobs]
    nodes = request.max_nodes
    if nodes is None:
        nodes = MAX_NODES_SEARCHED if any(m.job.mode is Mode.TRAIN for m in model_jobs) else 1
    skipped: dict[str, int] = {}
    # What some plan may keep in host RAM (a llama.cpp MoE model's experts, a training job's offloaded weights):
    # machines are offered with the RAM for it (``catalog_candidates``); nothing where no plan moves any.
    movable = max((movable_bytes(m.arch, m.job, w) for m, w in zip(model_jobs, weights, strict=True)), default=0.0)
    candidates = catalog_candidates(catalog, request.price, request.where, request.max_gpus, this_machine, nodes,
                                    today, skipped, host_need_gib=max(weights) / GIB if movable else None)
    if request.gpu_memory_limit_gib is not None:
        candidates = [replace(c, build=with_gpu_memory_limit(c.build, request.gpu_memory_limit_gib))
                      for c in candidates]
    found: list[Found] = []
    for c in candidates:
        why = _limits(c, request)
        if why is None:
            why = _ruled_out(c, model_jobs, weights)
        if why is not None:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        f = evaluate_candidate(c, model_jobs, margin, request, basis_table, fallback_band_pct)
        if f is None:
            skipped["does not run a job"] = skipped.get("does not run a job", 0) + 1
            continue
        found.append(f)
    found.sort(key=lambda f: _key(f, request.sort))
    if request.sort in (Criterion.BEST, Criterion.VALUE):  # for the money: a lead within the estimate's error
        found = fewer_cards_first(found)
    if request.sort in (Criterion.BEST, Criterion.VALUE, Criterion.SPEED):  # orders that lean on a speed estimate
        found = measured_first(found, request.sort)
    folded = fold(found)
    ranked = tuple(folded[: request.top] if request.top else folded)
    return SearchResult(ranked, tuple(pareto_front(folded)), len(candidates),
                        tuple(_assumptions(request, candidates, found, folded, ranked, skipped)))


def _assumptions(request: SearchRequest, candidates: list[Candidate], found: list[Found], folded: list[Found],
                 ranked: tuple[Found, ...], skipped: dict[str, int]) -> list[str]:
    notes = [f"{len(candidates)} candidates from the catalog; {len(found)} run every job within the limits"]
    notes += [f"{n} left out: {why}" for why, n in sorted(skipped.items())]
    if len(folded) < len(found):
        notes.append(f"{len(found) - len(folded)} folded under a candidate ranked above them: no faster (within "
                     f"{SPEED_TIE:.0%}), no cheaper, no fewer GPUs")
    notes.append(f"prices: whole machines ({request.price.words}) — GPUs plus the platform that carries them "
                 "(listed parts, or a typical platform tier), or the system as sold; rented: per hour")
    if request.sort is Criterion.BEST:
        usable = (f"inference: {rate_words(request.min_tokens_per_s)} generated tokens/s per sequence or more "
                  "(reading speed)" if request.min_tokens_per_s == USABLE_TOKENS_PER_S else
                  f"inference: {rate_words(request.min_tokens_per_s)} generated tokens/s per sequence or more")
        if request.max_hours is not None:
            usable += f"; training: the run ends within {request.max_hours:g} h"
        unknown = sum(1 for f in folded if f.unusable == "speed unknown")  # of the rows shown (folded ones: under them)
        slower = sum(1 for f in folded if not f.usable) - unknown
        notes.append(f"order: the most speed for the money among machines that run every job at a usable speed "
                     f"({usable})" + (f", then the {slower} slower ones" if slower else "")
                     + (f", then the {unknown} whose speed cannot be estimated (a figure the catalog lacks)"
                        if unknown else ""))
    notes.append("speed: geometric mean of each job's generated (inference) or training tokens/s under the "
                 "candidate's best plan; an extrapolated speed (no measurement of that GPU family with that software) "
                 "is ranked at the low end of its band")
    stale = [f.candidate.name for f in ranked if f.candidate.price is not None and f.candidate.price.stale]
    if stale:
        notes.append(f"{len(stale)} ranked on a price partly older than a year, at its high end (e.g. {stale[0]})")
    return notes
