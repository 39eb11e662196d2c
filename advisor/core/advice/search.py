"""Find builds: every catalog candidate that runs all of the user's jobs within a budget, ranked.

Each candidate gets its best plan for every job (``advisor.core.plan.search.best_plan``); those
that run every job and meet the limits are ranked by what matters most: price, speed (the
geometric mean of each job's headline tokens/s, so no job's unit dominates) or value (price per
unit of that speed). Candidates without a price come last, marked "no price", and are left out
when a budget is set (nothing says they are within it). The Pareto front is the candidates no
other candidate beats on both price and speed.

Speed of the search: a candidate is skipped before any estimate when its price is over the budget, and when
no plan could run the job there (``advisor.core.plan.bounds``: the software does not run it on those GPUs, or
the weights fit neither the GPUs nor where a plan may move them) — never a candidate ``best_plan`` would run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from advisor.core.advice.candidates import (
    MAX_GPUS,
    MAX_NODES_SEARCHED,
    Candidate,
    PriceChoice,
    Where,
    catalog_candidates,
)
from advisor.core.advice.ranking import Criterion
from advisor.core.cost.running import is_stale
from advisor.core.hardware.catalog import Catalog
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.plan import job_of
from advisor.core.job.workload import Mode, Workload
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.plan.bounds import ruled_out
from advisor.core.plan.search import Planned, best_plan
from advisor.core.plan.words import plan_words
from advisor.core.schema import Frozen


class Job(Frozen):
    """One thing the user wants to run or train: a model and its settings (no hardware)."""

    model_config = Frozen.model_config | {"arbitrary_types_allowed": True}
    arch: ModelArch
    workload: Workload


class SearchRequest(Frozen):
    budget_usd: float | None = None  # to buy; per hour for cloud candidates
    price: PriceChoice = PriceChoice.NEW
    where: Where = Where.OWNED
    max_gpus: int = MAX_GPUS  # per machine
    max_nodes: int | None = None  # machines of one system or instance; None: up to 4 for training, else 1
    max_power_w: float | None = None
    sort: Criterion = Criterion.PRICE
    top: int | None = None


@dataclass(frozen=True)
class Found:
    candidate: Candidate
    planned: tuple[Planned, ...]  # one per job
    plans_text: tuple[str, ...]
    speed_score: float | None  # geometric mean of the jobs' headline tokens/s
    reasons: tuple[str, ...] = field(default=())

    @property
    def value(self) -> float | None:
        c = self.candidate
        return c.price_usd / self.speed_score if c.price_usd is not None and self.speed_score else None


@dataclass(frozen=True)
class SearchResult:
    ranked: tuple[Found, ...]
    pareto: tuple[Found, ...]
    considered: int
    assumptions: tuple[str, ...]


def _ruled_out(candidate: Candidate, jobs: tuple[Job, ...], need_weights: list[float]) -> str | None:
    """Why no plan runs some job on the candidate (``advisor.core.plan.bounds``: only what ``best_plan`` would
    refuse too), or None."""
    for job, weights in zip(jobs, need_weights, strict=True):
        why = ruled_out(job.arch, job.workload, candidate.build, weights)
        if why is not None:
            return why
    return None


def _score(planned: tuple[Planned, ...]) -> float | None:
    speeds = [p.headline_tokens_per_s for p in planned]
    if not speeds or any(not s for s in speeds):
        return None
    return math.exp(sum(math.log(s) for s in speeds) / len(speeds))


def _key(found: Found, sort: Criterion) -> tuple:
    c, inf = found.candidate, float("inf")
    priced = 0 if c.price_usd is not None else 1
    speed = -(found.speed_score or 0.0)
    price = c.price_usd if c.price_usd is not None else inf
    value = found.value if found.value is not None else inf
    return (priced, *{Criterion.PRICE: (price, speed), Criterion.SPEED: (speed, price),
                      Criterion.VALUE: (value, speed)}[sort])


def pareto_front(found: list[Found]) -> list[Found]:
    """Priced candidates that no other beats on both price (lower) and speed (higher)."""
    priced = sorted((f for f in found if f.candidate.price_usd is not None and f.speed_score),
                    key=lambda f: (f.candidate.price_usd, -f.speed_score))
    front, best = [], 0.0
    for f in priced:
        if f.speed_score > best:
            front.append(f)
            best = f.speed_score
    return front


def _limits(c: Candidate, request: SearchRequest) -> str | None:
    if request.budget_usd is not None:
        if c.price_usd is None:
            return "no price"
        if c.price_usd > request.budget_usd:
            return "over budget"
    if request.max_power_w is not None and c.power_w is not None and c.power_w > request.max_power_w:
        return "over the power limit"
    return None


def evaluate_candidate(candidate: Candidate, jobs: tuple[Job, ...], margin: float = 0.0) -> Found | None:
    """A candidate's plan for every job; None when some job does not run on it."""
    planned = []
    for job in jobs:
        p = best_plan(job.arch, job.workload, candidate.build, margin=margin, quick=True)
        if not p.status.runs:
            return None
        planned.append(p)
    mode_words = tuple(plan_words(p.plan, candidate.build, p.workload.mode) for p in planned)
    score = _score(tuple(planned))
    reasons = candidate.notes + (() if score else ("speed unknown: the catalog lacks a figure it needs",))
    return Found(candidate, tuple(planned), mode_words, score, reasons)


def search(catalog: Catalog, jobs: tuple[Job, ...], request: SearchRequest | None = None,
           this_machine: ResolvedBuild | None = None, today=None, margin: float = 0.0) -> SearchResult:
    """Candidates that run every job within the limits, best first (see the module docstring)."""
    request = request or SearchRequest()
    jobs = tuple(Job(arch=j.arch, workload=job_of(j.workload)) for j in jobs)
    weights = [estimate_memory(j.arch, j.workload).breakdown.weights for j in jobs]
    nodes = request.max_nodes
    if nodes is None:
        nodes = MAX_NODES_SEARCHED if any(j.workload.mode is Mode.TRAIN for j in jobs) else 1
    candidates = catalog_candidates(catalog, request.price, request.where, request.max_gpus, this_machine, nodes)
    found: list[Found] = []
    skipped: dict[str, int] = {}
    for c in candidates:
        why = _limits(c, request)
        if why is None:
            why = _ruled_out(c, jobs, weights)
        if why is not None:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        f = evaluate_candidate(c, jobs, margin)
        if f is None:
            skipped["does not run a job"] = skipped.get("does not run a job", 0) + 1
            continue
        found.append(f)
    found.sort(key=lambda f: _key(f, request.sort))
    ranked = tuple(found[: request.top] if request.top else found)
    notes = [f"{len(candidates)} candidates from the catalog; {len(found)} run every job within the limits"]
    notes += [f"{n} left out: {why}" for why, n in sorted(skipped.items())]
    notes.append("speed: geometric mean of each job's generated (inference) or training tokens/s under the "
                 "candidate's best plan")
    if today is not None:
        stale = [f.candidate.name for f in ranked if is_stale(f.candidate.price_date, today)]
        if stale:
            notes.append(f"{len(stale)} ranked on a price older than a year (e.g. {stale[0]})")
    return SearchResult(ranked, tuple(pareto_front(found)), len(candidates), tuple(notes))
