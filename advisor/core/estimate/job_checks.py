"""Settings that are impossible or contradict each other, each blamed on one workload field, and what the
software does not run on the build's GPUs (``advisor.core.support``: ``Problem.support``).

The field name is the CLI flag without dashes (``n_gpus`` → ``--n-gpus``); the UI shows the
message next to that field. Ranges (batch ≥ 1 …) are already enforced by ``Workload``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import Field

from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.workload import (
    LORA_TARGETS,
    Engine,
    Method,
    Mode,
    Objective,
    Optimizer,
    Parallel,
    Precision,
    Workload,
)
from advisor.core.memory.formats import is_gguf, kv_bytes_per_element, weight_format
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.schema import Frozen
from advisor.core.support.check import refusals

FOUR_BIT_BASES = ("nf4", "fp4")  # bitsandbytes 4-bit: what QLoRA trains on (Dettmers et al. 2023)
NOT_GGUF_QUANTS = ("nf4", "fp4", "gptq", "awq", "int8", "fp8")  # loaders llama.cpp does not have
LLAMA_CPP_KV = ("q8_0", "q4_0")  # llama.cpp --cache-type-k/-v block types
EIGHT_BIT_OPTIMIZERS = (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT)
SPLIT_SCHEMES = (Parallel.TP, Parallel.PP, Parallel.LAYER_SPLIT)

#: Engines that serve a sequence longer than the model's trained context (``ModelArch.max_context``, the
#: config's max_position_embeddings): TensorRT-LLM sizes an engine by its build's input and output lengths,
#: and NVIDIA's own tables run past that figure — Falcon 180B, whose config there gives
#: max_position_embeddings 2048, at 2,048 prompt + 2,048 generated tokens (docs/source/performance.md at
#: 250d9c29, 'Falcon-180B' config and its 0.9.0 throughput rows), and Llama 2 70B (4,096) at 128 + 4,096
#: (docs/source/blogs/Falcon180B-H200.md at 3c44cb97). Every other engine is held to the model's figure.
RUNS_PAST_TRAINED_CONTEXT = (Engine.TENSORRT_LLM,)


class Problem(Frozen):
    field: str = Field(description="Workload field / CLI flag (without dashes) the problem is about")
    message: str
    support: bool = Field(False, description="The software does not run this on the build's GPUs "
                                             "(``advisor.core.support``), rather than the settings contradicting "
                                             "each other: a verdict on the build, not a usage error")


def _format_problems(w: Workload) -> list[Problem]:
    out: list[Problem] = []
    try:
        weight_format(w.weights, w.quant_group_size, w.double_quant)
    except ValueError as exc:
        out.append(Problem(field="weights", message=str(exc)))
    try:
        kv_bytes_per_element(w.kv_dtype)
    except ValueError as exc:
        out.append(Problem(field="kv_dtype", message=str(exc)))
    if w.mode is Mode.INFERENCE and w.engine.gguf and w.weights.lower() in NOT_GGUF_QUANTS:
        out.append(Problem(field="weights", message=f"llama.cpp cannot load {w.weights} weights; pick a GGUF type "
                                                     "such as q4_k_m, or another engine"))
    if w.mode is Mode.INFERENCE and w.kv_dtype.lower() in LLAMA_CPP_KV and not w.engine.gguf:
        out.append(Problem(field="kv_dtype", message=f"{w.kv_dtype} KV cache is a llama.cpp type; "
                                                      f"{w.engine.label} uses fp16/bf16/fp8"))
    if w.mode is Mode.INFERENCE and is_gguf(w.weights) and w.engine.pooled:
        out.append(Problem(field="weights", message=f"{w.weights} is a GGUF type: run it with llama.cpp"))
    if w.mode is Mode.INFERENCE and w.prompt_tokens is not None and w.prompt_tokens > w.context_len:
        out.append(Problem(field="prompt_tokens", message=f"a {w.prompt_tokens:,}-token prompt does not fit a "
                                                          f"{w.context_len:,}-token context"))
    return out


def _training_problems(arch: ModelArch, w: Workload) -> list[Problem]:
    out: list[Problem] = []
    explicit = w.model_fields_set
    if w.method is Method.QLORA and "weights" in explicit and w.weights.lower() not in FOUR_BIT_BASES:
        out.append(Problem(field="weights", message=f"QLoRA trains on a 4-bit nf4/fp4 base, not {w.weights}"))
    if w.method is Method.FULL and "weights" in explicit and w.weights.lower() not in ("bf16", "fp16", "fp32"):
        out.append(Problem(field="weights", message=f"full fine-tuning updates every weight; a {w.weights} "
                                                     "base cannot be trained (use --method qlora or lora)"))
    if w.method is Method.FULL and w.lora_rank is not None:
        out.append(Problem(field="lora_rank", message="a LoRA rank needs --method lora or qlora"))
    if w.method.litgpt_adapter and "weights" in explicit and w.weights.lower() not in ("bf16", "fp16", *FOUR_BIT_BASES):
        out.append(Problem(field="weights", message=f"LitGPT's adapters train on a 16-bit base or a bitsandbytes "
                                                     f"nf4/fp4 one (--quantize bnb.nf4), not {w.weights}"))
    if w.precompute_ref and w.objective is not Objective.DPO:
        out.append(Problem(field="precompute_ref", message="precomputed reference log-probabilities need "
                                                           "--objective dpo"))
    unknown = sorted(set(w.lora_targets) - set(LORA_TARGETS) - {"all-linear"})
    if w.method is not Method.FULL and unknown:
        out.append(Problem(field="lora_targets", message=f"unknown LoRA targets {', '.join(unknown)}; "
                                                         f"valid: {', '.join(LORA_TARGETS)}, all-linear"))
    if w.precision is Precision.FP32 and w.optimizer in EIGHT_BIT_OPTIMIZERS:
        out.append(Problem(field="optimizer", message="8-bit optimizer states with pure fp32 weights: use "
                                                      "--precision amp or bf16, or a 32-bit optimizer"))
    if w.n_gpus > 1 and w.parallel is Parallel.NONE:
        out.append(Problem(field="parallel", message=f"{w.n_gpus} GPUs need a scheme: ddp, fsdp, zero1-3, tp or pp"))
    if w.seq_len > arch.max_context:
        out.append(Problem(field="seq_len", message=f"{arch.name} takes at most {arch.max_context} tokens"))
    return out


def _inference_problems(arch: ModelArch, w: Workload) -> list[Problem]:
    out: list[Problem] = []
    if w.offload:
        out.append(Problem(field="offload", message="offload is a training option (ZeRO-Offload / FSDP CPU offload)"))
    if w.n_gpus > 1 and w.parallel not in SPLIT_SCHEMES and w.parallel is not Parallel.NONE:
        out.append(Problem(field="parallel", message=f"{w.parallel.value} is a training scheme; for inference "
                                                     "use tp, pp or layer-split"))
    if w.context_len > arch.max_context and w.engine not in RUNS_PAST_TRAINED_CONTEXT:
        out.append(Problem(field="context_len", message=f"{arch.name} takes at most {arch.max_context} tokens"))
    return out


#: The CLI's flags in the messages above, as a sentence says them (the recommendation, the PDF and the window):
#: whole phrases, the one place their words live. A flag no phrase covers: ``message_of`` says it as its words
#: ("--future-flag": "future flag"), the window as the label of the control that sets it.
FLAG_PHRASES: tuple[tuple[str, str], ...] = (
    ("(use --method qlora or lora)", "(choose the LoRA or QLoRA method)"),
    ("needs --method lora or qlora", "applies only to the LoRA and QLoRA methods"),
    ("use --precision amp or bf16", "use amp or bf16 precision"),
    (" (--n-gpus)", ""),
    (" (--quantize bnb.nf4)", ""),
    ("--objective dpo", "the DPO objective"),
)
_FLAG = re.compile(r"--([a-z][a-z0-9-]*)")


def flags_said(text: str, say: Callable[[str], str]) -> str:
    """``text`` with every phrase of ``FLAG_PHRASES`` in words, then each flag left as ``say`` says its name
    ("n-gpus" for ``--n-gpus``)."""
    for flag_text, words in FLAG_PHRASES:
        text = text.replace(flag_text, words)
    return _FLAG.sub(lambda m: say(m.group(1)), text)


def message_of(line: str, flags: bool = False) -> str:
    """A ``field: message`` line of ``check_workload`` (``BuildResult.problems``) without its field name and
    the CLI's flags: the words for a sentence a buyer reads (the recommendation, the PDF). ``flags=True``: the
    flags kept, for a caller that says them its own way (the window names the control that sets each)."""
    field, sep, message = line.partition(": ")
    text = message if sep and field in Workload.model_fields else line
    if flags:
        return text
    return flags_said(text, lambda name: name.replace("-", " "))


def past_trained_context(arch: ModelArch, w: Workload) -> str | None:
    """What an inference job longer than the model's trained context means, where its engine runs it
    (``RUNS_PAST_TRAINED_CONTEXT``): the figures hold, the model's output past that length may not."""
    if w.mode is not Mode.INFERENCE or w.context_len <= arch.max_context or w.engine not in RUNS_PAST_TRAINED_CONTEXT:
        return None
    return (f"{w.context_len:,} tokens per sequence, past the {arch.max_context:,} {arch.name} was trained on: "
            f"{w.engine.label} runs it at these figures, but what the model writes past its trained length is not "
            "what it was trained to write")


