"""The rules of a job's settings, in one place: which apply (read from their declarations,
``advisor.core.job.settings``), which weights each training method trains on and each engine loads,
and what a switch of mode, method or engine puts back.

``check_job`` and ``check_planned`` (``job_checks``) reports the contradictions; the command line turns ``ignored``
into flag errors; the window greys what does not apply (``settings.why_not``), lists only the
weights a method or engine takes, and settles a switch with ``settled`` and ``fit_to_engine``.
"""

from __future__ import annotations

from pydantic import Field

from advisor.core.job.choices import Engine, Method, Mode, Precision
from advisor.core.job.job import Job
from advisor.core.job.settings import SETTINGS, applies, reason_words, setting, why_not
from advisor.core.job.settings.task import FOUR_BIT
from advisor.core.memory.format_words import format_words, kv_words
from advisor.core.memory.formats import LLAMA_CPP_KV, is_exl2, is_gguf, weight_format
from advisor.core.schema import Frozen

FOUR_BIT_BASES = FOUR_BIT  # bitsandbytes 4-bit: what QLoRA trains on (Dettmers et al. 2023)
NOT_GGUF_QUANTS = ("nf4", "fp4", "gptq", "gptq-int8", "awq", "int8", "fp8")  # loaders llama.cpp does not have
#: ExLlamaV2 loads its own EXL2 format (any bits per weight, ``Nbpw``), 4-bit GPTQ and unquantized 16-bit models
#: (turboderp-org/exllamav2 README, "EXL2 quantization": "ExLlamaV2 supports the same 4-bit GPTQ models as V1, but
#: also a new EXL2 format"); no other engine here loads EXL2.
EXLLAMAV2_WEIGHTS = ("bf16", "fp16", "gptq")
#: Full fine-tuning updates every weight in a float format.
FULL_BASES = ("bf16", "fp16", "fp32")
#: The base a LoRA adapter trains on: a frozen 16/32-bit or LLM.int8() base (PEFT); QLoRA's is 4-bit
#: bitsandbytes (Dettmers et al. 2023, arXiv:2305.14314).
LORA_BASES = ("bf16", "fp16", "fp32", "int8")
QLORA_BASES = FOUR_BIT_BASES
#: LitGPT's adapters train on its 16-bit model or a bitsandbytes 4-bit one (``--quantize bnb.nf4``).
ADAPTER_BASES = ("bf16", "fp16", *FOUR_BIT_BASES)
#: What each kind of weights (inference's, each method's base) starts as when first chosen.
DEFAULT_WEIGHTS = {Mode.INFERENCE: "bf16", Method.LORA: "bf16", Method.QLORA: "nf4", Method.ADAPTER: "bf16",
                   Method.ADAPTER_V2: "bf16"}


class Problem(Frozen):
    field: str = Field(description="Job field / CLI flag (without dashes) the problem is about")
    message: str
    support: bool = Field(False, description="The software does not run this on the build's GPUs "
                                             "(``advisor.core.support``), rather than the settings contradicting "
                                             "each other: a verdict on the build, not a usage error")


# --- weights per method and per engine --------------------------------------------------------


def weights_key(mode: Mode, method: Method) -> Mode | Method:
    """Whose weights the job's weights are: inference's, or the training method's base. Each keeps its
    own choice across a switch (a QLoRA base is never carried into inference)."""
    return Mode.INFERENCE if mode is Mode.INFERENCE else method


def weights_choices(key: Mode | Method, precision: Precision = Precision.AMP) -> tuple[str, ...]:
    """The weights offered for ``key``. Full fine-tuning has one: the format it trains in."""
    if key is Mode.INFERENCE:
        return setting_values("weights")
    if key is Method.FULL:
        return ("fp32",) if precision is Precision.FP32 else ("bf16",)
    if key in (Method.ADAPTER, Method.ADAPTER_V2):
        return ADAPTER_BASES
    return LORA_BASES if key is Method.LORA else QLORA_BASES


