"""A machine's power: the cards' board power plus the platform's, stated or from its parts."""

from __future__ import annotations

from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import Build, Gpu
from tests.catalog_fixtures import bridged_gpu_data, build_data, catalog_of, gpu_data

GPU_A = Gpu.model_validate(gpu_data("card-a"))


GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))


def resolved(**build_over):
    """A build of card-a (or of what ``gpus`` names), resolved against a two-card catalog."""
    build = Build.model_validate(build_data("b", **build_over))
    return resolve_build(catalog_of(GPU_A, GPU_NV, build), "b")


def test_power_sums_tdps_and_platform():
    power = build_power(resolved())
    assert (power.gpus_w, power.platform_w, power.total_w, power.psu_w) == (700, 250, 950, 1600)
    no_tdp = GPU_A.model_copy(update={"tdp_w": None})
    assert build_power(gpu_build(catalog_of(no_tdp), "card-a", 2)).total_w is None
