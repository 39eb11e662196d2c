"""What a build costs and draws: derived from dated prices and board powers, never typed.

Prices come from each GPU's dated ``PricePoint``s; power from TDPs and the platform's
figure. Unknown inputs give ``None`` and say what is missing, never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import Field

from advisor.core.hardware.records import Gpu, PlatformPart, PriceKind, PricePoint, ResolvedBuild, ResolvedPlatform
from advisor.core.schema import Frozen

#: Kinds of price that stand for "buy it new", best first. ``street_new`` is what a shop
#: asks now; ``list`` is a vendor list price (datacenter parts); MSRP is the launch price.
NEW_PRICE_ORDER = (PriceKind.STREET_NEW, PriceKind.LIST, PriceKind.LAUNCH_MSRP)

class Condition(StrEnum):
    NEW = "new"
    USED = "used"


def newest_price(prices: Iterable[PricePoint], kind: PriceKind) -> PricePoint | None:
    """The most recently seen price of ``kind`` (ties: the later entry)."""
    found = [p for p in prices if p.kind is kind]
    return max(found, key=lambda p: p.date_seen) if found else None


def gpu_price(gpu: Gpu, condition: Condition = Condition.NEW) -> PricePoint | None:
    """New: newest street price, else newest list price, else launch MSRP. Used: newest used band."""
    kinds = NEW_PRICE_ORDER if condition is Condition.NEW else (PriceKind.USED,)
    for kind in kinds:
        if (point := newest_price(gpu.prices, kind)) is not None:
            return point
    return None


#: The parts a whole machine needs; a build that names parts but lacks one of these has no total.
WHOLE_MACHINE_PARTS = ("cpu", "board", "psu", "ram")


def part_price(part: PlatformPart, condition: Condition = Condition.NEW) -> PricePoint | None:
    """New: newest street, list, then launch price. Used: the newest used price, else the new one
    (platform parts of a used GPU build are usually bought new)."""
    kinds = NEW_PRICE_ORDER if condition is Condition.NEW else (PriceKind.USED, *NEW_PRICE_ORDER)
    for kind in kinds:
        if (point := newest_price(part.prices, kind)) is not None:
            return point
    return None


def platform_cost(platform: ResolvedPlatform, condition: Condition = Condition.NEW) -> tuple[float | None, list[str]]:
    """Sum of the parts' prices (RAM kits counted), and what is unknown, in words.

    A case, cooler and drives are not platform parts yet, so the sum is CPU + board + PSU + RAM
    + bridges; a missing CPU, board, PSU or RAM leaves the total unknown.
    """
    words = {"cpu": "CPU", "board": "motherboard", "psu": "PSU", "ram": "RAM kit"}
    gaps = [f"no {words[name]} in the build's parts" for name in WHOLE_MACHINE_PARTS if getattr(platform, name) is None]
    total = 0.0
    for part in platform.priced_parts():
        point = part_price(part, condition)
        if point is None:
            gap = f"{condition.value} price of {part.name}"
            if gap not in gaps:
                gaps.append(gap)
        else:
            total += point.usd
    return (None if gaps else total), gaps


class BuildCost(Frozen):
    """Price of a build; a total is None when any part of it is unknown (``missing`` says which)."""

    condition: Condition
    gpus_usd: float | None = Field(description="Sum of the GPU prices, USD")
    gpus_usd_low: float | None = Field(None, description="Sum of band lows (used), USD")
    gpus_usd_high: float | None = Field(None, description="Sum of band highs (used), USD")
    platform_usd: float | None = Field(description="Everything but the GPUs, USD")
    total_usd: float | None
    prices: tuple[PricePoint | None, ...] = Field(description="Price used for each GPU, slot order")
    missing: tuple[str, ...] = Field((), description="What is unknown, in words")


def _band_sum(points: list[PricePoint], attr: str) -> float | None:
    values = [getattr(p, attr) for p in points]
    return sum(values) if all(v is not None for v in values) else None


def build_cost(build: ResolvedBuild, condition: Condition = Condition.NEW) -> BuildCost:
    """GPU prices (by ``condition``) plus the platform cost of the catalog build, if known.
    Several identical machines (issue 21): one machine's cost × machines."""
    if build.nodes > 1:
        one, k = build_cost(build.node(), condition), build.nodes

        def times(x: float | None) -> float | None:
            return None if x is None else x * k

        return one.model_copy(update={"gpus_usd": times(one.gpus_usd), "gpus_usd_low": times(one.gpus_usd_low),
                                      "gpus_usd_high": times(one.gpus_usd_high), "platform_usd": times(one.platform_usd),
                                      "total_usd": times(one.total_usd), "prices": one.prices * k})
    prices = tuple(gpu_price(g, condition) for g in build.gpus)
    missing = sorted({f"{condition.value} price of {g.name}" for g, p in zip(build.gpus, prices) if p is None})
    known = [p for p in prices if p is not None]
    gpus_usd = sum(p.usd for p in known) if len(known) == len(prices) else None
    platform = build.build.platform_cost_usd if build.build else None
    if platform is None and build.platform is not None:
        platform, gaps = platform_cost(build.platform, condition)
        missing += gaps
    elif platform is None:
        missing.append("platform cost (board, CPU, RAM, PSU, case)")
    banded = condition is Condition.USED and gpus_usd is not None
    return BuildCost(
        condition=condition,
        gpus_usd=gpus_usd,
        gpus_usd_low=_band_sum(known, "usd_low") if banded else None,
        gpus_usd_high=_band_sum(known, "usd_high") if banded else None,
        platform_usd=platform,
        total_usd=gpus_usd + platform if gpus_usd is not None and platform is not None else None,
        prices=prices,
        missing=tuple(missing),
    )
