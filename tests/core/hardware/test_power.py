"""A machine's power: the cards' board power plus the platform's, stated or from its parts."""

from __future__ import annotations

from advisor.core.hardware.catalog import gpu_build
from advisor.core.hardware.power import build_power
from tests.catalog_fixtures import catalog_of
from tests.hardware_builders import GPU_A, resolved


def test_power_sums_tdps_and_platform():
    power = build_power(resolved())
    assert (power.gpus_w, power.platform_w, power.total_w, power.psu_w) == (700, 250, 950, 1600)
    no_tdp = GPU_A.model_copy(update={"tdp_w": None})
    assert build_power(gpu_build(catalog_of(no_tdp), "card-a", 2)).total_w is None
