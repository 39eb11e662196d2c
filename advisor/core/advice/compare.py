"""Side-by-side verdicts for builds, the largest model each build fits, and fit curves for plots.

Sizes without a real model use ``generic_decoder(N)`` (a dense Llama-style decoder of N
parameters). Memory of a model does not depend on the build (except vLLM, which fills the
card), so sweeps compute it once per size and compare it with every build's usable memory.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from pydantic import Field

from advisor.core.cost.machine import PriceChoice, machine_price
from advisor.core.estimation.estimator import estimate, fit_of
from advisor.core.estimation.job_checks import Problem, check_planned
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryResult
from advisor.core.memory.training import SET_BY_USER
from advisor.core.model.arch import ModelArch
from advisor.core.model.generic import MAX_PARAMS, MIN_PARAMS, generic_decoder
from advisor.core.schema import Frozen
from advisor.core.speed.results import Bottleneck

# Eight common ways to run or tune a model (the plots' series and the sweep benchmark's set):
# updates applied on top of the user's workload.
TECHNIQUES: dict[str, dict[str, object]] = {
    "inference bf16": {"mode": "inference", "weights": "bf16"},
    "inference fp8": {"mode": "inference", "weights": "fp8"},
    "inference int8": {"mode": "inference", "weights": "int8"},
    "inference q4_k_m (llama.cpp)": {"mode": "inference", "weights": "q4_k_m", "engine": "llama.cpp"},
    "full fine-tune (AdamW, AMP)": {"mode": "train", "method": "full", "optimizer": "adamw"},
    "full fine-tune (8-bit AdamW, checkpointing)": {"mode": "train", "method": "full", "optimizer": "adamw-8bit",
                                                    "checkpointing": "full"},
    "LoRA (bf16 base)": {"mode": "train", "method": "lora", "weights": "bf16"},
    "QLoRA (nf4 base)": {"mode": "train", "method": "qlora", "weights": "nf4"},
}


def with_technique(workload: PlannedJob, technique: str | None) -> PlannedJob:
    """``workload`` with one of ``TECHNIQUES`` applied (validated; KeyError lists the names)."""
    if technique is None:
        return workload
    if technique not in TECHNIQUES:
        raise KeyError(f"unknown technique {technique!r}; known: {', '.join(TECHNIQUES)}")
    data = {k: getattr(workload, k) for k in workload.model_fields_set}
    data.update(TECHNIQUES[technique])
    if data.get("method") != "qlora" and "weights" not in TECHNIQUES[technique] and data.get("mode") == "train":
        data.pop("weights", None)
    return PlannedJob.model_validate(data)


class Verdict(Frozen):
    """One build's answer to one workload: fit, headroom, bottleneck, headline speeds, price."""

    build_name: str
    fits: bool
    need_per_gpu_bytes: float = Field(ge=0)
    usable_per_gpu_bytes: float = Field(ge=0)
    headroom_bytes: float
    host_need_bytes: float = Field(0.0, ge=0)
    host_available_bytes: float | None = None
    bottleneck: Bottleneck | None = Field(None, description="Memory capacity when it does not fit, else the speed limit")
    decode_tokens_per_s: float | None = None
    prefill_tokens_per_s: float | None = None
    time_to_first_token_s: float | None = None
    train_tokens_per_s: float | None = None
    step_time_s: float | None = None
    interconnect_share: float = 0.0
    price_usd: float | None = Field(None, description="Build price (None: unknown)")
    usd_per_token_per_s: float | None = Field(None, description="Price / headline tokens/s (decode or training)")
    reason: str = ""
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()


def verdict(arch: ModelArch, workload: PlannedJob, build: ResolvedBuild, price_usd: float | None = None,
            choice: PriceChoice = PriceChoice.NEW, today: dt.date | None = None) -> Verdict:
    """The verdict of ``build``; price from ``price_usd`` or, when None, today's price of the whole machine
    (``advisor.core.cost.machine.machine_price``), which may itself be unknown."""
    e = estimate(arch, workload, build)
    fit = e.fit
    assert fit is not None  # a build was given
    price = price_usd if price_usd is not None else machine_price(build, choice, today or dt.date.today()).usd
    headline = e.speed.decode_tokens_per_s if e.speed.train_tokens_per_s is None else e.speed.train_tokens_per_s
    per = price / headline if price is not None and headline else None
    return Verdict(
        build_name=build.name, fits=fit.fits, need_per_gpu_bytes=fit.need_per_gpu_bytes,
        usable_per_gpu_bytes=fit.usable_per_gpu_bytes, headroom_bytes=fit.headroom_bytes,
        host_need_bytes=fit.host_need_bytes, host_available_bytes=fit.host_available_bytes,
        bottleneck=e.speed.bottleneck if fit.fits else Bottleneck.MEMORY_CAPACITY,
        decode_tokens_per_s=e.speed.decode_tokens_per_s, prefill_tokens_per_s=e.speed.prefill_tokens_per_s,
        time_to_first_token_s=e.speed.time_to_first_token_s, train_tokens_per_s=e.speed.train_tokens_per_s,
        step_time_s=e.speed.step_time_s, interconnect_share=e.speed.interconnect_share, price_usd=price,
        usd_per_token_per_s=per, reason=fit.reason, problems=tuple(check_planned(arch, workload, build)),
        notes=e.speed.notes,
    )


