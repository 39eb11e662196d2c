"""The one estimate the UI, the CLI and the PDF all show: memory, speed, fit, rule of thumb.

``estimate`` puts ``estimate_memory``, ``estimate_speed`` and ``rule_of_thumb`` together and
judges the fit against what a framework can really allocate on each GPU
(``usable_memory_bytes``). ``check_job`` and ``check_planned`` list settings that are impossible or
contradict each other, each tied to the workload field (= CLI flag) to blame.
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.core.estimation.job_checks import (
    Problem,
    check_job,
    check_planned,
    past_trained_context,
    support_problems,
)
from advisor.core.estimation.results import Estimate, Fit
from advisor.core.estimation.rule_of_thumb import rule_of_thumb
from advisor.core.hardware.memory import (
    DRIVER_RESERVED_BYTES,
    host_ram_gib,
    unified_pool_bytes,
    usable_memory_bytes,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Mode, Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import sequences_at_once
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params
from advisor.core.speed.flops import trainable_params
from advisor.core.speed.inference import estimate_speed
from advisor.core.speed.results import SpeedEstimate
from advisor.core.units import GIB, format_bytes

__all__ = ["FitFigures", "Problem", "check_job", "check_planned", "estimate", "fit_figures", "fit_of", "job_speed", "refused_speed"]

class FitFigures(NamedTuple):
    """``fit_of``'s figures without its sentence or its validated model: what a plan search's probes
    judge by (a training job's search probes dozens of plans per build and shows one: no sentences for the rest).
    The attribute names are ``Fit``'s, so either can be judged alike."""

    fits: bool
    need_per_gpu_bytes: float
    usable_per_gpu_bytes: float
    host_need_bytes: float
    host_available_bytes: float | None = None
    too_many_gpus: bool = False  # the workload uses more GPUs than the build has
    short_kv: bool = False  # vLLM's cache holds less than one sequence (the GPU figure fits)
    gpu_ok: bool = False  # the busiest GPU's need fits (the KV cache's test included)

    @property
    def headroom_bytes(self) -> float:
        return self.usable_per_gpu_bytes - self.need_per_gpu_bytes


def fit_figures(memory: MemoryBreakdown, planned: PlannedJob, build: ResolvedBuild,
                kv_capacity_tokens: float | None = None, usable_each: list[float] | None = None) -> FitFigures:
    """``fit_of`` without the sentence (see there). ``usable_each``: each used GPU's
    ``usable_memory_bytes``, when the caller has them (a plan search reads them once per build)."""
    need = memory.total  # a computed field: read once
    if planned.n_gpus > build.gpu_count:
        return FitFigures(fits=False, need_per_gpu_bytes=need, usable_per_gpu_bytes=0.0, host_need_bytes=memory.host,
                          too_many_gpus=True)
    each = usable_each if usable_each is not None else [usable_memory_bytes(g) for g in build.gpus[: planned.n_gpus]]
    usable = min(each)
    if planned.parallel in (Parallel.PP, Parallel.LAYER_SPLIT) and len(set(each)) > 1 and need > 0:
        # Unequal cards: layers go in proportion to each card's memory (llama.cpp --tensor-split,
        # advisor.core.speed.decode.stage_shares); the per-GPU overhead (runtime, buffers) is
        # on every card. The usable figure is the one the equal-split need is judged against.
        overhead = memory.runtime + memory.buffers
        ratio = (need - overhead) * len(each) / sum(each) + overhead / min(each)
        usable = need / ratio
    host_avail = None
    ram_gib = host_ram_gib(build)
    if build.unified_memory:  # one pool: what the GPU part leaves of it
        pool = unified_pool_bytes(build.gpus[: planned.n_gpus], ram_gib)
        host_avail = max(0.0, pool - need * len(each))
    elif ram_gib is not None:
        host_avail = ram_gib * GIB
    gpu_ok = need <= usable
    short_kv = kv_capacity_tokens is not None and kv_capacity_tokens < planned.context_len
    if short_kv and gpu_ok:
        gpu_ok = False
    else:
        short_kv = False
    # Host RAM a plan needs counts only against RAM the build is known to have: an unknown amount is not
    # taken as enough (a 70B full fine-tune offloading 1.3 TB "fit" two 24 GB cards with RAM unknown).
    host_ok = memory.host <= 0 or (host_avail is not None and memory.host <= host_avail)
    return FitFigures(fits=gpu_ok and host_ok, need_per_gpu_bytes=need, usable_per_gpu_bytes=usable,
                      host_need_bytes=memory.host, host_available_bytes=host_avail, short_kv=short_kv, gpu_ok=gpu_ok)


def fit_of(memory: MemoryBreakdown, planned: PlannedJob, build: ResolvedBuild,
           kv_capacity_tokens: float | None = None, usable_each: list[float] | None = None) -> Fit:
    """Whether the busiest GPU's peak fits the smallest usable GPU of those the job uses, and
    the host RAM need fits the build's RAM (a unified pool: what the GPU part leaves).

    vLLM sizes its KV cache to fill the card, so its peak always "fits"; it refuses to start
    when that cache cannot hold one sequence of ``max_model_len`` tokens (vLLM
    ``vllm/v1/core/kv_cache_utils.py: check_enough_kv_cache_memory``): that is its fit test (``kv_capacity_tokens``)."""
    f = fit_figures(memory, planned, build, kv_capacity_tokens, usable_each)
    need, usable, host_avail = f.need_per_gpu_bytes, f.usable_per_gpu_bytes, f.host_available_bytes
    if f.too_many_gpus:
        return Fit(fits=False, need_per_gpu_bytes=need, usable_per_gpu_bytes=0.0,
                   host_need_bytes=f.host_need_bytes,
                   reason=f"the workload uses {planned.n_gpus} GPUs; {build.name} has {build.gpu_count}")
    if f.short_kv:
        engine = planned.engine.label
        reason = (f"{engine}'s KV cache would hold {kv_capacity_tokens:,.0f} tokens, "
                  f"less than one {planned.context_len}-token sequence")
    elif f.fits:
        reason = f"needs {format_bytes(need)} of {format_bytes(usable)} usable per GPU"
    elif not f.gpu_ok:
        reason = f"needs {format_bytes(need)} per GPU; {format_bytes(usable)} usable"
    elif host_avail is None:
        reason = f"needs {format_bytes(f.host_need_bytes)} of host RAM; the build's RAM is not known"
    else:
        reason = f"needs {format_bytes(f.host_need_bytes)} of host RAM; {format_bytes(host_avail)} available"
    running = sequences_at_once(planned, kv_capacity_tokens)
    if f.fits and running is not None and running < planned.batch:
        reason = (f"runs {running} of the {planned.batch} sequences at once (the KV cache holds "
                  f"{kv_capacity_tokens:,.0f} tokens: {running} sequences of {planned.context_len:,}); {reason}")
    return Fit(fits=f.fits, need_per_gpu_bytes=need, usable_per_gpu_bytes=usable,
               host_need_bytes=f.host_need_bytes, host_available_bytes=host_avail, reason=reason,
               sequences_at_once=running)


def request_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, usable: float | None,
                  weights_bytes_override: float | None = None) -> SpeedEstimate:
    """A request of ``prompt_tokens`` prompt tokens and ``context_len - prompt_tokens`` generated tokens per
    sequence, every sequence of the batch at once: time to first token for the prompt, then the generation at
    the decode rate of the mid-generation context (the KV cache read per step grows linearly from the prompt
    to the whole context, so the mean step is the middle one's), and the whole request's time and generated
    tokens/s, prefill included. This is how the published throughput tables time a batch (TensorRT-LLM's
    gptSessionBenchmark: batch × output tokens / total latency; Qwen's speed benchmark: a ``generate`` call;
    llama-bench's tg test: no prompt, ``prompt_tokens`` 0). Where a part cannot be estimated, the speed at
    the mid-generation context as it is (its notes say what is missing)."""
    prompt, gen = planned.prompt_tokens or 0, planned.context_len - (planned.prompt_tokens or 0)

    def at(context: int) -> SpeedEstimate:
        job = planned.model_copy(update={"context_len": context})
        return estimate_speed(arch, job, build, estimate_memory(arch, job, usable, weights_bytes_override).breakdown)

    mid = at(max(1, prompt + gen // 2))
    first = at(prompt) if prompt else None
    if not mid.decode_tokens_per_s or (first is not None and not first.time_to_first_token_s):
        return mid
    ttft = (first.time_to_first_token_s or 0.0) if first is not None else 0.0  # known: checked above
    seconds = ttft + gen * planned.batch / mid.decode_tokens_per_s
    note = (f"a request of {prompt:,} prompt and {gen:,} generated tokens per sequence: decode speed at the "
            f"mid-generation context ({max(1, prompt + gen // 2):,} tokens), "
            + (f"time to first token for the {prompt:,}-token prompt" if prompt else "no prompt")
            + f"; the whole request {seconds:.2f} s")
    return mid.model_copy(update={
        "prefill_tokens_per_s": first.prefill_tokens_per_s if first is not None else None,
        "time_to_first_token_s": first.time_to_first_token_s if first is not None else None,
        "request_s": seconds, "request_tokens_per_s": gen * planned.batch / seconds, "notes": (*mid.notes, note)})


def refused_speed(planned: PlannedJob, build: ResolvedBuild) -> SpeedEstimate | None:
    """No speed where the software does not run the job on the build (the fit's problems say why); None where
    it does (``advisor.core.support``)."""
    refused = support_problems(planned, build) if planned.n_gpus <= build.gpu_count else []
    return SpeedEstimate(notes=(f"none: {refused[0].message.split(';')[0]}",)) if refused else None


def job_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, memory: MemoryBreakdown, usable: float | None,
              weights_bytes_override: float | None = None, kv_capacity_tokens: float | None = None) -> SpeedEstimate:
    """The speed shown for a job: a request's (``request_speed``) where the job is one (``PlannedJob.is_request``),
    else the steady speed at the job's context (``estimate_speed`` with ``memory``, the job's breakdown). The plan
    search judges plans by it and the catalog search ranks by it, so both agree with the estimate shown. Its
    notes say when the job runs past the model's trained context (``past_trained_context``).

    ``kv_capacity_tokens``: a pool-scheduled engine's KV pool (vLLM, SGLang). Where it holds fewer of the job's
    sequences than ``batch`` (``sequences_at_once``), the speed is that of the sequences running together, and
    a request of every sequence takes as many rounds as the pool needs to serve them all."""
    running = sequences_at_once(planned, kv_capacity_tokens)
    if running is not None and kv_capacity_tokens is not None and 0 < running < planned.batch:
        return _queued_speed(arch, planned, build, memory, usable, weights_bytes_override, running, kv_capacity_tokens)
    speed = (request_speed(arch, planned, build, usable, weights_bytes_override) if planned.is_request
             else estimate_speed(arch, planned, build, memory))
    past = past_trained_context(arch, planned)
    return speed if past is None else speed.model_copy(update={"notes": (*speed.notes, past)})


def _queued_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, memory: MemoryBreakdown, usable: float | None,
                  weights_bytes_override: float | None, running: int, kv_capacity_tokens: float) -> SpeedEstimate:
    """The speed of ``running`` of the job's sequences together (the pool's share of the batch), and a whole
    request of all of them in ``ceil(batch / running)`` rounds (each round a request of ``running`` sequences:
    the engine admits a waiting sequence when one ends; rounds of equal sequences end together)."""
    wave = planned.model_copy(update={"batch": running})
    speed = job_speed(arch, wave, build, memory, usable, weights_bytes_override)
    rounds = -(-planned.batch // running)
    note = (f"{planned.engine.label} runs {running} of the {planned.batch} sequences at once (its KV cache holds "
            f"{kv_capacity_tokens:,.0f} tokens, {running} sequences of {planned.context_len:,}); the others wait: "
            f"{rounds} rounds to serve all {planned.batch}")
    update: dict[str, object] = {"notes": (note, *speed.notes)}
    if speed.request_s is not None:
        generated = (planned.context_len - (planned.prompt_tokens or 0)) * planned.batch
        update["request_s"] = speed.request_s * rounds
        update["request_tokens_per_s"] = generated / (speed.request_s * rounds)
    return speed.model_copy(update=update)


def estimate(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild | None = None,
             weights_bytes_override: float | None = None) -> Estimate:
    """Memory per GPU, speed (None without a build), fit and the rule of thumb for one workload.

    ``weights_bytes_override``: the exact weight bytes of model files served as they are
    (safetensors headers, GGUF tensor sizes); it replaces the format's estimate.

    Call ``check_planned`` first: settings it reports are estimated as far as they can be,
    except an unknown weight format or KV type, which raise ``ValueError`` naming the valid ones.
    """
    usable = None
    if build is not None and planned.n_gpus <= build.gpu_count:
        usable = min(usable_memory_bytes(g) for g in build.gpus[: planned.n_gpus])
    mem = estimate_memory(arch, planned, usable, weights_bytes_override)
    if build is None:
        past = past_trained_context(arch, planned)
        speed = SpeedEstimate(notes=("speed needs a build: choose GPUs to see tokens/s", *((past,) if past else ())))
        fit = None
    else:
        speed = refused_speed(planned, build) or job_speed(arch, planned, build, mem.breakdown, usable,
                                                            weights_bytes_override, mem.kv_capacity_tokens)
        fit = fit_of(mem.breakdown, planned, build, mem.kv_capacity_tokens)
    assumptions = list(mem.assumptions)
    if build is not None:
        assumptions.append(f"usable memory: card size minus {DRIVER_RESERVED_BYTES / 2**20:.0f} MiB driver reserve "
                           "(RTX 4090 deviceQuery); Apple: Metal working-set cap; DGX Spark: what its OS leaves free "
                           "(measured at boot)")
    trainable = trainable_params(arch, planned) if planned.mode is Mode.TRAIN else 0.0
    rule = rule_of_thumb(arch, planned, mem.breakdown)  # reuses the breakdown: one estimate_memory per call
    return Estimate(memory=mem.breakdown, speed=speed, fit=fit, rule_of_thumb=rule,
                    params_total=count_params(arch).total, params_trainable=trainable,
                    assumptions=tuple(assumptions))
