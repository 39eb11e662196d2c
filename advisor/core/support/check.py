"""Whether the software runs a job on a build's GPUs: the features a job asks for, judged by the support
table (``advisor.core.support.table``) on each GPU it uses, before any memory arithmetic.

Two entry points: ``refusals`` (what cannot run, each blamed on the job setting it comes from) and
``as_run_on`` (a setting the user left at its default that the hardware cannot run, replaced by what the
software would use there: FlashAttention-2 → SDPA, as transformers itself falls back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, cast

from advisor.core.hardware.backend import Backend
from advisor.core.hardware.records import Gpu
from advisor.core.job.choices import (
    AttentionImpl,
    Engine,
    Framework,
    Method,
    Mode,
    Optimizer,
)
from advisor.core.job.job import Job, JobT
from advisor.core.memo import HeldById
from advisor.core.memory.formats import MXFP4_FORMATS, is_gguf
from advisor.core.support.table import Feature, Rule, Verdict, rule_for

ENGINE_FEATURES = {
    Engine.TRANSFORMERS: Feature.TRANSFORMERS, Engine.VLLM: Feature.VLLM, Engine.SGLANG: Feature.SGLANG,
    Engine.LLAMA_CPP: Feature.LLAMA_CPP, Engine.OLLAMA: Feature.OLLAMA, Engine.EXLLAMAV2: Feature.EXLLAMAV2,
    Engine.TENSORRT_LLM: Feature.TENSORRT_LLM, Engine.DEEPSPEED: Feature.DEEPSPEED_FASTGEN,
}
FP8_WEIGHT_FEATURES = {Engine.VLLM: Feature.FP8_VLLM, Engine.TRANSFORMERS: Feature.FP8_TRANSFORMERS,
                       Engine.TENSORRT_LLM: Feature.FP8_TENSORRT_LLM}
#: Who runs MXFP4 experts (gpt-oss's checkpoint, or its MXFP4_MOE GGUF in llama.cpp and Ollama, which share ggml's
#: kernels); every other engine that loads the checkpoint is refused (``Feature.MXFP4_OTHER``).
MXFP4_FEATURES = {Engine.LLAMA_CPP: Feature.MXFP4_GGML, Engine.OLLAMA: Feature.MXFP4_GGML, Engine.VLLM: Feature.MXFP4_VLLM,
                  Engine.TRANSFORMERS: Feature.MXFP4_TRANSFORMERS, Engine.SGLANG: Feature.MXFP4_SGLANG}
FP8_KV_FEATURES = {Engine.TENSORRT_LLM: Feature.FP8_KV_TENSORRT_LLM, Engine.LLAMA_CPP: Feature.FP8_KV_LLAMA_CPP,
                   Engine.OLLAMA: Feature.FP8_KV_LLAMA_CPP}
BNB_OPTIMIZERS = (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW, Optimizer.PAGED_ADAMW_8BIT)
#: Frameworks whose ``attention=flash`` is the flash-attn package (transformers' attn_implementation
#: "flash_attention_2"); the others run PyTorch's SDPA whatever the option says.
FLASH_PACKAGE_FRAMEWORKS = (Framework.HF, Framework.AXOLOTL)
#: NVIDIA architecture families by compute capability major (developer.nvidia.com/cuda-gpus): the words a
#: refusal names the oldest card family by.
CC_FAMILIES = {5: "Maxwell", 6: "Pascal", 7: "Volta", 8: "Ampere", 9: "Hopper", 10: "Blackwell", 12: "Blackwell"}


@dataclass(frozen=True)
class Refusal:
    """One thing the software does not run on one of the build's GPUs."""

    field: str  # the Job field (= CLI flag without dashes) it comes from
    message: str
    rule: Rule


def _family(cc: tuple[int, int]) -> str:
    if cc == (7, 5):
        return "Turing"
    if cc == (8, 9):
        return "Ada"
    return CC_FAMILIES.get(cc[0], f"compute capability {cc[0]}.{cc[1]}")


def _kind(gpu: Gpu | Card) -> str:
    if gpu.vendor.strip().upper() == "CPU":
        return "a CPU"
    return f"{'an' if gpu.vendor[:1].upper() in 'AEIOU' else 'a'} {gpu.vendor} GPU"


