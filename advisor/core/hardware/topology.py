"""How the GPUs of one machine are linked to each other and to the host."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, field_validator

from advisor.core.hardware.quantities import GpuIndex
from advisor.core.schema import Frozen


class LaneSource(StrEnum):
    CPU = "cpu"
    CHIPSET = "chipset"


class Topology(Frozen):
    """How the GPUs of a build are linked: to each other and to the host."""

    nvlink_pairs: tuple[tuple[GpuIndex, GpuIndex], ...] = Field(
        (), description="Pairs of GPU indexes joined by an NVLink bridge"
    )
    nvswitch: bool = Field(False, description="All GPUs on one NVSwitch/NVLink domain")
    pcie_gen: int = Field(4, ge=1, le=7, description="PCIe generation the platform runs")
    pcie_lanes_per_gpu: tuple[Annotated[int, Field(ge=1, le=32)], ...] = Field(
        (), description="Electrical lanes each GPU gets; empty = the card's own width"
    )
    lane_sources: tuple[LaneSource, ...] = Field((), description="Where each GPU's lanes come from")
    p2p: bool = Field(True, description="PCIe peer-to-peer enabled between the GPUs")
    slot_spacing: int | None = Field(
        None, ge=1, le=8, description="Slots between the starts of adjacent GPU slots"
    )

    @field_validator("nvlink_pairs")
    @classmethod
    def _pairs_distinct(cls, pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        for a, b in pairs:
            if a == b or a < 0 or b < 0:
                raise ValueError(f"NVLink pair ({a}, {b}) must join two different GPUs")
        return pairs


def bridge_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """The NVLink bridges on ``n`` cards of one kind: a bridge joins two neighbouring cards, so 0-1, 2-3 … (an odd
    last card has none). What the build editor's "NVLink bridge" box sets."""
    return tuple((i, i + 1) for i in range(0, n - 1, 2))


def topology_problem(topology: Topology, n: int) -> str | None:
    """Why ``topology`` cannot be that of a machine of ``n`` GPUs (an NVLink pair or a per-GPU list
    naming a GPU it does not have: the estimate indexes the GPUs by them), or None."""
    for a, b in topology.nvlink_pairs:
        if a >= n or b >= n:
            return f"NVLink pair ({a}, {b}) names a GPU beyond the machine's {n}"
    for name in ("pcie_lanes_per_gpu", "lane_sources"):
        values = getattr(topology, name)
        if values and len(values) != n:
            return f"topology.{name} has {len(values)} entries for {n} GPUs"
    return None
