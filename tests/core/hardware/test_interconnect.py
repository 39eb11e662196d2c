"""Link model and NCCL collective times, pinned to published p2pBandwidthLatencyTest / nccl-tests output."""

import pytest

from advisor.core.hardware.allreduce import NCCL_BASE_LATENCY_S, NCCL_HOP_LATENCY_S, NCCL_LAUNCH_S, nccl_ring_seconds
from advisor.core.hardware.interconnect import (
    PCIE_GB_PER_S_PER_LANE,
    LinkKind,
    bottleneck_link,
    bus_bandwidth_gb_per_s,
    collective_time_s,
    link,
)
from advisor.core.hardware.records import ResolvedBuild, Topology
from tests.core.speed.speed_fixtures import h100, hgx_h100, pair_3090_nvlink, pair_4090_pcie, rtx3090, rtx4090

MB = 1 << 20


def test_pcie_gen4_x16_is_31_5_gb_per_s_each_way():
    # Reference errata: PCIe 4.0 x16 ≈ 32 GB/s per direction, 64 GB/s both ways (NVIDIA datasheets).
    assert PCIE_GB_PER_S_PER_LANE[4] * 16 == pytest.approx(31.5, abs=0.1)
    assert PCIE_GB_PER_S_PER_LANE[5] * 16 == pytest.approx(63.0, abs=0.1)


def test_4090_pair_link_matches_p2p_disabled_measurement():
    # dbkinghorn/Notes 2023/NV-4090-P2P/2x4090-notes.md, 2x RTX 4090, PCIe 4.0 x16:
    # unidirectional 22.47/22.67 GB/s, bidirectional 30.94/31.10 GB/s, latency 11.64/11.66 us.
    lk = link(pair_4090_pcie(), 0, 1)
    assert lk.kind is LinkKind.PCIE_HOST
    assert lk.gb_per_s == pytest.approx(22.57, rel=0.03)
    assert 2 * lk.duplex_gb_per_s == pytest.approx(31.0, rel=0.03)
    assert lk.latency_s == pytest.approx(11.65e-6, rel=0.03)


def test_5090_pair_on_gen5_x8_without_p2p_matches_a_second_measurement():
    # Independent of the constants: 2x RTX 5090 on PCIe 5.0 x8, stock driver (secondary write-up of the
    # aikitoria driver tests, wumeicn.com "NVIDIA RTX 5090 P2P Support Enabled by Patched Driver"):
    # ~24 GB/s one way, ~30 GB/s both ways, 14 us latency.
    card = rtx4090().model_copy(update={"pcie_gen": 5})
    b = ResolvedBuild(name="2x 5090 x8", gpus=(card, card), topology=Topology(pcie_gen=5, pcie_lanes_per_gpu=(8, 8)))
    lk = link(b, 0, 1)
    assert lk.gb_per_s == pytest.approx(24, rel=0.15)
    assert 2 * lk.duplex_gb_per_s == pytest.approx(30, rel=0.15)
    assert lk.latency_s == pytest.approx(14e-6, rel=0.25)


def test_3090_bridge_link_is_nvlink_at_measured_ga102_bridge_rate():
    # GA102 bridge: 56.25 GB/s each way (whitepaper); RTX A6000 pair measured 52.2 GB/s (siboehm/bench).
    lk = link(pair_3090_nvlink(), 1, 0)
    assert lk.kind is LinkKind.NVLINK
    assert lk.peak_gb_per_s == pytest.approx(56.25)
    assert lk.gb_per_s == pytest.approx(52.2, rel=0.01)
    assert lk.latency_s < link(pair_4090_pcie(), 0, 1).latency_s / 10


def test_3090_pair_without_bridge_falls_back_to_host_staged_pcie():
    b = ResolvedBuild(name="2x 3090 no bridge", gpus=(rtx3090(), rtx3090()), topology=Topology(p2p=False))
    assert link(b, 0, 1).kind is LinkKind.PCIE_HOST


def test_p2p_needs_both_the_platform_and_the_cards():
    b = ResolvedBuild(name="4090 p2p on", gpus=(rtx4090(), rtx4090()), topology=Topology(p2p=True))
    assert link(b, 0, 1).kind is LinkKind.PCIE_HOST  # the 4090 itself has no P2P
    hb = ResolvedBuild(name="2x H100 PCIe path", gpus=(h100(), h100()), topology=Topology(pcie_gen=5, p2p=True))
    assert link(hb, 0, 1).kind is LinkKind.PCIE_P2P  # H100s without a bridge or switch entry


def test_narrow_slot_and_old_platform_limit_pcie():
    b = ResolvedBuild(name="x8 slots", gpus=(rtx4090(), rtx4090()),
                      topology=Topology(pcie_gen=3, pcie_lanes_per_gpu=(16, 8), p2p=False))
    assert link(b, 0, 1).peak_gb_per_s == pytest.approx(PCIE_GB_PER_S_PER_LANE[3] * 8)


def test_link_rejects_same_or_missing_gpu():
    with pytest.raises(ValueError):
        link(pair_4090_pcie(), 0, 0)
    with pytest.raises(ValueError):
        link(pair_4090_pcie(), 0, 2)


