"""Record names as people read them: the brand once, no vendor notes."""

import pytest

from advisor.core.hardware.catalog import display_name


@pytest.mark.parametrize(("vendor", "name", "expect"), [
    ("Apple", "Apple Mac Studio (M3 Ultra, base config)", "Apple Mac Studio (M3 Ultra, base config)"),
    ("NVIDIA", "NVIDIA DGX-2", "NVIDIA DGX-2"),
    ("unknown (named in seed document)", "Mentor-100", "Mentor-100"),
    ("(build-your-own)", "2x 24 GB consumer GPUs", "2x 24 GB consumer GPUs"),
    ("build-your-own", "2x 24 GB consumer GPUs", "2x 24 GB consumer GPUs"),
    ("unknown", "Mentor-100", "Mentor-100"),
    ("NVIDIA (HGX boards via OEMs)", "DGX B200", "NVIDIA DGX B200"),
    ("NVIDIA reference design; OEMs ASUS, Dell", "NVIDIA DGX Station", "NVIDIA DGX Station"),
    ("NVIDIA", "GeForce RTX 5090", "NVIDIA GeForce RTX 5090"),
    ("", "Mystery card", "Mystery card"),
])
def test_display_name(vendor, name, expect):
    assert display_name(vendor, name) == expect
