"""Platform parts: records validate, builds name them, totals, power and checks are whole-machine."""

import datetime as dt
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.core.cost.machine import PriceChoice, machine_price
from advisor.core.hardware.catalog import Catalog, CatalogLayer, RecordKind, dangling_references, resolve_build
from advisor.core.hardware.checks import Severity, check_build, gpu_power_connectors
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


def test_dangling_and_wrong_kind_part_references():
    problems = dangling_references(catalog(CPU, parts={"cpu": "nope", "psu": "cpu"}))
    assert [(f, m.split(",")[0]) for _, _, f, m in problems] == [
        ("parts.cpu", "names part 'nope'"), ("parts.psu", "names part 'cpu'")]


def _messages(cat, severity=None):
    return [w.message for w in check_build(resolve_build(cat, "b")) if severity is None or w.severity is severity]


# One row per rule: board slots and lanes, spacing vs card width, PSU wattage and cables, bridges.
@pytest.mark.parametrize("parts, extra, gpus, expect", [
    (FULL, (board(1, 4),), [gpu(width=2)], []),
    (FULL, (board(1, 3),), [gpu(width=2)], ["no air gap"]),
    (FULL, (board(1, 3),), [gpu(width=3)], ["is 3 slots wide but the next GPU slot is 2 slots away"]),
    (FULL, (board(1),), [gpu()], ["has 1 x16-size slot(s) for 2 GPUs"]),
    ({**FULL, "gpu_slots": [1, 3]}, (board(1, 3),), [gpu(width=1)], []),
    (FULL, (part("board", part="motherboard", slots=[
        {"position": 1, "lanes": 16, "pcie_gen": 4, "shared_with": 4, "lanes_when_shared": 8},
        {"position": 4, "lanes": 8, "pcie_gen": 4}]),), [gpu()], ["is said to get x16 but slot 1"]),
    (FULL, (board(1, 4),), [gpu(connectors="2x 8-pin", tdp=300)], []),
    (FULL, (board(1, 4), part("psu", part="psu", psu_w=1600, connectors_12v_2x6=1, connectors_pcie_8pin=6)),
     [gpu(tdp=450)], ["1 GPU socket(s) need an adapter"]),
    (FULL, (board(1, 4),), [gpu(connectors="", tdp=300)], ["power sockets of CARD not known"]),
    (FULL, (board(1, 4), part("psu", part="psu", psu_w=800, connectors_12v_2x6=0, connectors_pcie_8pin=2)),
     [gpu(tdp=450)], ["800 W PSU is below", "too few for the GPUs' power sockets"]),
])
def test_whole_machine_checks(parts, extra, gpus, expect):
    by_id = {p.id: p for p in (CPU, PSU, RAM)} | {p.id: p for p in extra}
    topo = {"pcie_lanes_per_gpu": [16, 16]}
    messages = " | ".join(_messages(catalog(*by_id.values(), gpus=gpus, parts=parts, topology=topo)))
    for text in expect:
        assert text in messages
    if not expect:
        assert "slot" not in messages and "PSU" not in messages and "adapter" not in messages


@pytest.mark.parametrize("spacing, bridge_span, error", [(4, 4, None), (3, 4, "3 slots apart but"),
                                                         (4, None, "0 NVLink bridge(s) for 1")])
def test_bridge_parts_must_match_the_pair_span(spacing, bridge_span, error):
    bridges = [part("br", part="nvlink_bridge", bridge_slot_spacing=bridge_span)] if bridge_span else []
    parts = {**FULL, "nvlink_bridges": [b.id for b in bridges], "gpu_slots": [1, 1 + spacing]}
    cat = catalog(CPU, PSU, RAM, board(1, 4, 5), *bridges, gpus=[gpu(width=2)], parts=parts,
                  topology={"nvlink_pairs": [[0, 1]]})
    errors = " | ".join(_messages(cat, Severity.ERROR))
    assert (error in errors) if error else "NVLink" not in errors


@pytest.mark.parametrize("text, need", [("1x 16-pin", {"16-pin": 1, "12-pin": 0, "8-pin": 0}),
                                        ("1x 6-pin + 1x 8-pin", {"16-pin": 0, "12-pin": 0, "8-pin": 2}),
                                        ("8-pin EPS", None), ("", None), ("2x 8pin", None)])
def test_gpu_power_connectors_parsed(text, need):
    assert gpu_power_connectors(gpu(connectors=text)) == need


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


def test_the_shipped_builds_price_as_whole_machines():
    from advisor.core.hardware.machines import price_tier

    cat = load_catalog(SHIPPED, SHIPPED / ".no-user").catalog
    prices = {bid: machine_price(b := resolve_build(cat, bid), PriceChoice.NEW, TODAY, price_tier(cat, b))
              for bid in cat.builds}
    assert {bid: p.usd for bid, p in prices.items() if p.usd is not None} == pytest.approx(SHIPPED_NEW_PRICES)
    assert prices["8x-h100-sxm"].usd is None
    assert "not sold new since 2026-03-01" in prices["mac-studio-m3-ultra-512gb"].missing[0]  # Apple dropped 512 GB
    for bid, p in prices.items():
        assert p.usd is None or (p.date is not None and p.includes), bid
        assert not any(w.severity is Severity.ERROR and "x16" in w.message for w in check_build(resolve_build(cat, bid)))


def test_shipped_parts_load_as_their_kind():
    cat = load_catalog(SHIPPED, SHIPPED / ".no-user").catalog
    assert {p.part.value for p in cat.of(RecordKind.PART).values()} >= {"cpu", "motherboard", "psu", "nvlink_bridge"}
