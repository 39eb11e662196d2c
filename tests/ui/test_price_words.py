"""Prices as words: "no price" instead of "? · ?", and where the catalog saw the price (issue 17)."""

from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.evaluate import BuildResult
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.workload import Workload
from advisor.storage.catalog_store import load_catalog
from advisor.storage.settings import Settings
from advisor.ui import format as fmt


def _result(**money):
    catalog = load_catalog().catalog
    resolved = gpu_build(catalog, "rtx-3090", 2)
    return BuildResult(entry=BuildEntry(name="2× RTX 3090", gpu_id="rtx-3090", gpu_count=2), resolved=resolved, **money)


def test_a_build_without_a_price_says_no_price():
    r = _result()
    assert fmt.cell(r, 4, Settings(), Workload()) == "no price"
    assert "?" not in fmt.cell(r, 4, Settings(), Workload())


def test_one_known_price_leaves_the_other_a_dash():
    assert fmt.cell(_result(price_new_usd=1500.0), 4, Settings(), Workload()) == "$1,500 · —"


def test_details_link_the_price_sources():
    r = _result(price_used_usd=700.0)
    text = fmt.price_html(r, Settings())
    assert "used $700" in text and "<a href='http" in text
    assert fmt.price_sources(r)


def test_largest_fit_headers_align_with_their_numbers():
    import numpy as np

    from advisor.core.advice.evaluate import Results

    r = _result()
    results = Results(builds=(r,), curves={"bf16": np.ones(3), "int8 (LLM.int8)": np.ones(3)},
                      current_technique="bf16", chosen_params=None, chosen_need_bytes=None, fits_found=True)
    text = fmt.largest_fit_html(results)
    assert "<th align='right'>int8 (LLM.int8)</th>" in text
