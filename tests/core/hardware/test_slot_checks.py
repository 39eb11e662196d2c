"""Where the cards sit: slot spacing against card width, NVLink bridges against the span, the board's slots, CPU lanes."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.hardware.checks import Severity, WarningKind, check_build
from advisor.core.hardware.records import Build, Gpu
from tests.catalog_fixtures import build_data, catalog_of, gpu_data
from tests.hardware_builders import CPU, FULL, GPU_A, GPU_NV, PSU, RAM, board, build_messages, gpu, kinds, nvlink
from tests.hardware_builders import part, parts_catalog, resolved


@pytest.mark.parametrize(
    ("width", "spacing", "expected"),
    [(3.5, 3, Severity.ERROR), (3, 3, Severity.WARNING), (2, 3, None), (2.5, 3, None)],
)


def test_slot_spacing_vs_card_width(width, spacing, expected):
    wide = GPU_A.model_copy(update={"slot_width": width})
    build = Build.model_validate(build_data("b", topology={"slot_spacing": spacing, "p2p": False}))
    found = [w.severity for w in check_build(resolve_build(catalog_of(wide, build), "b")) if w.kind is WarningKind.SLOT_SPACING]
    assert found == ([expected] if expected else [])


def test_unknown_slot_spacing_is_noted():
    warnings = check_build(resolved(topology={"p2p": False}))
    assert (WarningKind.SLOT_SPACING, Severity.INFO) in kinds(warnings)


def test_modules_on_their_baseboard_have_no_slots_to_check():
    # SXM / OAM modules sit on an HGX or UBB board: "slot spacing unknown" would be noise to a buyer.
    module = Gpu.model_validate(gpu_data("h100-sxm", form_factor="SXM5 module (HGX H100)", slot_width=None))
    card = Gpu.model_validate(gpu_data("l40s", form_factor="PCIe card, dual-slot, passive"))
    assert module.is_module and not card.is_module
    kinds_of = {g.id: {w.kind for w in check_build(gpu_build(catalog_of(g), g.id, 8))} for g in (module, card)}
    assert WarningKind.SLOT_SPACING not in kinds_of["h100-sxm"]
    assert WarningKind.SLOT_SPACING in kinds_of["l40s"]


def test_canonical_pair_3090_like_nvlink_on_4_slot_spacing_is_clean():
    warnings = [w for w in check_build(nvlink(4)) if w.severity is not Severity.INFO]
    assert warnings == []


def test_nvlink_span_without_a_bridge_is_an_error():
    warnings = [w for w in check_build(nvlink(2)) if w.kind is WarningKind.NVLINK_BRIDGE]
    assert kinds(tuple(warnings)) == [(WarningKind.NVLINK_BRIDGE, Severity.ERROR)]
    assert "2 slots apart" in warnings[0].message and "3-slot, 4-slot" in warnings[0].message


def test_nvlink_on_cards_without_a_link_or_of_different_models():
    top = {"nvlink_pairs": [[0, 1]], "slot_spacing": 4, "p2p": False}
    no_link = resolved(topology=top)
    assert (WarningKind.NVLINK_BRIDGE, Severity.ERROR) in kinds(check_build(no_link))
    other = GPU_NV.model_copy(update={"id": "card-nv2", "name": "Other NV"})
    build = Build.model_validate(build_data("b", gpus=[{"gpu_id": "card-nv", "count": 1}, {"gpu_id": "card-nv2", "count": 1}], topology=top))
    msgs = [w.message for w in check_build(resolve_build(catalog_of(GPU_NV, other, build), "b")) if w.kind is WarningKind.NVLINK_BRIDGE]
    assert any("same model" in m for m in msgs)


def test_cpu_lanes_oversubscribed_and_chipset_lanes():
    lanes = [w for w in check_build(resolved(cpu_pcie_lanes=24)) if w.kind is WarningKind.PCIE_LANES]
    assert kinds(tuple(lanes)) == [(WarningKind.PCIE_LANES, Severity.WARNING)] and "32 CPU lanes" in lanes[0].message
    assert not [w for w in check_build(resolved(cpu_pcie_lanes=64)) if w.kind is WarningKind.PCIE_LANES]
    top = {"p2p": False, "slot_spacing": 4, "lane_sources": ["cpu", "chipset"], "pcie_lanes_per_gpu": [16, 4]}
    found = kinds(check_build(resolved(cpu_pcie_lanes=24, topology=top)))
    assert found.count((WarningKind.PCIE_LANES, Severity.WARNING)) == 1  # chipset; 16 CPU lanes fit in 24
    assert (WarningKind.PCIE_LANES, Severity.INFO) in found  # x4 of x16


@pytest.mark.parametrize("spacing, bridge_span, error", [(4, 4, None), (3, 4, "3 slots apart but"),
                                                         (4, None, "0 NVLink bridge(s) for 1")])


def test_bridge_parts_must_match_the_pair_span(spacing, bridge_span, error):
    bridges = [part("br", part="nvlink_bridge", bridge_slot_spacing=bridge_span)] if bridge_span else []
    parts = {**FULL, "nvlink_bridges": [b.id for b in bridges], "gpu_slots": [1, 1 + spacing]}
    cat = parts_catalog(CPU, PSU, RAM, board(1, 4, 5), *bridges, gpus=[gpu(width=2)], parts=parts,
                  topology={"nvlink_pairs": [[0, 1]]})
    errors = " | ".join(build_messages(cat, Severity.ERROR))
    assert (error in errors) if error else "NVLink" not in errors
