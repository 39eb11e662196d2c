"""Settings that are impossible or contradict each other, each blamed on one setting, and what the software
does not run on the build's GPUs (``advisor.core.support``: ``Problem.support``).

``check_job`` judges the job alone; ``check_planned`` the job under a plan on a build (the plan's GPUs,
scheme and offload, and what the software runs there). Each problem names its setting; the CLI says it as
the setting's flag, the window as the label of the control that sets it (both from the setting's
declaration, ``advisor.core.job.settings``). Ranges (batch ≥ 1 …) are already enforced by ``Job``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.core.estimation.job_rules import (
    ADAPTER_BASES,
    FOUR_BIT_BASES,
    FULL_BASES,
    NOT_GGUF_QUANTS,
    Problem,
    engine_caches,
    engine_loads,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import (
    LORA_TARGETS,
    Engine,
    Method,
    Mode,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import applies, by_flag, choice_label
from advisor.core.memory.format_words import format_words, kv_words
from advisor.core.memory.formats import LLAMA_CPP_KV, MXFP4_FORMATS, is_exl2, kv_bytes_per_element, weight_format
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.support.check import refusals

__all__ = ["FOUR_BIT_BASES", "LLAMA_CPP_KV", "NOT_GGUF_QUANTS", "Problem", "check_job", "check_planned", "message_of",
           "past_trained_context", "support_problems"]

EIGHT_BIT_OPTIMIZERS = (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT)
SPLIT_SCHEMES = (Parallel.TP, Parallel.PP, Parallel.LAYER_SPLIT)

#: Engines that serve a sequence longer than the model's trained context (``ModelArch.max_context``, the
#: config's max_position_embeddings): TensorRT-LLM sizes an engine by its build's input and output lengths,
#: and NVIDIA's own tables run past that figure — Falcon 180B, whose config there gives
#: max_position_embeddings 2048, at 2,048 prompt + 2,048 generated tokens (docs/source/performance.md at
#: 250d9c29, 'Falcon-180B' config and its 0.9.0 throughput rows), and Llama 2 70B (4,096) at 128 + 4,096
#: (docs/source/blogs/Falcon180B-H200.md at 3c44cb97). Every other engine is held to the model's figure.
RUNS_PAST_TRAINED_CONTEXT = (Engine.TENSORRT_LLM,)


def _format_problems(job: Job) -> list[Problem]:
    out: list[Problem] = []
    try:
        weight_format(job.weights, job.quant_group_size, job.double_quant)
    except ValueError as exc:
        out.append(Problem(field="weights", message=str(exc)))
    try:
        kv_bytes_per_element(job.kv_dtype)
    except ValueError as exc:
        out.append(Problem(field="kv_dtype", message=str(exc)))
    if job.mode is Mode.INFERENCE and not engine_loads(job.engine, job.weights):
        weights = format_words(job.weights)
        if job.engine is Engine.EXLLAMAV2:
            message = (f"ExLlamaV2 cannot load {weights} weights; it runs EXL2 (e.g. 4.65bpw), 4-bit GPTQ or "
                       "16-bit models, or pick another engine")
        elif is_exl2(job.weights):
            message = f"{weights} is ExLlamaV2's format: run it with ExLlamaV2"
        elif job.engine.gguf:
            message = f"llama.cpp cannot load {weights} weights; pick a GGUF type such as Q4_K_M, or another engine"
        else:
            message = f"{weights} is a GGUF type: run it with llama.cpp"
        out.append(Problem(field="weights", message=message))
    if job.mode is Mode.INFERENCE and not engine_caches(job.engine, job.kv_dtype):
        out.append(Problem(field="kv_dtype", message=f"{kv_words(job.kv_dtype)} KV cache is a llama.cpp type; "
                                                      f"{job.engine.label} uses FP16, BF16 or FP8"))
    if job.mode is Mode.INFERENCE and job.prompt_tokens is not None and job.prompt_tokens > job.context_len:
        out.append(Problem(field="prompt_tokens", message=f"a {job.prompt_tokens:,}-token prompt does not fit a "
                                                          f"{job.context_len:,}-token context"))
    return out


def _training_problems(arch: ModelArch, job: Job) -> list[Problem]:
    out: list[Problem] = []
    explicit = job.model_fields_set
    if job.method is Method.QLORA and "weights" in explicit and job.weights.lower() not in FOUR_BIT_BASES:
        out.append(Problem(field="weights", message=f"QLoRA trains on a 4-bit NF4 or FP4 base, not "
                                                     f"{format_words(job.weights)}"))
    if job.method is Method.FULL and "weights" in explicit and job.weights.lower() not in FULL_BASES:
        out.append(Problem(field="weights", message="full fine-tuning updates every weight; a "
                                                     f"{format_words(job.weights)} base cannot be trained "
                                                     "(use --method qlora or lora)"))
    if job.method.litgpt_adapter and "weights" in explicit and job.weights.lower() not in ADAPTER_BASES:
        out.append(Problem(field="weights", message=f"LitGPT's adapters train on a 16-bit base or a bitsandbytes "
                                                     "NF4 or FP4 one (--quantize bnb.nf4), not "
                                                     f"{format_words(job.weights)}"))
    unknown = sorted(set(job.lora_targets) - set(LORA_TARGETS) - {"all-linear"})
    if job.method is not Method.FULL and unknown:
        out.append(Problem(field="lora_targets", message=f"unknown LoRA targets {', '.join(unknown)}; "
                                                         f"valid: {', '.join(LORA_TARGETS)}, all-linear"))
    if job.precision is Precision.FP32 and job.optimizer in EIGHT_BIT_OPTIMIZERS:
        out.append(Problem(field="optimizer", message="8-bit optimizer states with pure fp32 weights: use "
                                                      "--precision amp or bf16, or a 32-bit optimizer"))
    return out


def _inference_problems(arch: ModelArch, job: Job) -> list[Problem]:
    if job.context_len > arch.max_context and job.engine not in RUNS_PAST_TRAINED_CONTEXT:
        return [Problem(field="context_len", message=f"{arch.name} takes at most {arch.max_context} tokens")]
    if arch.moe is None and job.weights.strip().lower() in MXFP4_FORMATS:
        # MXFP4 as gpt-oss ships quantizes only the MoE experts (formats module docstring); on a dense model it would
        # quantize nothing, and no engine here loads a dense model whose every linear is MXFP4.
        return [Problem(field="weights", message=f"{format_words(job.weights)} stores only the experts of a "
                                                 f"mixture-of-experts model in 4 bits, and {arch.name} has none: "
                                                 "pick BF16, a GGUF type such as Q4_K_M, or AWQ")]
    return []


def _scheme_problems(planned: PlannedJob) -> list[Problem]:
    """A plan's scheme or offload that the job's mode does not take."""
    out: list[Problem] = []
    if planned.mode is Mode.TRAIN:
        if planned.n_gpus > 1 and planned.parallel is Parallel.NONE:
            out.append(Problem(field="parallel", message=f"{planned.n_gpus} GPUs need a scheme: ddp, fsdp, zero1-3, "
                                                         "tp or pp"))
        return out
    if planned.offload and not applies("offload", planned):
        out.append(Problem(field="offload", message="offload is a training option (ZeRO-Offload / FSDP CPU offload)"))
    if planned.n_gpus > 1 and planned.parallel not in SPLIT_SCHEMES and planned.parallel is not Parallel.NONE:
        scheme = choice_label("parallel", planned.parallel)
        out.append(Problem(field="parallel", message=f"{scheme} is a training scheme; for inference use tp, pp or "
                                                     "layer-split"))
    return out


#: The CLI's flags in the messages above, as a sentence says them (the recommendation, the PDF and the window):
#: whole phrases, the one place their words live. A flag no phrase covers is said as the label of the setting it
#: sets (``flag_label``: "--precision" → "precision").
FLAG_PHRASES: tuple[tuple[str, str], ...] = (
    ("(use --method qlora or lora)", "(choose the LoRA or QLoRA method)"),
    ("use --precision amp or bf16", "use amp or bf16 precision"),
    (" (--gpus)", ""),
    (" (--quantize bnb.nf4)", ""),
)
_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def flag_label(name: str) -> str:
    """The setting a flag sets, as a sentence names it ("gpus" → "GPUs used"; a flag of no setting: its words)."""
    s = by_flag(f"--{name}")
    return s.label if s is not None else name.replace("-", " ")


def flags_said(text: str, say: Callable[[str], str]) -> str:
    """``text`` with every phrase of ``FLAG_PHRASES`` in words, then each flag left as ``say`` says its name
    ("gpus" for ``--gpus``)."""
    for flag_text, words in FLAG_PHRASES:
        text = text.replace(flag_text, words)
    return _FLAG.sub(lambda m: say(m.group(1)), text)


def message_of(line: str, flags: bool = False) -> str:
    """A ``field: message`` line of ``check_planned`` (``BuildResult.problems``) without its field name and
    the CLI's flags: the words for a sentence a buyer reads (the recommendation, the PDF). ``flags=True``: the
    flags kept, for a caller that says them its own way (the window names the control that sets each)."""
    field, sep, message = line.partition(": ")
    text = message if sep and (field in PlannedJob.model_fields) else line
    if flags:
        return text
    return flags_said(text, lambda name: _lower_first(flag_label(name)))


def _lower_first(label: str) -> str:
    """'Precision' → 'precision' in a sentence; 'GPUs used' and 'KV cache type' keep their capitals."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def past_trained_context(arch: ModelArch, job: Job) -> str | None:
    """What a job longer than the model's trained context means where it runs: an inference engine that serves
    it (``RUNS_PAST_TRAINED_CONTEXT``), or long-context fine-tuning, which trains a model past its trained
    length on purpose (Position Interpolation, Chen et al. 2023, arXiv:2306.15595, fine-tunes Llama from 2,048 to
    32,768 tokens; LongLoRA, arXiv:2309.12307): the figures hold, the model's output past that length is not
    what it was trained to write until the fine-tune (with its position scaling raised) teaches it."""
    if job.mode is Mode.TRAIN:
        if job.seq_len <= arch.max_context:
            return None
        return (f"{job.seq_len:,}-token training sequences, past the {arch.max_context:,} {arch.name} was trained on: "
                "long-context fine-tuning, which needs the model's position scaling (RoPE) raised to match; the "
                "memory and speed are for these sequences")
    if job.context_len <= arch.max_context or job.engine not in RUNS_PAST_TRAINED_CONTEXT:
        return None
    return (f"{job.context_len:,} tokens per sequence, past the {arch.max_context:,} {arch.name} was trained on: "
            f"{job.engine.label} runs it at these figures, but what the model writes past its trained length is not "
            "what it was trained to write")


