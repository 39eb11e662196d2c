"""Catalog machines as records: a build's GPU count and topology, a system's build, a cloud instance's topology."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.builds import MAX_GPUS_PER_MACHINE, Build, CloudInstance, PrebuiltSystem
from tests.catalog_fixtures import build_data, cloud_data, system_data


def test_gpu_count_adds_every_entry():
    build = Build.model_validate(build_data("mix", gpus=[{"gpu_id": "a", "count": 2}, {"gpu_id": "b", "count": 1}],
                                            topology={}))
    assert build.gpu_count == 3


def test_a_build_needs_a_gpu_and_at_most_a_racks_worth_of_one_kind():
    with pytest.raises(ValidationError):
        Build.model_validate(build_data("none", gpus=[]))
    with pytest.raises(ValidationError):
        Build.model_validate(build_data("big", count=MAX_GPUS_PER_MACHINE + 1, topology={}))
    assert Build.model_validate(build_data("rack", count=MAX_GPUS_PER_MACHINE, topology={})).gpu_count == 72


def test_a_topology_naming_a_gpu_the_build_lacks_is_refused():
    with pytest.raises(ValidationError, match="beyond the machine's 2"):
        Build.model_validate(build_data("two", topology={"nvlink_pairs": [[0, 2]]}))
    with pytest.raises(ValidationError, match="3 entries for 2 GPUs"):
        Build.model_validate(build_data("two", topology={"pcie_lanes_per_gpu": [16, 16, 8]}))


def test_a_cloud_instance_topology_fits_its_gpu_count():
    assert CloudInstance.model_validate(cloud_data("inst")).gpu_count >= 1
    with pytest.raises(ValidationError, match="entries for"):
        CloudInstance.model_validate(cloud_data("inst", gpu_count=2, topology={"pcie_lanes_per_gpu": [16]}))


def test_a_system_without_a_verified_build_is_still_a_record():
    system = PrebuiltSystem.model_validate(system_data("box", build=None))
    assert system.build is None and system.nics == 1