def _gpu_problems(arch: ModelArch, w: Workload, build: ResolvedBuild | None) -> list[Problem]:
    out: list[Problem] = []
    if w.n_gpus == 1 and w.parallel is not Parallel.NONE:
        out.append(Problem(field="parallel", message=f"{w.parallel.value} needs 2 or more GPUs (--n-gpus)"))
    if build is not None and w.n_gpus > build.gpu_count:
        out.append(Problem(field="n_gpus", message=f"{build.name} has {build.gpu_count} GPU(s), not {w.n_gpus}"))
    if w.parallel is Parallel.TP and w.n_gpus > 1:
        t = w.n_gpus
        if arch.n_heads % t:
            out.append(Problem(field="n_gpus", message=f"tensor parallel {t} does not divide {arch.n_heads} heads"))
        kv = arch.n_kv_heads
        if arch.attention.kind is not AttentionKind.MLA and kv % t and t % kv:
            out.append(Problem(field="n_gpus", message=f"tensor parallel {t} and {kv} KV heads: neither divides "
                                                       "the other"))
    if w.parallel in (Parallel.PP, Parallel.LAYER_SPLIT) and w.n_gpus > arch.n_layers:
        out.append(Problem(field="n_gpus", message=f"{w.n_gpus} stages for {arch.n_layers} layers"))
    return out


def support_problems(w: Workload, build: ResolvedBuild, n_gpus: int | None = None) -> list[Problem]:
    """What the software cannot run of ``w`` on the GPUs it uses of ``build`` (``advisor.core.support``): its
    first ``n_gpus`` (default: the workload's own count)."""
    used = build.gpus[: n_gpus if n_gpus is not None else w.n_gpus]
    return [Problem(field=r.field, message=r.message, support=True) for r in refusals(w, used)]


def check_workload(arch: ModelArch, workload: Workload, build: ResolvedBuild | None = None,
                   support: bool = True) -> list[Problem]:
    """Every impossible or contradictory setting of ``workload`` (for ``arch`` on ``build``), and (``support``)
    what the software does not run of it on the build's GPUs."""
    out = _format_problems(workload)
    out += _training_problems(arch, workload) if workload.mode is Mode.TRAIN else _inference_problems(arch, workload)
    out += _gpu_problems(arch, workload, build)
    if build is not None and support:
        out += support_problems(workload, build)
    return out
