"""Speed results: tokens/s, the bottleneck, time lost to GPU-to-GPU traffic."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from pydantic import Field

from advisor.core.schema import Frozen


class Bottleneck(StrEnum):
    MEMORY_CAPACITY = "memory capacity"
    MEMORY_BANDWIDTH = "memory bandwidth"
    COMPUTE = "compute"
    INTERCONNECT = "interconnect"
    HOST_OFFLOAD = "host offload"
    HOST_CPU = "host CPU"  # the engine's per-token host work (or its kernel launches, one by one) binds the step


class DecodeStep(NamedTuple):
    """One decode step: its seconds, the time its reads and its FLOPs take, its GPU-to-GPU traffic, and whether the
    host's work (its per-token overhead, or launching the kernels one by one) binds it rather than the GPUs'."""

    seconds: float
    memory_s: float
    compute_s: float
    comm_s: float
    host_bound: bool = False


class SpeedEstimate(Frozen):
    decode_tokens_per_s: float | None = Field(None, description="Generated tokens/s, all sequences together")
    prefill_tokens_per_s: float | None = None
    time_to_first_token_s: float | None = None
    request_s: float | None = Field(None, description="A request of the job's prompt and generated tokens, every "
                                                      "sequence: prefill, then generation (``prompt_tokens`` set)")
    request_tokens_per_s: float | None = Field(None, description="Generated tokens/s over the whole request, "
                                                                  "prefill included")
    train_tokens_per_s: float | None = None
    step_time_s: float | None = None
    interconnect_share: float = Field(0.0, ge=0, le=1, description="Share of time spent on GPU-to-GPU traffic")
    bottleneck: Bottleneck | None = None
    comm_link: str = Field("", description="The link most GPU-to-GPU time is spent on, in words: what a buyer would upgrade")
    notes: tuple[str, ...] = ()
