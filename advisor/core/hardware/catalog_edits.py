"""Edits of a catalog, each a pure function returning a new one (so the window can undo
them), and the references a catalog's records make to GPUs and parts it lacks."""

from __future__ import annotations

from collections.abc import Iterator


from advisor.core.hardware.catalog_model import Catalog, CatalogRecord, RecordKind, UnknownRecord, kind_of
from advisor.core.hardware.builds import Build
from advisor.core.hardware.parts import PartKind


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


# --- referential checks -------------------------------------------------------------------


def dangling_references(catalog: Catalog) -> list[tuple[RecordKind, str, str, str]]:
    """(kind, id, field, message) for each GPU or part id a record names but the catalog lacks."""
    out: list[tuple[RecordKind, str, str, str]] = []
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


#: (kind, id, field, part id, part kind it must be) of one part reference.
PartRef = tuple[RecordKind, str, str, str, PartKind]
#: (kind, id, field, GPU id) of one GPU reference.
GpuRef = tuple[RecordKind, str, str, str]


def _part_refs(catalog: Catalog) -> Iterator[PartRef]:
    """(kind, id, field, part id, part kind it must be) for every part a build names."""
    builds: list[tuple[RecordKind, str, str, Build]] = [
        (RecordKind.BUILD, rid, "parts", b) for rid, b in catalog.builds.items()]
    builds += [(RecordKind.SYSTEM, rid, "build.parts", s.build) for rid, s in catalog.systems.items() if s.build]
    for kind, rid, prefix, build in builds:
        if build.parts is None:
            continue
        for name, part_id, want in build.parts.singles():
            if part_id is not None:
                yield kind, rid, f"{prefix}.{name}", part_id, want
        for i, part_id in enumerate(build.parts.nvlink_bridges):
            yield kind, rid, f"{prefix}.nvlink_bridges.{i}", part_id, PartKind.NVLINK_BRIDGE
        if build.parts.nic is not None:
            yield kind, rid, f"{prefix}.nic", build.parts.nic, PartKind.NIC
    machines: list[tuple[RecordKind, str, str | None]] = [
        (RecordKind.CLOUD, rid, c.nic) for rid, c in catalog.cloud.items()]
    machines += [(RecordKind.SYSTEM, rid, s.nic) for rid, s in catalog.systems.items()]
    for kind, rid, nic in machines:
        if nic is not None:
            yield kind, rid, "nic", nic, PartKind.NIC


def _gpu_refs(catalog: Catalog) -> Iterator[GpuRef]:
    for rid, build in catalog.builds.items():
        for i, g in enumerate(build.gpus):
            yield RecordKind.BUILD, rid, f"gpus.{i}.gpu_id", g.gpu_id
    for rid, system in catalog.systems.items():
        for i, g in enumerate(system.build.gpus if system.build else ()):
            yield RecordKind.SYSTEM, rid, f"build.gpus.{i}.gpu_id", g.gpu_id
    for rid, inst in catalog.cloud.items():
        yield RecordKind.CLOUD, rid, "gpu_id", inst.gpu_id


