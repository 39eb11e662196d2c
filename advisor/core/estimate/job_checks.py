"""Settings that are impossible or contradict each other, each blamed on one workload field.

Each problem names its field; the CLI says it as the field's flag, the window as the label of the
control that sets it (both from the setting's declaration, ``advisor.core.job.settings``). Ranges
(batch ≥ 1 …) are already enforced by ``Workload``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.core.estimate.job_rules import (
    ADAPTER_BASES,
    FOUR_BIT_BASES,
    FULL_BASES,
    LLAMA_CPP_KV,
    NOT_GGUF_QUANTS,
    Problem,
    engine_caches,
    engine_loads,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.settings import applies, by_flag, choice_label
from advisor.core.job.workload import (
    LORA_TARGETS,
    Engine,
    Method,
    Mode,
    Optimizer,
    Parallel,
    Precision,
    Workload,
)
from advisor.core.memory.format_words import format_words, kv_words
from advisor.core.memory.formats import kv_bytes_per_element, weight_format
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.speed.flops import generation

__all__ = ["FOUR_BIT_BASES", "LLAMA_CPP_KV", "NOT_GGUF_QUANTS", "Problem", "check_workload", "message_of",
           "past_trained_context"]

EIGHT_BIT_OPTIMIZERS = (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT)
SPLIT_SCHEMES = (Parallel.TP, Parallel.PP, Parallel.LAYER_SPLIT)

#: CUDA compute capability of an NVIDIA architecture family, the first word of ``Gpu.architecture`` (the
#: lowest of the family): Pascal 6.0, Volta 7.0, Turing 7.5 (CUDA C++ Programming Guide, "Compute
#: Capabilities"); Ampere 8.0, Ada 8.9, Hopper 9.0, Blackwell 10.0 (TransformerEngine support matrix,
#: nvidia.github.io/TransformerEngine/support_matrix.html).
COMPUTE_CAPABILITY = {"Pascal": 6.0, "Volta": 7.0, "Turing": 7.5, "Ampere": 8.0, "Ada": 8.9, "Hopper": 9.0,
                      "Blackwell": 10.0}
#: The oldest NVIDIA card each engine runs FP8 weights on, and why. vLLM: FP8 computation from compute
#: capability 8.9, and FP8 models run from 7.5 (Turing) as weight-only W8A16 through FP8 Marlin (vLLM docs,
#: features/quantization/fp8: "FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16,
#: utilizing FP8 Marlin"). transformers: its fine-grained FP8 needs compute capability 9.0 (transformers docs,
#: quantization/finegrained_fp8, v4.49 to v5.14: "You need a GPU with Compute Capability>=9 (H100)").
#: TensorRT-LLM: FP8 on Ada Lovelace (SM89), Hopper and Blackwell; Ampere's precisions are FP32, FP16, BF16,
#: INT8 and INT4 (docs/source/reference/support-matrix.md at 9b062a83, 'Precision').
FP8_MIN_COMPUTE_CAPABILITY = {Engine.VLLM: 7.5, Engine.TRANSFORMERS: 9.0, Engine.TENSORRT_LLM: 8.9}
#: Engines that serve a sequence longer than the model's trained context (``ModelArch.max_context``, the
#: config's max_position_embeddings): TensorRT-LLM sizes an engine by its build's input and output lengths,
#: and NVIDIA's own tables run past that figure — Falcon 180B, whose config there gives
#: max_position_embeddings 2048, at 2,048 prompt + 2,048 generated tokens (docs/source/performance.md at
#: 250d9c29, 'Falcon-180B' config and its 0.9.0 throughput rows), and Llama 2 70B (4,096) at 128 + 4,096
#: (docs/source/blogs/Falcon180B-H200.md at 3c44cb97). Every other engine is held to the model's figure.
RUNS_PAST_TRAINED_CONTEXT = (Engine.TENSORRT_LLM,)
#: Engines that run on one GPU vendor's cards only. TensorRT-LLM: "optimizes the performance of ... models on
#: NVIDIA GPUs", its hardware list names NVIDIA architectures only and it "requires Linux x86_64 or Linux
#: aarch64" (docs/source/reference/support-matrix.md at 9b062a83). Other engines run on several vendors'
#: cards (vLLM: CUDA, ROCm, Intel GPUs, Apple's through vLLM-Metal) and are not judged here.
VENDOR_ONLY = {Engine.TENSORRT_LLM: "NVIDIA"}


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
    if w.mode is Mode.INFERENCE and not engine_loads(w.engine, w.weights):
        weights = format_words(w.weights)
        message = (f"llama.cpp cannot load {weights} weights; pick a GGUF type such as Q4_K_M, or another engine"
                   if w.engine.gguf else f"{weights} is a GGUF type: run it with llama.cpp")
        out.append(Problem(field="weights", message=message))
    if w.mode is Mode.INFERENCE and not engine_caches(w.engine, w.kv_dtype):
        out.append(Problem(field="kv_dtype", message=f"{kv_words(w.kv_dtype)} KV cache is a llama.cpp type; "
                                                      f"{w.engine.label} uses FP16, BF16 or FP8"))
    if w.mode is Mode.INFERENCE and w.prompt_tokens is not None and w.prompt_tokens > w.context_len:
        out.append(Problem(field="prompt_tokens", message=f"a {w.prompt_tokens:,}-token prompt does not fit a "
                                                          f"{w.context_len:,}-token context"))
    return out


def _training_problems(arch: ModelArch, w: Workload) -> list[Problem]:
    out: list[Problem] = []
    explicit = w.model_fields_set
    if w.method is Method.QLORA and "weights" in explicit and w.weights.lower() not in FOUR_BIT_BASES:
        out.append(Problem(field="weights", message=f"QLoRA trains on a 4-bit NF4 or FP4 base, not "
                                                     f"{format_words(w.weights)}"))
    if w.method is Method.FULL and "weights" in explicit and w.weights.lower() not in FULL_BASES:
        out.append(Problem(field="weights", message="full fine-tuning updates every weight; a "
                                                     f"{format_words(w.weights)} base cannot be trained "
                                                     "(use --method qlora or lora)"))
    if w.method.litgpt_adapter and "weights" in explicit and w.weights.lower() not in ADAPTER_BASES:
        out.append(Problem(field="weights", message=f"LitGPT's adapters train on a 16-bit base or a bitsandbytes "
                                                     "NF4 or FP4 one (--quantize bnb.nf4), not "
                                                     f"{format_words(w.weights)}"))
    unknown = sorted(set(w.lora_targets) - set(LORA_TARGETS) - {"all-linear"})
    if w.method is not Method.FULL and unknown:
        out.append(Problem(field="lora_targets", message=f"unknown LoRA targets {', '.join(unknown)}; "
                                                         f"valid: {', '.join(LORA_TARGETS)}, all-linear"))
    if w.precision is Precision.FP32 and w.optimizer in EIGHT_BIT_OPTIMIZERS:
        out.append(Problem(field="optimizer", message="8-bit optimizer states with pure fp32 weights: use "
                                                      "--precision amp or bf16, or a 32-bit optimizer"))
    if w.n_gpus > 1 and w.parallel is Parallel.NONE:
        out.append(Problem(field="parallel", message=f"{w.n_gpus} GPUs need a scheme: ddp, fsdp, zero1-3, tp or pp"))
    return out


def _inference_problems(arch: ModelArch, w: Workload) -> list[Problem]:
    out: list[Problem] = []
    if w.offload and not applies("offload", w):
        out.append(Problem(field="offload", message="offload is a training option (ZeRO-Offload / FSDP CPU offload)"))
    if w.n_gpus > 1 and w.parallel not in SPLIT_SCHEMES and w.parallel is not Parallel.NONE:
        scheme = choice_label("parallel", w.parallel)
        out.append(Problem(field="parallel", message=f"{scheme} is a training scheme; for inference use tp, pp or "
                                                     "layer-split"))
    if w.context_len > arch.max_context and w.engine not in RUNS_PAST_TRAINED_CONTEXT:
        out.append(Problem(field="context_len", message=f"{arch.name} takes at most {arch.max_context} tokens"))
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
    """A ``field: message`` line of ``check_workload`` (``BuildResult.problems``) without its field name and
    the CLI's flags: the words for a sentence a buyer reads (the recommendation, the PDF). ``flags=True``: the
    flags kept, for a caller that says them its own way (the window names the control that sets each)."""
    field, sep, message = line.partition(": ")
    text = message if sep and field in Workload.model_fields else line
    if flags:
        return text
    return flags_said(text, lambda name: _lower_first(flag_label(name)))


def _lower_first(label: str) -> str:
    """'Precision' → 'precision' in a sentence; 'GPUs used' and 'KV cache type' keep their capitals."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def past_trained_context(arch: ModelArch, w: Workload) -> str | None:
    """What a job longer than the model's trained context means where it runs: an inference engine that serves
    it (``RUNS_PAST_TRAINED_CONTEXT``), or long-context fine-tuning, which trains a model past its trained
    length on purpose (Position Interpolation, Chen et al. 2023, arXiv:2306.15595, fine-tunes Llama from 2,048 to
    32,768 tokens; LongLoRA, arXiv:2309.12307): the figures hold, the model's output past that length is not
    what it was trained to write until the fine-tune (with its position scaling raised) teaches it."""
    if w.mode is Mode.TRAIN:
        if w.seq_len <= arch.max_context:
            return None
        return (f"{w.seq_len:,}-token training sequences, past the {arch.max_context:,} {arch.name} was trained on: "
                "long-context fine-tuning, which needs the model's position scaling (RoPE) raised to match; the "
                "memory and speed are for these sequences")
    if w.context_len <= arch.max_context or w.engine not in RUNS_PAST_TRAINED_CONTEXT:
        return None
    return (f"{w.context_len:,} tokens per sequence, past the {arch.max_context:,} {arch.name} was trained on: "
            f"{w.engine.label} runs it at these figures, but what the model writes past its trained length is not "
            "what it was trained to write")


