"""GPU-to-GPU links of a build and the time of NCCL collectives over them.

A link has a bandwidth (the peak of the wire times a measured efficiency) in two figures:
one direction alone (a pipeline hand-off) and one direction while the reverse direction is
busy too (a ring collective: every GPU sends and receives at once). Where peer-to-peer is
off (every RTX 4090: NVIDIA disabled it in the driver), traffic is staged through host
memory, which the measurements below show costs about half the duplex bandwidth.

Collectives use NCCL's ring algorithm; the bytes each GPU sends per collective are those of
nccl-tests ``doc/PERFORMANCE.md`` (all-reduce busbw = algbw · 2(n-1)/n; all-gather and
reduce-scatter busbw = algbw · (n-1)/n), timed by NCCL's own cost model (``allreduce``). The
ring runs over the GPUs in slot order, so its slowest hop limits it.

Not modelled: lanes from the chipset share its uplink to the CPU (``Topology.lane_sources``;
``advisor.core.hardware.checks`` warns about it), NUMA hops between sockets, and PCIe switches.

Several machines: a collective over GPUs in more than one machine runs hierarchically
(``hierarchical_time_over``): inside each machine over its own links, across machines over
the network adapters (latency + size / bandwidth, Hockney 1994), each GPU driving its share.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from advisor.core.hardware import allreduce
from advisor.core.hardware.allreduce import NcclHardware, nccl_ring_seconds
from advisor.core.hardware.records import Gpu, NicFabric, ResolvedBuild
from advisor.core.memo import HeldById
from advisor.core.schema import Frozen

# PCIe payload rate per lane per direction, GB/s: 8b/10b encoding for gen 1-2, 128b/130b
# for gen 3-5 (PCI-SIG base specs; Gen4 x16 = 31.5 GB/s, the "64 GB/s" bidirectional of
# NVIDIA's A100/L40S datasheets); gen 6-7 use PAM4 FLIT mode (242/256 payload).
PCIE_GB_PER_S_PER_LANE: dict[int, float] = {
    1: 0.25, 2: 0.5, 3: 8 * 128 / 130 / 8, 4: 16 * 128 / 130 / 8, 5: 32 * 128 / 130 / 8,
    6: 64 * 242 / 256 / 8, 7: 128 * 242 / 256 / 8,
}

# --- Measured efficiencies (achieved / wire peak) ------------------------------------------
# PCIe with P2P: p2pBandwidthLatencyTest, 8x RTX 5090 on PCIe 5.0 x16 (aikitoria/
# open-gpu-kernel-modules README.md, "Sample p2pBandwidthLatencyTest output"): 55.6-56.6 GB/s
# one way, 111.1-111.4 GB/s both ways, of 63.0 GB/s per direction.
PCIE_P2P_EFFICIENCY = 56.0 / 63.0
PCIE_P2P_DUPLEX_EFFICIENCY = 111.2 / 2 / 63.0
# PCIe without P2P (staged through host memory): 2x RTX 4090 on PCIe 4.0 x16, Threadripper
# Pro, driver 525 (dbkinghorn/Notes 2023/NV-4090-P2P/2x4090-notes.md, "P2P=Disabled"
# matrices): 22.5 GB/s one way, 31.0 GB/s both ways, of 31.5 GB/s per direction. The same
# test on 8x RTX 5090, PCIe 5.0 (aikitoria README above) gives 43.3 / 57.0 of 63.0: 0.69 / 0.45.
PCIE_HOST_EFFICIENCY = 22.5 / 31.5
PCIE_HOST_DUPLEX_EFFICIENCY = 31.0 / 2 / 31.5
# NVLink: a GA102 2-way bridge (4 links x 14.0625 GB/s per direction = 56.25, GA102
# whitepaper) measured 52.2 GB/s with large copies on 2x RTX A6000 (siboehm/bench
# gpu/nvlink/README.md). Applied to every NVLink generation (no other measurement here).
NVLINK_EFFICIENCY = 52.2 / 56.25

# A link's latency, p2pBandwidthLatencyTest "Latency Matrix (us)" GPU rows (what a copy waits; a collective inside a
# machine is timed by NCCL's own model instead, ``allreduce.nccl_ring_seconds``):
# P2P disabled, 2x RTX 4090 PCIe 4.0: 11.6 us (dbkinghorn/Notes, above).
PCIE_HOST_LATENCY_S = 11.6e-6
# P2P writes, RTX 5090 pairs over PCIe 5.0: 0.35-0.45 us (aikitoria README). NVLink is taken
# as no slower (no bridge latency measurement was found).
P2P_LATENCY_S = 0.4e-6
# Fixed cost of one NCCL collective call across machines: its launch and its small-message protocol's ring base
# latency, from NCCL's own model inside a machine (``allreduce``: 3.8 + 6.6 us; it was 19 us from one measurement).
NCCL_CALL_LATENCY_S = allreduce.NCCL_LAUNCH_S + allreduce.NCCL_BASE_LATENCY_S["LL"]


# --- Between machines ---------------------------------------------------------------------
# Achieved share of the machines' adapters in a large all-reduce across machines: 4 machines of
# 8x B200, 8x 400 Gb/s EFA each, all_reduce_bench.py at 16 GiB: busbw 381.80 GB/s, i.e.
# busbw·(k-1)/(n-1) = 36.95 GB/s per GPU of its 50 GB/s, 73.9 % (stas00/ml-engineering
# network/README.md "Inter-node speed depends on intra-node speed", commit 744d01e18b79512572f64a6bbd8b5f4a725203a7).
# That source's per-GPU figure charges the whole time to the network (the in-machine phases
# overlap it), which is how ``hierarchical_time_over`` uses it. ASSUMPTION: the one measured
# fabric (EFA) stands for InfiniBand, RoCE and Ethernet too (no other multi-machine
# measurement here); the estimate's assumptions say so.
INTER_NODE_EFFICIENCY = 36.95 / 50.0
INTER_NODE_SOURCE = ("stas00/ml-engineering network/README.md at 744d01e: 4 machines of 8x B200 on 8x 400 Gb/s EFA "
                     "reach 73.9 % of the adapters' rate in a 16 GiB all-reduce")
# Latency of one step across machines where the NIC record states none: nccl-tests
# all_reduce_perf on 2 machines of 8x H100 (GCP A3 Mega, 8x 200 Gb/s GPUDirect-TCPXO): 123.2 us
# for 8-128 B (lessizzmore/create-a3mega-ztan-fork ztan-NCCL-test-result, commit
# 02dd8f455c43ced1cf442ef29334bda97149264b); less the NCCL call and 14 in-machine NVLink steps of the small-message
# protocol (``allreduce.NCCL_HOP_LATENCY_S``, 0.6 us), ~104 us over 2 steps across machines: 52 us each. A TCP-based
# fabric, so an upper bound for RDMA ones; it matters only for small messages.
INTER_NODE_LATENCY_S = (123.2e-6 - NCCL_CALL_LATENCY_S - 14 * allreduce.NCCL_HOP_LATENCY_S["nvlink"]["LL"]) / 2


class LinkKind(StrEnum):
    NVLINK = "NVLink bridge"
    NVSWITCH = "NVSwitch"
    INFINITY_FABRIC = "Infinity Fabric"  # AMD's GPU-to-GPU link, board or bridge
    PCIE_P2P = "PCIe peer-to-peer"
    PCIE_HOST = "PCIe via host memory (no P2P)"
    INFINIBAND = "InfiniBand"
    EFA = "AWS EFA"
    ROCE = "RoCE"
    ETHERNET = "Ethernet"

    @property
    def between_machines(self) -> bool:
        return self in (LinkKind.INFINIBAND, LinkKind.EFA, LinkKind.ROCE, LinkKind.ETHERNET)


#: The link class NCCL's model times a step by (``allreduce``): NVLink, or PCIe (host memory too); Infinity Fabric as NVLink.
NCCL_HARDWARE: dict[LinkKind, NcclHardware] = {LinkKind.NVLINK: "nvlink", LinkKind.NVSWITCH: "nvlink",
                                               LinkKind.INFINITY_FABRIC: "nvlink", LinkKind.PCIE_P2P: "pci",
                                               LinkKind.PCIE_HOST: "pci"}
#: Links over which one GPU reads another's memory (CUDA / HIP peer access), as an engine's own all-reduce needs.
PEER_ACCESS = frozenset({LinkKind.NVLINK, LinkKind.NVSWITCH, LinkKind.INFINITY_FABRIC, LinkKind.PCIE_P2P})
#: Links that join GPUs directly, not over PCIe.
GPU_FABRIC = frozenset({LinkKind.NVLINK, LinkKind.NVSWITCH, LinkKind.INFINITY_FABRIC})

FABRIC_LINK = {NicFabric.INFINIBAND: LinkKind.INFINIBAND, NicFabric.EFA: LinkKind.EFA,
               NicFabric.ROCE: LinkKind.ROCE, NicFabric.ETHERNET: LinkKind.ETHERNET}


class Link(Frozen):
    """One GPU-to-GPU path: what a large transfer achieves, and its latency."""

    kind: LinkKind
    gb_per_s: float = Field(gt=0, description="Achieved one-direction GB/s, reverse direction idle")
    duplex_gb_per_s: float = Field(gt=0, description="Achieved GB/s per direction, both directions busy")
    latency_s: float = Field(ge=0, description="One small transfer, seconds")
    peak_gb_per_s: float = Field(gt=0, description="Wire peak per direction, GB/s")
    description: str = ""


Collective = Literal["all_reduce", "all_gather", "reduce_scatter", "send"]


def _lanes(build: ResolvedBuild, i: int) -> int:
    lanes = build.topology.pcie_lanes_per_gpu
    if lanes:
        return lanes[i]
    return build.gpus[i].pcie_lanes or 16


def _pcie_gen(build: ResolvedBuild, gpus: tuple[Gpu, ...]) -> int:
    gens = [build.topology.pcie_gen] + [g.pcie_gen for g in gpus if g.pcie_gen is not None]
    return min(gens)


def _nvlinked(build: ResolvedBuild, i: int, j: int) -> bool:
    a, b = build.gpus[i], build.gpus[j]
    if a.nvlink is None or b.nvlink is None:
        return False
    if build.topology.nvswitch:
        return True
    return (i, j) in build.topology.nvlink_pairs or (j, i) in build.topology.nvlink_pairs


def node_link(build: ResolvedBuild) -> Link | None:
    """What joins one machine of ``build`` to the others: all its adapters together (None: none named).

    Peak = adapters × ports × line rate / 8 (Gb/s → GB/s), each way; achieved = peak ×
    ``INTER_NODE_EFFICIENCY``; latency = the NIC record's figure, else ``INTER_NODE_LATENCY_S``.
    """
    net = build.network
    if net is None or not net.gbit_per_s:
        return None
    peak = net.gbit_per_s / 8
    eff = peak * INTER_NODE_EFFICIENCY
    kind = FABRIC_LINK[net.nic.nic_fabric] if net.nic.nic_fabric else LinkKind.ETHERNET
    latency = net.nic.nic_latency_us * 1e-6 if net.nic.nic_latency_us else INTER_NODE_LATENCY_S
    desc = f"{net.count}× {net.nic.name}" if net.count > 1 else net.nic.name
    return Link(kind=kind, gb_per_s=eff, duplex_gb_per_s=eff, latency_s=latency, peak_gb_per_s=peak, description=desc)


def gpu_share(lk: Link, gpus: int) -> Link:
    """One GPU's share of a machine's adapters when ``gpus`` GPUs use them at once (each GPU
    drives its own rail where there is one adapter per GPU, as in DGX H100 and p5)."""
    g = max(1, gpus)
    return lk.model_copy(update={"gb_per_s": lk.gb_per_s / g, "duplex_gb_per_s": lk.duplex_gb_per_s / g,
                                 "peak_gb_per_s": lk.peak_gb_per_s / g})


def link(build: ResolvedBuild, i: int, j: int) -> Link:
    """The path between GPU ``i`` and GPU ``j`` of ``build`` (slot indexes).

    NVLink peak per direction = half the per-GPU bidirectional total (reference gpus.csv
    convention: a 3090 pair bridge is 112.5 GB/s total, 56.25 each way). PCIe peak = lanes ×
    per-lane rate of the lower generation of platform and cards, narrower card wins. GPUs in
    different machines: one GPU's share of the machine's adapters (``node_link``, ``gpu_share``).
    """
    n = build.gpu_count
    if not (0 <= i < n and 0 <= j < n) or i == j:
        raise ValueError(f"link needs two different GPU indexes below {n}, got {i} and {j}")
    if build.nodes > 1:
        g = build.gpus_per_node
        if i // g != j // g:
            lk = node_link(build)
            if lk is None:
                raise ValueError(f"{build.name}: no network adapter joins its {build.nodes} machines")
            return gpu_share(lk, g)
        return link(build.node(), i % g, j % g)
    a, b = build.gpus[i], build.gpus[j]
    if _nvlinked(build, i, j):
        peak = min(a.nvlink.total_gb_per_s_per_gpu, b.nvlink.total_gb_per_s_per_gpu) / 2  # type: ignore[union-attr]
        kind = (LinkKind.INFINITY_FABRIC if a.nvlink.infinity_fabric  # type: ignore[union-attr]
                else LinkKind.NVSWITCH if build.topology.nvswitch else LinkKind.NVLINK)
        eff = peak * NVLINK_EFFICIENCY
        return Link(kind=kind, gb_per_s=eff, duplex_gb_per_s=eff, latency_s=P2P_LATENCY_S,
                    peak_gb_per_s=peak, description=f"{a.nvlink.version}, {peak:g} GB/s each way")  # type: ignore[union-attr]
    gen = _pcie_gen(build, (a, b))
    lanes = min(_lanes(build, i), _lanes(build, j))
    peak = PCIE_GB_PER_S_PER_LANE[gen] * lanes
    p2p = build.topology.p2p and a.p2p_supported is not False and b.p2p_supported is not False
    where = f"PCIe {gen}.0 x{lanes}"
    if p2p:
        return Link(kind=LinkKind.PCIE_P2P, gb_per_s=peak * PCIE_P2P_EFFICIENCY,
                    duplex_gb_per_s=peak * PCIE_P2P_DUPLEX_EFFICIENCY, latency_s=P2P_LATENCY_S,
                    peak_gb_per_s=peak, description=f"{where}, peer-to-peer")
    return Link(kind=LinkKind.PCIE_HOST, gb_per_s=peak * PCIE_HOST_EFFICIENCY,
                duplex_gb_per_s=peak * PCIE_HOST_DUPLEX_EFFICIENCY, latency_s=PCIE_HOST_LATENCY_S,
                peak_gb_per_s=peak, description=f"{where}, no P2P: staged through host memory")


def ring_links(build: ResolvedBuild, n_gpus: int) -> list[Link]:
    """The hops of a ring over the first ``n_gpus`` GPUs in slot order (0→1→…→n-1→0), inside one machine."""
    if build.nodes > 1:
        build, n_gpus = build.node(), min(n_gpus, build.gpus_per_node)
    if not 2 <= n_gpus <= build.gpu_count:
        raise ValueError(f"a ring needs 2..{build.gpu_count} GPUs of this build, got {n_gpus}")
    hops = [(k, k + 1) for k in range(n_gpus - 1)]
    if n_gpus > 2:
        hops.append((n_gpus - 1, 0))
    return [link(build, a, b) for a, b in hops]


#: (the build, GPUs) -> its ring's slowest hop: a plan search asks for the same build's ring at every plan it
#: times and the speed estimate of each, so the ring is worked out once per build (``benchmarks/core_pass.py``
#: times the pass).
_BOTTLENECK: HeldById[Link] = HeldById(256)


def bottleneck_link(build: ResolvedBuild, n_gpus: int) -> Link:
    """The slowest hop of the ring (what limits every ring collective)."""
    got = _BOTTLENECK.get((build,), n_gpus)
    if got is not None:
        return got
    return _BOTTLENECK.put((build,), n_gpus, min(ring_links(build, n_gpus),
                                                 key=lambda lk: (lk.duplex_gb_per_s, -lk.latency_s)))


def collective_time_s(build: ResolvedBuild, op: Collective, n_bytes: float, n_gpus: int) -> float:
    """Seconds for one NCCL ring collective over the first ``n_gpus`` GPUs.

    ``n_bytes`` is the buffer size nccl-tests calls "size": the all-reduce buffer, the
    all-gather output, the reduce-scatter input, or the message of a send. ``send`` is one
    hop, one direction (pipeline hand-off between GPU 0 and 1); the others run over the
    ring's slowest hop. Formula: ``collective_time_over``.
    """
    if n_bytes < 0:
        raise ValueError(f"n_bytes must be ≥ 0, got {n_bytes}")
    if n_gpus < 2 or n_bytes == 0:
        return 0.0
    g = build.gpus_per_node
    if n_gpus > g:  # across machines
        across = node_link(build)
        if across is None:
            raise ValueError(f"{build.name}: no network adapter joins its {build.nodes} machines")
        if op == "send":
            return collective_time_over(gpu_share(across, g), op, n_bytes, 2)
        inside = bottleneck_link(build, g) if g > 1 else None
        return hierarchical_time_over(inside, across, op, n_bytes, n_gpus, g)
    lk = link(build, 0, 1) if op == "send" else bottleneck_link(build, n_gpus)
    return collective_time_over(lk, op, n_bytes, n_gpus)


def collective_time_over(lk: Link, op: Collective, n_bytes: float, n_gpus: int) -> float:
    """One collective over a ring whose slowest hop is ``lk`` (or one send over ``lk``).

    Each GPU moves 2(n-1)/n · S (all-reduce) or (n-1)/n · S (all-gather, reduce-scatter) in
    2(n-1) or n-1 ring steps (nccl-tests doc/PERFORMANCE.md); a send moves S in one step, one
    direction. Inside a machine the time is NCCL's own model (``allreduce.nccl_ring_seconds``);
    between machines, the NCCL call + steps × the adapters' latency + bytes / bandwidth.
    """
    if n_gpus < 2 or n_bytes <= 0:
        return 0.0
    n = n_gpus
    if op == "send":
        steps, moved, gb_per_s = 1, n_bytes, lk.gb_per_s
    elif op == "all_reduce":
        steps, moved, gb_per_s = 2 * (n - 1), 2 * (n - 1) / n * n_bytes, lk.duplex_gb_per_s
    elif op in ("all_gather", "reduce_scatter"):
        steps, moved, gb_per_s = n - 1, (n - 1) / n * n_bytes, lk.duplex_gb_per_s
    else:
        raise ValueError(f"unknown collective {op!r}")
    if not lk.kind.between_machines:
        return nccl_ring_seconds(NCCL_HARDWARE[lk.kind], steps, moved, gb_per_s)
    return NCCL_CALL_LATENCY_S + steps * lk.latency_s + moved / (gb_per_s * 1e9)


def hierarchical_parts(inside: Link | None, across: Link, op: Collective, n_bytes: float, n_gpus: int,
                       per_node: int) -> tuple[float, float]:
    """(seconds inside the machines, seconds across them) of one collective over ``n_gpus`` GPUs,
    ``per_node`` to a machine (the last machine may hold fewer), each phase with its latency.

    Hierarchical all-reduce (Jia et al. 2018, arXiv:1807.11205 §3.3 hierarchical all-reduce;
    the byte accounting of stas00/ml-engineering network/README.md at 744d01e, model 3):
    reduce-scatter of S inside each machine ((g-1)/g·S per GPU), all-reduce of the S/g shard
    across the k machines (2(k-1)/k·S/g per GPU, every GPU on its share of the adapters at
    once), all-gather inside. All-gather (output S): across first (S/g), then inside; a
    reduce-scatter (input S): inside first, then across (the ZeRO++ hpZ/hierarchical layout,
    Wang et al. 2023, arXiv:2306.10209 §3). With one machine the inside part is the flat ring.
    """
    if n_gpus < 2 or n_bytes <= 0:
        return 0.0, 0.0
    g = max(1, min(per_node, n_gpus))
    k = -(-n_gpus // g)
    if k == 1:
        return (collective_time_over(inside, op, n_bytes, n_gpus) if inside is not None else 0.0), 0.0
    share = gpu_share(across, g)
    if op == "send":
        return 0.0, collective_time_over(share, op, n_bytes, 2)
    inner_op: dict[str, tuple[Collective, ...]] = {
        "all_reduce": ("reduce_scatter", "all_gather"), "all_gather": ("all_gather",),
        "reduce_scatter": ("reduce_scatter",)}
    if op not in inner_op:
        raise ValueError(f"unknown collective {op!r}")
    t_in = sum(collective_time_over(inside, o, n_bytes, g) for o in inner_op[op]) if inside is not None and g > 1 else 0.0
    t_across = collective_time_over(share, op, n_bytes / g, k)
    return t_in, t_across


def hierarchical_time_over(inside: Link | None, across: Link, op: Collective, n_bytes: float, n_gpus: int,
                           per_node: int) -> float:
    """One collective across machines (``hierarchical_parts``): NCCL pipelines chunks through the
    phases, so the slower of the two sets the time (stas00 network/README.md at 744d01e: the
    measured 4-machine time lies between the overlapped and the summed phases; the
    ``INTER_NODE_EFFICIENCY`` figure charges the whole time to the adapters, i.e. overlapped)."""
    t_in, t_across = hierarchical_parts(inside, across, op, n_bytes, n_gpus, per_node)
    if t_across == 0.0:
        return t_in
    return max(t_in, t_across)


def bus_bandwidth_gb_per_s(build: ResolvedBuild, op: Collective, n_bytes: float, n_gpus: int) -> float:
    """nccl-tests' busbw for one collective of ``n_bytes`` (algbw = S / t, busbw = algbw ·
    2(n-1)/n for all-reduce, · (n-1)/n for all-gather / reduce-scatter): for comparing
    with published all_reduce_perf tables."""
    t = collective_time_s(build, op, n_bytes, n_gpus)
    algbw = n_bytes / t / 1e9
    factor = {"all_reduce": 2 * (n_gpus - 1) / n_gpus, "send": 1.0}.get(op, (n_gpus - 1) / n_gpus)
    return algbw * factor
