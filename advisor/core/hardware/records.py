"""Hardware records: GPUs, build topologies, builds, prebuilt systems, cloud instances, platform parts.

One import path for the record types the outer layers use; each kind lives in its own module:
``gpu`` (cards and their links), ``topology`` (how one machine's GPUs are joined), ``parts``
(CPU, board, PSU, RAM, bridges, NICs), ``builds`` (builds, systems, cloud instances),
``resolved`` (a machine with its records looked up) and ``quantities`` (the value types).

Every record is a frozen pydantic model that validates itself; ``None`` means *unknown*
(the UI says so), never zero. Units are in the field names.
"""

from __future__ import annotations

from advisor.core.hardware.builds import (
    MAX_GPUS_PER_MACHINE,
    Build,
    BuildGpu,
    CloudInstance,
    CloudPrice,
    PrebuiltSystem,
    SystemKind,
)
from advisor.core.hardware.gpu import Gpu, NvLink, Segment
from advisor.core.hardware.parts import BoardSlot, BuildParts, NicFabric, PartKind, PlatformPart
from advisor.core.hardware.quantities import (
    GbMemory,
    GbPerS,
    Gib,
    GpuIndex,
    PlatformUsd,
    PlatformWatts,
    PriceKind,
    PricePoint,
    Tflops,
    Usd,
    UsdPerHour,
    Watts,
)
from advisor.core.hardware.resolved import MAX_NODES, NodeNetwork, ResolvedBuild, ResolvedPlatform
from advisor.core.hardware.tiers import PlatformTier
from advisor.core.hardware.topology import LaneSource, Topology, topology_problem

__all__ = [
    "MAX_GPUS_PER_MACHINE",
    "MAX_NODES",
    "BoardSlot",
    "Build",
    "BuildGpu",
    "BuildParts",
    "CloudInstance",
    "CloudPrice",
    "GbMemory",
    "GbPerS",
    "Gib",
    "Gpu",
    "GpuIndex",
    "LaneSource",
    "NicFabric",
    "NodeNetwork",
    "NvLink",
    "PartKind",
    "PlatformPart",
    "PlatformTier",
    "PlatformUsd",
    "PlatformWatts",
    "PrebuiltSystem",
    "PriceKind",
    "PricePoint",
    "ResolvedBuild",
    "ResolvedPlatform",
    "Segment",
    "SystemKind",
    "Tflops",
    "Topology",
    "Usd",
    "UsdPerHour",
    "Watts",
    "topology_problem",
]