def _gpu_problems(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild | None) -> list[Problem]:
    out: list[Problem] = []
    if planned.n_gpus == 1 and planned.parallel is not Parallel.NONE:
        scheme = choice_label("parallel", planned.parallel)
        out.append(Problem(field="parallel", message=f"{scheme} needs 2 or more GPUs (--gpus)"))
    if build is not None and planned.n_gpus > build.gpu_count:
        out.append(Problem(field="n_gpus", message=f"{build.name} has {build.gpu_count} GPU(s), not {planned.n_gpus}"))
    if planned.parallel is Parallel.TP and planned.n_gpus > 1:
        t = planned.n_gpus
        if arch.n_heads % t:
            out.append(Problem(field="n_gpus", message=f"tensor parallel {t} does not divide {arch.n_heads} heads"))
        kv = arch.n_kv_heads
        if arch.attention.kind is not AttentionKind.MLA and kv % t and t % kv:
            out.append(Problem(field="n_gpus", message=f"tensor parallel {t} and {kv} KV heads: neither divides "
                                                       "the other"))
    if planned.parallel in (Parallel.PP, Parallel.LAYER_SPLIT) and planned.n_gpus > arch.n_layers:
        out.append(Problem(field="n_gpus", message=f"{planned.n_gpus} stages for {arch.n_layers} layers"))
    return out


