"""The catalog aggregate: shipped records, the user's overlay, hidden shipped ids.

A ``Catalog`` keeps both layers so every edit is a pure function returning a new
catalog (``advisor.core.hardware.catalog_edits``) and can be undone: the effective view
(``catalog.gpus`` …) is shipped minus hidden, then the user's records on top (a user record
with a shipped id *overrides* it). Ids are unique per kind, not across kinds (a GPU and a
system may share one).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, NamedTuple, Protocol, TypeVar

from pydantic import Field, PrivateAttr, model_validator

from advisor.core.hardware.builds import Build, CloudInstance, PrebuiltSystem
from advisor.core.hardware.gpu import Gpu
from advisor.core.hardware.parts import PlatformPart
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
    PART = "part"  # platform parts: CPU, motherboard, PSU, RAM kit, NVLink bridge, NIC
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
_TYPES: dict[RecordKind, type[CatalogRecord]] = {
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


class RecordsByKind(Protocol):
    """Records of every kind keyed by id: a catalog layer, or a catalog's effective view."""

    @property
    def gpus(self) -> Mapping[str, Gpu]: ...
    @property
    def builds(self) -> Mapping[str, Build]: ...
    @property
    def systems(self) -> Mapping[str, PrebuiltSystem]: ...
    @property
    def cloud(self) -> Mapping[str, CloudInstance]: ...
    @property
    def models(self) -> Mapping[str, ModelArch]: ...
    @property
    def parts(self) -> Mapping[str, PlatformPart]: ...
    @property
    def platforms(self) -> Mapping[str, PlatformTier]: ...


def records_of(records: RecordsByKind, kind: RecordKind) -> Mapping[str, CatalogRecord]:
    """The records of one kind, for code that handles every kind alike."""
    match RecordKind(kind):
        case RecordKind.GPU:
            return records.gpus
        case RecordKind.BUILD:
            return records.builds
        case RecordKind.SYSTEM:
            return records.systems
        case RecordKind.CLOUD:
            return records.cloud
        case RecordKind.MODEL:
            return records.models
        case RecordKind.PART:
            return records.parts
        case RecordKind.PLATFORM:
            return records.platforms


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

    def of(self, kind: RecordKind) -> Mapping[str, CatalogRecord]:
        return records_of(self, kind)

    def replacing(self, kind: RecordKind, records: Mapping[str, CatalogRecord]) -> CatalogLayer:
        # A new, validated layer (model_copy would skip the key check; validation checks each
        # record is of the kind its folder holds).
        fields = {k.folder: self.of(k) for k in RecordKind}
        fields[RecordKind(kind).folder] = records
        return CatalogLayer.model_validate(fields)

    def __len__(self) -> int:
        return sum(len(self.of(k)) for k in RecordKind)


_R = TypeVar("_R")


def _effective(shipped: Mapping[str, _R], user: Mapping[str, _R], hidden: frozenset[str]) -> Mapping[str, _R]:
    """Shipped minus hidden, the user's records on top, sorted by id and read-only."""
    merged = {k: v for k, v in shipped.items() if k not in hidden}
    merged.update(user)
    return MappingProxyType(dict(sorted(merged.items())))


class _View(NamedTuple):
    """A catalog's effective records of each kind (a ``RecordsByKind``)."""

    gpus: Mapping[str, Gpu]
    builds: Mapping[str, Build]
    systems: Mapping[str, PrebuiltSystem]
    cloud: Mapping[str, CloudInstance]
    models: Mapping[str, ModelArch]
    parts: Mapping[str, PlatformPart]
    platforms: Mapping[str, PlatformTier]


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

    _view: _View = PrivateAttr()

    def model_post_init(self, context: object, /) -> None:
        # Computed once: edits build a new Catalog (never model_copy, which would copy this).
        s, u, hidden = self.shipped, self.user, self.hidden_ids
        self._view = _View(
            gpus=_effective(s.gpus, u.gpus, hidden(RecordKind.GPU)),
            builds=_effective(s.builds, u.builds, hidden(RecordKind.BUILD)),
            systems=_effective(s.systems, u.systems, hidden(RecordKind.SYSTEM)),
            cloud=_effective(s.cloud, u.cloud, hidden(RecordKind.CLOUD)),
            models=_effective(s.models, u.models, hidden(RecordKind.MODEL)),
            parts=_effective(s.parts, u.parts, hidden(RecordKind.PART)),
            platforms=_effective(s.platforms, u.platforms, hidden(RecordKind.PLATFORM)),
        )

    def model_copy(self, *, update: Mapping[str, object] | None = None, deep: bool = False) -> Catalog:
        """A validated copy (pydantic's would carry the old effective view along)."""
        fields = {"shipped": self.shipped, "user": self.user, "hidden": self.hidden, **(update or {})}
        return Catalog.model_validate(fields)

    def hidden_ids(self, kind: RecordKind) -> frozenset[str]:
        return self.hidden.get(RecordKind(kind), frozenset())

    def of(self, kind: RecordKind) -> Mapping[str, CatalogRecord]:
        """Effective records of ``kind``: shipped minus hidden, user records on top."""
        return records_of(self._view, kind)

    @property
    def gpus(self) -> Mapping[str, Gpu]:
        return self._view.gpus

    @property
    def builds(self) -> Mapping[str, Build]:
        return self._view.builds

    @property
    def systems(self) -> Mapping[str, PrebuiltSystem]:
        return self._view.systems

    @property
    def cloud(self) -> Mapping[str, CloudInstance]:
        return self._view.cloud

    @property
    def models(self) -> Mapping[str, ModelArch]:
        return self._view.models

    @property
    def parts(self) -> Mapping[str, PlatformPart]:
        return self._view.parts

    @property
    def platforms(self) -> Mapping[str, PlatformTier]:
        return self._view.platforms

    def get(self, kind: RecordKind, record_id: str) -> CatalogRecord:
        try:
            return self.of(kind)[record_id]
        except KeyError:
            raise self.missing(kind, record_id) from None

    def missing(self, kind: RecordKind, record_id: str) -> UnknownRecord:
        """The error for an id not in view, saying so where the user hid it."""
        detail = "hidden by the user" if record_id in self.hidden_ids(kind) else ""
        return UnknownRecord(kind, record_id, detail)

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

