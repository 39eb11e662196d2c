"""Derived build price and power, and the physical build checks."""

import datetime as dt

import pytest


from advisor.core.cost.machine import PriceChoice, machine_price, today_price
from advisor.core.hardware.catalog import gpu_build, resolve_build, with_record
from advisor.core.hardware.checks import PSU_ATX2_TRANSIENT_FACTOR, BuildWarning, Severity, WarningKind, check_build
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import Build, Gpu, PriceKind
from tests.catalog_fixtures import bridged_gpu_data, build_data, catalog_of, gpu_data, price

GPU_A = Gpu.model_validate(gpu_data("card-a"))
GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))


def resolved(**build_over):
    """A build of card-a (or of what ``gpus`` names), resolved against a two-card catalog."""
    build = Build.model_validate(build_data("b", **build_over))
    return resolve_build(catalog_of(GPU_A, GPU_NV, build), "b")


def kinds(warnings: tuple[BuildWarning, ...]) -> list[tuple[WarningKind, Severity]]:
    return [(w.kind, w.severity) for w in warnings]


# --- prices and power ---------------------------------------------------------------------


TODAY = dt.date(2026, 11, 27)


def test_new_price_is_newest_street_price():
    older = price("street_new", 1300, "2025-01-01")
    gpu = Gpu.model_validate(gpu_data(prices=[older, price("street_new", 1100, "2026-05-01"), price("launch_msrp", 1499, "2020-09-01")]))
    assert today_price(gpu.prices, PriceChoice.NEW, TODAY).usd == 1100


def test_an_old_launch_price_is_not_todays_price():
    """A 2020 launch price is no price one can buy at in 2026: after a year only street and list prices count."""
    gpu = Gpu.model_validate(gpu_data(prices=[price("launch_msrp", 1499, "2020-09-01"), price("list", 1600, "2026-01-01")]))
    assert today_price(gpu.prices, PriceChoice.NEW, TODAY).kind is PriceKind.LIST
    msrp_only = Gpu.model_validate(gpu_data(prices=[price("launch_msrp", 1499, "2020-09-01")]))
    assert today_price(msrp_only.prices, PriceChoice.NEW, TODAY) is None
    assert today_price(msrp_only.prices, PriceChoice.NEW, dt.date(2021, 3, 1)).usd == 1499  # within its year
    assert today_price(msrp_only.prices, PriceChoice.USED, TODAY) is None


def test_machine_price_sums_gpus_and_platform():
    cost = machine_price(resolved(), PriceChoice.NEW, TODAY)
    assert cost.gpus_usd == 2200 and cost.platform_usd == 1000 and cost.usd == 3200 and cost.missing == ()


def test_used_or_new_takes_the_lower_of_each_part():
    used = price("used", 700, "2026-06-01", usd_low=600, usd_high=800)
    gpu = Gpu.model_validate(gpu_data(prices=[*gpu_data()["prices"], used]))
    build = Build.model_validate(build_data("b"))
    cost = machine_price(resolve_build(catalog_of(gpu, build), "b"), PriceChoice.EITHER, TODAY)
    assert (cost.gpus_usd, cost.usd, cost.kind) == (1400, 2400, "used GPUs, new platform")


def test_unknown_price_stays_unknown_and_says_what():
    cost = machine_price(resolved(), PriceChoice.USED, TODAY)
    assert cost.usd is None and cost.missing == ("used price of Acme card-a",)
    cards_only = machine_price(gpu_build(catalog_of(GPU_A), "card-a", 2), PriceChoice.NEW, TODAY)
    assert cards_only.usd is None  # never the GPUs alone
    assert "no platform tier carries these cards" in cards_only.missing[0]


def test_power_sums_tdps_and_platform():
    power = build_power(resolved())
    assert (power.gpus_w, power.platform_w, power.total_w, power.psu_w) == (700, 250, 950, 1600)
    no_tdp = GPU_A.model_copy(update={"tdp_w": None})
    assert build_power(gpu_build(catalog_of(no_tdp), "card-a", 2)).total_w is None


# --- checks -------------------------------------------------------------------------------


def test_psu_below_load_is_an_error_and_thin_margin_a_warning():
    assert kinds(check_build(resolved(psu_w=900))).count((WarningKind.PSU, Severity.ERROR)) == 1
    thin = 950 * PSU_ATX2_TRANSIENT_FACTOR - 1
    assert (WarningKind.PSU, Severity.WARNING) in kinds(check_build(resolved(psu_w=thin)))
    assert not [w for w in check_build(resolved(psu_w=1600)) if w.kind is WarningKind.PSU]


def test_psu_with_unknown_load_says_not_checked():
    warnings = check_build(resolved(platform_power_w=None))
    assert (WarningKind.PSU, Severity.INFO) in kinds(warnings)


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


def nvlink(spacing, **over):
    top = {"nvlink_pairs": [[0, 1]], "slot_spacing": spacing, "p2p": False}
    return resolved(gpus=[{"gpu_id": "card-nv", "count": 2}], topology=top, cpu_pcie_lanes=64, **over)


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
