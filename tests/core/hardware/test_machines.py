"""Whole machines from cards: a cards-only build on the cheapest platform tier that carries them."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.hardware.machines import machine_build, needs_platform, on_platform, price_tier, with_tier
from advisor.core.hardware.tiers import tier_for
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(migrate_user_files=False).catalog


def test_cards_on_their_tier_get_its_ram_slots_and_power(catalog):
    pair = machine_build(catalog, "rtx-3090", 2)
    tier = pair.tier
    assert tier.id == "desktop-two-cards" and pair.host_ram_gib == tier.host_ram_gib
    assert pair.topology.pcie_lanes_per_gpu == (16, 4) and pair.topology.slot_spacing == tier.slot_spacing
    from advisor.core.hardware.power import build_power

    assert build_power(pair).psu_w == tier.psu_w and build_power(pair).platform_w == tier.platform_power_w
    assert not needs_platform(pair) and tier_for(catalog.platforms.values(), []) is not None


def test_what_needs_a_platform_and_what_stands_for_its_price(catalog):
    assert needs_platform(gpu_build(catalog, "rtx-3090", 2))
    assert not needs_platform(gpu_build(catalog, "h100-sxm", 8))  # modules on their baseboard
    assert not needs_platform(resolve_build(catalog, "2x-rtx-3090-nvlink"))  # its platform is stated or listed
    assert price_tier(catalog, gpu_build(catalog, "h100-sxm", 8)) is None
    pair = machine_build(catalog, "rtx-3090", 2)
    assert price_tier(catalog, pair) is pair.tier
    assert price_tier(catalog, gpu_build(catalog, "rtx-3090", 2)) == pair.tier


def test_with_tier_caps_the_pcie_generation_and_keeps_stated_ram(catalog):
    tier = catalog.platforms["desktop-one-card"]
    card = gpu_build(catalog, "rtx-5090", 1).model_copy(update={"host_ram_gib": 256.0})
    on = with_tier(card, tier)
    assert on.tier is tier and on.host_ram_gib == 256.0
    assert on.topology.pcie_gen == min(card.topology.pcie_gen, tier.pcie_gen)
    assert on_platform(catalog, on) is on  # already on its tier
