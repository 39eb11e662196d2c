"""Platform parts: records validate, builds name them, totals, power and checks are whole-machine."""

import datetime as dt
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.core.cost.machine import PriceChoice, machine_price
from advisor.core.hardware.catalog import Catalog, CatalogLayer, RecordKind, resolve_build
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import Build, Gpu, PlatformPart
from advisor.storage.catalog_store import load_catalog

SRC = ["https://example.org/spec"]
PRICE = {"kind": "street_new", "usd": 100, "date_seen": "2026-01-01", "source": "https://example.org/p"}


def gpu(gid="card", width=2.0, connectors="1x 16-pin", tdp=450.0, lanes=16):
    return Gpu(id=gid, sources=SRC, vendor="V", name=gid.upper(), segment="consumer", memory_gib=24,
               memory_gb_marketing=24, tdp_w=tdp, slot_width=width, power_connectors=connectors, pcie_lanes=lanes,
               nvlink={"version": "NVLink 3", "total_gb_per_s_per_gpu": 112.5, "max_gpus": 2,
                       "bridge_slot_spacings": [3, 4]})


def part(pid, **kw):
    return PlatformPart(id=pid, sources=SRC, vendor="V", name=pid, **kw)


def board(*positions, lanes=16, **slot):
    return part("board", part="motherboard", prices=[PRICE],
                slots=[{"position": p, "lanes": lanes, "pcie_gen": 4, **slot} for p in positions])


def catalog(*parts, gpus=(), **build_kw):
    g = list(gpus) or [gpu()]
    build = Build(id="b", sources=SRC, name="b", gpus=[{"gpu_id": g[0].id, "count": build_kw.pop("count", 2)}],
                  **build_kw)
    layer = CatalogLayer(gpus={x.id: x for x in g}, builds={"b": build}, parts={p.id: p for p in parts})
    return Catalog(shipped=layer)


CPU = part("cpu", part="cpu", power_w=150, pcie_lanes=64, prices=[PRICE])
PSU = part("psu", part="psu", psu_w=1600, connectors_12v_2x6=2, connectors_pcie_8pin=6, prices=[PRICE])
RAM = part("ram", part="ram", capacity_gib=64, prices=[PRICE])
FULL = {"cpu": "cpu", "board": "board", "psu": "psu", "ram": "ram", "ram_kits": 2}


@pytest.mark.parametrize("kind, missing", [("cpu", "pcie_lanes"), ("motherboard", "slots"), ("psu", "psu_w"),
                                           ("ram", "capacity_gib"), ("nvlink_bridge", "bridge_slot_spacing")])
def test_a_part_needs_the_fields_of_its_kind(kind, missing):
    with pytest.raises(ValidationError, match=missing):
        part("x", part=kind)


def test_a_board_cannot_have_two_slots_in_one_position():
    with pytest.raises(ValidationError, match="position"):
        board(1, 1)


TODAY = dt.date(2026, 11, 27)


def build_cost(build, choice=PriceChoice.NEW):
    return machine_price(build, choice, TODAY)


def test_a_build_without_parts_stays_valid_and_says_no_platform():
    cost = build_cost(resolve_build(catalog(), "b"))
    assert cost.usd is None and any(m.startswith("no platform tier") for m in cost.missing)


def test_whole_machine_total_power_and_no_unknown():
    cat = catalog(CPU, board(1, 4), PSU, RAM, parts=FULL)
    resolved = resolve_build(cat, "b")
    cost = build_cost(resolved)
    assert cost.platform_usd == 100 * 5  # cpu + board + psu + 2 RAM kits
    assert cost.missing == ("new price of CARD",)  # only the (unpriced) test GPU
    power = build_power(resolved)
    assert (power.platform_w, power.psu_w) == (150, 1600)


def test_a_missing_psu_or_unpriced_part_is_named():
    unpriced = part("ram", part="ram", capacity_gib=64)
    cost = build_cost(resolve_build(catalog(CPU, board(1, 4), unpriced, parts={**FULL, "psu": None}), "b"))
    assert cost.platform_usd is None and cost.usd is None  # no PSU listed, a part unpriced, and no tier to stand in
    used = build_cost(resolve_build(catalog(CPU, board(1, 4), PSU, RAM, parts=FULL), "b"), PriceChoice.USED)
    assert used.platform_usd == 500  # parts without a used price count at their new price


# One row per rule: board slots and lanes, spacing vs card width, PSU wattage and cables, bridges.


SHIPPED = Path(__file__).resolve().parents[3] / "catalog"

#: Shipped builds and their price today (new, 2026-11-27): GPUs plus their listed parts where every listed part
#: has a price, else the typical platform tier for their cards (``advisor.core.hardware.machines.price_tier``);
#: the Mac, DGX Spark and Framework at the machine's own price. A build whose price moves must be listed here on
#: purpose. 8x-h100-sxm has no price: no dated price of an H100 SXM module and no tier carries modules; nor has the
#: 512 GB Mac Studio, no longer sold new.
SHIPPED_NEW_PRICES = {
    "1x-rtx-5090": 5209.19, "1x-rtx-pro-6000": 10034.19, "2x-rtx-4090-pcie-x8": 5653.06, "dgx-spark": 4699.0,
    "framework-desktop-ryzen-ai-max-395": 1999.0, "mac-studio-m3-ultra": 5299.0,
    "2x-rtx-3090-nvlink": 3855.4, "2x-rtx-4090-pcie-x16": 4835.0, "2x-rtx-5090": 8385.0, "4x-rtx-3090": 7354.8,
}


def test_shipped_parts_load_as_their_kind():
    cat = load_catalog(SHIPPED, SHIPPED / ".no-user").catalog
    assert {p.part.value for p in cat.of(RecordKind.PART).values()} >= {"cpu", "motherboard", "psu", "nvlink_bridge"}
