"""Every physical check of a build together: mixed cards, P2P, the order of findings."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import gpu_build, with_record
from advisor.core.hardware.checks import Severity, WarningKind, check_build
from advisor.core.hardware.records import Build
from tests.catalog_fixtures import build_data, catalog_of
from tests.hardware_builders import CPU, FULL, GPU_A, GPU_NV, PSU, RAM, board, build_messages, gpu, kinds, nvlink
from tests.hardware_builders import part, parts_catalog, resolved


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
    messages = " | ".join(build_messages(parts_catalog(*by_id.values(), gpus=gpus, parts=parts, topology=topo)))
    for text in expect:
        assert text in messages
    if not expect:
        assert "slot" not in messages and "PSU" not in messages and "adapter" not in messages
