"""What an estimate returns: memory per GPU, host memory, speed, fit and assumptions.

All memory is in bytes (``*_bytes``); ``advisor.core.units`` converts for display.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, computed_field

from advisor.core.hardware import Frozen

MEMORY_TERMS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "buffers", "runtime")


class MemoryBreakdown(Frozen):
    """Peak memory of one GPU (the busiest one), by term, in bytes; plus host RAM."""

    weights: float = Field(0.0, ge=0)
    kv_cache: float = Field(0.0, ge=0)
    activations: float = Field(0.0, ge=0)
    gradients: float = Field(0.0, ge=0)
    optimizer: float = Field(0.0, ge=0)
    adapters: float = Field(0.0, ge=0, description="LoRA adapter weights (their grads/optimizer are in those terms)")
    buffers: float = Field(0.0, ge=0, description="Transient buffers: logits, dequantized layers, comm buckets")
    runtime: float = Field(0.0, ge=0, description="Outside the framework allocator: CUDA context, workspaces")
    host: float = Field(0.0, ge=0, description="Host RAM the job needs (offload, pinned buffers, loading)")

    @computed_field
    @property
    def total(self) -> float:
        return sum(getattr(self, t) for t in MEMORY_TERMS)


class Bottleneck(StrEnum):
    MEMORY_CAPACITY = "memory capacity"
    MEMORY_BANDWIDTH = "memory bandwidth"
    COMPUTE = "compute"
    INTERCONNECT = "interconnect"
    HOST_OFFLOAD = "host offload"


class SpeedEstimate(Frozen):
    decode_tokens_per_s: float | None = Field(None, description="Generated tokens/s, all sequences together")
    prefill_tokens_per_s: float | None = None
    time_to_first_token_s: float | None = None
    train_tokens_per_s: float | None = None
    step_time_s: float | None = None
    interconnect_share: float = Field(0.0, ge=0, le=1, description="Share of time spent on GPU-to-GPU traffic")
    bottleneck: Bottleneck | None = None
    notes: tuple[str, ...] = ()


class Fit(Frozen):
    fits: bool
    need_per_gpu_bytes: float = Field(ge=0)
    usable_per_gpu_bytes: float = Field(ge=0)
    host_need_bytes: float = Field(0.0, ge=0)
    host_available_bytes: float | None = None
    reason: str = ""

    @computed_field
    @property
    def headroom_bytes(self) -> float:
        return self.usable_per_gpu_bytes - self.need_per_gpu_bytes


class RuleOfThumb(Frozen):
    """The seeds' rules of thumb, for comparison with the detailed estimate."""

    total_bytes: float = Field(ge=0)
    rule: str
    why_different: str = ""


class Estimate(Frozen):
    memory: MemoryBreakdown
    speed: SpeedEstimate
    fit: Fit | None = None
    rule_of_thumb: RuleOfThumb | None = None
    params_total: float = Field(ge=0)
    params_trainable: float = Field(ge=0)
    assumptions: tuple[str, ...] = ()
