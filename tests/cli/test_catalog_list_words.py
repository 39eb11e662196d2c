"""``catalog list`` names makers as a buyer reads them: the brand, never the catalog's note about the vendor."""

import pytest

from advisor.cli import main
from advisor.core.hardware.catalog import vendor_brand


@pytest.mark.parametrize(("vendor", "brand"), [
    ("NVIDIA (HGX boards via OEMs)", "NVIDIA"), ("unknown (named in seed document)", ""), ("(build-your-own)", ""),
    ("Apple", "Apple"), ("AMD; OEM servers", "AMD"), ("", ""),
])
def test_the_brand_of_a_vendor(vendor, brand):
    assert vendor_brand(vendor) == brand


def test_systems_and_parts_list_brands_and_kinds_in_words(capsys):
    assert main(["catalog", "list", "--kind", "system"]) == 0
    assert main(["catalog", "list", "--kind", "part"]) == 0
    out = capsys.readouterr().out
    summaries = [line.rsplit("[", 1)[1] for line in out.splitlines()]
    assert summaries and not [s for s in summaries if "seed" in s or "(" in s or "_" in s or "unified-memory" in s]
    assert any(s.startswith("vendor unknown, workstation") for s in summaries)
    assert any(s.startswith("Apple, unified memory") for s in summaries)
