"""Pure edits of a catalog (each returns a new one) and the references its records make to records it lacks."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import (
    Catalog,
    CatalogLayer,
    Origin,
    RecordKind,
    UnknownRecord,
    dangling_references,
    hide,
    reset_to_shipped,
    unhide,
    with_record,
    without_record,
)
from advisor.core.hardware.records import Build, CloudInstance, Gpu, PlatformPart, PrebuiltSystem
from advisor.core.model.arch import ModelArch
from tests.catalog_fixtures import (
    bridged_gpu_data,
    build_data,
    catalog_of,
    cloud_data,
    gpu_data,
    model_data,
    system_data,
)

SRC = ["https://example.org/spec"]
PRICE = {"kind": "street_new", "usd": 100, "date_seen": "2026-01-01", "source": "https://example.org/p"}


def gpu(gid="card", width=2.0, connectors="1x 16-pin", tdp=450.0, lanes=16):
    return Gpu(id=gid, sources=SRC, vendor="V", name=gid.upper(), segment="consumer", memory_gib=24,
               memory_gb_marketing=24, tdp_w=tdp, slot_width=width, power_connectors=connectors, pcie_lanes=lanes,
               nvlink={"version": "NVLink 3", "total_gb_per_s_per_gpu": 112.5, "max_gpus": 2,
                       "bridge_slot_spacings": [3, 4]})


def part(pid, **kw):
    return PlatformPart(id=pid, sources=SRC, vendor="V", name=pid, **kw)


def parts_catalog(*parts, gpus=(), **build_kw):
    g = list(gpus) or [gpu()]
    build = Build(id="b", sources=SRC, name="b", gpus=[{"gpu_id": g[0].id, "count": build_kw.pop("count", 2)}],
                  **build_kw)
    layer = CatalogLayer(gpus={x.id: x for x in g}, builds={"b": build}, parts={p.id: p for p in parts})
    return Catalog(shipped=layer)
CPU = part("cpu", part="cpu", power_w=150, pcie_lanes=64, prices=[PRICE])


def test_dangling_and_wrong_kind_part_references():
    problems = dangling_references(parts_catalog(CPU, parts={"cpu": "nope", "psu": "cpu"}))
    assert [(f, m.split(",")[0]) for _, _, f, m in problems] == [
        ("parts.cpu", "names part 'nope'"), ("parts.psu", "names part 'cpu'")]
GPU_A = Gpu.model_validate(gpu_data("card-a"))
GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))
BUILD = Build.model_validate(build_data("two-a"))
MIXED = Build.model_validate(build_data("mixed", gpus=[{"gpu_id": "card-nv", "count": 1}, {"gpu_id": "card-a", "count": 2}]))
SYSTEM = PrebuiltSystem.model_validate(system_data("box"))
CLOUD = CloudInstance.model_validate(cloud_data("inst"))
MODEL = ModelArch.model_validate(model_data("tiny"))


@pytest.fixture
def catalog() -> Catalog:
    return catalog_of(GPU_A, GPU_NV, BUILD, MIXED, SYSTEM, CLOUD, MODEL)


def test_user_record_overrides_shipped_and_edits_are_pure(catalog):
    mine = GPU_A.model_copy(update={"name": "My card A"})
    edited = with_record(catalog, mine)
    assert edited.gpus["card-a"].name == "My card A"
    assert edited.origin(RecordKind.GPU, "card-a") is Origin.OVERRIDE
    assert catalog.gpus["card-a"].name == "Acme card-a"  # the original is untouched
    back = reset_to_shipped(edited, RecordKind.GPU, "card-a")
    assert back.gpus["card-a"] == GPU_A and back.origin(RecordKind.GPU, "card-a") is Origin.SHIPPED


def test_new_user_record_has_user_origin(catalog):
    new = GPU_A.model_copy(update={"id": "card-z"})
    assert with_record(catalog, new).origin(RecordKind.GPU, "card-z") is Origin.USER


def test_without_record_hides_shipped_and_unhide_brings_it_back(catalog):
    gone = without_record(catalog, RecordKind.GPU, "card-a")
    assert "card-a" not in gone.gpus and gone.hidden_ids(RecordKind.GPU) == {"card-a"}
    with pytest.raises(UnknownRecord, match="hidden by the user"):
        gone.get(RecordKind.GPU, "card-a")
    assert unhide(gone, RecordKind.GPU, "card-a").gpus["card-a"] == GPU_A
    assert "card-a" in catalog.gpus


def test_without_record_drops_user_only_record(catalog):
    new = GPU_A.model_copy(update={"id": "card-z"})
    dropped = without_record(with_record(catalog, new), RecordKind.GPU, "card-z")
    assert "card-z" not in dropped.gpus and not dropped.hidden


def test_hiding_a_user_only_record_is_refused(catalog):
    edited = with_record(catalog, GPU_A.model_copy(update={"id": "card-z"}))
    with pytest.raises(UnknownRecord, match="only shipped"):
        hide(edited, RecordKind.GPU, "card-z")
