"""Every physical check of a build together: mixed cards, P2P, the order of findings."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import Catalog, CatalogLayer, gpu_build, resolve_build, with_record
from advisor.core.hardware.checks import BuildWarning, Severity, WarningKind, check_build
from advisor.core.hardware.records import Build, Gpu, PlatformPart
from tests.catalog_fixtures import bridged_gpu_data, build_data, catalog_of, gpu_data

GPU_A = Gpu.model_validate(gpu_data("card-a"))


GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))


def resolved(**build_over):
    """A build of card-a (or of what ``gpus`` names), resolved against a two-card catalog."""
    build = Build.model_validate(build_data("b", **build_over))
    return resolve_build(catalog_of(GPU_A, GPU_NV, build), "b")


def kinds(warnings: tuple[BuildWarning, ...]) -> list[tuple[WarningKind, Severity]]:
    return [(w.kind, w.severity) for w in warnings]


def nvlink(spacing, **over):
    top = {"nvlink_pairs": [[0, 1]], "slot_spacing": spacing, "p2p": False}
    return resolved(gpus=[{"gpu_id": "card-nv", "count": 2}], topology=top, cpu_pcie_lanes=64, **over)


def test_mixed_gpus_warn():
    mixed = resolved(gpus=[{"gpu_id": "card-a", "count": 1}, {"gpu_id": "card-nv", "count": 1}])
    assert (WarningKind.MIXED_GPUS, Severity.WARNING) in kinds(check_build(mixed))
    assert WarningKind.MIXED_GPUS not in [w.kind for w in check_build(resolved())]


def test_p2p_off_warns_on_pcie_but_not_on_a_bridged_pair():
    assert (WarningKind.P2P, Severity.WARNING) in kinds(check_build(resolved()))
    assert WarningKind.P2P not in [w.kind for w in check_build(nvlink(4))]
    assert WarningKind.P2P not in [w.kind for w in check_build(gpu_build(catalog_of(GPU_A), "card-a", 1))]


def test_p2p_claimed_on_a_card_without_it():
    warnings = check_build(resolved(topology={"p2p": True, "slot_spacing": 4}))
    assert any(w.kind is WarningKind.P2P and "stock drivers" in w.message for w in warnings)


def test_errors_come_first():
    severities = [w.severity for w in check_build(resolved(psu_w=500, topology={"p2p": False, "slot_spacing": 2}))]
    assert severities == sorted(severities, key=[Severity.ERROR, Severity.WARNING, Severity.INFO].index)
    assert severities[0] is Severity.ERROR


def test_canonical_comparison_3090_nvlink_vs_4090_pcie():
    """2x 3090-like with a bridge: no P2P warning; 2x 4090-like over PCIe without P2P: one."""
    catalog = with_record(catalog_of(GPU_A, GPU_NV), Build.model_validate(build_data("b")))
    pcie = check_build(gpu_build(catalog, "card-a", 2))
    assert (WarningKind.P2P, Severity.WARNING) in kinds(pcie)
    assert WarningKind.P2P not in [w.kind for w in check_build(nvlink(4))]


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


def _messages(cat, severity=None):
    return [w.message for w in check_build(resolve_build(cat, "b")) if severity is None or w.severity is severity]


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
