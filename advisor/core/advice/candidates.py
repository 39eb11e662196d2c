"""Every machine the catalog can make, with the price a buyer (or renter) pays for it today.

Candidates: each catalog card at 1 to ``max_gpus`` cards on the typical platform tier that carries them
(``advisor.core.hardware.machines``: board, CPU, RAM, PSU, case; cards no tier carries are left out,
counted); the catalog's builds; its prebuilt systems; its cloud instances (and, when given, "This
machine"). Every price is ``advisor.core.cost.machine.machine_price`` of the kind asked — new, used, or
either (the lower) — dated, with what it includes; cloud instances by the hour. No candidate is priced
as its GPUs alone: a machine whose platform has no price has no price.

Several machines: with ``max_nodes`` > 1 (the search asks for 4 for training jobs),
every multi-GPU prebuilt system and cloud instance that names its network card is also a
candidate as 2 … ``max_nodes`` identical machines, priced × machines (cloud: per instance-hour
× instances).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

from advisor.core.advice.comparison import BuildEntry
from advisor.core.cost.machine import MachinePrice, PriceChoice, hourly_price, machine_price
from advisor.core.hardware.catalog import (
    Catalog,
    gpu_build,
    resolve_build,
    resolve_cloud,
    resolve_system,
    with_nodes,
)
from advisor.core.hardware.interconnect import node_link
from advisor.core.hardware.machines import machine_build, price_tier, with_tier
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import Gpu, ResolvedBuild, Segment
from advisor.core.hardware.tiers import ram_step, tier_takes

__all__ = ["MAX_GPUS", "MAX_NODES_SEARCHED", "Candidate", "PriceChoice", "Where", "catalog_candidates"]

MAX_GPUS = 8
#: Machines of one system or instance a training search tries (1 to 4): multi-node training is what joins machines.
MAX_NODES_SEARCHED = 4


class Where(StrEnum):
    OWNED = "owned"  # bought: GPUs, builds, prebuilt systems
    CLOUD = "cloud"  # rented by the hour
    ANY = "any"


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    kind: str  # machine | build | system | cloud | this-machine
    build: ResolvedBuild
    entry: BuildEntry  # what "add to the comparison" adds
    price: MachinePrice | None = None  # today's, of the kind asked; None: already owned
    power_w: float | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def price_usd(self) -> float | None:
        return self.price.usd if self.price is not None else (0.0 if self.kind == "this-machine" else None)

    @property
    def price_kind(self) -> str | None:
        if self.kind == "this-machine":
            return "owned"
        return None if self.price is None or self.price.usd is None else (
            "per_hour" if self.price.rented else self.price.kind_words)

    @property
    def price_date(self) -> dt.date | None:
        return self.price.date if self.price is not None and self.price.usd is not None else None

    @property
    def rank_usd(self) -> float | None:
        """The price the ranking compares: its stale part at its pessimistic end (``MachinePrice.rank_usd``)."""
        return self.price.rank_usd if self.price is not None else self.price_usd

    @property
    def gpus_per_machine(self) -> int:
        return self.build.gpus_per_node


def _power(build: ResolvedBuild) -> float | None:
    p = build_power(build)
    return p.total_w if p.total_w is not None else p.gpus_w


def _is_card(gpu: Gpu) -> bool:
    """A card one can put in a PCIe slot: not an SXM/OAM module, not a unified-memory chip."""
    return gpu.segment is not Segment.UNIFIED_MEMORY and not gpu.is_module


def machine_name(build: ResolvedBuild) -> str:
    """'Desktop for two cards: 2× GeForce RTX 3090' — the platform first, as a buyer names a machine."""
    counts: dict[str, int] = {}
    for g in build.gpus[: build.gpus_per_node]:
        counts[g.name] = counts.get(g.name, 0) + 1
    cards = " + ".join(f"{n}× {name}" for name, n in counts.items())
    return f"{build.tier.name}: {cards}" if build.tier is not None else cards


#: Host RAM kept free for the operating system and the engine beside what a job puts there, GiB.
OS_RAM_GIB = 16.0


def _with_ram(c: Candidate, need_gib: float, choice: PriceChoice, today: dt.date) -> Candidate | None:
    """The machine with enough host RAM for ``need_gib`` (its tier's next RAM size that holds it, priced at the
    tier's RAM price), or None when its default RAM holds it or its board takes no more."""
    tier = c.build.tier
    if tier is None:
        return None
    gib = ram_step(tier, need_gib + OS_RAM_GIB)
    if gib is None:
        return None
    build = c.build.model_copy(update={"host_ram_gib": gib})
    name = f"{tier.name} with {gib:g} GB RAM: {c.name.split(': ', 1)[-1]}"
    build = build.model_copy(update={"name": name})
    return Candidate(id=f"{c.id}-{gib:g}gb-ram", name=name, kind="machine", build=build,
                     entry=BuildEntry(name=name[:120], inline=build), price=machine_price(build, choice, today),
                     power_w=c.power_w)


def _on_other_tiers(catalog: Catalog, c: Candidate, gpu_id: str, count: int, spill_gib: float, choice: PriceChoice,
                    today: dt.date) -> list[Candidate]:
    """``count`` cards of ``gpu_id`` on each tier other than ``c``'s that carries them, with the RAM for
    ``spill_gib`` (its default where that holds it)."""
    out = []
    for tier in catalog.platforms.values():
        if tier is c.build.tier or tier_takes(tier, c.build.gpus[: c.build.gpus_per_node]) is not None:
            continue
        build = with_tier(gpu_build(catalog, gpu_id, count), tier)
        name = machine_name(build)
        plain = Candidate(id=f"{count}x-{gpu_id}-on-{tier.id}", name=name, kind="machine",
                          build=build.model_copy(update={"name": name}),
                          entry=BuildEntry(name=name[:120], inline=build.model_copy(update={"name": name})),
                          price=machine_price(build, choice, today), power_w=_power(build))
        if spill_gib + OS_RAM_GIB <= tier.host_ram_gib:
            out.append(plain)
        elif (more := _with_ram(plain, spill_gib, choice, today)) is not None:
            out.append(more)
    return out


def _gpu_candidates(catalog: Catalog, choice: PriceChoice, max_gpus: int, today: dt.date,
                    skipped: dict[str, int], host_need_gib: float | None = None) -> list[Candidate]:
    out = []
    for gpu_id, gpu in catalog.gpus.items():
        if not _is_card(gpu):
            continue  # SXM/OAM modules and unified-memory chips come as systems and cloud instances
        for count in range(1, max_gpus + 1):
            build = machine_build(catalog, gpu_id, count)
            if build.tier is None:
                skipped["no platform tier carries the cards"] = skipped.get("no platform tier carries the cards", 0) + 1
                continue
            name = machine_name(build)
            c = Candidate(id=f"{count}x-{gpu_id}", name=name, kind="machine", build=build.model_copy(update={"name": name}),
                          entry=BuildEntry(name=name, gpu_id=gpu_id, gpu_count=count),
                          price=machine_price(build, choice, today), power_w=_power(build))
            out.append(c)
            if host_need_gib is not None and count * gpu.memory_gib < host_need_gib:
                # The job's weights overflow the cards: the same machine with the RAM to hold what goes to the host
                # (MoE experts, offloaded layers) — what the cards cannot hold, as a plan fills them first
                # (``plan.search``: the fewest layers' experts in host RAM) — at the tier's RAM price. The CPU then
                # reads those weights from its RAM, so the platform's memory sets part of the speed: the cards are
                # offered on every other tier that carries them too (a server board's eight channels against a
                # desktop's two), each with the RAM it needs.
                spill = host_need_gib - count * gpu.memory_gib
                if (more := _with_ram(c, spill, choice, today)) is not None:
                    out.append(more)
                out += _on_other_tiers(catalog, c, gpu_id, count, spill, choice, today)
    return out


def _build_candidates(catalog: Catalog, choice: PriceChoice, today: dt.date) -> list[Candidate]:
    out = []
    for build_id in catalog.builds:
        try:
            resolved = resolve_build(catalog, build_id)
        except (LookupError, ValueError):
            continue
        price = machine_price(resolved, choice, today, price_tier(catalog, resolved))
        out.append(Candidate(id=build_id, name=resolved.name, kind="build", build=resolved,
                             entry=BuildEntry(name=resolved.name, build_id=build_id), price=price,
                             power_w=_power(resolved)))
    return out


def _system_candidates(catalog: Catalog, choice: PriceChoice, today: dt.date) -> list[Candidate]:
    out = []
    for system_id in catalog.systems:
        try:
            resolved = resolve_system(catalog, system_id)
        except (LookupError, ValueError):
            continue
        out.append(Candidate(id=system_id, name=resolved.name, kind="system", build=resolved,
                             entry=BuildEntry(name=resolved.name, system_id=system_id),
                             price=machine_price(resolved, choice, today), power_w=_power(resolved)))
    return out


def _cloud_candidates(catalog: Catalog, today: dt.date) -> list[Candidate]:
    out = []
    for cloud_id, inst in catalog.cloud.items():
        try:
            resolved = resolve_cloud(catalog, cloud_id)
        except (LookupError, ValueError):
            continue
        out.append(Candidate(id=cloud_id, name=resolved.name, kind="cloud", build=resolved,
                             entry=BuildEntry(name=resolved.name, cloud_id=cloud_id),
                             price=hourly_price(inst.prices, today), power_w=None))
    return out


def _multi_node_candidates(single: list[Candidate], max_nodes: int) -> list[Candidate]:
    """2 … ``max_nodes`` machines of each multi-GPU system or cloud instance that has a network card."""
    out = []
    for c in single:
        if c.kind not in ("system", "cloud") or c.build.gpu_count < 2 or c.build.network is None:
            continue
        across = node_link(c.build)
        if across is None:  # a network card that names no link: nothing to join machines with
            continue
        for k in range(2, max_nodes + 1):
            build = with_nodes(c.build, k)
            name = f"{k}× {c.name}"
            price = c.price
            if price is not None:
                price = price.model_copy(update={
                    "usd": None if price.usd is None else price.usd * k,
                    "includes": f"{k} {'instances' if price.rented else 'machines'}, each: {price.includes}"})
            out.append(Candidate(
                id=f"{c.id}-x{k}", name=name, kind=c.kind, build=build.model_copy(update={"name": name}),
                entry=c.entry.model_copy(update={"name": name, "nodes": k}), price=price,
                power_w=_power(build) if c.power_w is not None else None,
                notes=c.notes + (f"{k} machines joined by {across.kind.value} ({across.description} each)",)))
    return out


def catalog_candidates(catalog: Catalog, choice: PriceChoice = PriceChoice.NEW, where: Where = Where.OWNED,
                       max_gpus: int = MAX_GPUS, this_machine: ResolvedBuild | None = None,
                       max_nodes: int = 1, today: dt.date | None = None,
                       skipped: dict[str, int] | None = None, host_need_gib: float | None = None) -> list[Candidate]:
    """Every candidate the catalog can make, filtered by ``where`` and GPU count per machine;
    with ``max_nodes`` > 1 also several machines of the systems and instances that can be joined.
    ``skipped`` (when given) counts what was left out and why. ``host_need_gib``: what a job may put in host RAM
    (its weights); a machine whose cards hold less is offered too with the RAM for what they cannot hold."""
    today = today or dt.date.today()
    skipped = skipped if skipped is not None else {}
    out: list[Candidate] = []
    if where in (Where.OWNED, Where.ANY):
        systems = _system_candidates(catalog, choice, today)
        named = _build_candidates(catalog, choice, today) + systems + _multi_node_candidates(systems, max_nodes)
        # The same cards on a typical platform and as a catalog build or system are both machines one can buy;
        # where one is no better than the other, the search folds it under the other.
        out += _gpu_candidates(catalog, choice, max_gpus, today, skipped, host_need_gib) + named
        if this_machine is not None:
            out.append(Candidate(id="this-machine", name="This machine", kind="this-machine", build=this_machine,
                                 entry=BuildEntry(name="This machine", inline=this_machine),
                                 notes=("already yours",)))
    if where in (Where.CLOUD, Where.ANY):
        cloud = _cloud_candidates(catalog, today)
        out += cloud + _multi_node_candidates(cloud, max_nodes)
    return [c for c in out if c.build.gpus_per_node <= max_gpus]
