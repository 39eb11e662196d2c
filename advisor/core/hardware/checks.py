"""What is physically wrong with a build: PSU, slot spacing, NVLink bridges, PCIe lanes, P2P, network.

The checks read the topology and the platform fields of the ``Build``; an unknown input
gives an INFO note saying what could not be checked, never a guess. The PSU checks are in
``psu_checks``, those of where the cards sit in ``slot_checks``; this module runs them all.
"""

from __future__ import annotations

from advisor.core.hardware.findings import BuildWarning, Severity, WarningKind, finding
from advisor.core.hardware.layout import cpu_lanes, gpu_kinds, lane_sources, lanes_per_gpu, slot_spacings
from advisor.core.hardware.parts import NicFabric
from advisor.core.hardware.psu_checks import (
    PSU_ATX2_TRANSIENT_FACTOR,
    check_psu,
    check_psu_connectors,
    gpu_power_connectors,
)
from advisor.core.hardware.resolved import ResolvedBuild
from advisor.core.hardware.slot_checks import check_board, check_nvlink, check_pcie_lanes, check_slot_spacing

__all__ = [
    "CHECKS",
    "PSU_ATX2_TRANSIENT_FACTOR",
    "BuildWarning",
    "Severity",
    "WarningKind",
    "check_board",
    "check_build",
    "check_mixed",
    "check_network",
    "check_nvlink",
    "check_p2p",
    "check_pcie_lanes",
    "check_psu",
    "check_psu_connectors",
    "check_slot_spacing",
    "cpu_lanes",
    "gpu_kinds",
    "gpu_power_connectors",
    "lane_sources",
    "lanes_per_gpu",
    "slot_spacings",
]


def check_mixed(build: ResolvedBuild) -> list[BuildWarning]:
    kinds = gpu_kinds(build)
    if len(kinds) < 2:
        return []
    names = ", ".join(sorted({g.name for g in build.gpus}))
    # What mixing costs under each way of splitting the model (advisor.core.speed.inference):
    # an even split waits for the slowest card (and the smallest one's memory, where they differ).
    even = "split evenly (tensor parallel, as vLLM does) every card works at the slowest card's pace"
    if len({g.memory_gib for g in build.gpus}) > 1:
        even += " and holds no more than the smallest card can"
    return [finding(
        WarningKind.MIXED_GPUS, Severity.WARNING,
        f"mixed GPUs ({names}): {even}; a layer split (llama.cpp) gives each card layers in proportion "
        "to its memory, and the cards work in turn"
    )]


def check_p2p(build: ResolvedBuild) -> list[BuildWarning]:
    """Multi-GPU traffic without P2P (and not on NVLink/NVSwitch) bounces through host memory."""
    topo = build.topology
    if build.gpu_count < 2 or topo.nvswitch:
        return []
    if build.gpu_count == 2 and topo.nvlink_pairs:
        return []  # one bridged pair: all GPU-to-GPU traffic is on NVLink
    if not topo.p2p:
        return [finding(
            WarningKind.P2P, Severity.WARNING,
            "PCIe peer-to-peer is off: GPU-to-GPU transfers go through host memory (slower tensor/pipeline "
            "parallel and all-reduce)"
        )]
    unsupported = sorted({g.name for g in build.gpus if g.p2p_supported is False})
    if unsupported:
        return [finding(
            WarningKind.P2P, Severity.WARNING,
            f"the topology says P2P is on, but {', '.join(unsupported)} has no PCIe P2P on stock drivers"
        )]
    return []


CHECKS = (check_psu, check_psu_connectors, check_slot_spacing, check_nvlink, check_board, check_pcie_lanes,
          check_mixed, check_p2p)


def check_network(build: ResolvedBuild) -> list[BuildWarning]:
    """Several machines: they need a network adapter the catalog names; plain
    Ethernet has no RDMA (GPU memory is copied through the host on both sides); an adapter in a
    desktop needs a PCIe slot the GPUs leave free."""
    out: list[BuildWarning] = []
    net = build.network
    if build.nodes > 1 and net is None:
        out.append(finding(WarningKind.NETWORK, Severity.ERROR,
                      f"{build.nodes} machines need a network card to join them, and this build names none: "
                      "add an InfiniBand, RoCE or Ethernet card from the catalog, or choose a server or cloud "
                      "instance that has one"))
    if net is None:
        return out
    if build.nodes > 1 and net.nic.nic_fabric is NicFabric.ETHERNET:
        out.append(finding(WarningKind.NETWORK, Severity.WARNING,
                      f"{net.nic.name} is plain Ethernet: no RDMA, so data between the machines goes through "
                      "each machine's memory and CPU; training across them is slower than the estimate assumes"))
    platform = build.platform
    if platform is not None and platform.board is not None and platform.nic is not None:
        free = len(platform.board.slots) - build.gpus_per_node
        if free < platform.nics:
            out.append(finding(WarningKind.NETWORK, Severity.ERROR,
                          f"{platform.board.name} has {len(platform.board.slots)} x16-size slot(s): the "
                          f"{build.gpus_per_node} GPUs leave {max(free, 0)} for {platform.nics} network card(s)"))
    return out


def check_build(build: ResolvedBuild) -> tuple[BuildWarning, ...]:
    """Every check, errors first; an empty tuple means nothing found (not "verified"). Several
    machines are checked as one machine (they are identical) plus their network."""
    one = build.node()
    found = [w for check in CHECKS for w in check(one)] + check_network(build)
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return tuple(sorted(found, key=lambda w: order[w.severity]))
