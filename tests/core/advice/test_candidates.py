"""The search's candidates: every machine, build, system and cloud instance, each priced whole."""

import datetime as dt


from advisor.core.advice.candidates import PriceChoice, Where, catalog_candidates

TODAY = dt.date(2026, 11, 27)


def test_candidates_are_machines_builds_systems(catalog):
    owned = catalog_candidates(catalog, PriceChoice.NEW, Where.OWNED, max_gpus=8, today=TODAY)
    kinds = {c.kind for c in owned}
    assert kinds == {"machine", "build", "system"}
    names = {c.id for c in owned}
    assert "1x-rtx-4090" in names and "6x-rtx-4090" in names and "2x-rtx-3090" in names
    assert "8x-rtx-4090" not in names  # 3,600 W of cards: no tier's power supplies feed them
    assert "2x-rtx-3090-nvlink" in names  # the catalog build, not a typical-platform copy of it
    assert not any(c.kind == "machine" and "h100-sxm" in c.id for c in owned)  # SXM modules are not cards
    cloud = catalog_candidates(catalog, where=Where.CLOUD, today=TODAY)
    assert cloud and all(c.price_kind in ("per_hour", None) for c in cloud)


def test_no_candidate_is_priced_as_its_gpus_alone(catalog):
    """Issue: 3x-8x Tesla P100 at $180-480 for the cards alone. Every machine now carries a platform tier in its
    price, fanless datacenter cards a fan each where the chassis has no server airflow."""
    owned = catalog_candidates(catalog, PriceChoice.EITHER, Where.OWNED, today=TODAY)
    for c in owned:
        if c.price_usd is None:
            continue
        assert c.price.date is not None and c.price.includes and c.price.kind, c.id
        if c.kind == "machine":
            assert c.build.tier is not None and c.price.platform_usd and c.price_usd > c.price.gpus_usd, c.id
    p100 = next(c for c in owned if c.id == "3x-tesla-p100-16gb-pcie")
    assert "fan and shroud for each of 3 fanless cards" in p100.price.includes
    assert p100.price_usd >= 3 * 60 + 1000  # cards + a workstation platform, not $180


def test_a_machine_gets_the_cheapest_tier_that_carries_its_cards(catalog):
    tiers = {c.id: c.build.tier.id for c in catalog_candidates(catalog, today=TODAY) if c.kind == "machine"}
    assert tiers["1x-rtx-3090"] == "desktop-one-card" and tiers["2x-rtx-3090"] == "desktop-two-cards"
    assert tiers["4x-rtx-3090"] == "workstation-four-cards"  # four 350 W cards: one 1,600 W PSU
    assert tiers["4x-rtx-4090"] == "server-eight-cards"  # four 450 W cards are over one 1,600 W PSU
    assert tiers["8x-rtx-3090"] == "server-eight-cards"
