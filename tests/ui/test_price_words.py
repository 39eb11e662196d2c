"""Prices as words: "no price" instead of "? · ?", and where the catalog saw the price."""

from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.evaluate import BuildResult
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog
from advisor.storage.settings import Settings
from advisor.ui import format as fmt


def _result(**money):
    catalog = load_catalog().catalog
    resolved = gpu_build(catalog, "rtx-3090", 2)
    return BuildResult(entry=BuildEntry(name="2× RTX 3090", gpu_id="rtx-3090", gpu_count=2), resolved=resolved, **money)


def test_a_build_without_a_price_says_no_price():
    r = _result()
    assert fmt.cell(r, 4, Settings(), PlannedJob()) == "no price"
    assert "?" not in fmt.cell(r, 4, Settings(), PlannedJob())


def _priced():
    import datetime as dt

    from advisor.core.advice.evaluate import money
    from advisor.core.hardware.machines import machine_build

    catalog = load_catalog().catalog
    resolved = machine_build(catalog, "rtx-3090", 2)
    entry = BuildEntry(name="2× RTX 3090", gpu_id="rtx-3090", gpu_count=2)
    return BuildResult(entry=entry, resolved=resolved, **money(catalog, entry, resolved, dt.date(2026, 11, 27)))


def test_the_cell_shows_todays_price_of_the_whole_machine_with_its_kind():
    """One figure per machine on every screen: the lower of new and used, cards and platform."""
    r = _priced()
    assert fmt.cell(r, 4, Settings(), PlannedJob()) == f"${r.price.usd:,.0f} used"
    tip = fmt.price_tip(r, Settings())
    # the date and the staleness follow the catalog's newest dated prices, whichever they are
    assert "Includes: 2× GeForce RTX 3090 + desktop for two cards, typical" in tip
    assert f"seen {r.price.date.isoformat()}" in tip
    assert ("over a year old" in tip) == r.price.stale and f"New: ${r.price_new.usd:,.0f} new" in tip


def test_details_link_the_price_sources():
    r = _priced()
    text = fmt.price_html(r, Settings())
    assert f"${r.price.usd:,.0f} used" in text and "<a href='http" in text
    assert fmt.price_sources(r) == list(r.price.sources)


def test_largest_fit_headers_align_with_their_numbers():
    import numpy as np

    from advisor.core.advice.evaluate import Results

    r = _result()
    results = Results(builds=(r,), curves={"bf16": np.ones(3), "int8 (LLM.int8)": np.ones(3)},
                      current_technique="bf16", chosen_params=None, chosen_need_bytes=None, fits_found=True)
    text = fmt.largest_fit_html(results)
    assert "<th align='right'>int8 (LLM.int8)</th>" in text


def test_a_gpu_count_build_says_it_stands_on_a_typical_platform():
    """A user's GPU × count build gets its tier's platform added, and says so."""
    r = _priced()
    tip = fmt.cell_tip(r, 0, Settings(), PlannedJob())
    assert "On a typical desktop for two cards" in tip and "in its price; its host RAM 64 GB" in tip
