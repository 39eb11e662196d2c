"""Today's price of a whole machine (advisor.core.cost.machine): one function every screen calls."""

from __future__ import annotations

import datetime as dt
import statistics
from pathlib import Path

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
from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.hardware.checks import Severity, check_build
from advisor.core.hardware.records import Build, CloudPrice, Gpu, PriceKind, PricePoint
from advisor.storage.catalog_store import load_catalog
from tests.catalog_fixtures import build_data, catalog_of, gpu_data, price
from tests.hardware_builders import GPU_A, resolved

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