def _gfx_ok(target: str, allowed: tuple[str, ...]) -> bool:
    return any(target.startswith(a[:-1]) if a.endswith("*") else target == a for a in allowed)


def judge(feature: Feature, gpu: Gpu | Card) -> tuple[Rule, str] | None:
    """(the row, the refusal in words) when ``gpu`` cannot run ``feature``; None when it runs or is not judged
    (no row, or the card's compute capability / gfx target is not recorded)."""
    rule = rule_for(feature, gpu.backend)
    if rule is None:
        return None
    what, tail = feature.label, (f": {rule.instead}" if rule.instead else "")
    if rule.verdict is not Verdict.RUNS:
        return rule, rule.why.format(what=what, gpu=gpu.name, kind=_kind(gpu)) + tail
    if gpu.backend is Backend.CUDA and rule.min_cc is not None and gpu.cc is not None and gpu.cc < rule.min_cc:
        need = f"{rule.min_cc[0]}.{rule.min_cc[1]}"
        return rule, (f"{what}: {_family(rule.min_cc)} or newer NVIDIA GPUs only (compute capability {need}); "
                      f"the {gpu.name} is {_family(gpu.cc)} ({gpu.compute_capability}){tail}")
    if gpu.backend is Backend.ROCM and rule.gfx and gpu.gfx_target and not _gfx_ok(gpu.gfx_target, rule.gfx):
        return rule, (f"{what}: not on the {gpu.name} ({gpu.gfx_target}); on AMD GPUs only "
                      f"{', '.join(rule.gfx).replace('*', 'x')}{tail}")
    return None


#: Each job's features, by the job object: the plan search asks for one job's at every build.
_FEATURES: HeldById[tuple[Feature, ...]] = HeldById(4096)


def job_features(job: Job) -> tuple[Feature, ...]:
    """What ``w`` asks of the software, in the order refusals are listed."""
    held = _FEATURES.get((job,))
    return held if held is not None else _FEATURES.put((job,), None, _job_features(job))


def _job_features(job: Job) -> tuple[Feature, ...]:
    return _inference_features(job) if job.mode is Mode.INFERENCE else _training_features(job)


def _inference_features(job: Job) -> tuple[Feature, ...]:
    """The engine, the weights' and the KV cache's formats where the engine needs a package or a kernel for
    them, and FlashAttention-2 when asked of transformers."""
    weights, kv = job.weights.strip().lower(), job.kv_dtype.strip().lower()
    out = [ENGINE_FEATURES[job.engine]]
    if job.engine is Engine.TRANSFORMERS:
        if weights in ("nf4", "fp4"):
            out.append(Feature.BNB_4BIT)
        elif weights == "int8":
            out.append(Feature.BNB_INT8)
        elif is_gguf(weights):
            out.append(Feature.GGUF_IN_TRANSFORMERS)
    if weights == "fp8" and job.engine in FP8_WEIGHT_FEATURES:
        out.append(FP8_WEIGHT_FEATURES[job.engine])
    if weights in MXFP4_FORMATS:
        out.append(MXFP4_FEATURES.get(job.engine, Feature.MXFP4_OTHER))
    if kv == "fp8" and job.engine in FP8_KV_FEATURES:
        out.append(FP8_KV_FEATURES[job.engine])
    if job.engine is Engine.TRANSFORMERS and _flash_asked(job):
        out.append(Feature.FLASH_ATTENTION_2)
    return tuple(out)


def _training_features(job: Job) -> tuple[Feature, ...]:
    """Unsloth, bitsandbytes' 4-bit base and optimizers, and the flash-attn package where the framework uses it."""
    weights = job.weights.strip().lower()
    out: list[Feature] = []
    if job.framework is Framework.UNSLOTH:
        out.append(Feature.UNSLOTH)
    if job.method is Method.QLORA or (job.method.litgpt_adapter and weights in ("nf4", "fp4")):
        out.append(Feature.BNB_4BIT)
    if job.optimizer in BNB_OPTIMIZERS:
        out.append(Feature.BNB_OPTIMIZER)
    if job.framework in FLASH_PACKAGE_FRAMEWORKS and _flash_asked(job):
        out.append(Feature.FLASH_ATTENTION_2)
    return tuple(out)


def _flash_asked(job: Job) -> bool:
    """FlashAttention-2 chosen by the user (the default is replaced where it cannot run: ``as_run_on``)."""
    return job.attention is AttentionImpl.FLASH and "attention" in job.model_fields_set


