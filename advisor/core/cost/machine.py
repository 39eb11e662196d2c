"""What a machine costs today: one function (``machine_price``) that every screen, the PDF and the CLI call.

A machine is priced whole: its GPUs plus what carries them — its listed platform parts, a stated
platform cost, or the typical platform tier for its cards (``advisor.core.hardware.tiers``); a prebuilt
system at its own price. Never the GPUs alone: without a platform the price is unknown, and says why.

Today's price of one thing, of the kind asked (``today_price``):

* new: the newest street or list price seen; a launch price (MSRP) only within a year of its date —
  after that a product sells at its street price or not at all (an RTX 3090's 2020 launch price is no
  price one can buy it at in 2026), so with no later price the catalog knows no new price for it;
* used: the newest used price seen;
* used or new: the lower of the two, each taken at its pessimistic end when stale (below).

A price seen more than ``STALE_DAYS`` ago is *stale*: shown with its date and ranked at
``STALE_UNCERTAINTY`` above its figure (``MachinePrice.rank_usd``), the typical change of a price over
a year in the evidence below, so an old low price does not win on its age.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Sequence
from enum import StrEnum

from pydantic import Field

from advisor.core.hardware.records import CloudPrice, Gpu, PriceKind, PricePoint, ResolvedBuild
from advisor.core.hardware.tiers import PlatformTier, passive_coolers
from advisor.core.schema import Frozen

#: A price older than this is stale (shown with its date; ranked with ``STALE_UNCERTAINTY``).
STALE_DAYS = 365

#: How much prices moved over about a year, |new / old − 1|: the evidence ``STALE_UNCERTAINTY`` is the median of.
PRICE_MOVES = (
    ("RTX 4090 street, 2025-07-23 → 2026-02-01 (catalog rtx-4090)", 1819.99, 2500.0),
    ("RTX 4090 street, 2025-07-23 → 2026-05-01 (catalog rtx-4090)", 1819.99, 2000.0),
    ("RX 7900 XTX street, 2025-07-23 → 2026-05-01 (catalog rx-7900-xtx)", 899.99, 800.0),
    ("Mac Studio M3 Ultra base, $3,999 (2025-03-05) → $5,299 (2026-06-25; digitalapplied.com)", 3999.0, 5299.0),
    ("RTX 5090, $1,999 MSRP (2025-01-30) → $3,650-3,900 street (June 2026; sesamedisk.com citing TechTimes)",
     1999.0, 3775.0),
    ("32 GB DDR5 kit, $90 → over $350 within a year (early 2026; namegenerator.biz)", 90.0, 350.0),
    ("A100 80GB PCIe used, $3,000-4,000 (early 2024) → $8,000-18,000 (early 2026; thinksmart.life), per year",
     3500.0, 3500.0 * (13000.0 / 3500.0) ** 0.5),
)
STALE_UNCERTAINTY = round(statistics.median(abs(b / a - 1) for _, a, b in PRICE_MOVES), 2)

NEW_KINDS = (PriceKind.STREET_NEW, PriceKind.LIST)


class PriceChoice(StrEnum):
    NEW = "new"
    USED = "used"
    EITHER = "either"  # used or new, whichever costs less

    @property
    def words(self) -> str:
        return {"new": "new", "used": "used", "either": "used or new, whichever is lower"}[self.value]

    @property
    def short(self) -> str:
        """As in 'no new price', 'no used price', 'no new or used price'."""
        return {"new": "new", "used": "used", "either": "new or used"}[self.value]


def is_stale(date: dt.date | None, today: dt.date) -> bool:
    return date is not None and (today - date).days > STALE_DAYS


def _rank(point: PricePoint, today: dt.date) -> float:
    return point.usd * (1 + STALE_UNCERTAINTY) if is_stale(point.date_seen, today) else point.usd


def today_price(prices: Iterable[PricePoint], choice: PriceChoice, today: dt.date,
                sold_new_until: dt.date | None = None) -> PricePoint | None:
    """The price of the kind asked one would pay today (module docstring); None when none is known.
    ``sold_new_until``: the maker stopped selling it new then — a new price seen up to that day is history
    once it has passed; a street price seen later (a shop's remaining stock) still counts."""
    prices = tuple(prices)
    if choice is PriceChoice.EITHER:
        found = [p for c in (PriceChoice.NEW, PriceChoice.USED)
                 if (p := today_price(prices, c, today, sold_new_until)) is not None]
        return min(found, key=lambda p: (_rank(p, today), p.kind is not PriceKind.USED)) if found else None
    if choice is PriceChoice.USED:
        kinds = [p for p in prices if p.kind is PriceKind.USED]
    else:
        kinds = [p for p in prices if p.kind in NEW_KINDS
                 or (p.kind is PriceKind.LAUNCH_MSRP and not is_stale(p.date_seen, today))]
        if sold_new_until is not None and today > sold_new_until:
            kinds = [p for p in kinds if p.date_seen > sold_new_until and p.kind is PriceKind.STREET_NEW]
    return max(kinds, key=lambda p: p.date_seen) if kinds else None


class MachinePrice(Frozen):
    """A whole machine's price today, of one kind, with its date and what it includes."""

    choice: PriceChoice | None = Field(description="The kind asked; None for an hourly rate")
    usd: float | None = Field(description="GPUs + platform (or the system as sold), USD; None when unknown")
    kind: str | None = Field(None, description="new | used | new and used (some parts each way) | per hour")
    date: dt.date | None = Field(None, description="Oldest date among the prices summed")
    stale: bool = False
    uncertainty: float = Field(0.0, description="Relative uncertainty the ranking adds: STALE_UNCERTAINTY × the "
                                                "share of the figure seen more than a year ago")
    gpus_usd: float | None = None
    platform_usd: float | None = None
    includes: str = Field("", description="What the figure is made of, in words")
    platform: str = Field("", description="What carries the GPUs, in a few words: 'desktop for two cards (typical)'")
    missing: tuple[str, ...] = Field((), description="Why the price is unknown, in words")
    sources: tuple[str, ...] = ()

    @property
    def rank_usd(self) -> float | None:
        """What the ranking compares: the figure, its stale part at its pessimistic end."""
        return None if self.usd is None else self.usd * (1 + self.uncertainty)

    @property
    def kind_words(self) -> str:
        return self.kind or (self.choice.value if self.choice is not None else "per hour")

    @property
    def rented(self) -> bool:
        return self.choice is None


class _Sum:
    """Priced parts of one machine as they are added up."""

    def __init__(self, today: dt.date) -> None:
        self.today = today
        self.usd = 0.0
        self.stale_usd = 0.0  # the part of ``usd`` seen more than a year ago
        self.points: list[PricePoint] = []
        self.missing: list[str] = []
        self.kinds: dict[str, set[str]] = {"GPUs": set(), "platform": set()}

    def add(self, point: PricePoint | None, times: float, what: str, part: str = "platform") -> float | None:
        if point is None:
            self.missing.append(what)
            return None
        self.points.append(point)
        self.usd += point.usd * times
        if is_stale(point.date_seen, self.today):
            self.stale_usd += point.usd * times
        if part:
            self.kinds[part].add("used" if point.kind is PriceKind.USED else "new")
        return point.usd * times

    def merge(self, other: _Sum) -> None:
        self.points += other.points
        self.usd += other.usd
        self.stale_usd += other.stale_usd
        for k, v in other.kinds.items():
            self.kinds[k] |= v

    def kind(self) -> str | None:
        """'new', 'used', or 'used GPUs, new platform' (and the reverse) when they differ."""
        gpus, platform = ("/".join(sorted(self.kinds[k])) for k in ("GPUs", "platform"))
        if not gpus and not platform:
            return None
        if not platform or gpus == platform:
            return gpus or platform
        if not gpus:
            return platform
        return f"{gpus} GPUs, {platform} platform".replace("new/used", "new and used")


def _gpus_words(build: ResolvedBuild) -> str:
    counts: dict[str, int] = {}
    for g in build.gpus[: build.gpus_per_node]:
        counts[g.name] = counts.get(g.name, 0) + 1
    return " + ".join(f"{n}× {name}" for name, n in counts.items())


def _tier_part(total: _Sum, tier: PlatformTier, build: ResolvedBuild,
               choice: PriceChoice) -> tuple[float | None, str, str]:
    point = today_price(tier.prices, choice, total.today)
    if point is None and choice is PriceChoice.USED:  # a platform of a used build is often bought new
        point = today_price(tier.prices, PriceChoice.NEW, total.today)
    usd = total.add(point, 1, f"{choice.short} price of the {tier.name.lower()}")
    fans = passive_coolers(tier, build.gpus[: build.gpus_per_node])
    words = (f"{tier.name.lower()}, typical ({tier.cpu}; {tier.board}; {tier.ram}; {tier.psu}; {tier.case})")
    if (fans and tier.passive_cooler_usd is not None and tier.passive_cooler_date is not None
            and tier.passive_cooler_source is not None):
        cooler = PricePoint(kind=PriceKind.STREET_NEW, usd=tier.passive_cooler_usd, date_seen=tier.passive_cooler_date,
                            source=tier.passive_cooler_source)
        extra = total.add(cooler, fans, "", part="")
        usd = None if usd is None else usd + (extra or 0.0)
        words += f" + a fan and shroud for each of {fans} fanless card{'s' if fans > 1 else ''}"
    short = f"{tier.name[0].lower()}{tier.name[1:]} (typical)" + (" + card fans" if fans else "")
    more = (build.host_ram_gib or tier.host_ram_gib) - tier.host_ram_gib
    if (more > 0 and tier.ram_usd_per_gib is not None and tier.ram_price_date is not None
            and tier.ram_price_source is not None):
        ram = PricePoint(kind=PriceKind.STREET_NEW, usd=tier.ram_usd_per_gib, date_seen=tier.ram_price_date,
                         source=tier.ram_price_source)
        extra = total.add(ram, more, "", part="")  # per GiB × the GiB beyond the tier's default
        usd = None if usd is None else usd + (extra or 0.0)
        words += f" + {more:g} GB more RAM ({build.host_ram_gib:g} GB in all)"
        short += f", {build.host_ram_gib:g} GB RAM"
    return usd, words, short


def _platform(total: _Sum, build: ResolvedBuild, choice: PriceChoice,
              fallback: PlatformTier | None) -> tuple[float | None, str, str]:
    """The platform's price and words: stated cost, listed parts, or the tier (the build's own, else
    ``fallback`` when its listed parts are not all priced)."""
    record = build.build
    if build.tier is None and record is not None and record.platform_cost_usd is not None:
        if not record.platform_cost_usd:  # the machine's price is its chip's (a Mac, a DGX Spark)
            return 0.0, "", "the whole machine"
        total.usd += record.platform_cost_usd
        total.kinds["platform"].add("new")  # a stated platform cost is taken as bought new
        return (record.platform_cost_usd, "its platform at the build's stated cost (undated)",
                "stated platform cost")
    platform = build.platform
    if build.tier is None and platform is not None:
        parts = platform.priced_parts()
        inner = _Sum(total.today)
        for part in {p.id: p for p in parts}.values():
            n = sum(1 for p in parts if p.id == part.id)
            point = today_price(part.prices, choice, total.today)
            if point is None and choice is PriceChoice.USED:
                point = today_price(part.prices, PriceChoice.NEW, total.today)
            inner.add(point, n, f"{choice.short} price of {part.name}")
        listed = ("cpu", "board", "psu", "ram")
        complete = all(getattr(platform, name) is not None for name in listed)
        if complete and not inner.missing:
            total.merge(inner)
            return inner.usd, "its listed CPU, board, PSU and RAM (case and drives not listed)", "its listed parts"
    tier = build.tier or fallback
    if tier is None:
        total.missing.append("no platform tier carries these cards: board, CPU, RAM, PSU and case unknown")
        return None, "", ""
    usd, words, short = _tier_part(total, tier, build, choice)
    if build.tier is None:
        words += " (its listed parts have no price)"
    return usd, words, short


def machine_price(build: ResolvedBuild, choice: PriceChoice, today: dt.date,
                  fallback_tier: PlatformTier | None = None) -> MachinePrice:
    """Today's price of the whole machine, of the kind asked (module docstring); machines × the price of one."""
    choice = PriceChoice(choice)
    if build.nodes > 1:
        one = machine_price(build.node(), choice, today, fallback_tier)
        k = build.nodes

        def times(x: float | None) -> float | None:
            return None if x is None else x * k

        return one.model_copy(update={"usd": times(one.usd), "gpus_usd": times(one.gpus_usd),
                                      "platform_usd": times(one.platform_usd),
                                      "includes": f"{k} machines, each {one.includes}" if one.includes else ""})
    total = _Sum(today)
    if build.machine_prices:
        point = today_price(build.machine_prices, choice, today, build.machine_sold_new_until)
        total.add(point, 1, f"{choice.short} price of {build.name}", "GPUs")
        return _result(total, choice, "the whole machine as sold", None, None, "the whole machine as sold")
    gpus_usd: float | None = 0.0
    for g in build.gpus:
        got = total.add(today_price(g.prices, choice, today, g.sold_new_until), 1, _gpu_price_words(g, choice, today),
                        "GPUs")
        gpus_usd = None if got is None or gpus_usd is None else gpus_usd + got
    platform_usd, words, short = _platform(total, build, choice, fallback_tier)
    includes = _gpus_words(build) + (f" + {words}" if words else "")
    return _result(total, choice, includes, gpus_usd, platform_usd, short)


def _gpu_price_words(gpu: Gpu, choice: PriceChoice, today: dt.date) -> str:
    """Which price of the card is summed, and that its maker no longer sells it new where that matters."""
    what = f"{choice.short} price of {gpu.name}"
    end = gpu.sold_new_until
    if end is None or today <= end or choice is PriceChoice.USED:
        return what
    return f"{what} (not sold new since {end.isoformat()})"


def _result(total: _Sum, choice: PriceChoice, includes: str, gpus_usd: float | None, platform_usd: float | None,
            short: str) -> MachinePrice:
    missing = tuple(dict.fromkeys(m for m in total.missing if m))
    date = min((p.date_seen for p in total.points), default=None)
    share = total.stale_usd / total.usd if total.usd else 0.0
    return MachinePrice(choice=choice, usd=None if missing else total.usd, kind=None if missing else total.kind(),
                        date=date, stale=bool(share) and not missing, uncertainty=STALE_UNCERTAINTY * share,
                        gpus_usd=gpus_usd, platform_usd=platform_usd, includes=includes, platform=short,
                        missing=missing,
                        sources=tuple(dict.fromkeys(str(p.source) for p in total.points)))


def hourly_price(prices: Iterable[CloudPrice], today: dt.date, instances: int = 1) -> MachinePrice:
    """A rented machine's rate: per region the newest on-demand price seen, then the cheapest region
    (× ``instances`` when several are rented together)."""
    newest: dict[str, CloudPrice] = {}
    for p in prices:
        if p.region not in newest or p.date_seen > newest[p.region].date_seen:
            newest[p.region] = p
    if not newest:
        return MachinePrice(choice=None, usd=None, includes="rented by the hour", missing=("no hourly price",))
    best = min(newest.values(), key=lambda p: p.usd_per_hour)
    stale = is_stale(best.date_seen, today)
    many = f"{instances} instances" if instances > 1 else "the whole instance"
    return MachinePrice(choice=None, usd=best.usd_per_hour * instances, kind="per hour", date=best.date_seen,
                        stale=stale, uncertainty=STALE_UNCERTAINTY if stale else 0.0,
                        includes=f"{many} rented on demand ({best.region})", sources=(str(best.source),))


def price_words(price: MachinePrice) -> str:
    """'$2,450 used (seen 2026-05-01)', '$3,999 new (seen 2025-03-05; over a year old, ±35 %)',
    '$1.29/h (seen 2026-06-01)' or 'no price'."""
    if price.usd is None:
        return "no price"
    when = f"seen {price.date.isoformat()}" if price.date else "undated"
    stale = f"; over a year old, ±{price.uncertainty * 100:.0f} %" if price.stale else ""
    if price.rented:
        return f"${price.usd:,.2f}/h ({when}{stale})"
    return f"${price.usd:,.0f} {price.kind_words} ({when}{stale})"


def cheapest(prices: Sequence[MachinePrice]) -> MachinePrice | None:
    ranked = [(rank, p) for p in prices if (rank := p.rank_usd) is not None]
    return min(ranked, key=lambda rp: rp[0])[1] if ranked else None
