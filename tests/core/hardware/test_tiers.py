"""Platform tiers: the typical machine that carries N cards, what it takes and what more RAM costs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.tiers import PlatformTier, passively_cooled, ram_step, tier_takes
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(migrate_user_files=False).catalog


def test_fanless_datacenter_cards_are_told_from_cards_with_fans(catalog):
    g = catalog.gpus
    assert passively_cooled(g["tesla-p40"]) and passively_cooled(g["a100-80gb-pcie"]) and passively_cooled(g["l40s"])
    assert not passively_cooled(g["rtx-3090"]) and not passively_cooled(g["rtx-pro-6000-blackwell"])


def test_a_tier_says_why_it_cannot_carry_cards(catalog):
    g, t = catalog.gpus, catalog.platforms
    assert tier_takes(t["desktop-one-card"], [g["rtx-3090"]] * 2) == "it carries at most 1 card"
    assert "W of cards" in tier_takes(t["workstation-four-cards"], [g["rtx-4090"]] * 4)  # 1,800 W on one 1,600 W PSU
    assert "fanless datacenter cards only" in tier_takes(t["used-gpu-server-four-cards"], [g["rtx-4060-ti-16gb"]])
    assert tier_takes(t["desktop-two-cards"], [g["tesla-p40"]] * 2) is None  # with a fan and shroud each


def test_more_ram_comes_in_common_sizes_the_board_takes(catalog):
    desk = catalog.platforms["desktop-two-cards"]
    assert ram_step(desk, 40) is None  # its 64 GB hold it
    assert ram_step(desk, 100) == 128 and ram_step(desk, 142) == 192 and ram_step(desk, 300) is None


def test_a_priced_cooler_or_ram_needs_its_source_and_date(catalog):
    data = catalog.platforms["desktop-one-card"].model_dump()
    with pytest.raises(ValidationError, match="passive_cooler_source"):
        PlatformTier.model_validate({**data, "passive_cooler_date": None})
    with pytest.raises(ValidationError, match="ram_price_source"):
        PlatformTier.model_validate({**data, "ram_price_source": None})
