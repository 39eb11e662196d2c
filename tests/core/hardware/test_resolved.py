"""A resolved machine: what its platform's price sums, the lanes its slots give, several machines split evenly."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.records import BoardSlot, Gpu, PlatformPart, ResolvedBuild, ResolvedPlatform
from tests.catalog_fixtures import SRC, gpu_data

GPU = Gpu.model_validate(gpu_data("card-a"))


def _part(pid: str, kind: str, **fields) -> PlatformPart:
    return PlatformPart.model_validate({"id": pid, "sources": [SRC], "part": kind, "vendor": "Acme", "name": pid,
                                        **fields})


def test_priced_parts_repeat_ram_kits_and_nics():
    cpu, ram = _part("cpu", "cpu", pcie_lanes=24), _part("ram", "ram", capacity_gib=32)
    nic = _part("nic", "nic", nic_fabric="ethernet", nic_gbit_per_s=100)
    platform = ResolvedPlatform(cpu=cpu, ram=ram, ram_kits=2, nic=nic, nics=3)
    assert [p.id for p in platform.priced_parts()] == ["cpu", "ram", "ram", "nic", "nic", "nic"]
    assert ResolvedPlatform().priced_parts() == ()


def test_slots_sharing_lanes_split_them_only_when_both_are_used():
    one = BoardSlot(position=1, lanes=16, pcie_gen=5, shared_with=3, lanes_when_shared=8)
    three = BoardSlot(position=3, lanes=16, pcie_gen=5, shared_with=1, lanes_when_shared=8)
    five = BoardSlot(position=5, lanes=4, pcie_gen=4)
    assert ResolvedPlatform(gpu_slots=(one, three)).lanes_for_gpus() == (8, 8)
    assert ResolvedPlatform(gpu_slots=(one, five)).lanes_for_gpus() == (16, 4)


def test_machines_split_the_gpus_evenly_and_one_is_a_node():
    four = ResolvedBuild(name="x", gpus=(GPU,) * 4, nodes=2)
    assert four.gpus_per_node == 2 and four.gpu_count == 4
    node = four.node()
    assert node.nodes == 1 and node.gpu_count == 2
    assert node.node() is node
    with pytest.raises(ValidationError, match="do not split evenly"):
        ResolvedBuild(name="x", gpus=(GPU,) * 3, nodes=2)


def test_an_inline_topology_must_fit_one_machine():
    with pytest.raises(ValidationError, match="beyond the machine's 2"):
        ResolvedBuild(name="x", gpus=(GPU,) * 4, nodes=2, topology={"nvlink_pairs": [[1, 2]]})
