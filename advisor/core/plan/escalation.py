"""The search over levels of escalation and schemes that ``best_plan`` runs (the order is in
``planner``'s docstring), and the ways it skips plans that cannot run.

Every skip rests on a bound that a property test pins: ZeRO-3 (``LEAST_MEMORY_SCHEME``) needs the least GPU
memory of the schemes at a level, the last level (most offload, full checkpointing) the least of the levels,
and full checkpointing the least of an offload's levels. A plan short of GPU memory where less is needed is
short where more is; when nothing runs, the skipped plans that could be the closest are probed after all
(``complete_for_closest``), so the search chooses what a search of every plan chooses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Mode, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import Plan
from advisor.core.model.arch import ModelArch
from advisor.core.plan.probes import LEAST_MEMORY_SCHEME, Level, Probe, gpu_short, plan_of, probe, probe_speed
from advisor.core.plan.verdict import SPEED_TIE, FitStatus

#: Relative rounding within which two plans' GPU needs are taken as equal when the closest plan is looked for
#: (the property tests hold the escalation's needs to 1e-12 of each other).
HEADROOM_ROUNDING = 1e-9


@dataclass
class Escalation:
    """One build's search: its levels and schemes, and the probes made so far (each once, by (level, scheme))."""

    arch: ModelArch
    job: Job
    build: ResolvedBuild
    n_gpus: int
    schemes: tuple[Parallel, ...]
    levels: list[Level]
    moe_offload_layers: int
    margin: float
    weights_bytes_override: float | None
    usable_each: list[float]
    probed: dict[tuple[int, int], Probe] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.levels) - 1

    @property
    def escalates(self) -> bool:
        """The job's own level, the last, and some in between."""
        return self.last > 1

    @property
    def least(self) -> int | None:
        """The index of the scheme that needs the least GPU memory at any level, if it is tried."""
        if self.n_gpus > 1 and LEAST_MEMORY_SCHEME in self.schemes:
            return self.schemes.index(LEAST_MEMORY_SCHEME)
        return None

    def at(self, level: int, scheme: int) -> Probe:
        """The probe of the scheme at the level, made on first asking."""
        if (level, scheme) not in self.probed:
            offload, ckpt = self.levels[level]
            parallel = self.schemes[scheme] if self.n_gpus > 1 else Parallel.NONE
            plan = plan_of(self.n_gpus, parallel, offload, ckpt, self.moe_offload_layers)
            self.probed[level, scheme] = probe(self.arch, self.job, self.build, plan, self.margin,
                                               self.weights_bytes_override, self.usable_each, support=False)
        return self.probed[level, scheme]

    def short_at_last(self, scheme: int) -> bool:
        """Short of GPU memory at the last level (most offload, full checkpointing), which needs the least
        GPU memory of all levels (offloading a state or recomputing an activation never adds to the
        GPU's peak; a property test pins it): short there, the scheme is short at every level."""
        return self.escalates and gpu_short(self.at(self.last, scheme))

    def floor(self, level: int) -> int:
        """For a level after the job's own: the level of its offload with full checkpointing, which needs the
        least GPU memory of that offload's levels (a property test pins it); the level itself otherwise."""
        offload = self.levels[level][0]
        if level > 0 and (offload, Checkpointing.FULL) in self.levels:
            return self.levels.index((offload, Checkpointing.FULL))
        return level

    def first_running(self) -> list[Probe] | None:
        """The plans that run at the first level where any does (None: none runs at any level)."""
        least = self.least
        for level in range(len(self.levels)):
            if level == 1 and self.escalates and (least is None or self.short_at_last(least)) \
                    and all([self.short_at_last(s) for s in range(len(self.schemes))]):  # (each probed: the closest)
                return None  # no level can run (the closest plan is among those probed: they need the least)
            if level > 0 and least is not None and gpu_short(self.at(level, least)):
                continue  # short of GPU memory with the least of the schemes: none runs at this level
            running = self._running_at(level)
            if running:
                return running
        return None

    def _running_at(self, level: int) -> list[Probe]:
        """The plans that run at ``level``, in scheme order; a training search stops at the first that fits
        comfortably (``TRAIN_SCHEMES`` never lowers the traffic per step, so it is the fastest of the rest)."""
        running: list[Probe] = []
        for s in range(len(self.schemes)):
            if level == 0 and s == 1 and self._own_level_hopeless():
                break  # the engine's first choice and ZeRO-3 short: none runs at the job's own level
            if self._skipped(level, s):
                continue
            p = self.at(level, s)
            if p.status.runs:
                running.append(p)
                if self.job.mode is Mode.TRAIN and p.status is FitStatus.FITS:
                    break
        return running

    def _own_level_hopeless(self) -> bool:
        least = self.least
        return (self.escalates and least is not None and gpu_short(self.probed[0, 0])
                and gpu_short(self.at(0, least)))

    def _skipped(self, level: int, s: int) -> bool:
        if level > 0 and self.short_at_last(s):
            return True
        floor = self.floor(level)
        return floor != level and gpu_short(self.at(floor, s))  # short with full checkpointing: with less too


