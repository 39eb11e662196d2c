"""How a machine's GPUs sit: the lanes each gets and from where, the slots between them, the
CPU's lanes. Unknown stays None, for the checks to say what they could not check."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from advisor.core.hardware.resolved import ResolvedBuild
from advisor.core.hardware.topology import LaneSource


def lanes_per_gpu(build: ResolvedBuild) -> tuple[int | None, ...]:
    """Electrical lanes each GPU gets: the topology's figure, else the card's own width."""
    if build.topology.pcie_lanes_per_gpu:
        return build.topology.pcie_lanes_per_gpu
    return tuple(g.pcie_lanes for g in build.gpus)


def lane_sources(build: ResolvedBuild) -> tuple[LaneSource, ...]:
    """Where each GPU's lanes come from; unspecified = the CPU (how x16 GPU slots are wired)."""
    return build.topology.lane_sources or (LaneSource.CPU,) * build.gpu_count


def gpu_kinds(build: ResolvedBuild) -> Counter[str]:
    return Counter(g.id for g in build.gpus)


def slot_spacings(build: ResolvedBuild) -> tuple[int | None, ...]:
    """Slots from each GPU's slot to the next GPU's (one per adjacent pair): from the board's
    slot positions when the build names a board, else the topology's one spacing."""
    pairs = max(build.gpu_count - 1, 0)
    slots = build.platform.gpu_slots if build.platform is not None and build.platform.board is not None else None
    if slots is not None and len(slots) == build.gpu_count:
        return tuple(abs(b.position - a.position) for a, b in zip(slots, slots[1:]))
    return (build.topology.slot_spacing,) * pairs


def cpu_lanes(build: ResolvedBuild) -> int | None:
    """Lanes the CPU provides: the build's figure, else its CPU part's, else its platform tier's."""
    if build.build is not None and build.build.cpu_pcie_lanes is not None:
        return build.build.cpu_pcie_lanes
    cpu = build.platform.cpu if build.platform is not None else None
    if cpu is not None:
        return cpu.pcie_lanes
    return build.tier.cpu_pcie_lanes if build.tier is not None else None


def all_known(values: Sequence[int | None]) -> list[int] | None:
    """The values when every one is known, else None."""
    known = [v for v in values if v is not None]
    return known if len(known) == len(values) else None


def span_between(spacings: Sequence[int | None], a: int, b: int) -> int | None:
    """Slots from GPU ``a``'s slot to GPU ``b``'s (the spacings between them added); None when one is unknown."""
    between = all_known(spacings[min(a, b):max(a, b)])
    return None if between is None else sum(between)
