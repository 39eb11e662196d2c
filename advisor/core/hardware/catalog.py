"""The catalog aggregate: shipped records, the user's overlay, hidden shipped ids.

A ``Catalog`` keeps both layers so every edit is a pure function returning a new
catalog (``with_record``, ``without_record``, ``hide``, ``unhide``, ``reset_to_shipped``)
and can be undone: the effective view (``catalog.gpus`` …) is shipped minus hidden, then
the user's records on top (a user record with a shipped id *overrides* it).
Ids are unique per kind, not across kinds (a GPU and a system may share one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Literal

from pydantic import Field, PrivateAttr, model_validator

from advisor.core.hardware.records import (
    MAX_NODES,
    Build,
    CloudInstance,
    Gpu,
    NodeNetwork,
    PartKind,
    PlatformPart,
    PrebuiltSystem,
    ResolvedBuild,
    ResolvedPlatform,
    Segment,
    Topology,
)
from advisor.core.hardware.tiers import PlatformTier
from advisor.core.model.arch import ModelArch
from advisor.core.schema import SCHEMA_VERSION, Frozen


class RecordKind(StrEnum):
    """Kinds of catalog record; the value is the CLI spelling (``--kind gpu``)."""

    GPU = "gpu"
    BUILD = "build"
    SYSTEM = "system"
    CLOUD = "cloud"
    MODEL = "model"
    PART = "part"  # platform parts: CPU, motherboard, PSU, RAM kit, NVLink bridge (issue 18)
    PLATFORM = "platform"  # platform tiers: the typical machine that carries N cards

    @property
    def folder(self) -> str:
        """Folder of this kind under ``catalog/`` (and the user's overlay)."""
        return _FOLDERS[self]

    @property
    def record_type(self) -> type[CatalogRecord]:
        return _TYPES[self]


CatalogRecord = Gpu | Build | PrebuiltSystem | CloudInstance | ModelArch | PlatformPart | PlatformTier

_FOLDERS = {
    RecordKind.GPU: "gpus",
    RecordKind.BUILD: "builds",
    RecordKind.SYSTEM: "systems",
    RecordKind.CLOUD: "cloud",
    RecordKind.MODEL: "models",
    RecordKind.PART: "parts",
    RecordKind.PLATFORM: "platforms",
}
_TYPES: dict[RecordKind, type] = {
    RecordKind.GPU: Gpu,
    RecordKind.BUILD: Build,
    RecordKind.SYSTEM: PrebuiltSystem,
    RecordKind.CLOUD: CloudInstance,
    RecordKind.MODEL: ModelArch,
    RecordKind.PART: PlatformPart,
    RecordKind.PLATFORM: PlatformTier,
}


class Origin(StrEnum):
    SHIPPED = "shipped"
    USER = "user"
    OVERRIDE = "override"  # a user record replacing the shipped one with the same id


class UnknownRecord(KeyError):
    """No record of this kind with this id (the message names both)."""

    def __init__(self, kind: RecordKind, record_id: str, detail: str = "") -> None:
        super().__init__(kind, record_id)
        self.kind = RecordKind(kind)
        self.record_id = record_id
        self.detail = detail

    def __str__(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"no {self.kind.value} with id {self.record_id!r} in the catalog{extra}"


class IncompleteRecord(ValueError):
    """A record exists but lacks what the operation needs (a system with no verified build)."""


def kind_of(record: CatalogRecord) -> RecordKind:
    for kind, cls in _TYPES.items():
        if isinstance(record, cls):
            return kind
    raise TypeError(f"not a catalog record: {type(record).__name__}")


class CatalogLayer(Frozen):
    """One layer of records (shipped, or the user's), each dict keyed by record id."""

    gpus: dict[str, Gpu] = Field(default_factory=dict)
    builds: dict[str, Build] = Field(default_factory=dict)
    systems: dict[str, PrebuiltSystem] = Field(default_factory=dict)
    cloud: dict[str, CloudInstance] = Field(default_factory=dict)
    models: dict[str, ModelArch] = Field(default_factory=dict)
    parts: dict[str, PlatformPart] = Field(default_factory=dict)
    platforms: dict[str, PlatformTier] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _keys_are_ids(self) -> CatalogLayer:
        for kind in RecordKind:
            for key, record in self.of(kind).items():
                if key != record.id:
                    raise ValueError(f"{kind.folder}: key {key!r} holds record {record.id!r}")
        return self

    def of(self, kind: RecordKind) -> dict[str, CatalogRecord]:
        return getattr(self, RecordKind(kind).folder)

    def replacing(self, kind: RecordKind, records: dict[str, CatalogRecord]) -> CatalogLayer:
        # A new, validated layer (model_copy would skip the key check).
        fields = {k.folder: self.of(k) for k in RecordKind}
        fields[RecordKind(kind).folder] = records
        return CatalogLayer(**fields)

    def __len__(self) -> int:
        return sum(len(self.of(k)) for k in RecordKind)


class Catalog(Frozen):
    """Shipped records, the user's records and the shipped ids the user hid.

    Treat the layers' dicts as read-only: the effective view is computed when the catalog
    is built, and every edit function returns a new catalog.
    """

    schema_version: Literal[1] = SCHEMA_VERSION
    shipped: CatalogLayer = CatalogLayer()
    user: CatalogLayer = CatalogLayer()
    hidden: dict[RecordKind, frozenset[str]] = Field(
        default_factory=dict, description="Shipped ids the user removed, by kind"
    )

    _effective: dict[RecordKind, Mapping[str, CatalogRecord]] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: object, /) -> None:
        # Computed once: edits build a new Catalog (never model_copy, which would copy this).
        for kind in RecordKind:
            hidden = self.hidden_ids(kind)
            merged = {k: v for k, v in self.shipped.of(kind).items() if k not in hidden}
            merged.update(self.user.of(kind))
            self._effective[kind] = MappingProxyType(dict(sorted(merged.items())))

    def model_copy(self, *, update: Mapping[str, object] | None = None, deep: bool = False) -> Catalog:
        """A validated copy (pydantic's would carry the old effective view along)."""
        fields = {"shipped": self.shipped, "user": self.user, "hidden": self.hidden, **(update or {})}
        return Catalog(**fields)

    def hidden_ids(self, kind: RecordKind) -> frozenset[str]:
        return self.hidden.get(RecordKind(kind), frozenset())

    def of(self, kind: RecordKind) -> Mapping[str, CatalogRecord]:
        """Effective records of ``kind``: shipped minus hidden, user records on top."""
        return self._effective[RecordKind(kind)]

    gpus = property(lambda self: self.of(RecordKind.GPU))
    builds = property(lambda self: self.of(RecordKind.BUILD))
    systems = property(lambda self: self.of(RecordKind.SYSTEM))
    cloud = property(lambda self: self.of(RecordKind.CLOUD))
    models = property(lambda self: self.of(RecordKind.MODEL))
    parts = property(lambda self: self.of(RecordKind.PART))
    platforms = property(lambda self: self.of(RecordKind.PLATFORM))

    def get(self, kind: RecordKind, record_id: str) -> CatalogRecord:
        try:
            return self.of(kind)[record_id]
        except KeyError:
            detail = "hidden by the user" if record_id in self.hidden_ids(kind) else ""
            raise UnknownRecord(kind, record_id, detail) from None

    def origin(self, kind: RecordKind, record_id: str) -> Origin:
        in_user = record_id in self.user.of(kind)
        if in_user:
            return Origin.OVERRIDE if record_id in self.shipped.of(kind) else Origin.USER
        self.get(kind, record_id)  # raises UnknownRecord when absent or hidden
        return Origin.SHIPPED

    def find(self, record_id: str) -> list[tuple[RecordKind, CatalogRecord]]:
        """Every effective record with this id, whatever its kind."""
        return [(k, self.of(k)[record_id]) for k in RecordKind if record_id in self.of(k)]

    def __len__(self) -> int:
        return sum(len(self.of(k)) for k in RecordKind)


# --- pure edits: each returns a new catalog ---------------------------------------------


def _replace(catalog: Catalog, **changes: object) -> Catalog:
    return catalog.model_copy(update=changes)


def _with_hidden(catalog: Catalog, kind: RecordKind, ids: frozenset[str]) -> dict[RecordKind, frozenset[str]]:
    hidden = dict(catalog.hidden)
    if ids:
        hidden[RecordKind(kind)] = ids
    else:
        hidden.pop(RecordKind(kind), None)
    return hidden


def with_record(catalog: Catalog, record: CatalogRecord) -> Catalog:
    """Add or replace ``record`` in the user layer (it overrides a shipped one of that id)."""
    kind = kind_of(record)
    records = dict(catalog.user.of(kind))
    records[record.id] = record
    return _replace(catalog, user=catalog.user.replacing(kind, records))


def without_record(catalog: Catalog, kind: RecordKind, record_id: str) -> Catalog:
    """Remove the record from view: drop the user's copy and hide the shipped one."""
    catalog.get(kind, record_id)
    records = {k: v for k, v in catalog.user.of(kind).items() if k != record_id}
    out = _replace(catalog, user=catalog.user.replacing(kind, records))
    if record_id in catalog.shipped.of(kind):
        out = hide(out, kind, record_id)
    return out


def hide(catalog: Catalog, kind: RecordKind, record_id: str) -> Catalog:
    """Hide a shipped record (user records are removed instead, never hidden)."""
    if record_id not in catalog.shipped.of(kind):
        raise UnknownRecord(kind, record_id, "only shipped records can be hidden")
    ids = catalog.hidden_ids(kind) | {record_id}
    return _replace(catalog, hidden=_with_hidden(catalog, kind, ids))


def unhide(catalog: Catalog, kind: RecordKind, record_id: str) -> Catalog:
    if record_id not in catalog.hidden_ids(kind):
        raise UnknownRecord(kind, record_id, "not hidden")
    ids = catalog.hidden_ids(kind) - {record_id}
    return _replace(catalog, hidden=_with_hidden(catalog, kind, ids))


def reset_to_shipped(catalog: Catalog, kind: RecordKind, record_id: str) -> Catalog:
    """Drop the user's override and unhide: the shipped record is back as shipped."""
    if record_id not in catalog.shipped.of(kind):
        raise UnknownRecord(kind, record_id, "no shipped record to reset to")
    records = {k: v for k, v in catalog.user.of(kind).items() if k != record_id}
    ids = catalog.hidden_ids(kind) - {record_id}
    return _replace(catalog, user=catalog.user.replacing(kind, records), hidden=_with_hidden(catalog, kind, ids))


# --- kind detection for folder-less JSON --------------------------------------------------

#: Fields only one kind has: how ``catalog add`` tells a record's kind from its JSON.
_SIGNATURES: tuple[tuple[RecordKind, frozenset[str]], ...] = (
    (RecordKind.GPU, frozenset({"memory_gib", "segment"})),
    (RecordKind.MODEL, frozenset({"n_layers", "hidden_size"})),
    (RecordKind.CLOUD, frozenset({"provider", "instance_type"})),
    (RecordKind.SYSTEM, frozenset({"kind", "vendor"})),
    (RecordKind.BUILD, frozenset({"gpus", "name"})),
    (RecordKind.PART, frozenset({"part", "vendor", "name"})),
    (RecordKind.PLATFORM, frozenset({"max_cards", "max_card_slots"})),
)


def detect_kind(data: Mapping[str, object]) -> RecordKind | None:
    """The kind whose signature fields ``data`` has; None when none or several match."""
    found = [kind for kind, keys in _SIGNATURES if keys <= data.keys()]
    return found[0] if len(found) == 1 else None


# --- referential checks -------------------------------------------------------------------


def dangling_references(catalog: Catalog) -> list[tuple[RecordKind, str, str, str]]:
    """(kind, id, field, message) for each GPU or part id a record names but the catalog lacks."""
    out = []
    gpus = catalog.gpus
    for kind, rid, field, gpu_id in _gpu_refs(catalog):
        if gpu_id not in gpus:
            out.append((kind, rid, field, f"names GPU {gpu_id!r}, which is not in the catalog"))
    for kind, rid, field, part_id, want in _part_refs(catalog):
        part = catalog.parts.get(part_id)
        if part is None:
            out.append((kind, rid, field, f"names part {part_id!r}, which is not in the catalog"))
        elif part.part is not want:
            out.append((kind, rid, field, f"names part {part_id!r}, a {part.part.value}, where a {want.value} belongs"))
    return out


_PART_FIELDS = (("cpu", PartKind.CPU), ("board", PartKind.MOTHERBOARD), ("psu", PartKind.PSU), ("ram", PartKind.RAM))


def _part_refs(catalog: Catalog):
    """(kind, id, field, part id, part kind it must be) for every part a build names."""
    builds = [(RecordKind.BUILD, rid, "parts", b) for rid, b in catalog.builds.items()]
    builds += [(RecordKind.SYSTEM, rid, "build.parts", s.build) for rid, s in catalog.systems.items() if s.build]
    for kind, rid, prefix, build in builds:
        if build.parts is None:
            continue
        for name, want in _PART_FIELDS:
            if (part_id := getattr(build.parts, name)) is not None:
                yield kind, rid, f"{prefix}.{name}", part_id, want
        for i, part_id in enumerate(build.parts.nvlink_bridges):
            yield kind, rid, f"{prefix}.nvlink_bridges.{i}", part_id, PartKind.NVLINK_BRIDGE
        if build.parts.nic is not None:
            yield kind, rid, f"{prefix}.nic", build.parts.nic, PartKind.NIC
    for kind, records in ((RecordKind.CLOUD, catalog.cloud), (RecordKind.SYSTEM, catalog.systems)):
        for rid, record in records.items():
            if record.nic is not None:
                yield kind, rid, "nic", record.nic, PartKind.NIC


def _gpu_refs(catalog: Catalog):
    for rid, build in catalog.builds.items():
        for i, g in enumerate(build.gpus):
            yield RecordKind.BUILD, rid, f"gpus.{i}.gpu_id", g.gpu_id
    for rid, system in catalog.systems.items():
        for i, g in enumerate(system.build.gpus if system.build else ()):
            yield RecordKind.SYSTEM, rid, f"build.gpus.{i}.gpu_id", g.gpu_id
    for rid, inst in catalog.cloud.items():
        yield RecordKind.CLOUD, rid, "gpu_id", inst.gpu_id


# --- resolving builds ---------------------------------------------------------------------


def _gpu(catalog: Catalog, gpu_id: str, used_by: str) -> Gpu:
    try:
        return catalog.gpus[gpu_id]
    except KeyError:
        raise UnknownRecord(RecordKind.GPU, gpu_id, f"named by {used_by}") from None


def _part(catalog: Catalog, part_id: str | None, want: PartKind, used_by: str) -> PlatformPart | None:
    if part_id is None:
        return None
    part = catalog.parts.get(part_id)
    if part is None:
        raise UnknownRecord(RecordKind.PART, part_id, f"named by {used_by}")
    if part.part is not want:
        raise IncompleteRecord(f"{used_by} names part {part_id!r}, a {part.part.value}, as its {want.value}")
    return part


def resolve_platform(catalog: Catalog, build: Build, used_by: str) -> ResolvedPlatform | None:
    """The parts a build names, looked up; each GPU's board slot (named, else the board's first ones)."""
    refs = build.parts
    if refs is None:
        return None
    cpu, board, psu, ram = (_part(catalog, getattr(refs, name), want, used_by) for name, want in _PART_FIELDS)
    bridges = tuple(_part(catalog, pid, PartKind.NVLINK_BRIDGE, used_by) for pid in refs.nvlink_bridges)
    slots: tuple = ()
    if board is not None:
        by_position = {s.position: s for s in board.slots}
        if refs.gpu_slots:
            missing = [p for p in refs.gpu_slots if p not in by_position]
            if missing:
                raise IncompleteRecord(f"{used_by} puts a GPU in slot {missing[0]}, which board {board.id!r} lacks")
            slots = tuple(by_position[p] for p in refs.gpu_slots)
        else:
            slots = tuple(sorted(board.slots, key=lambda s: s.position))[: build.gpu_count]
    nic = _part(catalog, refs.nic, PartKind.NIC, used_by)
    return ResolvedPlatform(cpu=cpu, board=board, psu=psu, ram=ram, ram_kits=refs.ram_kits,
                            nvlink_bridges=bridges, gpu_slots=slots, nic=nic, nics=refs.nics)


def _resolve(catalog: Catalog, build: Build, name: str, used_by: str) -> ResolvedBuild:
    gpus = tuple(_gpu(catalog, g.gpu_id, used_by) for g in build.gpus for _ in range(g.count))
    if build.gpu_memory_limit_gib is not None:  # a Mac's raised GPU memory limit, on its Apple GPU
        gpus = tuple(g.model_copy(update={"gpu_memory_limit_gib": min(build.gpu_memory_limit_gib, g.memory_gib)})
                     if g.segment is Segment.UNIFIED_MEMORY and g.vendor.lower() == "apple" else g for g in gpus)
    platform = resolve_platform(catalog, build, used_by)
    network = NodeNetwork(nic=platform.nic, count=platform.nics) if platform and platform.nic else None
    return ResolvedBuild(
        name=name,
        gpus=gpus,
        topology=build.topology,
        host_ram_gib=build.host_ram_gib,
        unified_memory=build.unified_memory,
        build=build,
        platform=platform,
        network=network,
    )


def with_nodes(build: ResolvedBuild, nodes: int) -> ResolvedBuild:
    """``nodes`` identical copies of one machine of ``build``, joined by its network (issue 21).

    The GPUs of every machine are listed in machine order; the topology, host RAM and parts
    are those of one machine. The network may be missing: the checks then say so.
    """
    if not 1 <= nodes <= MAX_NODES:
        raise ValueError(f"machines must be 1 to {MAX_NODES}, not {nodes}")
    one = build.node()
    if nodes == 1:
        return one
    return one.model_copy(update={"gpus": one.gpus * nodes, "nodes": nodes})


def with_network(catalog: Catalog, build: ResolvedBuild, nic_id: str, count: int = 1) -> ResolvedBuild:
    """``build`` with ``count`` of the catalog NIC ``nic_id`` in each machine (replacing its own)."""
    nic = _part(catalog, nic_id, PartKind.NIC, "the build's network")
    return build.model_copy(update={"network": NodeNetwork(nic=nic, count=count)})


#: Vendor words that are no brand to put before a name: no vendor is known, or nobody sells it whole.
NOT_A_BRAND = ("unknown", "build-your-own")


def display_name(vendor: str, name: str) -> str:
    """A record's name as people read it: the brand once, never a note about the vendor.

    Catalog vendors carry notes ("NVIDIA (HGX boards via OEMs)", "unknown (named in seed
    document)") and names often start with the brand already ("Apple Mac Studio"): issue 17.
    """
    brand = vendor_brand(vendor)
    if not brand or name.lower().startswith(brand.lower()):
        return name
    return f"{brand} {name}"


def vendor_brand(vendor: str) -> str:
    """The brand a catalog vendor names ("NVIDIA (HGX boards via OEMs)" → "NVIDIA"); "" when it names none
    ("unknown (named in seed document)", "(build-your-own)")."""
    brand = re.split(r"[ (;,]", vendor.strip(), maxsplit=1)[0] if vendor.strip() else ""
    return "" if brand.lower() in NOT_A_BRAND else brand


def cloud_display_name(catalog: Catalog, cloud: CloudInstance) -> str:
    """An instance as people read it, the GPU by name (not id): "AWS p5.48xlarge · 8× NVIDIA H100 SXM 80GB"."""
    gpu = catalog.gpus.get(cloud.gpu_id)
    gpu_name = display_name(gpu.vendor, gpu.name) if gpu is not None else "unknown GPU"
    return f"{cloud.provider} {cloud.instance_type} · {cloud.gpu_count}× {gpu_name}"


def resolve_build(catalog: Catalog, build: Build | str) -> ResolvedBuild:
    """A catalog build (or its id) with one Gpu record per physical GPU, in slot order."""
    if isinstance(build, str):
        build = catalog.get(RecordKind.BUILD, build)
    return _resolve(catalog, build, build.name, f"build {build.id!r}")


def resolve_system(catalog: Catalog, system: PrebuiltSystem | str) -> ResolvedBuild:
    if isinstance(system, str):
        system = catalog.get(RecordKind.SYSTEM, system)
    if system.build is None:
        raise IncompleteRecord(f"system {system.id!r} has no verified GPU configuration")
    resolved = _resolve(catalog, system.build, display_name(system.vendor, system.name), f"system {system.id!r}")
    resolved = resolved.model_copy(update={"machine_prices": system.prices,
                                           "machine_sold_new_until": system.sold_new_until})
    nic = _part(catalog, system.nic, PartKind.NIC, f"system {system.id!r}")
    if nic is not None:  # the adapters the system ships with (not priced apart: the system's price has them)
        resolved = resolved.model_copy(update={"network": NodeNetwork(nic=nic, count=system.nics)})
    return resolved


def resolve_cloud(catalog: Catalog, cloud: CloudInstance | str) -> ResolvedBuild:
    """A cloud instance as a build: ``gpu_count`` of its GPU, its topology, its host RAM."""
    if isinstance(cloud, str):
        cloud = catalog.get(RecordKind.CLOUD, cloud)
    gpu = _gpu(catalog, cloud.gpu_id, f"cloud instance {cloud.id!r}")
    nic = _part(catalog, cloud.nic, PartKind.NIC, f"cloud instance {cloud.id!r}")
    return ResolvedBuild(
        name=f"{cloud.provider} {cloud.instance_type}",
        gpus=(gpu,) * cloud.gpu_count,
        topology=cloud.topology,
        host_ram_gib=cloud.host_ram_gib,
        unified_memory=gpu.segment is Segment.UNIFIED_MEMORY,
        network=NodeNetwork(nic=nic, count=cloud.nics) if nic is not None else None,
    )


def on_baseboard(gpu: Gpu, count: int) -> bool:
    """Several SXM modules sit on an HGX baseboard whose GPUs are joined all-to-all by NVLink through
    NVSwitch (the catalog's form factors 'SXM4 module (HGX A100)', 'SXM5 module (HGX H100)', …; the
    record's ``nvlink.max_gpus`` is that domain); AMD's OAM modules sit on a UBB whose GPUs are joined
    all-to-all by Infinity Fabric (the mi300x record: 7 links per GPU, one to each of the other 7). Neither has a PCIe
    card form to run without its board. True for 2 or more of them, up to the domain."""
    return count > 1 and gpu.is_module and gpu.nvlink is not None and count <= gpu.nvlink.max_gpus


def gpu_build(catalog: Catalog, gpu_id: str, count: int = 1) -> ResolvedBuild:
    """``count`` cards of one GPU on plain PCIe: no NVLink bridge, even if the card takes one; or,
    for SXM modules, ``count`` GPUs of one NVSwitch baseboard (``on_baseboard``).

    Each card gets its own PCIe generation and lane width. P2P is on only where the card
    is known to support it on stock drivers (``p2p_supported`` True); unknown counts as off,
    so the estimate errs slow rather than fast. A bridged pair is a catalog build.
    """
    if not 1 <= count <= 72:
        raise ValueError(f"count must be 1 to 72, not {count}")
    gpu = _gpu(catalog, gpu_id, "a GPU-only build")
    board = on_baseboard(gpu, count)
    topology = Topology(
        pcie_gen=gpu.pcie_gen or Topology().pcie_gen,
        pcie_lanes_per_gpu=(gpu.pcie_lanes,) * count if gpu.pcie_lanes else (),
        p2p=bool(gpu.p2p_supported),
        nvswitch=board,
    )
    return ResolvedBuild(
        name=f"{count}x {gpu.name}" + (f" ({gpu.nvlink.board_name} board)" if board and gpu.nvlink
                                        else " (PCIe)" if count > 1 else ""),
        gpus=(gpu,) * count,
        topology=topology,
        unified_memory=gpu.segment is Segment.UNIFIED_MEMORY,
    )


def mixed_build(catalog: Catalog, gpu_ids: list[str] | tuple[str, ...]) -> ResolvedBuild:
    """Different cards in one machine, in slot order, on plain PCIe (e.g. an RTX 3090 beside an
    RTX 4090). PCIe runs at the lowest generation; P2P only where every card supports it."""
    if not 1 <= len(gpu_ids) <= 72:
        raise ValueError(f"a build holds 1 to 72 GPUs, not {len(gpu_ids)}")
    gpus = tuple(_gpu(catalog, gid, "a mixed build") for gid in gpu_ids)
    lanes = tuple(g.pcie_lanes for g in gpus)
    topology = Topology(
        pcie_gen=min((g.pcie_gen for g in gpus if g.pcie_gen), default=Topology().pcie_gen),
        pcie_lanes_per_gpu=lanes if all(lanes) else (),
        p2p=all(g.p2p_supported for g in gpus),
    )
    counts: dict[str, int] = {}
    for g in gpus:
        counts[g.name] = counts.get(g.name, 0) + 1
    return ResolvedBuild(name=" + ".join(f"{n}x {name}" for name, n in counts.items()), gpus=gpus, topology=topology,
                         unified_memory=any(g.segment is Segment.UNIFIED_MEMORY for g in gpus))

