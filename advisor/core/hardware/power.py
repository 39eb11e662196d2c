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


def build_power(build: ResolvedBuild) -> BuildPower:
    """Sum of board powers (datasheet TDP/TBP) plus the platform's figure from the build."""
    tdps = [g.tdp_w for g in build.gpus]
    gpus_w = sum(tdps) if all(t is not None for t in tdps) else None
    platform_w = build.build.platform_power_w if build.build else None
    total = gpus_w + platform_w if gpus_w is not None and platform_w is not None else None
    return BuildPower(
        gpus_w=gpus_w, platform_w=platform_w, total_w=total, psu_w=build.build.psu_w if build.build else None
    )
