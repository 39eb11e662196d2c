"""The best plan for a job on one build: all of its GPUs, the least offload and recompute that
fits, then the fastest scheme.

Order of search (documented so a user can predict it):

1. GPUs: all of the build's GPUs (a pin may use fewer).
2. Escalation: the job's own offload and checkpointing first; only when nothing fits, optimizer
   offload, then optimizer + parameter offload (ZeRO-Offload / FSDP CPU offload, Ren et al. 2021,
   arXiv:2101.06840), each with selective and then full activation checkpointing (Chen et al.
   2016, arXiv:1604.06174) — every step trades speed for memory, so the first level at which a
   plan fits is the one used. A level at which ZeRO-3, the scheme that needs the least GPU memory, is
   short of it is skipped whole (at the job's own level, once the engine's first choice is short too:
   a job that runs there costs no more probes). Before a scheme is tried after the job's own level,
   it is tried at the last level (the least GPU memory of all): short of GPU memory even there, it is
   short at every level and is dropped, so a job that fits nowhere costs the job's own level's two
   probes and the last level's, not all of them. And a scheme is tried with full checkpointing at an
   offload before it is tried with less: short of GPU memory there, it is short at that offload's
   other levels, which are skipped (a LoRA job that runs only with optimizer and parameters
   offloaded costs 11 probes of six schemes, not 54). Every skip drops only plans that cannot run,
   and when nothing runs, the skipped plans that could be the closest are probed after all
   (``_complete_for_closest``): the plan chosen is the one a search of every plan chooses (a
   hypothesis test compares the two).
3. Scheme: among the plans of that level that fit, the fastest (decode tokens/s for inference,
   training tokens/s for training). Within ``SPEED_TIE`` (15 %) of each other the engine's usual
   choice wins, in the order of ``schemes_for``: llama.cpp and transformers split by layers
   (``--split-mode layer``, ``device_map="auto"``; other splits only when pinned), vLLM by tensor parallel
   (``--tensor-parallel-size``), training plain DDP before sharding (ZeRO-1/2, FSDP, ZeRO-3:
   more sharding, more traffic).

When no plan fits, the one closest to fitting (most headroom) is shown, so the verdict says by
how much it misses and ``advisor.core.plan.suggest`` can say what would make it fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from advisor.core.estimate.estimator import (
    FitFigures,
    estimate,
    fit_figures,
    fit_of,
    job_speed,
    refused_speed,
)
from advisor.core.estimate.job_checks import Problem, check_planned, support_problems
from advisor.core.estimate.results import Estimate, Fit
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Mode, Offload, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import Plan, PlannedJob, PlanPins, apply_plan
from advisor.core.memo import HeldById
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.support.check import as_run_on

#: Speeds within 15 % are a tie: the speed estimate's own error is about that large (median
#: error of single-GPU llama.cpp decode against published llama-bench rows, issue 15), so a
#: smaller lead is not evidence enough to leave the engine's usual layout.
SPEED_TIE = 0.15

#: The training scheme that needs the least GPU memory per GPU at every level of escalation: ZeRO-3 shards
#: parameters, gradients and optimizer states (Rajbhandari et al. 2020, arXiv:1910.02054, §5: the model
#: states per GPU fall by the data-parallel degree), as FSDP's full sharding does, and keeps no more
#: buffers than it. A property test pins it for the estimator's figures.
LEAST_MEMORY_SCHEME = Parallel.ZERO3
#: Relative rounding within which two plans' GPU needs are taken as equal when the closest plan is looked for
#: (the property tests hold the escalation's needs to 1e-12 of each other).
HEADROOM_ROUNDING = 1e-9
OFFLOAD_STEPS: tuple[tuple[Offload, ...], ...] = ((), (Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS))
CHECKPOINT_STEPS = (Checkpointing.NONE, Checkpointing.SELECTIVE, Checkpointing.FULL)
TRAIN_SCHEMES = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.FSDP_GRAD_OP, Parallel.FSDP, Parallel.ZERO3)


class FitStatus(StrEnum):
    FITS = "fits"
    TIGHT = "tight"  # fits, but within the estimate's measured error of the usable memory
    NO = "does not fit"
    BLOCKED = "cannot run as set"  # the job contradicts itself or this build

    @property
    def runs(self) -> bool:
        return self in (FitStatus.FITS, FitStatus.TIGHT)


@dataclass(frozen=True)
class ChosenPlan:
    """The plan chosen for one build and one job, the planned job and its estimate, and how it was chosen."""

    plan: Plan
    planned: PlannedJob  # the job with the plan applied
    estimate: Estimate
    status: FitStatus
    pinned: bool = False
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    considered: int = 1

    @property
    def unsupported(self) -> bool:
        """The software does not run the job on this build (``advisor.core.support``): "cannot run", where a
        contradiction of the settings is "cannot run as set"."""
        return bool(self.problems) and self.problems[0].support

    @property
    def headline_tokens_per_s(self) -> float | None:
        s = self.estimate.speed
        return s.train_tokens_per_s if self.planned.mode is Mode.TRAIN else s.decode_tokens_per_s


def schemes_for(job: Job, n_gpus: int) -> tuple[Parallel, ...]:
    """Ways ``n_gpus`` GPUs can share ``job``, the engine's or framework's usual choice first."""
    if n_gpus <= 1:
        return (Parallel.NONE,)
    if job.mode is Mode.TRAIN:
        return TRAIN_SCHEMES
    # llama.cpp splits by layers unless told otherwise (``--split-mode layer`` is its default;
    # ``row`` is opt-in) and transformers by ``device_map="auto"``; the speed model does not
    # know their row/tensor-split overheads, so those are left to a pinned plan.
    splits = (Parallel.TP, Parallel.PP) if job.engine.pooled else (Parallel.LAYER_SPLIT,)
    # Independent replicas (one copy per GPU) serve several sequences at once.
    return (*splits, Parallel.NONE) if job.batch >= n_gpus else splits


def fit_status(est: Estimate, problems: tuple[Problem, ...], margin: float) -> FitStatus:
    """Fits / tight / does not fit / blocked. ``margin``: the estimate's relative error (e.g. the
    measured median of its group), inside which a fit is called tight."""
    return _status(est.fit, problems, margin)


def _status(fit: Fit | FitFigures | None, problems: tuple[Problem, ...], margin: float) -> FitStatus:
    if problems:
        return FitStatus.BLOCKED
    if fit is None or not fit.fits:
        return FitStatus.NO
    return FitStatus.TIGHT if fit.need_per_gpu_bytes * (1 + margin) > fit.usable_per_gpu_bytes else FitStatus.FITS


def _levels(job: Job, pins: PlanPins, unified: bool = False) -> list[tuple[tuple[Offload, ...], Checkpointing]]:
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


class _Probe(NamedTuple):
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
#: on every build).
_TRAINING_PROBES: HeldById[tuple] = HeldById(512)
_PLANS: dict[tuple, Plan] = {}  # validated once: a search probes the same few dozen plans at every change


def _plan(n_gpus: int, parallel: Parallel, offload: tuple[Offload, ...], checkpointing: Checkpointing,
          moe_offload_layers: int) -> Plan:
    key = (n_gpus, parallel, offload, checkpointing, moe_offload_layers)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        plan = _PLANS[key] = Plan(n_gpus=n_gpus, parallel=parallel, offload=offload, checkpointing=checkpointing,
                                  moe_offload_layers=moe_offload_layers)
    return plan


def _probe(arch: ModelArch, job: Job, build: ResolvedBuild, plan: Plan, margin: float,
           weights_bytes_override: float | None, usable_each: list[float] | None = None,
           support: bool = True) -> _Probe:
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
    return _Probe(plan, planned, problems, fit, _status(fit, problems, margin), mem.breakdown, mem.kv_capacity_tokens)


def _gpu_short(probe: _Probe) -> bool:
    """The busiest GPU needs more than the card offers (not a host-RAM shortfall, not a refusal)."""
    return probe.status is FitStatus.NO and probe.fit.need_per_gpu_bytes > probe.fit.usable_per_gpu_bytes


def _speed_of(arch: ModelArch, build: ResolvedBuild, probe: _Probe, weights_bytes_override: float | None) -> float:
    usable = min(usable_memory_bytes(g) for g in build.gpus[: probe.plan.n_gpus])
    s = job_speed(arch, probe.planned, build, probe.memory, usable, weights_bytes_override, probe.kv_capacity_tokens)
    return (s.train_tokens_per_s if probe.planned.mode is Mode.TRAIN else s.decode_tokens_per_s) or 0.0


def best_plan(arch: ModelArch, job: Job, build: ResolvedBuild, pins: PlanPins | None = None,
              margin: float = 0.0, weights_bytes_override: float | None = None, quick: bool = False) -> ChosenPlan:
    """The plan ``build`` runs ``job`` with (see the module docstring for the order of search).

    Plans are first judged on memory alone; speed is estimated only for those that run, and the
    full estimate only for the one chosen. For training, schemes are tried in ``TRAIN_SCHEMES``
    order, which never lowers the traffic per step (DDP and ZeRO-1/2 move the same bytes, FSDP
    and ZeRO-3 half as much again; Rajbhandari et al. 2020 §7), so the first that runs is also
    the fastest and the search stops there.

    ``quick``: the chosen plan's estimate without the rule of thumb and the assumptions (the
    catalog search ranks hundreds of candidates and shows neither).
    """
    pins = pins or PlanPins()
    notes: list[str] = []
    n = pins.n_gpus or build.gpu_count
    if n > build.gpu_count:
        notes.append(f"pinned {n} GPUs; {build.name} has {build.gpu_count}, so {build.gpu_count} are used")
        n = build.gpu_count
    job, substituted = as_run_on(job, build.gpus[:n])
    notes += substituted
    order = (pins.parallel,) if pins.parallel is not None else schemes_for(job, n)
    if pins.parallel is not None and n > 1 and pins.parallel is Parallel.NONE and job.mode is Mode.TRAIN:
        order = (Parallel.DDP,)
    training = job.mode is Mode.TRAIN
    levels = _levels(job, pins, build.unified_memory)
    schemes = order if n > 1 else (Parallel.NONE,)
    probed: dict[tuple[int, int], _Probe] = {}  # (level, scheme) -> probe, each made once
    usable_each = [usable_memory_bytes(g) for g in build.gpus[:n]]  # every probe uses the same n GPUs
    refused = support_problems(job, build, n)
    if refused:  # the software does not run the job here: no plan search, no speed (``job_speed``)
        first = _probe(arch, job, build, _plan(n, schemes[0], *levels[0], pins.moe_offload_layers or 0), margin,
                       weights_bytes_override, usable_each)
        return _planned(arch, first, build, margin, weights_bytes_override, usable_each, quick, pins, notes, 1)

    def at(level: int, scheme: int) -> _Probe:
        if (level, scheme) not in probed:
            offload, ckpt = levels[level]
            plan = _plan(n, schemes[scheme] if n > 1 else Parallel.NONE, offload, ckpt, pins.moe_offload_layers or 0)
            probed[level, scheme] = _probe(arch, job, build, plan, margin, weights_bytes_override, usable_each,
                                           support=False)
        return probed[level, scheme]

    last = len(levels) - 1
    # The scheme that needs the least GPU memory at any level (``LEAST_MEMORY_SCHEME``), if it is tried.
    least = schemes.index(LEAST_MEMORY_SCHEME) if n > 1 and LEAST_MEMORY_SCHEME in schemes else None
    escalates = last > 1  # the job's own level, the last, and some in between

    def short_at_last(scheme: int) -> bool:
        """Short of GPU memory at the last level (most offload, full checkpointing), which needs the least
        GPU memory of all levels (offloading a state or recomputing an activation never adds to the
        GPU's peak; a property test pins it): short there, the scheme is short at every level."""
        return escalates and _gpu_short(at(last, scheme))

    # For each level after the job's own: the level of its offload with full checkpointing, which needs
    # the least GPU memory of that offload's levels (a property test pins it).
    floor = [levels.index((o, Checkpointing.FULL)) if i > 0 and (o, Checkpointing.FULL) in levels else i
             for i, (o, _c) in enumerate(levels)]
    chosen: _Probe | None = None
    for level in range(len(levels)):
        if level == 1 and escalates and (least is None or short_at_last(least)) \
                and all([short_at_last(s) for s in range(len(schemes))]):  # (each probed: the closest plan)
            break  # no level can run (the closest plan is among those probed: they need the least)
        if level > 0 and least is not None and _gpu_short(at(level, least)):
            continue  # short of GPU memory with the least of the schemes: none runs at this level
        running: list[_Probe] = []
        for s in range(len(schemes)):
            if level == 0 and s == 1 and escalates and least is not None and _gpu_short(probed[0, 0]) \
                    and _gpu_short(at(0, least)):
                break  # the engine's first choice and ZeRO-3 short: none runs at the job's own level
            if level > 0 and short_at_last(s):
                continue
            if floor[level] != level and _gpu_short(at(floor[level], s)):
                continue  # short even with full checkpointing at this offload: short with less too
            probe = at(level, s)
            if probe.status.runs:
                running.append(probe)
                if training and probe.status is FitStatus.FITS:
                    break  # the first that fits comfortably is the fastest of the rest (docstring)
        if running:
            comfortable = [p for p in running if p.status is FitStatus.FITS] or running
            chosen = comfortable[0] if len(comfortable) == 1 else _fastest_probe(
                arch, build, comfortable, order, weights_bytes_override)
            break
    if chosen is None:
        _complete_for_closest(probed, at, len(schemes), least, last)
    tried = [probed[k] for k in sorted(probed)]  # in search order: ties go to the least escalation
    if chosen is None and pins.moe_offload_layers is None:
        chosen = _moe_offload(arch, job, build, tried[0].plan if tried else Plan(n_gpus=n), margin,
                              weights_bytes_override, tried, usable_each)
    if chosen is None:
        unblocked = [p for p in tried if p.status is not FitStatus.BLOCKED] or tried
        chosen = max(unblocked, key=lambda p: p.fit.headroom_bytes)
    return _planned(arch, chosen, build, margin, weights_bytes_override, usable_each, quick, pins, notes, len(tried))


def _planned(arch: ModelArch, chosen: _Probe, build: ResolvedBuild, margin: float,
             weights_bytes_override: float | None, usable_each: list[float], quick: bool, pins: PlanPins,
             notes: list[str], considered: int) -> ChosenPlan:
    """The chosen probe's estimate (``quick``: without the rule of thumb and the assumptions) as the build's plan."""
    if quick:
        speed = refused_speed(chosen.planned, build) if chosen.status is FitStatus.BLOCKED else None
        est = Estimate(memory=chosen.memory, speed=speed or job_speed(arch, chosen.planned, build, chosen.memory,
                                                                      min(usable_each), weights_bytes_override,
                                                                      chosen.kv_capacity_tokens),
                       fit=fit_of(chosen.memory, chosen.planned, build, chosen.kv_capacity_tokens, usable_each),
                       params_total=0.0, params_trainable=0.0)
    else:
        est = estimate(arch, chosen.planned, build, weights_bytes_override)
    return ChosenPlan(chosen.plan, chosen.planned, est, fit_status(est, chosen.problems, margin), pins.any,
                   chosen.problems, tuple(notes), considered)


def _complete_for_closest(probed: dict[tuple[int, int], _Probe], at, n_schemes: int, least: int | None,
                          last: int) -> None:
    """When nothing runs: probe the plans at the job's own level that the search skipped (``best_plan``: the
    engine's first choice and ZeRO-3 short there) and that could be the closest plan (the most headroom, the
    least escalated of equals).

    A skipped plan's GPU need is at least that of two plans probed (property tests pin both): ZeRO-3's at the
    same level (the least of the schemes) and the same scheme's at the last level (the least of the levels,
    probed for every scheme by now). So its headroom is at most theirs, and it is probed only when both reach
    the best headroom probed (within rounding): the closest plan is the one found when every scheme was probed
    at the job's own level, ties included (a test compares the two)."""
    unblocked = [p for p in probed.values() if p.status is not FitStatus.BLOCKED]
    if not unblocked or least is None:
        return
    most = max(p.fit.headroom_bytes for p in unblocked)
    for s in range(n_schemes):
        if (0, s) not in probed and all(
                b.fit.headroom_bytes >= most - HEADROOM_ROUNDING * abs(b.fit.need_per_gpu_bytes)
                for b in (probed[0, least], at(last, s))):
            at(0, s)


def _moe_offload(arch: ModelArch, job: Job, build: ResolvedBuild, base: Plan, margin: float,
                 weights_bytes_override: float | None, tried: list[_Probe], usable_each: list[float]) -> _Probe | None:
    """llama.cpp MoE models that fit no GPU plan: the fewest layers whose experts stay in host
    RAM (``--n-cpu-moe``) that make the rest fit the GPUs; every layer moved costs decode speed. The count is
    chosen by the GPUs alone, as a user sets ``--n-cpu-moe`` (or ``-ot``) to fill the cards: when the host RAM the
    plan then needs is more than the build has, that plan is the closest one — short of host RAM by what those
    layers' experts weigh, which says how much RAM the machine needs (not the RAM of every layer's experts)."""
    if job.mode is not Mode.INFERENCE or not job.engine.gguf or arch.moe is None:
        return None
    top = arch.n_layers - min(arch.moe.n_dense_layers, arch.n_layers)

    def probe(k: int) -> _Probe:
        p = _probe(arch, job, build, base.model_copy(update={"moe_offload_layers": k}), margin, weights_bytes_override,
                   usable_each, support=False)
        tried.append(p)
        return p

    def gpu_status(p: _Probe) -> FitStatus:
        """The probe's status on GPU memory alone (a host-RAM shortfall aside)."""
        if p.problems:
            return FitStatus.BLOCKED
        f = p.fit
        if f.need_per_gpu_bytes > f.usable_per_gpu_bytes or getattr(f, "short_kv", False):
            return FitStatus.NO
        return FitStatus.TIGHT if f.need_per_gpu_bytes * (1 + margin) > f.usable_per_gpu_bytes else FitStatus.FITS

    last = probe(top)
    if not gpu_status(last).runs:
        return None
    good = (FitStatus.FITS,) if gpu_status(last) is FitStatus.FITS else (FitStatus.FITS, FitStatus.TIGHT)
    lo, hi = 1, top
    while lo < hi:
        mid = (lo + hi) // 2
        if gpu_status(probe(mid)) in good:
            hi = mid
        else:
            lo = mid + 1
    return probe(lo)


def _fastest_probe(arch: ModelArch, build: ResolvedBuild, options: list[_Probe], order: tuple[Parallel, ...],
                   weights_bytes_override: float | None) -> _Probe:
    """The fastest; among those within SPEED_TIE of it, the earliest in ``order``."""
    speeds = [(p, _speed_of(arch, build, p, weights_bytes_override)) for p in options]
    top = max(v for _, v in speeds)
    close = [p for p, v in speeds if v >= top * (1 - SPEED_TIE)]
    return min(close, key=lambda p: order.index(p.plan.parallel) if p.plan.parallel in order else len(order))


def plan_for(arch: ModelArch, job: Job, build: ResolvedBuild, plan: Plan, margin: float = 0.0) -> ChosenPlan:
    """The estimate under one given plan (no search): for suggestions and tests."""
    job, notes = as_run_on(job, build.gpus[: plan.n_gpus])
    planned = apply_plan(job, plan)
    problems = tuple(check_planned(arch, planned, build))
    est = estimate(arch, planned, build)
    return ChosenPlan(plan, planned, est, fit_status(est, problems, margin), True, problems, notes)
