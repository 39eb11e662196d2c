"""NCCL's cost model and the serving engines' one-shot all-reduce, pinned to the published small-message times
quoted in ``advisor.core.hardware.allreduce``'s docstring."""

from statistics import median

import pytest

from advisor.core.hardware.allreduce import (
    CUSTOM_ALL_REDUCE_RESIDUALS_US,
    CUSTOM_ALL_REDUCE_S,
    NCCL_BASE_LATENCY_S,
    NCCL_HOP_LATENCY_S,
    NCCL_LAUNCH_RESIDUALS_US,
    NCCL_LAUNCH_S,
    custom_all_reduce_seconds,
    nccl_ring_seconds,
    one_shot_applies,
)
from advisor.core.hardware.interconnect import bottleneck_link, collective_time_s
from advisor.core.hardware.records import ResolvedBuild, Topology
from tests.core.speed.speed_fixtures import hgx_h100, rtx4090

KIB = 1024


def pcie_cards(n: int, gen: int, p2p: bool) -> ResolvedBuild:
    card = rtx4090().model_copy(update={"p2p_supported": p2p, "pcie_gen": gen})
    return ResolvedBuild(name=f"{n} cards", gpus=tuple(card for _ in range(n)), topology=Topology(pcie_gen=gen, p2p=p2p))


def test_the_tuning_tables_are_the_ring_values_of_nccl():
    # NVIDIA/nccl src/graph/tuning.cc at 5067397c: baseLatencies Ring {6.6, 14.0, 8.4}, hwLatencies Ring NVLINK
    # {0.6, 1.9, 3.4} and PCI {1.0, 2.5, 5.7} (LL / LL128 / Simple)
    assert NCCL_BASE_LATENCY_S == {"LL": 6.6e-6, "Simple": 8.4e-6}
    assert NCCL_HOP_LATENCY_S == {"nvlink": {"LL": 0.6e-6, "Simple": 3.4e-6}, "pci": {"LL": 1.0e-6, "Simple": 5.7e-6}}


def test_the_launch_and_the_one_shot_cost_are_medians_of_their_measurements():
    assert NCCL_LAUNCH_S == pytest.approx(median(NCCL_LAUNCH_RESIDUALS_US) * 1e-6)
    assert NCCL_LAUNCH_S == pytest.approx(3.8e-6, abs=0.1e-6)
    assert all(2 < r < 6 for r in NCCL_LAUNCH_RESIDUALS_US)
    assert CUSTOM_ALL_REDUCE_S == pytest.approx(3.8e-6, abs=0.1e-6)
    assert len(CUSTOM_ALL_REDUCE_RESIDUALS_US) == 10 and all(3 < r < 6 for r in CUSTOM_ALL_REDUCE_RESIDUALS_US)


@pytest.mark.parametrize(
    ("build", "n_bytes", "measured_us"),
    [
        (pcie_cards(8, 5, True), 8, 24.5),  # 8x RTX 5090, PCIe 5.0 P2P (aikitoria README)
        (pcie_cards(2, 3, False), 8, 12.25),  # 2x RTX 2080 Ti, PCIe 3.0, SHM (Anthony-Hoo post)
        (pcie_cards(2, 3, False), 16 * KIB, 17.1),  # the same table's 16 KiB row: the byte term through host memory
        (hgx_h100(2), 32, 10.14),  # 2x A100 SXM4 on NVSwitch (NVIDIA/nccl #583)
        (pcie_cards(4, 3, True), 4 * KIB, 19.4),  # 4x V100 behind a PCIe switch, in a CUDA graph (sglang-V100 #2)
    ],
)
def test_small_all_reduce_times_match_published_nccl_tests(build, n_bytes, measured_us):
    n = build.gpu_count
    assert collective_time_s(build, "all_reduce", n_bytes, n) * 1e6 == pytest.approx(measured_us, rel=0.2)


def test_a_large_message_goes_by_the_bulk_protocol_at_the_links_full_rate():
    lk = bottleneck_link(hgx_h100(8), 8)
    big = 1 << 30
    moved = 2 * 7 / 8 * big
    simple = NCCL_LAUNCH_S + NCCL_BASE_LATENCY_S["Simple"] + 14 * NCCL_HOP_LATENCY_S["nvlink"]["Simple"]
    assert nccl_ring_seconds("nvlink", 14, moved, lk.duplex_gb_per_s) == pytest.approx(
        simple + moved / (lk.duplex_gb_per_s * 1e9))


@pytest.mark.parametrize(("n_bytes", "measured_us"), [(4 * KIB, 4.0), (8 * KIB, 5.0), (16 * KIB, 7.2),
                                                      (32 * KIB, 11.8)])
def test_one_shot_times_match_the_v100_measurement(n_bytes, measured_us):
    # haohervchb/sglang-V100 PR #2: one-shot push over 4x V100 on a PCIe 3.0 switch, inside a CUDA graph
    lk = bottleneck_link(pcie_cards(4, 3, True), 4)
    assert custom_all_reduce_seconds(4, n_bytes, lk.duplex_gb_per_s) * 1e6 == pytest.approx(measured_us, rel=0.25)


def test_one_stage_below_vllms_limits_two_stages_above():
    # csrc/custom_all_reduce.cuh at 036bb685: two GPUs always one stage; four under 512 KiB; eight under 256 KiB
    assert one_shot_applies(2, 64 << 20)
    assert one_shot_applies(4, 511 * KIB) and not one_shot_applies(4, 512 * KIB)
    assert one_shot_applies(8, 255 * KIB) and not one_shot_applies(8, 256 * KIB)
    bw = 100.0
    assert custom_all_reduce_seconds(4, 1 << 20, bw) == pytest.approx(CUSTOM_ALL_REDUCE_S + 1.5 * (1 << 20) / 100e9)
    assert custom_all_reduce_seconds(4, 256 * KIB, bw) == pytest.approx(CUSTOM_ALL_REDUCE_S + 3 * 256 * KIB / 100e9)
    assert custom_all_reduce_seconds(1, KIB, bw) == 0.0 and custom_all_reduce_seconds(2, 0, bw) == 0.0