def setting_values(name: str) -> tuple[str, ...]:
    return tuple(str(c.value) for c in setting(name).choices)


def engine_loads(engine: Engine, weights: str) -> bool:
    """Whether ``engine`` loads weights of this format: llama.cpp and Ollama only GGUF types (and 16/32-bit),
    the engines with a pre-allocated pool no GGUF type, ExLlamaV2 EXL2, 4-bit GPTQ and 16-bit (``EXLLAMAV2_WEIGHTS``),
    and EXL2 no other engine."""
    w = weights.strip().lower()
    if engine is Engine.EXLLAMAV2:
        return w in EXLLAMAV2_WEIGHTS or is_exl2(w)
    if is_exl2(w):
        return False
    if engine.gguf:
        return w not in NOT_GGUF_QUANTS
    return not (engine.pooled and is_gguf(w))


def engine_caches(engine: Engine, kv_dtype: str) -> bool:
    """llama.cpp's block-quantized KV caches only on llama.cpp and Ollama."""
    return engine.gguf or kv_dtype.strip().lower() not in LLAMA_CPP_KV


#: Bits per weight from which a quantized format is taken for an 8-bit one (Q6_K at 6.56, Q5_K_M at 5.7 is 4-bit's).
EIGHT_BIT_FROM = 6.0


def _nearest_weights(engine: Engine, weights: str) -> str:
    """The engine's own quantized format of about the size of ``weights`` (one the engine does not load)."""
    try:
        eight_bit = weight_format(weights).bits_per_weight >= EIGHT_BIT_FROM
    except ValueError:
        eight_bit = False
    if engine is Engine.EXLLAMAV2:  # EXL2 at about the same size
        return "8.0bpw" if eight_bit else "4.0bpw"
    if engine.gguf:  # the GGUF type of about the same size
        return "q8_0" if eight_bit else "q4_k_m"
    return "int8" if eight_bit else "awq"  # the pooled engines' quantized formats of about that size


def fit_to_engine(engine: Engine, weights: str, kv_dtype: str) -> tuple[str, str, str]:
    """(weights, kv_dtype, note): what a switch to ``engine`` puts in place of choices it cannot run, and a
    sentence for what changed ('' when nothing did)."""
    notes = []
    if not engine_loads(engine, weights):
        new = _nearest_weights(engine, weights)
        notes.append(f"Weights set to {format_words(new)}: {engine.label} does not load {format_words(weights)}.")
        weights = new
    if not engine_caches(engine, kv_dtype):
        new = "fp8" if engine.pooled else "bf16"
        notes.append(f"KV cache type set to {kv_words(new)}: {kv_words(kv_dtype)} is a llama.cpp cache type.")
        kv_dtype = new
    return weights, kv_dtype, " ".join(notes)


# --- what applies -----------------------------------------------------------------------------


def ignored(job: Job, given: set[str] | frozenset[str] | tuple[str, ...]) -> list[Problem]:
    """The settings of ``given`` that ``job`` would ignore (they do not apply to it), each said as the
    command line says it ('only applies to --method lora or qlora'): a flag typed for nothing is refused."""
    out = []
    for s in SETTINGS:
        reason = why_not(s, job) if s.name in given else None
        if reason is not None:
            out.append(Problem(field=s.name, message=reason_words(reason, flags=True)))
    return out


def settled(job: Job) -> Job:
    """``job`` with each setting that a switch puts back (``Setting.resets``) at its default where it no
    longer applies: a LoRA rank after a switch to full fine-tuning, a TensorRT-LLM version after a switch of
    engine. Other settings keep their value while they do not apply, so that switching back finds them."""
    drop = {s.name for s in SETTINGS if s.resets and s.name in job.model_fields_set and not applies(s, job)}
    if not drop:
        return job
    return Job.model_validate({k: getattr(job, k) for k in job.model_fields_set - drop})
