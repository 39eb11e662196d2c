"""A machine's topology: NVLink pairs join two different GPUs; per-GPU lists and pairs fit its GPU count."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.topology import Topology, bridge_pairs, topology_problem


@pytest.mark.parametrize("pair", [(1, 1), (0, 0)])
def test_a_pair_joins_two_different_gpus(pair):
    with pytest.raises(ValidationError, match="two different GPUs"):
        Topology(nvlink_pairs=(pair,))


def test_fits_names_the_first_problem_or_none():
    assert topology_problem(Topology(nvlink_pairs=((0, 1),), pcie_lanes_per_gpu=(16, 8)), 2) is None
    assert topology_problem(Topology(nvlink_pairs=((0, 3),)), 2) == "NVLink pair (0, 3) names a GPU beyond the machine's 2"
    assert topology_problem(Topology(pcie_lanes_per_gpu=(16,)), 2) == "topology.pcie_lanes_per_gpu has 1 entries for 2 GPUs"
    assert topology_problem(Topology(lane_sources=("cpu", "chipset", "cpu")), 2) == (
        "topology.lane_sources has 3 entries for 2 GPUs")
    assert topology_problem(Topology(), 8) is None  # empty lists mean "each card's own"


def test_bridges_join_neighbouring_cards():
    # A bridge is a two-way link: the build editor's box and the speed benchmark's NVLink rows pair 0-1, 2-3 …
    assert bridge_pairs(1) == ()
    assert bridge_pairs(2) == ((0, 1),)
    assert bridge_pairs(3) == ((0, 1),)  # the odd last card has no partner
    assert bridge_pairs(4) == ((0, 1), (2, 3))
