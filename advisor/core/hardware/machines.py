"""Whole machines from cards: a build that names only cards gets the typical platform tier that
carries them (``advisor.core.hardware.tiers``), so it has a host RAM, a PSU and a price."""

from __future__ import annotations

from advisor.core.hardware.catalog import Catalog, gpu_build
from advisor.core.hardware.records import Build, BuildGpu, LaneSource, ResolvedBuild, Segment
from advisor.core.hardware.tiers import PlatformTier, tier_for


def _as_build_record(build: ResolvedBuild, tier: PlatformTier) -> Build:
    """The tier's platform as a ``Build`` record of these cards: what the power sum and the physical
    checks read (PSU rating, platform power, CPU lanes, host RAM)."""
    counts: dict[str, int] = {}
    for g in build.gpus[: build.gpus_per_node]:
        counts[g.id] = counts.get(g.id, 0) + 1
    return Build(id=tier.id, sources=tier.sources, name=build.name,
                 gpus=tuple(BuildGpu(gpu_id=gid, count=n) for gid, n in counts.items()), topology=build.topology,
                 host_ram_gib=tier.host_ram_gib, cpu=tier.cpu, cpu_pcie_lanes=tier.cpu_pcie_lanes,
                 platform_power_w=tier.platform_power_w, psu_w=tier.psu_w,
                 notes=f"{tier.name} (typical platform)")


def with_tier(build: ResolvedBuild, tier: PlatformTier) -> ResolvedBuild:
    """Cards on a typical platform: its host RAM, PSU and platform power, and its slots (each card at
    most the tier's PCIe generation and lanes; its slot spacing where the tier has one)."""
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
    placed = build.model_copy(update={"topology": topology})
    return placed.model_copy(update={
        "tier": tier, "host_ram_gib": build.host_ram_gib or tier.host_ram_gib,
        "build": build.build or _as_build_record(placed, tier)})


def machine_build(catalog: Catalog, gpu_id: str, count: int = 1) -> ResolvedBuild:
    """``count`` cards of one GPU on the catalog's cheapest platform tier that carries them: a machine
    one can buy. SXM/OAM modules, unified-memory chips and cards no tier carries stay cards alone
    (their systems and instances are the machines)."""
    build = gpu_build(catalog, gpu_id, count)
    return on_platform(catalog, build)


def on_platform(catalog: Catalog, build: ResolvedBuild) -> ResolvedBuild:
    """``build`` on its tier (``tier_for``) when it is cards in slots with no platform of its own."""
    if build.tier is not None or build.platform is not None or build.unified_memory or (
            build.build is not None) or any(g.is_module or g.segment is Segment.UNIFIED_MEMORY for g in build.gpus):
        return build
    tier = tier_for(catalog.platforms.values(), build.gpus[: build.gpus_per_node])
    return build if tier is None else with_tier(build, tier)


def price_tier(catalog: Catalog, build: ResolvedBuild) -> PlatformTier | None:
    """The tier whose typical price stands in for a platform the build lists without prices: its own tier,
    else the one that carries its cards (none for unified-memory machines and modules on a baseboard)."""
    if build.tier is not None:
        return build.tier
    if build.unified_memory or any(g.is_module or g.segment is Segment.UNIFIED_MEMORY for g in build.gpus):
        return None
    return tier_for(catalog.platforms.values(), build.gpus[: build.gpus_per_node])
