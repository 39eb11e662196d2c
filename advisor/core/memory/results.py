"""Memory results: peak per GPU by term, plus host RAM (bytes)."""

from __future__ import annotations

from operator import itemgetter

from pydantic import Field, computed_field

from advisor.core.schema import Frozen
from advisor.core.terms import MEMORY_TERMS

_TERM_VALUES = itemgetter(*MEMORY_TERMS)  # the terms' values from a breakdown's fields, in MEMORY_TERMS order


class MemoryBreakdown(Frozen):
    """Peak memory of one GPU (the busiest one), by term, in bytes; plus host RAM."""

    weights: float = Field(0.0, ge=0)
    reference_weights: float = Field(0.0, ge=0, description="DPO: the frozen reference model's weights")
    kv_cache: float = Field(0.0, ge=0)
    activations: float = Field(0.0, ge=0)
    gradients: float = Field(0.0, ge=0)
    optimizer: float = Field(0.0, ge=0)
    adapters: float = Field(0.0, ge=0, description="LoRA adapter weights (their grads/optimizer are in those terms)")
    buffers: float = Field(0.0, ge=0, description="Transient buffers: logits, dequantized layers, comm buckets")
    allocator: float = Field(0.0, ge=0, description="Reserved by PyTorch's caching allocator beyond what is allocated")
    runtime: float = Field(0.0, ge=0, description="Outside the framework allocator: CUDA context, NCCL, workspaces")
    host: float = Field(0.0, ge=0, description="Host RAM the job needs (offload, pinned buffers, loading)")
    disk: float = Field(0.0, ge=0, description="NVMe space the job needs (ZeRO-Infinity offload)")
    paged: float = Field(0.0, ge=0, description="Of the optimizer term: states in CUDA managed memory (bitsandbytes "
                                                "paged optimizers: functional.get_paged), outside PyTorch's "
                                                "caching allocator")
    phases: tuple[tuple[str, float], ...] = Field((), description="Training: (phase, allocated bytes), peak first")

    @computed_field  # type: ignore[prop-decorator]  # mypy does not take decorators over @property; pydantic's docs say to ignore it
    @property
    def total(self) -> float:
        """What the device needs: every term, the allocator's cache and the runtime included."""
        # Read once for each plan a search probes: one itemgetter call, no getattr per term.
        values: tuple[float, ...] = _TERM_VALUES(self.__dict__)
        return sum(values)

    @property
    def peak_allocated(self) -> float:
        """What ``torch.cuda.max_memory_allocated`` would report: the terms inside the allocator (paged
        optimizer states live in CUDA unified memory, which the allocator never sees)."""
        return self.total - self.allocator - self.runtime - self.paged

    @property
    def peak_reserved(self) -> float:
        """What ``torch.cuda.max_memory_reserved`` would report: allocated plus the allocator's cache."""
        return self.total - self.runtime - self.paged


class MemoryResult(Frozen):
    breakdown: MemoryBreakdown = Field(description="Busiest GPU's peak by term, plus host RAM")
    sizes: MemoryBreakdown | None = Field(
        None, description="Training: each term at its full size, whether or not alive at the peak")
    assumptions: tuple[str, ...] = ()
    kv_capacity_tokens: float | None = Field(
        None, description="vLLM: tokens the pre-allocated KV cache holds (None when the card size is unknown)")
    params_total: float = Field(0.0, ge=0)
    params_trainable: float = Field(0.0, ge=0)