class Card(NamedTuple):
    """What the table judges of a GPU (hashable and cheap, unlike the whole record: refusals are asked for
    every plan a search probes)."""

    name: str
    vendor: str
    backend: Backend | None
    cc: tuple[int, int] | None
    compute_capability: str | None
    gfx_target: str


#: id(gpu) -> (the record, its Card): a search asks about the same few dozen records thousands of times; the
#: record is kept beside its Card so that an id reused after the record is gone is never mistaken for it.
_CARDS: dict[int, tuple[Gpu, Card]] = {}


def _card(g: Gpu) -> Card:
    held = _CARDS.get(id(g))
    if held is not None and held[0] is g:
        return held[1]
    if len(_CARDS) >= 4096:
        _CARDS.clear()
    card = Card(g.name, g.vendor, g.backend, g.cc, g.compute_capability, g.gfx_target)
    _CARDS[id(g)] = (g, card)
    return card


#: id(the GPUs' tuple) -> (the tuple, its distinct Cards): a plan search asks about one build's tuple at every
#: probe (a full slice of a tuple is the tuple itself).
_CARD_SETS: dict[int, tuple[Sequence[Gpu], tuple[Card, ...]]] = {}


def _cards(gpus: Sequence[Gpu]) -> tuple[Card, ...]:
    held = _CARD_SETS.get(id(gpus))
    if held is not None and held[0] is gpus:
        return held[1]
    first = gpus[0] if gpus else None
    cards = ((_card(first),) if first is not None and all(g is first for g in gpus)
             else tuple(dict.fromkeys(_card(g) for g in gpus)))
    if len(_CARD_SETS) >= 4096:
        _CARD_SETS.clear()
    _CARD_SETS[id(gpus)] = (gpus, cards)
    return cards


@lru_cache(maxsize=4096)
def _refusals(features: tuple[Feature, ...], gpus: tuple[Card, ...]) -> tuple[Refusal, ...]:
    out = []
    for feature in features:
        for gpu in gpus:
            found = judge(feature, gpu)
            if found is not None:
                out.append(Refusal(field=feature.field, message=found[1], rule=found[0]))
                break  # one refusal per feature: the first card that cannot run it
    return tuple(out)


def refusals(job: Job, gpus: Sequence[Gpu]) -> tuple[Refusal, ...]:
    """What ``w`` asks of the software that one of ``gpus`` (the GPUs the job uses) cannot run."""
    features = job_features(job)
    return _refusals(features, _cards(gpus)) if features else ()


@lru_cache(maxsize=1024)
def _flash_blocked(cards: tuple[Card, ...]) -> Card | None:
    """The first of ``cards`` FlashAttention-2 does not run on, or None."""
    return next((g for g in cards if judge(Feature.FLASH_ATTENTION_2, g) is not None), None)


#: Each job's substitute, by the job object: the same substitute object for the same job whatever the cards, so
#: that what the plan search keeps per job object (a training job's memory, by job and plan) is found again.
_AS_RUN: HeldById[Job] = HeldById(1024)


def as_run_on(job: JobT, gpus: Sequence[Gpu]) -> tuple[JobT, tuple[str, ...]]:
    """``w`` with the settings the user left at their default that ``gpus`` cannot run replaced by what the
    software runs there instead, and a note for each: FlashAttention-2 → PyTorch's SDPA (transformers'
    default attention implementation; the memory differs by one saved tensor, ``memory.activations``)."""
    uses_package = (job.engine is Engine.TRANSFORMERS if job.mode is Mode.INFERENCE
                    else job.framework in FLASH_PACKAGE_FRAMEWORKS)
    if job.attention is not AttentionImpl.FLASH or "attention" in job.model_fields_set or not uses_package:
        return job, ()
    blocked = _flash_blocked(_cards(gpus))
    if blocked is None:
        return job, ()
    note = f"FlashAttention-2 does not run on the {blocked.name}: PyTorch's SDPA attention is assumed instead"
    held = _AS_RUN.get((job,))
    if held is None:
        held = _AS_RUN.put((job,), None, job.model_copy(update={"attention": AttentionImpl.SDPA}))
    return cast(JobT, held), (note,)  # a copy of ``job``: of its type
