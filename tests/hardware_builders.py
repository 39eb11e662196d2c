"""Made-up hardware records, validated, for the hardware and cost tests (never the shipped data, which changes).

Two families: records built from ``tests.catalog_fixtures``' dicts (``GPU_A`` … ``MODEL``, ``resolved``), and a
whole machine of platform parts (``gpu``, ``part``, ``board``, ``parts_catalog``, ``CPU``, ``PSU``, ``RAM``, ``FULL``).
Numbers are plausible but invented for the tests; nothing here is a spec claim.
"""

from __future__ import annotations

from advisor.core.hardware.catalog import Catalog, CatalogLayer, resolve_build
from advisor.core.hardware.checks import BuildWarning, Severity, WarningKind, check_build
from advisor.core.hardware.records import (
    Build,
    CloudInstance,
    Gpu,
    PlatformPart,
    PrebuiltSystem,
    ResolvedBuild,
)
from advisor.core.model.arch import ModelArch
from tests.catalog_fixtures import (
    SRC,
    bridged_gpu_data,
    build_data,
    catalog_of,
    cloud_data,
    gpu_data,
    model_data,
    system_data,
)

# One record of each kind, from the catalog fixtures' dicts.
GPU_A = Gpu.model_validate(gpu_data("card-a"))
GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))
BUILD = Build.model_validate(build_data("two-a"))
MIXED = Build.model_validate(build_data("mixed", gpus=[{"gpu_id": "card-nv", "count": 1}, {"gpu_id": "card-a", "count": 2}]))
SYSTEM = PrebuiltSystem.model_validate(system_data("box"))
CLOUD = CloudInstance.model_validate(cloud_data("inst"))
MODEL = ModelArch.model_validate(model_data("tiny"))


def every_kind_catalog() -> Catalog:
    """A shipped catalog of the records above: two cards, two builds, a system, a cloud instance and a model."""
    return catalog_of(GPU_A, GPU_NV, BUILD, MIXED, SYSTEM, CLOUD, MODEL)


def resolved(**build_over) -> ResolvedBuild:
    """A build of card-a (or of what ``gpus`` names), resolved against a two-card catalog."""
    build = Build.model_validate(build_data("b", **build_over))
    return resolve_build(catalog_of(GPU_A, GPU_NV, build), "b")


def nvlink(spacing, **over) -> ResolvedBuild:
    """Two bridged cards as an NVLink pair, ``spacing`` slots apart, with CPU lanes enough for both."""
    top = {"nvlink_pairs": [[0, 1]], "slot_spacing": spacing, "p2p": False}
    return resolved(gpus=[{"gpu_id": "card-nv", "count": 2}], topology=top, cpu_pcie_lanes=64, **over)


def kinds(warnings: tuple[BuildWarning, ...]) -> list[tuple[WarningKind, Severity]]:
    return [(w.kind, w.severity) for w in warnings]


# A whole machine of platform parts: a card, a board of slots, CPU, PSU and RAM, each priced at $100 new.
SOURCES = [SRC]
PRICE = {"kind": "street_new", "usd": 100, "date_seen": "2026-01-01", "source": "https://example.org/p"}


def gpu(gid="card", width=2.0, connectors="1x 16-pin", tdp=450.0, lanes=16) -> Gpu:
    return Gpu(id=gid, sources=SOURCES, vendor="V", name=gid.upper(), segment="consumer", memory_gib=24,
               memory_gb_marketing=24, tdp_w=tdp, slot_width=width, power_connectors=connectors, pcie_lanes=lanes,
               nvlink={"version": "NVLink 3", "total_gb_per_s_per_gpu": 112.5, "max_gpus": 2,
                       "bridge_slot_spacings": [3, 4]})


def part(pid, **kw) -> PlatformPart:
    return PlatformPart(id=pid, sources=SOURCES, vendor="V", name=pid, **kw)


def board(*positions, lanes=16, **slot) -> PlatformPart:
    return part("board", part="motherboard", prices=[PRICE],
                slots=[{"position": p, "lanes": lanes, "pcie_gen": 4, **slot} for p in positions])


def parts_catalog(*parts, gpus=(), **build_kw) -> Catalog:
    """A catalog of ``parts`` and a build "b" of two of the first of ``gpus`` (``count`` to change)."""
    g = list(gpus) or [gpu()]
    build = Build(id="b", sources=SOURCES, name="b", gpus=[{"gpu_id": g[0].id, "count": build_kw.pop("count", 2)}],
                  **build_kw)
    layer = CatalogLayer(gpus={x.id: x for x in g}, builds={"b": build}, parts={p.id: p for p in parts})
    return Catalog(shipped=layer)


CPU = part("cpu", part="cpu", power_w=150, pcie_lanes=64, prices=[PRICE])
PSU = part("psu", part="psu", psu_w=1600, connectors_12v_2x6=2, connectors_pcie_8pin=6, prices=[PRICE])
RAM = part("ram", part="ram", capacity_gib=64, prices=[PRICE])
FULL = {"cpu": "cpu", "board": "board", "psu": "psu", "ram": "ram", "ram_kits": 2}


def build_messages(cat: Catalog, severity: Severity | None = None) -> list[str]:
    """The check messages of build "b" in ``cat`` (of one severity, if given)."""
    return [w.message for w in check_build(resolve_build(cat, "b")) if severity is None or w.severity is severity]
