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

from advisor.core.estimation.estimator import estimate, fit_of, job_speed, refused_speed
from advisor.core.estimation.job_checks import check_planned, support_problems
from advisor.core.estimation.results import Estimate
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Mode, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import Plan, PlanPins, apply_plan
from advisor.core.model.arch import ModelArch
from advisor.core.plan.escalation import Escalation, complete_for_closest, fastest_probe, moe_offload
from advisor.core.plan.probes import TRAIN_SCHEMES, Probe, levels, plan_of, probe
from advisor.core.plan.verdict import SPEED_TIE, ChosenPlan, FitStatus, fit_status
from advisor.core.support.check import as_run_on

__all__ = ["SPEED_TIE", "TRAIN_SCHEMES", "ChosenPlan", "FitStatus", "best_plan", "fit_status", "plan_for",
           "schemes_for"]


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
    order = _order(job, pins, n)
    search = Escalation(arch, job, build, n, order if n > 1 else (Parallel.NONE,), levels(job, pins, build.unified_memory),
                        pins.moe_offload_layers or 0, margin, weights_bytes_override,
                        [usable_memory_bytes(g) for g in build.gpus[:n]])  # every probe uses the same n GPUs
    if support_problems(job, build, n):  # the software does not run the job here: no plan search, no speed
        first = probe(arch, job, build, plan_of(n, search.schemes[0], *search.levels[0], search.moe_offload_layers),
                      margin, weights_bytes_override, search.usable_each)
        return _planned(arch, first, build, margin, weights_bytes_override, search.usable_each, quick, pins, notes, 1)
    running = search.first_running()
    if running:
        comfortable = [p for p in running if p.status is FitStatus.FITS] or running
        chosen = comfortable[0] if len(comfortable) == 1 else fastest_probe(
            arch, build, comfortable, order, weights_bytes_override)
        considered = len(search.probed)
    else:
        chosen, tried = _closest(search, pins, n)
        considered = len(tried)
    return _planned(arch, chosen, build, margin, weights_bytes_override, search.usable_each, quick, pins, notes,
                    considered)


def _order(job: Job, pins: PlanPins, n: int) -> tuple[Parallel, ...]:
    """The schemes to try, the engine's usual first; a pinned "none" on several GPUs trains as plain DDP."""
    if pins.parallel is None:
        return schemes_for(job, n)
    if n > 1 and pins.parallel is Parallel.NONE and job.mode is Mode.TRAIN:
        return (Parallel.DDP,)
    return (pins.parallel,)


def _closest(search: Escalation, pins: PlanPins, n: int) -> tuple[Probe, list[Probe]]:
    """When no plan runs: a MoE model's experts moved to host RAM if that runs, else the plan with the most
    headroom (refused plans last; ties to the least escalation). Returns it and every probe made."""
    complete_for_closest(search.probed, search.at, len(search.schemes), search.least, search.last)
    tried = [search.probed[k] for k in sorted(search.probed)]  # in search order: ties go to the least escalation
    chosen = None
    if pins.moe_offload_layers is None:
        chosen = moe_offload(search.arch, search.job, search.build, tried[0].plan if tried else Plan(n_gpus=n),
                             search.margin, search.weights_bytes_override, tried, search.usable_each)
    if chosen is None:
        unblocked = [p for p in tried if p.status is not FitStatus.BLOCKED] or tried
        chosen = max(unblocked, key=lambda p: p.fit.headroom_bytes)
    return chosen, tried


def _planned(arch: ModelArch, chosen: Probe, build: ResolvedBuild, margin: float,
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


def plan_for(arch: ModelArch, job: Job, build: ResolvedBuild, plan: Plan, margin: float = 0.0) -> ChosenPlan:
    """The estimate under one given plan (no search): for suggestions and tests."""
    job, notes = as_run_on(job, build.gpus[: plan.n_gpus])
    planned = apply_plan(job, plan)
    problems = tuple(check_planned(arch, planned, build))
    est = estimate(arch, planned, build)
    return ChosenPlan(plan, planned, est, fit_status(est, problems, margin), True, problems, notes)