def support_problems(job: Job, build: ResolvedBuild, n_gpus: int | None = None) -> list[Problem]:
    """What the software cannot run of ``job`` on the GPUs it uses of ``build`` (``advisor.core.support``): its
    first ``n_gpus`` (default: a planned job's own count, one GPU for a job alone)."""
    count = n_gpus if n_gpus is not None else (job.n_gpus if isinstance(job, PlannedJob) else 1)
    used = build.gpus[:count]
    return [Problem(field=r.field, message=r.message, support=True) for r in refusals(job, used)]


def check_job(arch: ModelArch, job: Job) -> list[Problem]:
    """Every impossible or contradictory setting of ``job`` for ``arch``, whatever the plan and the build."""
    out = _format_problems(job)
    return out + (_training_problems(arch, job) if job.mode is Mode.TRAIN else _inference_problems(arch, job))


def check_planned(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild | None = None,
                  support: bool = True) -> list[Problem]:
    """``check_job``'s problems, then the plan's (its scheme, offload and GPUs for ``arch`` on ``build``) and
    (``support``) what the software does not run of it on the build's GPUs. A training job's scheme problem
    comes after its own, an inference job's before its context's (the first problem is the one a refusal
    names)."""
    out = _format_problems(planned)
    if planned.mode is Mode.TRAIN:
        out += _training_problems(arch, planned) + _scheme_problems(planned)
    else:
        out += _scheme_problems(planned) + _inference_problems(arch, planned)
    out += _gpu_problems(arch, planned, build)
    if build is not None and support:
        out += support_problems(planned, build)
    return out