def complete_for_closest(probed: dict[tuple[int, int], Probe], at: Callable[[int, int], Probe], n_schemes: int,
                         least: int | None, last: int) -> None:
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


def moe_offload(arch: ModelArch, job: Job, build: ResolvedBuild, base: Plan, margin: float,
                weights_bytes_override: float | None, tried: list[Probe], usable_each: list[float]) -> Probe | None:
    """llama.cpp MoE models that fit no GPU plan: the fewest layers whose experts stay in host
    RAM (``--n-cpu-moe``) that make the rest fit the GPUs; every layer moved costs decode speed. The count is
    chosen by the GPUs alone, as a user sets ``--n-cpu-moe`` (or ``-ot``) to fill the cards: when the host RAM the
    plan then needs is more than the build has, that plan is the closest one — short of host RAM by what those
    layers' experts weigh, which says how much RAM the machine needs (not the RAM of every layer's experts)."""
    if job.mode is not Mode.INFERENCE or not job.engine.gguf or arch.moe is None:
        return None
    top = arch.n_layers - min(arch.moe.n_dense_layers, arch.n_layers)

    def with_layers(k: int) -> Probe:
        p = probe(arch, job, build, base.model_copy(update={"moe_offload_layers": k}), margin, weights_bytes_override,
                  usable_each, support=False)
        tried.append(p)
        return p

    def gpu_status(p: Probe) -> FitStatus:
        """The probe's status on GPU memory alone (a host-RAM shortfall aside)."""
        if p.problems:
            return FitStatus.BLOCKED
        f = p.fit
        if f.need_per_gpu_bytes > f.usable_per_gpu_bytes or f.short_kv:
            return FitStatus.NO
        return FitStatus.TIGHT if f.need_per_gpu_bytes * (1 + margin) > f.usable_per_gpu_bytes else FitStatus.FITS

    last = with_layers(top)
    if not gpu_status(last).runs:
        return None
    good = (FitStatus.FITS,) if gpu_status(last) is FitStatus.FITS else (FitStatus.FITS, FitStatus.TIGHT)
    lo, hi = 1, top
    while lo < hi:
        mid = (lo + hi) // 2
        if gpu_status(with_layers(mid)) in good:
            hi = mid
        else:
            lo = mid + 1
    return with_layers(lo)


def fastest_probe(arch: ModelArch, build: ResolvedBuild, options: list[Probe], order: tuple[Parallel, ...],
                  weights_bytes_override: float | None) -> Probe:
    """The fastest; among those within SPEED_TIE of it, the earliest in ``order``."""
    speeds = [(p, probe_speed(arch, build, p, weights_bytes_override)) for p in options]
    top = max(v for _, v in speeds)
    close = [p for p, v in speeds if v >= top * (1 - SPEED_TIE)]
    return min(close, key=lambda p: order.index(p.plan.parallel) if p.plan.parallel in order else len(order))