def _gpu_problems(arch: ModelArch, w: Workload, build: ResolvedBuild | None) -> list[Problem]:
    out: list[Problem] = []
    if w.n_gpus == 1 and w.parallel is not Parallel.NONE:
        scheme = choice_label("parallel", w.parallel)
        out.append(Problem(field="parallel", message=f"{scheme} needs 2 or more GPUs (--gpus)"))
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
    if build is not None and w.mode is Mode.INFERENCE:
        out += _vendor_problems(w, build)
        if w.weights.lower() == "fp8":
            out += _fp8_problems(w, build)
    return out


def _vendor_problems(w: Workload, build: ResolvedBuild) -> list[Problem]:
    """A card of another vendor than the engine runs on (``VENDOR_ONLY``)."""
    vendor = VENDOR_ONLY.get(w.engine)
    other = next((g for g in build.gpus[: w.n_gpus] if vendor is not None and g.vendor != vendor), None)
    if other is None:
        return []
    what = "a CPU" if other.vendor == "CPU" else f"{'an' if other.vendor[0] in 'AEIOU' else 'a'} {other.vendor} GPU"
    return [Problem(field="engine", message=f"{w.engine.label} runs on {vendor} GPUs only; the {other.name} is "
                                            f"{what}: choose another engine, such as llama.cpp")]


