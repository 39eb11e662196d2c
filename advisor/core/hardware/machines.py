"""Whole machines from cards: a build that names only cards gets the typical platform tier that
carries them (``advisor.core.hardware.tiers``), so it has a host RAM, a PSU, a platform power and a price."""

from __future__ import annotations

from advisor.core.hardware.catalog import Catalog, gpu_build
from advisor.core.hardware.records import LaneSource, ResolvedBuild, Segment
from advisor.core.hardware.tiers import PlatformTier, tier_for


def with_tier(build: ResolvedBuild, tier: PlatformTier) -> ResolvedBuild:
    """Cards on a typical platform: its host RAM (where the build states none), and its slots — each card at
    most the tier's PCIe generation and its slot's lanes, the last ones behind the chipset where the tier says
    so, its slot spacing where the tier has one. Its PSU, platform power and CPU lanes are read through
    ``build.tier`` (``advisor.core.hardware.power``, ``checks``)."""
    n = build.gpus_per_node
    topology = build.topology
    if n > 1:
        slot = [tier.slot_lanes[i] if i < len(tier.slot_lanes) else tier.pcie_lanes_per_gpu for i in range(n)]
        lanes = tuple(min(g.pcie_lanes or s, s) for g, s in zip(build.gpus[:n], slot, strict=True))
        chipset = min(tier.chipset_slots, n)
        sources = (LaneSource.CPU,) * (n - chipset) + (LaneSource.CHIPSET,) * chipset if chipset else ()
        topology = topology.model_copy(update={"pcie_lanes_per_gpu": lanes, "lane_sources": sources,
                                               "slot_spacing": topology.slot_spacing or tier.slot_spacing})
    topology = topology.model_copy(update={"pcie_gen": min(topology.pcie_gen, tier.pcie_gen)})
    return build.model_copy(update={"tier": tier, "topology": topology,
                                    "host_ram_gib": build.host_ram_gib or tier.host_ram_gib})


def needs_platform(build: ResolvedBuild) -> bool:
    """Cards in slots with nothing that carries them: no listed parts, no stated platform cost, not a
    unified-memory machine, no module on a baseboard, not a system sold whole."""
    record = build.build
    return (build.tier is None and build.platform is None and not build.machine_prices and not build.unified_memory
            and (record is None or record.platform_cost_usd is None)
            and not any(g.is_module or g.segment is Segment.UNIFIED_MEMORY for g in build.gpus))


def on_platform(catalog: Catalog, build: ResolvedBuild) -> ResolvedBuild:
    """``build`` on the cheapest tier that carries its cards (``tier_for``) when it ``needs_platform``;
    unchanged when it does not, or when no tier carries them."""
    if not needs_platform(build):
        return build
    tier = tier_for(catalog.platforms.values(), build.gpus[: build.gpus_per_node])
    return build if tier is None else with_tier(build, tier)


def machine_build(catalog: Catalog, gpu_id: str, count: int = 1) -> ResolvedBuild:
    """``count`` cards of one GPU on the catalog's cheapest platform tier that carries them: a machine
    one can buy. SXM/OAM modules, unified-memory chips and cards no tier carries stay cards alone
    (their systems and instances are the machines)."""
    return on_platform(catalog, gpu_build(catalog, gpu_id, count))


def price_tier(catalog: Catalog, build: ResolvedBuild) -> PlatformTier | None:
    """The tier whose typical price stands in for a platform the build lists without prices: its own tier,
    else the one that carries its cards (none for unified-memory machines and modules on a baseboard)."""
    if build.tier is not None:
        return build.tier
    if build.unified_memory or any(g.is_module or g.segment is Segment.UNIFIED_MEMORY for g in build.gpus):
        return None
    return tier_for(catalog.platforms.values(), build.gpus[: build.gpus_per_node])
