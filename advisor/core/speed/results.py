"""Speed results: tokens/s, the bottleneck, time lost to GPU-to-GPU traffic."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from advisor.core.schema import Frozen


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
