"""Memory results: peak per GPU by term, plus host RAM (bytes)."""

from __future__ import annotations

from pydantic import Field, computed_field

from advisor.core.schema import Frozen

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


class MemoryResult(Frozen):
    breakdown: MemoryBreakdown = Field(description="Busiest GPU's peak by term, plus host RAM")
    assumptions: tuple[str, ...] = ()
    kv_capacity_tokens: float | None = Field(
        None, description="vLLM: tokens the pre-allocated KV cache holds (None when the card size is unknown)")
    params_total: float = Field(0.0, ge=0)
    params_trainable: float = Field(0.0, ge=0)
