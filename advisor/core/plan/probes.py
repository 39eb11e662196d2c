"""The plan search's steps: the levels of escalation, the schemes, and a plan judged on memory alone (a probe).

A probe is cheap (memory and the fit's figures, no speed, no sentence); the search makes a few dozen per build
and estimates speed only for those that run.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from advisor.core.estimation.estimator import FitFigures, fit_figures, job_speed
from advisor.core.estimation.job_checks import Problem, check_planned
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Mode, Offload, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import Plan, PlannedJob, PlanPins, apply_plan
from advisor.core.memo import HeldById
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryBreakdown, MemoryResult
from advisor.core.model.arch import ModelArch
from advisor.core.plan.verdict import FitStatus, status_of

#: The training scheme that needs the least GPU memory per GPU at every level of escalation: ZeRO-3 shards
#: parameters, gradients and optimizer states (Rajbhandari et al. 2020, arXiv:1910.02054, §5: the model
#: states per GPU fall by the data-parallel degree), as FSDP's full sharding does, and keeps no more
#: buffers than it. A property test pins it for the estimator's figures.
LEAST_MEMORY_SCHEME = Parallel.ZERO3
OFFLOAD_STEPS: tuple[tuple[Offload, ...], ...] = ((), (Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS))
CHECKPOINT_STEPS = (Checkpointing.NONE, Checkpointing.SELECTIVE, Checkpointing.FULL)
TRAIN_SCHEMES = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.FSDP_GRAD_OP, Parallel.FSDP, Parallel.ZERO3)

#: One level of escalation: what is offloaded, and how activations are recomputed.
Level = tuple[tuple[Offload, ...], Checkpointing]


def levels(job: Job, pins: PlanPins, unified: bool = False) -> list[Level]:
    """(offload, checkpointing) pairs in order of escalation: least speed given up first. On unified memory
    (``unified``) offload is not a step: "host RAM" is the pool the GPU already draws on, so moving states
    there frees nothing of it (the fit counts one pool: ``estimator.fit_figures``)."""
    if job.mode is Mode.INFERENCE:
        return [(pins.offload if pins.offload is not None else (), job.checkpointing)]
    if pins.offload is not None:
        offloads = [pins.offload]
    elif unified:
        offloads = [()]
    else:
        offloads = list(OFFLOAD_STEPS)
    if pins.checkpointing is not None:
        ckpts = [pins.checkpointing]
    elif job.checkpointing in CHECKPOINT_STEPS:
        ckpts = list(CHECKPOINT_STEPS[CHECKPOINT_STEPS.index(job.checkpointing):])
    else:  # torchtitan's op-level policy (op-sac): the job's own, then full recomputation
        ckpts = [job.checkpointing, Checkpointing.FULL]
    return [(o, c) for o in offloads for c in ckpts]


class Probe(NamedTuple):
    """A plan judged on memory alone (cheap), before any speed or full estimate is made: the fit's
    figures without its sentence (``fit_figures``; the chosen plan's estimate says it)."""

    plan: Plan
    planned: PlannedJob
    problems: tuple[Problem, ...]
    fit: FitFigures
    status: FitStatus
    memory: MemoryBreakdown
    kv_capacity_tokens: float | None = None  # vLLM's cache, for the chosen plan's ``fit_of``


#: A training job's probe, by (model, job, plan) -> (the job under the plan, its memory): memory depends on the
#: plan, not on the card, so builds of as many GPUs share their probes (the window's pass plans one job object
#: on every build). Held by identity: ``plan_of`` hands out one object per plan.
_TRAINING_PROBES: HeldById[tuple[PlannedJob, MemoryResult]] = HeldById(512)


@functools.lru_cache(maxsize=4096)
def plan_of(n_gpus: int, parallel: Parallel, offload: tuple[Offload, ...], checkpointing: Checkpointing,
            moe_offload_layers: int) -> Plan:
    """The plan, validated once: a search probes the same few dozen plans at every change."""
    return Plan(n_gpus=n_gpus, parallel=parallel, offload=offload, checkpointing=checkpointing,
                moe_offload_layers=moe_offload_layers)


def probe(arch: ModelArch, job: Job, build: ResolvedBuild, plan: Plan, margin: float,
          weights_bytes_override: float | None, usable_each: list[float] | None = None,
          support: bool = True) -> Probe:
    """``usable_each``: ``usable_memory_bytes`` of the build's first ``plan.n_gpus`` GPUs (a search reads them once).
    ``support=False``: the software's support already judged (``best_plan`` does it once, before its probes; what
    the table judges does not change with the scheme, the offload or the checkpointing)."""
    if usable_each is None:
        usable_each = [usable_memory_bytes(g) for g in build.gpus[: plan.n_gpus]]
    training = job.mode is Mode.TRAIN
    shared = _TRAINING_PROBES.get((arch, job, plan)) if training else None
    if shared is not None:
        planned, mem = shared
    else:
        planned = apply_plan(job, plan)
        mem = estimate_memory(arch, planned, min(usable_each), weights_bytes_override, detail=False)
        if training:
            _TRAINING_PROBES.put((arch, job, plan), None, (planned, mem))
    problems = tuple(check_planned(arch, planned, build, support=support))
    fit = fit_figures(mem.breakdown, planned, build, mem.kv_capacity_tokens, usable_each)
    return Probe(plan, planned, problems, fit, status_of(fit, problems, margin), mem.breakdown, mem.kv_capacity_tokens)


def gpu_short(p: Probe) -> bool:
    """The busiest GPU needs more than the card offers (not a host-RAM shortfall, not a refusal)."""
    return p.status is FitStatus.NO and p.fit.need_per_gpu_bytes > p.fit.usable_per_gpu_bytes


def probe_speed(arch: ModelArch, build: ResolvedBuild, p: Probe, weights_bytes_override: float | None) -> float:
    """The probe's headline tokens/s (training or decode; 0 where unknown)."""
    usable = min(usable_memory_bytes(g) for g in build.gpus[: p.plan.n_gpus])
    s = job_speed(arch, p.planned, build, p.memory, usable, weights_bytes_override, p.kv_capacity_tokens)
    return (s.train_tokens_per_s if p.planned.mode is Mode.TRAIN else s.decode_tokens_per_s) or 0.0
