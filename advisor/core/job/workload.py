"""Workloads: what the user wants to run (inference) or train, and how.

One ``Workload`` model holds every setting with its default; the fields that do not apply
to the mode are ignored by the estimator (and listed as such in its assumptions). Values
are the CLI's spellings, so flags, the comparison file and the UI share one vocabulary.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from advisor.core.schema import Frozen


class Mode(StrEnum):
    INFERENCE = "inference"
    TRAIN = "train"


class Method(StrEnum):
    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"


class Precision(StrEnum):
    AMP = "amp"  # bf16 compute, fp32 master weights (Micikevicius et al. 2018)
    BF16 = "bf16"  # pure bf16 weights, grads and optimizer states
    FP32 = "fp32"


class Optimizer(StrEnum):
    ADAMW = "adamw"
    ADAMW_8BIT = "adamw-8bit"
    PAGED_ADAMW = "paged-adamw"
    PAGED_ADAMW_8BIT = "paged-adamw-8bit"
    SGD = "sgd"
    ADAFACTOR = "adafactor"


class Checkpointing(StrEnum):
    NONE = "none"
    SELECTIVE = "selective"
    FULL = "full"


class AttentionImpl(StrEnum):
    EAGER = "eager"
    SDPA = "sdpa"
    FLASH = "flash"


class Engine(StrEnum):
    TRANSFORMERS = "transformers"
    VLLM = "vllm"
    LLAMA_CPP = "llama.cpp"


class Parallel(StrEnum):
    NONE = "none"
    DDP = "ddp"
    ZERO1 = "zero1"
    ZERO2 = "zero2"
    ZERO3 = "zero3"
    FSDP = "fsdp"  # FULL_SHARD
    FSDP_GRAD_OP = "fsdp-grad-op"  # SHARD_GRAD_OP
    FSDP_NO_SHARD = "fsdp-no-shard"
    TP = "tp"
    PP = "pp"
    LAYER_SPLIT = "layer-split"  # accelerate device_map="auto" / llama.cpp --split-mode layer


class Offload(StrEnum):
    OPTIMIZER = "optimizer"
    PARAMS = "params"


LORA_TARGETS = ("q", "k", "v", "o", "gate", "up", "down")


class Workload(Frozen):
    """Every setting of one estimate. Defaults: bf16 inference of one sequence."""

    mode: Mode = Mode.INFERENCE
    # --- inference
    weights: str = Field("bf16", description="Weight format: fp32 bf16 fp16 fp8 int8 nf4 fp4 gptq awq or a GGUF type (q4_k_m)")
    double_quant: bool = Field(False, description="bitsandbytes double quantization of NF4/FP4 constants")
    quant_group_size: int = Field(128, ge=1, description="GPTQ/AWQ group size")
    kv_dtype: str = Field("bf16", description="KV cache element type: fp32 bf16 fp16 fp8 q8_0 q4_0")
    context_len: int = Field(4096, ge=1, le=10_000_000, description="Tokens per sequence (prompt + output)")
    batch: int = Field(1, ge=1, le=100_000, description="Concurrent sequences (inference) or micro-batch (training)")
    engine: Engine = Engine.TRANSFORMERS
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1, description="vLLM's share of the card it pre-allocates")
    # --- training
    method: Method = Method.FULL
    precision: Precision = Precision.AMP
    optimizer: Optimizer = Optimizer.ADAMW
    lora_rank: int | None = Field(None, ge=1, le=65536)
    lora_targets: tuple[str, ...] = ("q", "k", "v", "o", "gate", "up", "down")
    seq_len: int = Field(2048, ge=1, le=10_000_000, description="Training sequence length, tokens")
    grad_accum_steps: int = Field(1, ge=1)
    checkpointing: Checkpointing = Checkpointing.NONE
    attention: AttentionImpl = AttentionImpl.FLASH
    # --- hardware use
    n_gpus: int = Field(1, ge=1, le=100_000, description="GPUs the job uses")
    parallel: Parallel = Parallel.NONE
    offload: tuple[Offload, ...] = ()

    @property
    def lora_rank_effective(self) -> int:
        """LoRA rank used for LoRA/QLoRA (16 when not set: the PEFT/QLoRA examples' common choice)."""
        return self.lora_rank or 16