def _fp8_problems(w: Workload, build: ResolvedBuild) -> list[Problem]:
    """FP8 weights on an NVIDIA card older than the engine runs them on (``FP8_MIN_COMPUTE_CAPABILITY``);
    engines and vendors without a sourced figure are not judged."""
    need = FP8_MIN_COMPUTE_CAPABILITY.get(w.engine)
    if need is None:
        return []
    oldest = next(f for f, c in COMPUTE_CAPABILITY.items() if c == need)
    for g in build.gpus[: w.n_gpus]:
        family = generation(g.architecture)
        cc = COMPUTE_CAPABILITY.get(family) if g.vendor == "NVIDIA" else None
        if cc is not None and cc < need:
            return [Problem(field="weights", message=f"{w.engine.label} runs FP8 weights on {oldest} or newer NVIDIA GPUs "
                                                     f"(compute capability {need:.1f}); the {g.name} is {family} "
                                                     f"({cc:.1f}): pick 8-bit integer or 4-bit weights")]
    return []


def check_workload(arch: ModelArch, workload: Workload, build: ResolvedBuild | None = None) -> list[Problem]:
    """Every impossible or contradictory setting of ``workload`` (for ``arch`` on ``build``)."""
    out = _format_problems(workload)
    out += _training_problems(arch, workload) if workload.mode is Mode.TRAIN else _inference_problems(arch, workload)
    out += _gpu_problems(arch, workload, build)
    return out
