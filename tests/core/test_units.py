"""Units: byte sizes, parameter counts and dollars as people read them, and counts as people write them."""

import pytest

from advisor.core.units import GB, GIB, MIB, format_bytes, format_params, format_usd, parse_count


def test_binary_and_decimal_sizes_differ_as_vendors_print_them():
    # An "80 GB" H100 reports 81,920 MiB: 80 GiB, about 85.9 decimal GB.
    h100 = 81_920 * MIB
    assert h100 == 80 * GIB
    assert format_bytes(h100) == "80.0 GiB"
    assert format_bytes(h100, binary=False) == "85.9 GB"
    assert GIB / GB == pytest.approx(1.073741824)


@pytest.mark.parametrize(("text", "value"), [("6.74e9", 6.74e9), ("6.74B", 6.74e9), ("70b", 70e9), ("500M", 500e6),
                                             ("1.5T", 1.5e12), ("125k", 125e3), (" 7_000_000 ", 7e6), ("1,000", 1e3)])
def test_parse_count_takes_what_people_write(text, value):
    assert parse_count(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "  ", "0", "-3B", "nan", "inf", "1e400", "B", "seven"])
def test_parse_count_refuses_what_is_not_a_positive_finite_count(text):
    with pytest.raises(ValueError):
        parse_count(text)


def test_parameter_counts_and_dollars_for_people():
    assert format_params(6.74e9) == "6.74 B"
    assert format_params(1e12) == "1.00 T"
    assert format_params(None) == format_params(float("nan")) == format_params(float("inf")) == "—"
    assert format_usd(99.994) == "$99.99" and format_usd(1234.5) == "$1,234"
