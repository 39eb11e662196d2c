"""How a machine's GPUs sit: lanes per GPU, where they come from, the slots between cards, the CPU's lanes."""

from __future__ import annotations

from advisor.core.hardware.catalog import resolve_build
from advisor.core.hardware.layout import (
    all_known,
    cpu_lanes,
    gpu_kinds,
    lane_sources,
    lanes_per_gpu,
    slot_spacings,
    span_between,
)
from advisor.core.hardware.records import Build, Gpu, LaneSource
from tests.catalog_fixtures import build_data, catalog_of, gpu_data

GPU_A = Gpu.model_validate(gpu_data("card-a"))
GPU_X8 = Gpu.model_validate(gpu_data("card-x8", pcie_lanes=8))


def _resolved(**over):
    build = Build.model_validate(build_data("b", **over))
    return resolve_build(catalog_of(GPU_A, GPU_X8, build), "b")


def test_all_known_or_none():
    assert all_known([4, 3]) == [4, 3]
    assert all_known([]) == []
    assert all_known([4, None]) is None


def test_span_between_adds_the_spacings_either_way_round():
    assert span_between((3, 4, 2), 0, 2) == 7
    assert span_between((3, 4, 2), 2, 0) == 7
    assert span_between((3, None, 2), 0, 1) == 3
    assert span_between((3, None, 2), 0, 2) is None


def test_lanes_are_the_topologys_else_each_cards_own():
    mixed = _resolved(gpus=[{"gpu_id": "card-a", "count": 1}, {"gpu_id": "card-x8", "count": 1}])
    assert lanes_per_gpu(mixed) == (16, 8)
    stated = _resolved(topology={"pcie_lanes_per_gpu": [8, 8]})
    assert lanes_per_gpu(stated) == (8, 8)


def test_lanes_come_from_the_cpu_unless_said():
    assert lane_sources(_resolved()) == (LaneSource.CPU, LaneSource.CPU)
    chipset = _resolved(topology={"lane_sources": ["cpu", "chipset"]})
    assert lane_sources(chipset) == (LaneSource.CPU, LaneSource.CHIPSET)


def test_slot_spacings_one_per_adjacent_pair_from_the_topology():
    assert slot_spacings(_resolved(count=3, topology={"slot_spacing": 3})) == (3, 3)
    assert slot_spacings(_resolved(count=2, topology={})) == (None,)
    assert slot_spacings(_resolved(count=1, topology={"slot_spacing": 3})) == ()


def test_cpu_lanes_from_the_build_and_gpu_kinds_counted():
    assert cpu_lanes(_resolved(cpu_pcie_lanes=64)) == 64
    assert cpu_lanes(_resolved(cpu_pcie_lanes=None)) is None
    assert gpu_kinds(_resolved(count=3)) == {"card-a": 3}
