"""The records' value types: a physical range names itself in the error; a price band is ordered."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import TypeAdapter, ValidationError

from advisor.core.hardware.quantities import GbPerS, PriceKind, PricePoint, Watts, physical_range


def test_a_range_says_its_bounds_and_unit():
    check = physical_range(1, 1_000_000, "W").func
    assert check(350.0) == 350.0
    with pytest.raises(ValueError, match="must be between 1 and 1,000,000 W"):
        check(1e308)
    with pytest.raises(ValidationError, match="between 1 and 100,000 GB/s"):
        TypeAdapter(GbPerS).validate_python(1e-308)
    assert TypeAdapter(Watts).validate_python(1) == 1


def _price(**over):
    data = {"kind": PriceKind.USED, "usd": 700, "date_seen": dt.date(2026, 1, 1), "source": "https://example.org/"}
    return PricePoint.model_validate({**data, **over})


def test_a_price_band_is_ordered():
    assert _price(usd_low=600, usd_high=800).usd_high == 800
    with pytest.raises(ValidationError, match="usd_low is above usd_high"):
        _price(usd_low=900, usd_high=800)
    with pytest.raises(ValidationError):
        _price(usd=0)