def test_ring_collective_volumes_follow_nccl_tests_busbw_factors():
    # nccl-tests PERFORMANCE.md: all-reduce moves 2(n-1)/n·S per GPU, all-gather (n-1)/n·S.
    b = hgx_h100(8)
    big = 1 << 30
    lk = bottleneck_link(b, 8)
    fixed = NCCL_LAUNCH_S + NCCL_BASE_LATENCY_S["Simple"]  # a large message goes by NCCL's bulk protocol
    t_ar = collective_time_s(b, "all_reduce", big, 8) - fixed - 14 * NCCL_HOP_LATENCY_S["nvlink"]["Simple"]
    t_ag = collective_time_s(b, "all_gather", big, 8) - fixed - 7 * NCCL_HOP_LATENCY_S["nvlink"]["Simple"]
    assert t_ar == pytest.approx(2 * 7 / 8 * big / (lk.duplex_gb_per_s * 1e9))
    assert t_ar == pytest.approx(2 * t_ag)
    assert lk.kind is LinkKind.NVSWITCH
    assert collective_time_s(b, "reduce_scatter", big, 8) == pytest.approx(collective_time_s(b, "all_gather", big, 8))


def test_small_all_reduce_is_latency_bound_whether_nvlink_or_host_memory_carries_it():
    # NCCL's LL protocol over two GPUs: ~12 us over an NVLink bridge, ~15 us through host memory (the 2x RTX 2080 Ti
    # table in allreduce's docstring: 11.6-12.9 us to 8 KiB, 17.1 at 16 KiB), not the 42 us of a copy's latency per step.
    t_nv = collective_time_s(pair_3090_nvlink(), "all_reduce", 16 * 1024, 2)
    t_pc = collective_time_s(pair_4090_pcie(), "all_reduce", 16 * 1024, 2)
    assert 10e-6 < t_nv < t_pc < 17e-6


def test_large_all_reduce_busbw_3090_nvlink_vs_4090_host():
    nv = bus_bandwidth_gb_per_s(pair_3090_nvlink(), "all_reduce", 128 * MB, 2)
    pc = bus_bandwidth_gb_per_s(pair_4090_pcie(), "all_reduce", 128 * MB, 2)
    assert nv == pytest.approx(52, rel=0.05)
    assert pc == pytest.approx(15.5, rel=0.05)  # half of the measured 31 GB/s bidirectional
    assert nv / pc > 3


@pytest.mark.parametrize(
    ("gpu", "n", "gen", "size", "busbw_measured"),
    [
        # aikitoria/open-gpu-kernel-modules README: 8x RTX 5090 P2P, PCIe 5.0, 128 MiB: busbw 43.9-45.7
        ("5090", 8, 5, 128 * MB, 44.8),
        # tinygrad/open-gpu-kernel-modules README: 6x RTX 4090 P2P driver, PCIe 4.0, 32 MiB: busbw 24.5
        ("4090", 6, 4, 32 * MB, 24.5),
    ],
)
def test_p2p_all_reduce_busbw_close_to_published_nccl_tests(gpu, n, gen, size, busbw_measured):
    card = rtx4090().model_copy(update={"p2p_supported": True, "pcie_gen": gen})
    b = ResolvedBuild(name=f"{n}x {gpu}", gpus=tuple(card for _ in range(n)), topology=Topology(pcie_gen=gen))
    assert bus_bandwidth_gb_per_s(b, "all_reduce", size, n) == pytest.approx(busbw_measured, rel=0.25)


def test_send_is_one_hop_one_direction():
    b = pair_4090_pcie()
    lk = link(b, 0, 1)
    assert collective_time_s(b, "send", 1e9, 2) == pytest.approx(nccl_ring_seconds("pci", 1, 1e9, lk.gb_per_s))
    assert collective_time_s(b, "send", 1e9, 2) == pytest.approx(1e9 / (lk.gb_per_s * 1e9), rel=1e-3)


def test_single_gpu_or_empty_message_costs_nothing_and_bad_input_is_refused():
    assert collective_time_s(pair_4090_pcie(), "all_reduce", 1e6, 1) == 0.0
    assert collective_time_s(pair_4090_pcie(), "all_reduce", 0, 2) == 0.0
    with pytest.raises(ValueError):
        collective_time_s(pair_4090_pcie(), "all_reduce", 1e6, 3)
    with pytest.raises(ValueError):
        collective_time_s(pair_4090_pcie(), "broadcast", 1e6, 2)  # type: ignore[arg-type]


def test_a_rings_slowest_hop_is_kept_per_build_object_and_never_shared_with_another():
    # bottleneck_link remembers its answer by the build object (a plan search asks for the same ring again and
    # again): the same object gets the same hop; another build, even one made in its place, gets its own.
    a = ResolvedBuild(name="4x RTX 4090", gpus=(rtx4090(),) * 4, topology=Topology(pcie_gen=4, p2p=False))
    first = bottleneck_link(a, 4)
    assert bottleneck_link(a, 4) is first and first.kind is LinkKind.PCIE_HOST
    assert bottleneck_link(a, 3) == min((link(a, 0, 1), link(a, 1, 2), link(a, 2, 0)),
                                        key=lambda lk: (lk.duplex_gb_per_s, -lk.latency_s))
    del a
    b = ResolvedBuild(name="4x RTX 4090", gpus=(rtx4090(),) * 4, topology=Topology(pcie_gen=3, p2p=False))
    assert bottleneck_link(b, 4).peak_gb_per_s == link(b, 0, 1).peak_gb_per_s < first.peak_gb_per_s  # its own
