"""What a build draws: board powers (datasheet TDP/TBP) plus the platform's figure."""

from __future__ import annotations

from pydantic import Field

from advisor.core.hardware.records import ResolvedBuild
from advisor.core.schema import Frozen


class BuildPower(Frozen):
    gpus_w: float | None = Field(description="Sum of GPU TDPs (max board power), W")
    platform_w: float | None = Field(description="Everything but the GPUs, W")
    total_w: float | None = Field(description="Sustained worst case, W (None if a part is unknown)")
    psu_w: float | None = None


def platform_power(build: ResolvedBuild) -> float | None:
    """The build's stated platform power, else from its parts: the CPU's rated power (TDP) plus
    every other part with a stated draw. Unknown without a CPU figure. Board, RAM and drives
    have no vendor figure here, so a parts-derived platform power is a floor. Cards on a
    platform tier: the tier's figure."""
    if build.build is not None and build.build.platform_power_w is not None:
        return build.build.platform_power_w
    platform = build.platform
    if platform is None or platform.cpu is None or platform.cpu.power_w is None:
        return build.tier.platform_power_w if build.tier is not None else None
    return sum(p.power_w for p in platform.priced_parts() if p.power_w is not None)


def psu_rating(build: ResolvedBuild) -> float | None:
    """The build's stated PSU rating, else its PSU part's, else its platform tier's."""
    if build.build is not None and build.build.psu_w is not None:
        return build.build.psu_w
    psu = build.platform.psu if build.platform is not None else None
    if psu is not None:
        return psu.psu_w
    return build.tier.psu_w if build.tier is not None else None


def build_power(build: ResolvedBuild) -> BuildPower:
    """Sum of board powers (datasheet TDP/TBP) plus the platform's figure (stated, or from its parts).
    Several machines: one machine's figures × machines; the PSU rating stays one machine's."""
    if build.nodes > 1:
        one, k = build_power(build.node()), build.nodes
        return BuildPower(gpus_w=None if one.gpus_w is None else one.gpus_w * k,
                          platform_w=None if one.platform_w is None else one.platform_w * k,
                          total_w=None if one.total_w is None else one.total_w * k, psu_w=one.psu_w)
    tdps = [t for g in build.gpus if (t := g.tdp_w) is not None]
    gpus_w = sum(tdps) if len(tdps) == len(build.gpus) else None
    platform_w = platform_power(build)
    total = gpus_w + platform_w if gpus_w is not None and platform_w is not None else None
    return BuildPower(gpus_w=gpus_w, platform_w=platform_w, total_w=total, psu_w=psu_rating(build))
