"""Today's price of a whole machine (advisor.core.cost.machine): one function every screen calls."""

from __future__ import annotations

import datetime as dt
import statistics

import pytest

from advisor.core.cost.machine import (
    PRICE_MOVES,
    STALE_UNCERTAINTY,
    PriceChoice,
    hourly_price,
    is_stale,
    machine_price,
    price_words,
    today_price,
)
from advisor.core.hardware.records import CloudPrice, PricePoint
from advisor.storage.catalog_store import load_catalog

TODAY = dt.date(2026, 11, 27)
SRC = "https://example.org/p"


def _p(kind, usd, date):
    return PricePoint(kind=kind, usd=usd, date_seen=dt.date.fromisoformat(date), source=SRC)


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(migrate_user_files=False).catalog


def test_the_stale_uncertainty_is_the_median_of_the_cited_price_moves():
    assert STALE_UNCERTAINTY == pytest.approx(statistics.median(abs(b / a - 1) for _, a, b in PRICE_MOVES), abs=0.005)
    assert 0.2 < STALE_UNCERTAINTY < 0.6 and len(PRICE_MOVES) >= 5


def test_used_or_new_takes_the_lower_at_its_pessimistic_end():
    fresh_used, stale_new = _p("used", 1000, "2026-06-01"), _p("street_new", 900, "2025-01-01")
    # $900 seen two years ago ranks at 900 × (1 + uncertainty) > $1,000 seen this year: the used price is today's
    assert today_price((fresh_used, stale_new), PriceChoice.EITHER, TODAY) is fresh_used
    assert today_price((fresh_used, stale_new), PriceChoice.NEW, TODAY) is stale_new and is_stale(stale_new.date_seen, TODAY)


def test_a_product_no_longer_sold_new_keeps_only_later_shop_listings():
    old_list, later_shop = _p("list", 5000, "2025-12-01"), _p("street_new", 5500, "2026-05-01")
    assert today_price((old_list,), PriceChoice.NEW, TODAY, sold_new_until=dt.date(2026, 3, 1)) is None
    assert today_price((old_list, later_shop), PriceChoice.NEW, TODAY, dt.date(2026, 3, 1)) is later_shop


def test_the_canonical_pair_is_priced_whole_dated_and_says_what_it_includes(catalog):
    from advisor.core.hardware.machines import machine_build

    pair = machine_build(catalog, "rtx-3090", 2)
    used = machine_price(pair, PriceChoice.USED, TODAY)
    tier = catalog.platforms["desktop-two-cards"]
    # Today's used price of the card and of the typical platform, whichever the catalog holds: the figures follow the
    # data (a newer dated price replaces them), the rule does not.
    card = today_price(catalog.gpus["rtx-3090"].prices, PriceChoice.USED, TODAY)
    platform = today_price(tier.prices, PriceChoice.USED, TODAY)
    assert used.gpus_usd == 2 * card.usd and used.platform_usd == platform.usd and used.usd == 2 * card.usd + platform.usd
    oldest = min(card.date_seen, platform.date_seen)
    assert used.kind == "used" and used.date == oldest and used.platform == "desktop for two cards (typical)"
    assert used.includes.startswith("2× GeForce RTX 3090 + desktop for two cards, typical (")
    stale_usd = sum(u for p, u in ((card, 2 * card.usd), (platform, platform.usd)) if is_stale(p.date_seen, TODAY))
    assert used.stale == bool(stale_usd) and used.uncertainty == pytest.approx(STALE_UNCERTAINTY * stale_usd / used.usd)
    assert used.rank_usd == pytest.approx(used.usd + stale_usd * STALE_UNCERTAINTY)
    assert tier.sources and used.sources and price_words(used).startswith(f"${used.usd:,.0f} used (seen {oldest.isoformat()}")


def test_a_system_is_priced_as_sold(catalog):
    from advisor.core.hardware.catalog import resolve_system

    mac = machine_price(resolve_system(catalog, "apple-mac-studio-m3-ultra-96gb"), PriceChoice.NEW, TODAY)
    assert (mac.usd, mac.kind, mac.date, mac.includes) == (5299, "new", dt.date(2026, 6, 25), "the whole machine as sold")


def test_an_hourly_rate_is_the_cheapest_regions_newest():
    prices = (CloudPrice(usd_per_hour=3.0, region="us", date_seen=dt.date(2026, 1, 1), source=SRC),
              CloudPrice(usd_per_hour=2.5, region="us", date_seen=dt.date(2026, 9, 1), source=SRC),
              CloudPrice(usd_per_hour=2.8, region="eu", date_seen=dt.date(2026, 9, 1), source=SRC))
    rate = hourly_price(prices, TODAY, instances=2)
    assert rate.usd == 5.0 and rate.rented and rate.kind == "per hour" and price_words(rate) == "$5.00/h (seen 2026-09-01)"
