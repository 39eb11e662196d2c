"""Checks of catalog data that a record's own schema cannot see: errors that change answers.

* A card's name against its memory: "Tesla V100 PCIe 16GB" with ``memory_gib`` 32 made two of them
  "fit" a 70B Q4 model. Every "NN GB" a GPU's name states must be its printed capacity
  (``memory_gb_marketing``), and the reported GiB within the schema's ratio of it.
* Every system can be evaluated, or is not offered: a system without a verified GPU configuration
  (``build`` None) is listed as such — the window's Add build and Find builds leave it out.
* A vendor is a name people read ("AMD"), never a note about where the record came from ("AMD (OEM
  servers)", "unknown (named in seed document)"): notes belong in ``notes``.
* A platform tier prices its platform: at least one dated price.

``catalog validate`` prints them; the shipped-data tests hold the shipped catalog to them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum

from pydantic import Field

from advisor.core.hardware.builds import PrebuiltSystem
from advisor.core.hardware.catalog_model import Catalog, RecordKind
from advisor.core.hardware.gpu import Gpu
from advisor.core.hardware.parts import PlatformPart
from advisor.core.schema import Frozen

#: "24GB", "24 GB", "1.5GB" in a name; not "GB10" (a chip) nor "GB/s".
_NAME_GB = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?GB\b(?!/)")
#: A vendor as people write it: letters, digits, spaces and . & ! ' + - (no parentheses, commas, semicolons).
_VENDOR = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .&!'+-]*$")


class Severity(StrEnum):
    ERROR = "error"  # the data is wrong: an answer changes
    NOTE = "note"  # what the app does about it (not offered), for the user to know


class DataProblem(Frozen):
    kind: RecordKind
    record_id: str
    field: str
    message: str
    severity: Severity = Field(Severity.ERROR)

    def __str__(self) -> str:
        return f"{self.severity.value}: {self.kind.value} {self.record_id}: {self.field}: {self.message}"


def name_memory_problems(catalog: Catalog) -> list[DataProblem]:
    out = []
    for gid, gpu in catalog.gpus.items():
        for stated in {float(m.group(1)) for m in _NAME_GB.finditer(gpu.name)}:
            if abs(stated - gpu.memory_gb_marketing) > 0.5:
                out.append(DataProblem(kind=RecordKind.GPU, record_id=gid, field="memory_gb_marketing",
                                       message=f"the name says {stated:g} GB but the record has "
                                               f"{gpu.memory_gb_marketing:g} GB ({gpu.memory_gib:g} GiB)"))
    return out


def vendor_problems(catalog: Catalog) -> list[DataProblem]:
    out = []
    vendored: tuple[tuple[RecordKind, Mapping[str, Gpu | PrebuiltSystem | PlatformPart]], ...] = (
        (RecordKind.GPU, catalog.gpus), (RecordKind.SYSTEM, catalog.systems), (RecordKind.PART, catalog.parts))
    for kind, records in vendored:
        for rid, record in records.items():
            vendor = record.vendor.strip()
            if vendor != "unknown" and not _VENDOR.match(vendor):
                out.append(DataProblem(kind=kind, record_id=rid, field="vendor",
                                       message=f"{vendor!r} is not a vendor's name: put notes about the vendor in "
                                               "notes"))
    return out


def unevaluable_systems(catalog: Catalog) -> list[DataProblem]:
    return [DataProblem(kind=RecordKind.SYSTEM, record_id=sid, field="build", severity=Severity.NOTE,
                        message="no verified GPU configuration: it cannot be evaluated, so Add build and Find builds "
                                "do not offer it")
            for sid, system in catalog.systems.items() if system.build is None]


def tier_problems(catalog: Catalog) -> list[DataProblem]:
    return [DataProblem(kind=RecordKind.PLATFORM, record_id=tid, field="prices",
                        message="a platform tier needs at least one dated price")
            for tid, tier in catalog.platforms.items() if not tier.prices]


def data_problems(catalog: Catalog) -> list[DataProblem]:
    """Every check above, errors first."""
    found = name_memory_problems(catalog) + vendor_problems(catalog) + tier_problems(catalog) + \
        unevaluable_systems(catalog)
    return sorted(found, key=lambda p: (p.severity is not Severity.ERROR, p.kind.value, p.record_id))


def offered_systems(catalog: Catalog) -> list[str]:
    """Systems the window offers in Add build: those it can evaluate."""
    return [sid for sid, system in catalog.systems.items() if system.build is not None]