def compare(arch: ModelArch, workload: PlannedJob, builds: Iterable[ResolvedBuild],
            prices: Mapping[str, float | None] | None = None) -> list[Verdict]:
    """Verdicts in the order given; ``prices`` by build name overrides the catalog price."""
    prices = prices or {}
    return [verdict(arch, workload, b, prices.get(b.name)) for b in builds]


def _memory(arch: ModelArch, workload: PlannedJob, gpu_memory_bytes: float | None) -> MemoryResult:
    """``estimate_memory``, remembered: a replot after a build change recomputes nothing
    (ModelArch and PlannedJob are frozen, hence hashable). Two workloads equal in value but not in
    which of ``SET_BY_USER`` the user set get different framework defaults, so that is in the key."""
    return _remembered(arch, workload, SET_BY_USER & workload.model_fields_set, gpu_memory_bytes)


@lru_cache(maxsize=16384)
def _remembered(arch: ModelArch, workload: PlannedJob, set_by_user: frozenset[str],
                gpu_memory_bytes: float | None) -> MemoryResult:
    return estimate_memory(arch, workload, gpu_memory_bytes)


def _fits(n_params: float, workload: PlannedJob, build: ResolvedBuild, usable: float) -> bool:
    mem = _memory(generic_decoder(n_params), workload, usable if workload.engine.pooled else None)
    return fit_of(mem.breakdown, workload, build, mem.kv_capacity_tokens).fits


def largest_fitting_params(workload: PlannedJob, build: ResolvedBuild, technique: str | None = None,
                           lo: float = MIN_PARAMS, hi: float = MAX_PARAMS, rel_tol: float = 0.005) -> float:
    """Largest N whose generic decoder fits ``build`` under ``workload`` (with ``technique``
    applied), by bisection on log N to ``rel_tol``; 0.0 when not even ``lo`` fits.
    Memory grows with N, so the fit is monotonic (up to the rounding of whole layers)."""
    w = with_technique(workload, technique)
    if w.n_gpus > build.gpu_count:
        return 0.0
    usable = min(usable_memory_bytes(g) for g in build.gpus[: w.n_gpus])
    if not _fits(lo, w, build, usable):
        return 0.0
    if _fits(hi, w, build, usable):
        return hi
    while hi / lo > 1 + rel_tol:
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if _fits(mid, w, build, usable) else (lo, mid)
    return lo


def fit_curve(workload: PlannedJob, sizes: Sequence[float]) -> list[tuple[float, float]]:
    """(N, peak bytes on the busiest GPU) for generic decoders of each size: a build's line on
    the plot is its usable memory (``usable_memory_bytes``)."""
    return [(n, _memory(generic_decoder(n), workload, None).breakdown.total) for n in sizes]


def log_sizes(lo: float = 1e8, hi: float = 1e12, count: int = 100) -> list[float]:
    """``count`` sizes evenly spaced on a log scale (the plots' x axis)."""
    step = (math.log(hi) - math.log(lo)) / (count - 1)
    return [math.exp(math.log(lo) + i * step) for i in range(count)]


def fit_sweep(workload: PlannedJob, builds: Sequence[ResolvedBuild], sizes: Sequence[float],
              techniques: Iterable[str] = tuple(TECHNIQUES)) -> dict[tuple[str, str], list[bool]]:
    """For every (technique, build name): does each size fit? Memory is computed once per
    (technique, size) and compared with each build's usable memory (vLLM per build)."""
    out: dict[tuple[str, str], list[bool]] = {}
    for t in techniques:
        w = with_technique(workload, t)
        curve = None if w.engine.pooled else fit_curve(w, sizes)
        for b in builds:
            if w.n_gpus > b.gpu_count:
                out[(t, b.name)] = [False] * len(sizes)
                continue
            usable = min(usable_memory_bytes(g) for g in b.gpus[: w.n_gpus])
            if curve is None:
                out[(t, b.name)] = [_fits(n, w, b, usable) for n in sizes]
            else:
                out[(t, b.name)] = [need <= usable for _, need in curve]
    return out
