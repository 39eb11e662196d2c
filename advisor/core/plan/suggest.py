"""What would make a job fit a build: the smallest change of each kind, re-estimated.

For a build on which the job does not fit (or is tight), each kind of change is tried from the
mildest step up, and the first step whose re-estimate (``best_plan``) runs is suggested, with
its per-GPU need and its speed. Kinds, in the order they are listed: a smaller weight format
(or a lighter training method), an 8-bit KV cache, activation checkpointing, offload to host
RAM, a shorter context / sequence, fewer concurrent sequences / a smaller micro-batch, and
more GPUs of the same kind (with what they cost). Nothing is guessed: a change is listed only
when the estimate under it fits.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from advisor.core.cost.machine import PriceChoice, today_price
from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.choices import Checkpointing, Engine, Method, Mode, Offload
from advisor.core.job.job import Job
from advisor.core.job.planned import PlanPins
from advisor.core.memory.formats import LLAMA_CPP_KV, kv_bytes_per_element, weight_format
from advisor.core.model.arch import ModelArch
from advisor.core.plan.planner import ChosenPlan, best_plan
from advisor.core.units import GIB

T = TypeVar("T")

#: llama.cpp's K-quant ladder (tools/quantize/README.md), mildest first.
GGUF_LADDER = ("q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k")
#: Formats vLLM and transformers load, mildest first: FP8 (W8A8), LLM.int8, 4-bit AWQ.
GPU_LADDER = ("fp8", "int8", "awq")
#: ExLlamaV2's usual EXL2 sizes (bits per weight), mildest first (turboderp's model cards list 8.0 to 2.5).
EXL2_LADDER = ("8.0bpw", "6.0bpw", "5.0bpw", "4.65bpw", "4.0bpw", "3.5bpw", "3.0bpw", "2.5bpw")
KV_LADDER = {Engine.LLAMA_CPP: LLAMA_CPP_KV, Engine.OLLAMA: LLAMA_CPP_KV}  # mildest first
KV_DEFAULT_LADDER = ("fp8",)
MAX_SUGGESTED_GPUS = 8  # the largest single-node count the catalog search builds, too
MIN_CONTEXT = 256


@dataclass(frozen=True)
class Suggestion:
    kind: str  # weights | method | kv_cache | checkpointing | offload | context | batch | gpus
    change: str  # in words, for the window, the PDF and the CLI
    chosen: ChosenPlan
    extra_cost_usd: float | None = None

    @property
    def per_gpu_bytes(self) -> float:
        fit = self.chosen.estimate.fit
        return fit.need_per_gpu_bytes if fit is not None else self.chosen.estimate.memory.total

    @property
    def host_ram_bytes(self) -> float:
        return self.chosen.estimate.memory.host


def _first_running(steps: Iterable[T], make: Callable[[T], ChosenPlan | None]) -> tuple[T, ChosenPlan] | None:
    """The first step whose plan runs, and that plan."""
    for step in steps:
        chosen = make(step)
        if chosen is not None and chosen.status.runs:
            return step, chosen
    return None


def _bits(name: str) -> float:
    try:
        return weight_format(name).bits_per_weight
    except ValueError:
        return 16.0


def _job(job: Job, **changes: object) -> Job | None:
    data = {k: getattr(job, k) for k in job.model_fields_set}
    data.update(changes)
    try:
        return Job.model_validate(data)
    except ValueError:
        return None


class SearchCancelled(Exception):
    """``suggestions`` was told to stop (its ``cancelled`` said True): the answer would not be shown."""


class _Planner:
    def __init__(self, arch: ModelArch, build: ResolvedBuild, pins: PlanPins, margin: float,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self.arch, self.build, self.pins, self.margin = arch, build, pins, margin
        self.cancelled = cancelled

    def __call__(self, job: Job | None, pins: PlanPins | None = None,
                 build: ResolvedBuild | None = None) -> ChosenPlan | None:
        if self.cancelled is not None and self.cancelled():
            raise SearchCancelled  # asked before each plan search (a few ms at most)
        if job is None:
            return None
        return best_plan(self.arch, job, build or self.build, pins or self.pins, self.margin)


def _weights(job: Job, plan: _Planner) -> list[Suggestion]:
    if job.mode is Mode.TRAIN:
        ladder = [m for m in (Method.LORA, Method.QLORA) if list(Method).index(m) > list(Method).index(job.method)]
        found = _first_running(ladder, lambda m: plan(_job(job, method=m, weights="nf4" if m is Method.QLORA else "bf16")))
        if found is None:
            return []
        method, chosen = found
        words = "LoRA on a 16-bit base" if method is Method.LORA else "QLoRA (4-bit base)"
        return [Suggestion("method", f"train with {words} instead", chosen)]
    formats = GGUF_LADDER if job.engine.gguf else EXL2_LADDER if job.engine is Engine.EXLLAMAV2 else GPU_LADDER
    now = _bits(job.weights)
    fewer_bits = _first_running([w for w in formats if _bits(w) < now], lambda w: plan(_job(job, weights=w)))
    if fewer_bits is None:
        return []
    name, chosen = fewer_bits
    return [Suggestion("weights", f"{name.upper()} weights ({_bits(name):.1f} bits per weight)", chosen)]


def _kv(job: Job, plan: _Planner) -> list[Suggestion]:
    if job.mode is Mode.TRAIN:
        return []
    now = kv_bytes_per_element(job.kv_dtype)
    ladder = [k for k in KV_LADDER.get(job.engine, KV_DEFAULT_LADDER) if kv_bytes_per_element(k) < now]
    found = _first_running(ladder, lambda k: plan(_job(job, kv_dtype=k)))
    if found is None:
        return []
    return [Suggestion("kv_cache", f"KV cache in {found[0].upper()}", found[1])]


def _memory_savers(job: Job, plan: _Planner, pins: PlanPins) -> list[Suggestion]:
    """Checkpointing and offload: the planner adds them by itself unless the user pinned them."""
    if job.mode is Mode.INFERENCE:
        return []
    out = []
    if pins.checkpointing is not None and pins.checkpointing is not Checkpointing.FULL:
        p = plan(job, pins.model_copy(update={"checkpointing": Checkpointing.FULL}))
        if p is not None and p.status.runs:
            out.append(Suggestion("checkpointing", "full activation checkpointing", p))
    if pins.offload is not None:
        for offload in ((Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS)):
            if set(offload) <= set(pins.offload):
                continue
            p = plan(job, pins.model_copy(update={"offload": offload}))
            if p is not None and p.status.runs:
                what = "optimizer" if len(offload) == 1 else "optimizer and parameters"
                out.append(Suggestion("offload", f"{what} offloaded to host RAM "
                                                  f"(needs {p.estimate.memory.host / GIB:.0f} GiB of it)", p))
                break
    return out


def _largest(lo: int, hi: int, runs: Callable[[int], bool]) -> int | None:
    """Largest value in [lo, hi] for which ``runs`` holds (monotonic: runs below, not above)."""
    if hi < lo or not runs(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if runs(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _length_and_batch(job: Job, plan: _Planner) -> list[Suggestion]:
    out: list[Suggestion] = []
    field, label = ("seq_len", "sequences of") if job.mode is Mode.TRAIN else ("context_len", "context of")
    now = getattr(job, field)

    def with_length(n: int) -> ChosenPlan | None:
        return plan(_job(job, **{field: n}))

    best = _largest(min(MIN_CONTEXT, now - 1), now - 1, lambda n: bool((p := with_length(n)) and p.status.runs))
    if best is not None and (chosen := with_length(best)) is not None:
        out.append(Suggestion(field, f"{label} {best:,} tokens at most", chosen))
    if job.batch > 1:
        words = "micro-batch of" if job.mode is Mode.TRAIN else "concurrent sequences:"

        def with_batch(n: int) -> ChosenPlan | None:
            return plan(_job(job, batch=n))

        best = _largest(1, job.batch - 1, lambda n: bool((p := with_batch(n)) and p.status.runs))
        if best is not None and (chosen := with_batch(best)) is not None:
            out.append(Suggestion("batch", f"{words} {best} at most", chosen))
    return out


def with_more_gpus(build: ResolvedBuild, count: int) -> ResolvedBuild:
    """``build`` with ``count`` cards of its (single) GPU kind, on the same platform links."""
    gpu = build.gpus[0]
    t = build.topology
    topology = Topology(nvlink_pairs=t.nvlink_pairs, nvswitch=t.nvswitch, pcie_gen=t.pcie_gen, p2p=t.p2p,
                        slot_spacing=t.slot_spacing)
    return build.model_copy(update={"gpus": (gpu,) * count, "topology": topology, "build": None,
                                    "name": f"{count}× {gpu.name}"})


def _gpus(job: Job, plan: _Planner, build: ResolvedBuild) -> list[Suggestion]:
    if (build.unified_memory or build.nodes > 1 or len({g.id for g in build.gpus}) != 1
            or build.gpu_count >= MAX_SUGGESTED_GPUS):  # several machines: one more card is not one change
        return []
    gpu = build.gpus[0]
    price = today_price(gpu.prices, PriceChoice.EITHER, dt.date.today())  # one card more, at today's price
    pins = plan.pins.model_copy(update={"n_gpus": None})
    for count in range(build.gpu_count + 1, MAX_SUGGESTED_GPUS + 1):
        bigger = with_more_gpus(build, count)
        p = plan(job, pins, bigger)
        if p is not None and p.status.runs:
            extra = count - build.gpu_count
            cost = extra * price.usd if price is not None else None
            return [Suggestion("gpus", f"{extra} more {gpu.name} ({count} in all)", p, cost)]
    return []


def suggestions(arch: ModelArch, job: Job, build: ResolvedBuild, pins: PlanPins | None = None,
                margin: float = 0.0, cancelled: Callable[[], bool] | None = None) -> list[Suggestion]:
    """The smallest change of each kind that makes ``job`` fit ``build`` (empty: none found).

    ``cancelled``: asked before each re-estimate; when it says True, ``SearchCancelled`` is raised
    (the window's worker stops within one plan search of a newer change)."""
    pins = pins or PlanPins()
    plan = _Planner(arch, build, pins, margin, cancelled)
    out = _weights(job, plan) + _kv(job, plan) + _memory_savers(job, plan, pins)
    out += _length_and_batch(job, plan) + _gpus(job, plan, build)
    return out
