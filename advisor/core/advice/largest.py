"""How big a model each build runs: the largest generic decoder that the build's own plan search says
runs, for each technique of the fit plot.

The Fit plot and its "Largest model that fits" table answer with the same judge as the verdicts:
``best_plan`` on the build, with the build's pins and the job's settings, so a build whose plan
offloads or shards (a 70B full fine-tune on two 24 GB cards) is credited with what that plan holds,
and one whose per-GPU overheads or uneven split leave it short (16 × 8,192 tokens on transformers)
is not credited with its bare capacity. Sizes are generic dense decoders (``generic_decoder``),
found by bisection on log N to ``REL_TOL`` (fitting grows with N up to the rounding of whole
layers, as ``advisor.core.advice.compare.largest_fitting_params`` says).

At the job's own model the verdict is exact and the generic decoder only near it: the current
technique's size is anchored there (``anchored``) — at least the model's size where the build runs
it, below it where it does not — so the table, the plot and the verdicts never say two things.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator

from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.job import Job
from advisor.core.job.planned import PlanPins, job_of
from advisor.core.model.generic import generic_decoder
from advisor.core.plan.planner import best_plan
from advisor.core.plan.suggest import SearchCancelled

#: The fit plot's size range (``evaluate.CURVE_PARAMS``' ends): 0.5 B to 1 T parameters.
SIZE_LO, SIZE_HI = 0.5e9, 1e12
#: Bisection stops when the bracket is this narrow (relative): 2 % of a size, 9 probes over the range.
REL_TOL = 0.02

#: Per build: (its resolved build, its pinned plan), or None where it has no plan to judge by.
FitInput = tuple[ResolvedBuild, PlanPins] | None


def runs_at(n_params: float, job: Job, build: ResolvedBuild, pins: PlanPins, margin: float) -> bool:
    """Whether ``build``'s plan search runs ``job`` for a generic decoder of ``n_params``."""
    try:
        return best_plan(generic_decoder(n_params), job, build, pins, margin, quick=True).status.runs
    except ValueError:  # a size the generic decoder or the estimator refuses: not run
        return False


def largest_runs_steps(job: Job, build: ResolvedBuild, pins: PlanPins, margin: float
                       ) -> Generator[None, None, float | None]:
    """The largest size in [``SIZE_LO``, ``SIZE_HI``] that runs (None: not even the smallest), yielding
    after each probe (the window computes it a few probes per turn when it has no process for it)."""
    lo, hi = SIZE_LO, SIZE_HI
    ok = runs_at(lo, job, build, pins, margin)
    yield
    if not ok:
        return None
    ok = runs_at(hi, job, build, pins, margin)
    yield
    if ok:
        return hi
    while hi / lo > 1 + REL_TOL:
        mid = math.sqrt(lo * hi)
        ok = runs_at(mid, job, build, pins, margin)
        yield
        lo, hi = (mid, hi) if ok else (lo, mid)
    return lo


def largest_fits_steps(variants: dict[str, Job], inputs: tuple[FitInput, ...], margin: float
                       ) -> Generator[None, None, tuple[dict[str, float | None] | None, ...]]:
    """Per build of ``inputs``, per technique of ``variants`` (``evaluate.technique_workloads``): the
    largest size that runs; a probe at a time."""
    jobs = {label: job_of(w) for label, w in variants.items()}
    out: list[dict[str, float | None] | None] = []
    for one in inputs:
        if one is None:
            out.append(None)
            continue
        build, pins = one
        found: dict[str, float | None] = {}
        for label, job in jobs.items():
            found[label] = yield from largest_runs_steps(job, build, pins, margin)
        out.append(found)
    return tuple(out)


def largest_fits(variants: dict[str, Job], inputs: tuple[FitInput, ...], margin: float,
                 cancelled: Callable[[], bool] | None = None) -> tuple[dict[str, float | None] | None, ...] | None:
    """``largest_fits_steps`` at once; None when ``cancelled`` says so between probes."""
    steps = largest_fits_steps(variants, inputs, margin)
    try:
        while True:
            next(steps)
            if cancelled is not None and cancelled():
                raise SearchCancelled
    except StopIteration as done:
        found: tuple[dict[str, float | None] | None, ...] = done.value
        return found
    except SearchCancelled:
        return None


def anchored(found: dict[str, float | None], current: str, params: float | None, runs: bool) -> dict[str, float | None]:
    """``found`` with the current technique's size held to the verdict on the job's own model of
    ``params``: at least ``params`` where the build runs it, below it where it does not."""
    if params is None or current not in found:
        return dict(found)
    size = found[current]
    if runs:
        size = max(size or 0.0, params)
    elif size is not None and size >= params:
        below = params / (1 + REL_TOL)
        size = below if below >= SIZE_LO else None
    return {**found, current: size}
