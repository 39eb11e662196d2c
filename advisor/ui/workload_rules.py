"""Which workload choices apply where: the panel's rules, Qt-free so they are tested alone.

The core says what contradicts itself (``check_workload``); the panel must never lead a user
into it by its own doing (issue 17: switching to training kept q4_k_m and a greyed-out LoRA
rank, then blamed the user). These rules say which weights and KV types each mode, method
and engine takes, and what the panel puts in place of a choice an engine cannot run.
"""

from __future__ import annotations

from advisor.core.estimate.job_checks import (
    FOUR_BIT_BASES,
    LLAMA_CPP_KV,
    NOT_GGUF_QUANTS,
)
from advisor.core.job.workload import (
    ActivationQuant,
    Engine,
    Loss,
    Method,
    Mode,
    Objective,
    OptimizerKernel,
    Precision,
)
from advisor.core.memory.formats import is_gguf

WEIGHT_FORMATS = ("bf16", "fp16", "fp32", "fp8", "int8", "nf4", "fp4", "gptq", "awq", "q8_0", "q6_k", "q5_k_m",
                  "q4_k_m", "q3_k_m", "iq4_xs")
KV_DTYPES = ("bf16", "fp16", "fp32", "fp8", "q8_0", "q4_0")

#: The base a LoRA adapter trains on: a frozen 16/32-bit or LLM.int8() base (PEFT); QLoRA's
#: is 4-bit bitsandbytes (Dettmers et al. 2023, arXiv:2305.14314).
LORA_BASES = ("bf16", "fp16", "fp32", "int8")
QLORA_BASES = FOUR_BIT_BASES
#: LitGPT's adapters train on its 16-bit model or a bitsandbytes 4-bit one (``--quantize bnb.nf4``).
ADAPTER_BASES = ("bf16", "fp16", *FOUR_BIT_BASES)

#: What each kind of weights starts as when first chosen: a trainable 16-bit base, or NF4.
DEFAULT_WEIGHTS = {Mode.INFERENCE: "bf16", Method.LORA: "bf16", Method.QLORA: "nf4", Method.ADAPTER: "bf16",
                   Method.ADAPTER_V2: "bf16"}

#: The training objective in a buyer's words (the Objective box), in the core's order.
OBJECTIVE_WORDS = {
    Objective.SFT: "Instruction tuning (SFT)",
    Objective.DPO: "Preference tuning (DPO)",
    Objective.ORPO: "Preference tuning (ORPO)",
    Objective.REWARD: "Reward model",
}



#: The loss implementation in words; None is the framework's own choice.
LOSS_WORDS = {
    None: "framework default",
    Loss.FP32_LOGITS: "full logits + fp32 copy",
    Loss.UPCAST: "full logits",
    Loss.CHUNKED: "chunked",
    Loss.FUSED: "fused (Liger)",
}

#: What saved activations are stored in (``--activation-quant``).
ACTIVATION_QUANT_WORDS = {
    ActivationQuant.NONE: "16-bit (as computed)",
    ActivationQuant.FP8: "8-bit float (FP8)",
    ActivationQuant.INT8: "8-bit integer",
}

#: PyTorch AdamW's implementation (OptimizerKernel), in the framework's hands unless chosen.
OPTIMIZER_KERNEL_WORDS = {
    None: "framework default",
    OptimizerKernel.FUSED: "fused",
    OptimizerKernel.FOREACH: "foreach",
}

#: TensorRT-LLM versions offered in the window (``Workload.engine_version``; the versions whose kernels differ:
#: ``core.job.engine_versions``), as (words, value); "" is a current one (no version named).
TRT_LLM_VERSIONS = (("current (0.10 or later)", ""), ("0.9", "0.9"), ("0.8", "0.8"), ("0.7", "0.7"),
                    ("0.6", "0.6"), ("0.5", "0.5"))

#: A switch the framework may set: its default, on or off.
SWITCH_WORDS = {None: "framework default", True: "on", False: "off"}


def weights_key(mode: Mode, method: Method) -> Mode | Method:
    """Whose weights the Weights box shows: inference's, or the training method's base."""
    return Mode.INFERENCE if mode is Mode.INFERENCE else method


def base_choices(key: Mode | Method, precision: Precision = Precision.AMP) -> tuple[str, ...]:
    """The weights listed for ``key``. Full fine-tuning has one: the format it trains in."""
    if key is Mode.INFERENCE:
        return WEIGHT_FORMATS
    if key is Method.FULL:
        return ("fp32",) if precision is Precision.FP32 else ("bf16",)
    if key in (Method.ADAPTER, Method.ADAPTER_V2):
        return ADAPTER_BASES
    return LORA_BASES if key is Method.LORA else QLORA_BASES


def allowed_weights(engine: Engine, weights: str) -> bool:
    """Whether ``engine`` loads weights of this format (the core's checks, asked in advance)."""
    w = weights.lower()
    if engine is Engine.LLAMA_CPP:
        return w not in NOT_GGUF_QUANTS
    if engine is Engine.VLLM:
        return not is_gguf(w)
    return True


def allowed_kv(engine: Engine, kv_dtype: str) -> bool:
    """llama.cpp's block-quantized caches only on llama.cpp."""
    return engine is Engine.LLAMA_CPP or kv_dtype.lower() not in LLAMA_CPP_KV


def _nearest_weights(engine: Engine, weights: str) -> str:
    w = weights.lower()
    if engine is Engine.LLAMA_CPP:  # the GGUF type of about the same size
        return "q8_0" if w in ("int8", "fp8") else "q4_k_m"
    return "int8" if w in ("q8_0", "q6_k") else "awq"  # vLLM's quantized formats of about the same size


def fix_for_engine(engine: Engine, weights: str, kv_dtype: str) -> tuple[str, str, str]:
    """(weights, kv_dtype, note): choices ``engine`` runs, and a sentence for what was changed."""
    notes = []
    if not allowed_weights(engine, weights):
        new = _nearest_weights(engine, weights)
        notes.append(f"Weights set to {new}: {engine.value} does not load {weights}.")
        weights = new
    if not allowed_kv(engine, kv_dtype):
        new = "fp8" if engine is Engine.VLLM else "bf16"
        notes.append(f"KV cache type set to {new}: {kv_dtype} is a llama.cpp cache type.")
        kv_dtype = new
    return weights, kv_dtype, " ".join(notes)
