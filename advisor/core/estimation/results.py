"""What an estimate returns: memory per GPU, host memory, speed, fit and assumptions.

All memory is in bytes (``*_bytes``); ``advisor.core.units`` converts for display.
"""

from __future__ import annotations

from pydantic import Field, computed_field

from advisor.core.memory.results import MemoryBreakdown
from advisor.core.schema import Frozen
from advisor.core.speed.results import SpeedEstimate


class Fit(Frozen):
    fits: bool
    need_per_gpu_bytes: float = Field(ge=0)
    usable_per_gpu_bytes: float = Field(ge=0)
    host_need_bytes: float = Field(0.0, ge=0)
    host_available_bytes: float | None = None
    reason: str = ""
    sequences_at_once: int | None = Field(None, ge=0, description="vLLM / SGLang: the job's sequences its KV pool "
                                                                  "runs together (the rest wait); None elsewhere")

    # mypy rejects a decorator over @property; pydantic's computed_field docs prescribe this ignore.
    @computed_field  # type: ignore[prop-decorator]
    @property
    def headroom_bytes(self) -> float:
        return self.usable_per_gpu_bytes - self.need_per_gpu_bytes

    @property
    def host_short(self) -> bool:
        """The GPUs' part fits; the host RAM need (offload, or on unified memory what the GPU part leaves) does not,
        or the build's RAM is not known (an unknown amount is not counted as enough)."""
        return (self.need_per_gpu_bytes <= self.usable_per_gpu_bytes and self.host_need_bytes > 0
                and (self.host_available_bytes is None or self.host_need_bytes > self.host_available_bytes))


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
