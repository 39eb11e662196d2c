"""Platform tiers: the typical machine that carries N cards — board, CPU, RAM, PSU(s), case or frame.

A buyer who names only cards ("two RTX 3090s") still buys a whole machine. A tier is the typical
platform for a number of cards of a width and a power: a desktop (consumer board, one or two cards),
a workstation (WRX80 / TRX50 / W790-class board, three or four cards, 1,600 W or two PSUs) or an
open frame or server (EPYC / Xeon board, risers or a 4U chassis, five to eight cards). Its price is
typical, not a quote: it comes from published complete-build guides and dated listings (its
``prices``, each with its source), and the user can edit or add tiers like any catalog record.

Passively cooled datacenter cards (Tesla P40, P100, MI50, A100 PCIe …) have no fan: a server
chassis pushes air through them, and any other tier needs a fan and shroud on each one
(``passive_cooler_usd``, priced per card) or does not take them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field, HttpUrl, model_validator

from advisor.core.hardware.gpu import Gpu
from advisor.core.hardware.quantities import Gib, PlatformWatts, PricePoint, Usd, Watts, physical_range
from advisor.core.schema import PositiveFloat, Record


class TierKind(StrEnum):
    DESKTOP = "desktop"
    WORKSTATION = "workstation"
    SERVER = "server"  # an EPYC / Xeon board on an open frame with risers, or a 4U GPU chassis

    @property
    def words(self) -> str:
        return {"desktop": "desktop", "workstation": "workstation", "server": "open-frame or server"}[self.value]


Slots = Annotated[PositiveFloat, physical_range(0.5, 8, "slots")]


class PlatformTier(Record):
    """The typical platform for up to ``max_cards`` cards: what it is made of and what it costs."""

    kind: TierKind
    name: str = Field(min_length=1, description="As a buyer reads it: 'Desktop for two cards'")
    max_cards: int = Field(ge=1, le=16, description="Most cards it carries")
    max_card_slots: Slots = Field(description="Widest card it takes at its most cards, in slots")
    gpu_power_w: Watts = Field(description="Most GPU board power (sum of TDPs) its PSU(s) feed, W")
    cpu: str = Field(min_length=1, description="The typical CPU, in words")
    board: str = Field(min_length=1, description="The typical motherboard, in words")
    ram: str = Field(min_length=1, description="The typical RAM, in words")
    psu: str = Field(min_length=1, description="The power supply or supplies, in words")
    case: str = Field(min_length=1, description="Case, open frame or chassis (and risers), in words")
    cooling: str = Field(min_length=1, description="What cools the cards and what it needs, in words")
    host_ram_gib: Gib = Field(description="Host RAM of the typical build, GiB (edit it for another size)")
    max_ram_gib: Gib | None = Field(None, description="Most RAM the board takes, GiB")
    ram_usd_per_gib: Usd | None = Field(None, description="What RAM beyond host_ram_gib costs, USD per GiB (None: not "
                                                          "priced, so no more RAM is offered)")
    ram_price_source: HttpUrl | None = Field(None, description="Where that RAM price comes from")
    ram_price_date: dt.date | None = Field(None, description="Day that RAM price was seen")
    ram_channels: int | None = Field(None, ge=1, le=24, description="Memory channels the CPU(s) read in parallel (the "
                                                                   "ones a process's threads use)")
    ram_mt_per_s: int | None = Field(None, ge=400, le=20_000, description="The typical RAM's transfer rate, MT/s")
    cools_passive_cards: bool = Field(False, description="Its chassis pushes server airflow through fanless cards")
    only_passive_cards: bool = Field(False, description="A rack server: it takes fanless (or blower) cards only")
    passive_cooler_usd: Usd | None = Field(
        None, description="A fan and shroud for each fanless datacenter card, USD (None: it does not take them)")
    passive_cooler_source: HttpUrl | None = Field(None, description="Where that price comes from")
    passive_cooler_date: dt.date | None = Field(None, description="Day that price was seen")
    pcie_gen: int = Field(ge=1, le=7, description="PCIe generation of its GPU slots")
    pcie_lanes_per_gpu: int = Field(ge=1, le=16, description="Electrical lanes each card gets at its most cards")
    slot_lanes: tuple[Annotated[int, Field(ge=1, le=16)], ...] = Field(
        (), description="Electrical lanes of each GPU slot in order, where they differ (empty: pcie_lanes_per_gpu each)")
    chipset_slots: int = Field(0, ge=0, le=16, description="How many of its last GPU slots hang off the chipset")
    slot_spacing: int | None = Field(None, ge=1, le=8, description="Slots between adjacent GPU slots (None: risers)")
    cpu_pcie_lanes: int | None = Field(None, ge=1, le=256)
    psu_w: Watts = Field(description="PSU rating in all, W")
    platform_power_w: PlatformWatts = Field(description="Everything but the GPUs under load, W")
    prices: tuple[PricePoint, ...] = Field((), description="Typical price of the platform without GPUs, dated")

    @model_validator(mode="after")
    def _cooler_priced(self) -> PlatformTier:
        if self.passive_cooler_usd is not None and (self.passive_cooler_source is None or self.passive_cooler_date is None):
            raise ValueError("passive_cooler_usd needs passive_cooler_source and passive_cooler_date")
        if self.max_ram_gib is not None and self.max_ram_gib < self.host_ram_gib:
            raise ValueError("max_ram_gib is below host_ram_gib")
        if self.ram_usd_per_gib is not None and (self.ram_price_source is None or self.ram_price_date is None):
            raise ValueError("ram_usd_per_gib needs ram_price_source and ram_price_date")
        return self


_ACTIVE_WORDS = ("active", "blower", "fan")


def passively_cooled(gpu: Gpu) -> bool:
    """A card with no fan of its own: a datacenter PCIe card (they ship with passive heat sinks for
    server airflow: NVIDIA's Tesla and data-center product briefs, AMD Instinct) or one whose form factor
    says 'passive', unless its form factor names a fan or blower."""
    form = gpu.form_factor.lower()
    if any(w in form for w in _ACTIVE_WORDS):
        return False
    return "passive" in form or gpu.segment.value == "datacenter"


#: A channel moves 8 bytes a transfer (a 64-bit DDR4 or DDR5 channel; JEDEC JESD79-4 and JESD79-5): peak GB/s =
#: channels × MT/s × 8 / 1000.
BYTES_PER_CHANNEL_TRANSFER = 8
#: The share of that peak a CPU's threads reach streaming large arrays (offloaded MoE experts, a CPU optimizer
#: step): two thirds, the figure the app took for a desktop before tiers carried their memory. Measured higher on
#: a server: 225-250 GB/s with Intel's Memory Latency Checker on 8 channels of DDR5-4800 (307 GB/s peak, 73-81 %;
#: ubergarm in ikawrakow/ik_llama.cpp PR #370, 2025-05-04) — so two thirds is the cautious end.
STREAM_SHARE = 2 / 3


def host_memory_gb_per_s(tier: PlatformTier | None) -> float | None:
    """What the tier's CPU streams from its RAM, GB/s: its channels × their rate × 8 bytes × ``STREAM_SHARE``; None
    where the tier does not say (or there is no tier)."""
    if tier is None or tier.ram_channels is None or tier.ram_mt_per_s is None:
        return None
    return tier.ram_channels * tier.ram_mt_per_s * BYTES_PER_CHANNEL_TRANSFER / 1000 * STREAM_SHARE


def tier_takes(tier: PlatformTier, gpus: Sequence[Gpu]) -> str | None:
    """Why ``tier`` cannot carry ``gpus`` (None: it can)."""
    if len(gpus) > tier.max_cards:
        return f"it carries at most {tier.max_cards} card{'s' if tier.max_cards > 1 else ''}"
    kinds = {g.id: g for g in gpus}.values()  # a build is mostly one kind of card: judge each kind once
    widths = [g.slot_width for g in kinds if g.slot_width is not None]
    if widths and max(widths) > tier.max_card_slots:
        return f"it takes cards up to {tier.max_card_slots:g} slots wide"
    if sum(g.tdp_w for g in gpus if g.tdp_w is not None) > tier.gpu_power_w:
        return f"its power supply feeds at most {tier.gpu_power_w:,.0f} W of cards"
    passive = [passively_cooled(g) for g in kinds]
    if any(passive) and not tier.cools_passive_cards and tier.passive_cooler_usd is None:
        return "it has no airflow for fanless datacenter cards"
    if tier.only_passive_cards and not all(passive):
        return "a rack server takes fanless datacenter cards only"
    return None


def passive_coolers(tier: PlatformTier, gpus: Sequence[Gpu]) -> int:
    """Fans and shrouds the build needs: one per fanless card, unless the chassis cools them."""
    if tier.cools_passive_cards:
        return 0
    passive = {g.id: passively_cooled(g) for g in {g.id: g for g in gpus}.values()}
    return sum(1 for g in gpus if passive[g.id])


def typical_usd(tier: PlatformTier) -> float:
    """The newest price of any kind (for choosing among tiers; the cost package prices the build)."""
    if not tier.prices:
        return float("inf")
    return max(tier.prices, key=lambda p: p.date_seen).usd


#: RAM sizes a machine is offered with beyond its tier's default, GiB (the common totals of 2-8 DIMMs).
RAM_STEPS_GIB = (64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048)


def ram_step(tier: PlatformTier, need_gib: float) -> float | None:
    """The smallest RAM size of ``RAM_STEPS_GIB`` that holds ``need_gib`` and the tier's board takes, above its
    default; None when the default already holds it, the board takes no more, or more RAM has no price."""
    if need_gib <= tier.host_ram_gib or tier.ram_usd_per_gib is None:
        return None
    top = tier.max_ram_gib or tier.host_ram_gib
    return next((float(s) for s in RAM_STEPS_GIB if need_gib <= s <= top), None)


def tier_for(tiers: Iterable[PlatformTier], gpus: Sequence[Gpu]) -> PlatformTier | None:
    """The cheapest tier that carries ``gpus`` (with fans for any fanless card); None when none does."""
    fits = [t for t in tiers if tier_takes(t, gpus) is None]
    if not fits:
        return None
    return min(fits, key=lambda t: (typical_usd(t) + passive_coolers(t, gpus) * (t.passive_cooler_usd or 0.0),
                                    t.max_cards, t.id))
