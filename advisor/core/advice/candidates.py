"""Every build the catalog can make, with the price a buyer (or renter) pays for it.

Candidates: each catalog GPU at 1 to ``max_gpus`` cards on plain PCIe, and in NVLink-bridged
pairs where the card takes a bridge; the catalog's builds; its prebuilt systems; its cloud
instances (and, when given, "This machine"). A price is the newest dated one of the kind asked
for: new (street, list, else launch price), used, or either (the lower); cloud instances by
the hour (the cheapest listed). A GPU-only candidate's price is its cards alone: the platform
is not in the catalog for it, and the candidate says so.

Several machines (issue 21): with ``max_nodes`` > 1 (the search asks for 4 for training jobs),
every multi-GPU prebuilt system and cloud instance that names its network card is also a
candidate as 2 … ``max_nodes`` identical machines, priced × machines (cloud: per instance-hour
× instances).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

from advisor.core.advice.comparison import BuildEntry
from advisor.core.cost.prices import Condition, build_cost, gpu_price, newest_price
from advisor.core.cost.running import price_date
from advisor.core.hardware.catalog import (
    Catalog,
    gpu_build,
    resolve_build,
    resolve_cloud,
    resolve_system,
    with_nodes,
)
from advisor.core.hardware.interconnect import node_link
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import PriceKind, ResolvedBuild, Segment, Topology

MAX_GPUS = 8
#: Machines of one system or instance a training search tries (issue 21: 1 to 4).
MAX_NODES_SEARCHED = 4


class PriceChoice(StrEnum):
    NEW = "new"
    USED = "used"
    EITHER = "either"


class Where(StrEnum):
    OWNED = "owned"  # bought: GPUs, builds, prebuilt systems
    CLOUD = "cloud"  # rented by the hour
    ANY = "any"


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    kind: str  # gpus | build | system | cloud | this-machine
    build: ResolvedBuild
    entry: BuildEntry  # what "add to the comparison" adds
    price_usd: float | None = None
    price_kind: str | None = None  # new | used | per_hour
    price_date: dt.date | None = None
    power_w: float | None = None
    notes: tuple[str, ...] = field(default=())


def _gpu_point(gpu, choice: PriceChoice):
    if choice is PriceChoice.EITHER:
        points = [p for p in (gpu_price(gpu, Condition.NEW), gpu_price(gpu, Condition.USED)) if p is not None]
        return min(points, key=lambda p: p.usd) if points else None
    return gpu_price(gpu, Condition.NEW if choice is PriceChoice.NEW else Condition.USED)


def _kind_word(point) -> str:
    return "used" if point.kind is PriceKind.USED else "new"


def _power(build: ResolvedBuild) -> float | None:
    p = build_power(build)
    return p.total_w if p.total_w is not None else p.gpus_w


def _is_card(gpu) -> bool:
    """A card one can put in a PCIe slot: not an SXM/OAM module, not a unified-memory chip."""
    return gpu.segment is not Segment.UNIFIED_MEMORY and not gpu.is_module


def _gpu_candidates(catalog: Catalog, choice: PriceChoice, max_gpus: int) -> list[Candidate]:
    out = []
    for gpu_id, gpu in catalog.gpus.items():
        if not _is_card(gpu):
            continue  # SXM/OAM modules and unified-memory chips come as systems and cloud instances
        point = _gpu_point(gpu, choice)
        for count in range(1, max_gpus + 1):
            build = gpu_build(catalog, gpu_id, count)
            variants = [(build, "PCIe", None)]
            nvlink = gpu.nvlink
            if nvlink is not None and nvlink.bridge_slot_spacings and count >= 2 and count % 2 == 0:
                pairs = tuple((i, i + 1) for i in range(0, count, 2))
                bridged = build.model_copy(update={"topology": build.topology.model_copy(update={"nvlink_pairs": pairs})})
                variants.append((bridged, "NVLink", Topology.model_validate(bridged.topology.model_dump())))
            for resolved, link, topology in variants:
                name = f"{count}× {gpu.name}" + (" + NVLink" if link == "NVLink" else "")
                notes = ("price of the GPUs only: the platform (board, CPU, RAM, PSU) is not included",)
                if link == "NVLink":
                    notes += ("NVLink bridge price not in the catalog",)
                out.append(Candidate(
                    id=f"{count}x-{gpu_id}" + ("-nvlink" if link == "NVLink" else ""), name=name, kind="gpus",
                    build=resolved.model_copy(update={"name": name}),
                    entry=BuildEntry(name=name, gpu_id=gpu_id, gpu_count=count, topology=topology),
                    price_usd=point.usd * count if point is not None else None,
                    price_kind=_kind_word(point) if point is not None else None,
                    price_date=point.date_seen if point is not None else None,
                    power_w=_power(resolved), notes=notes))
    return out


def _build_candidates(catalog: Catalog, choice: PriceChoice) -> list[Candidate]:
    out = []
    for build_id in catalog.builds:
        try:
            resolved = resolve_build(catalog, build_id)
        except (LookupError, ValueError):
            continue
        conditions = {PriceChoice.NEW: (Condition.NEW,), PriceChoice.USED: (Condition.USED,),
                      PriceChoice.EITHER: (Condition.NEW, Condition.USED)}[choice]
        costs = [(c, build_cost(resolved, c)) for c in conditions]
        priced = [(c, cost, cost.total_usd if cost.total_usd is not None else cost.gpus_usd) for c, cost in costs]
        priced = [t for t in priced if t[2] is not None]
        cond, cost, usd = min(priced, key=lambda t: t[2]) if priced else (None, None, None)
        oldest = price_date(resolved, cond) if cond is not None else None  # GPUs and platform parts (issue 18)
        notes = () if cost is None or cost.total_usd is not None else ("price of the GPUs only: platform cost unknown",)
        out.append(Candidate(id=build_id, name=resolved.name, kind="build", build=resolved,
                             entry=BuildEntry(name=resolved.name, build_id=build_id), price_usd=usd,
                             price_kind=cond.value if cond is not None else None,
                             price_date=oldest, power_w=_power(resolved), notes=notes))
    return out


def _system_candidates(catalog: Catalog, choice: PriceChoice) -> list[Candidate]:
    out = []
    kinds = {PriceChoice.NEW: (PriceKind.STREET_NEW, PriceKind.LIST, PriceKind.LAUNCH_MSRP),
             PriceChoice.USED: (PriceKind.USED,),
             PriceChoice.EITHER: (PriceKind.STREET_NEW, PriceKind.LIST, PriceKind.LAUNCH_MSRP, PriceKind.USED)}[choice]
    for system_id, system in catalog.systems.items():
        try:
            resolved = resolve_system(catalog, system_id)
        except (LookupError, ValueError):
            continue
        points = [p for k in kinds if (p := newest_price(system.prices, k)) is not None]
        point = min(points, key=lambda p: p.usd) if points else None
        out.append(Candidate(id=system_id, name=resolved.name, kind="system", build=resolved,
                             entry=BuildEntry(name=resolved.name, system_id=system_id),
                             price_usd=point.usd if point else None,
                             price_kind=_kind_word(point) if point else None,
                             price_date=point.date_seen if point else None, power_w=_power(resolved)))
    return out


def _cloud_candidates(catalog: Catalog) -> list[Candidate]:
    out = []
    for cloud_id, inst in catalog.cloud.items():
        try:
            resolved = resolve_cloud(catalog, cloud_id)
        except (LookupError, ValueError):
            continue
        cheapest = min(inst.prices, key=lambda p: p.usd_per_hour) if inst.prices else None
        out.append(Candidate(id=cloud_id, name=resolved.name, kind="cloud", build=resolved,
                             entry=BuildEntry(name=resolved.name, cloud_id=cloud_id),
                             price_usd=cheapest.usd_per_hour if cheapest else None,
                             price_kind="per_hour" if cheapest else None,
                             price_date=cheapest.date_seen if cheapest else None, power_w=None))
    return out


def _multi_node_candidates(single: list[Candidate], max_nodes: int) -> list[Candidate]:
    """2 … ``max_nodes`` machines of each multi-GPU system or cloud instance that has a network card."""
    out = []
    for c in single:
        if c.kind not in ("system", "cloud") or c.build.gpu_count < 2 or c.build.network is None:
            continue
        across = node_link(c.build)
        for k in range(2, max_nodes + 1):
            build = with_nodes(c.build, k)
            name = f"{k}× {c.name}"
            out.append(Candidate(
                id=f"{c.id}-x{k}", name=name, kind=c.kind, build=build.model_copy(update={"name": name}),
                entry=c.entry.model_copy(update={"name": name, "nodes": k}),
                price_usd=c.price_usd * k if c.price_usd is not None else None, price_kind=c.price_kind,
                price_date=c.price_date, power_w=_power(build) if c.power_w is not None else None,
                notes=c.notes + (f"{k} machines joined by {across.kind.value} ({across.description} each)",)))
    return out


def _signature(build: ResolvedBuild) -> tuple:
    return tuple(sorted(g.id for g in build.gpus)), tuple(sorted(build.topology.nvlink_pairs))


def catalog_candidates(catalog: Catalog, choice: PriceChoice = PriceChoice.NEW, where: Where = Where.OWNED,
                       max_gpus: int = MAX_GPUS, this_machine: ResolvedBuild | None = None,
                       max_nodes: int = 1) -> list[Candidate]:
    """Every candidate the catalog can make, filtered by ``where`` and GPU count per machine;
    with ``max_nodes`` > 1 also several machines of the systems and instances that can be joined."""
    out: list[Candidate] = []
    if where in (Where.OWNED, Where.ANY):
        systems = _system_candidates(catalog, choice)
        named = _build_candidates(catalog, choice) + systems + _multi_node_candidates(systems, max_nodes)
        seen = {_signature(c.build) for c in named}  # a catalog build beats the same cards without a platform
        out += [c for c in _gpu_candidates(catalog, choice, max_gpus) if _signature(c.build) not in seen] + named
        if this_machine is not None:
            out.append(Candidate(id="this-machine", name="This machine", kind="this-machine", build=this_machine,
                                 entry=BuildEntry(name="This machine", inline=this_machine), price_usd=0.0,
                                 price_kind="owned", notes=("already yours",)))
    if where in (Where.CLOUD, Where.ANY):
        cloud = _cloud_candidates(catalog)
        out += cloud + _multi_node_candidates(cloud, max_nodes)
    return [c for c in out if c.build.gpus_per_node <= max_gpus]
