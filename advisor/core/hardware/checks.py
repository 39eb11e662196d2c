"""What is physically wrong with a build: PSU, slot spacing, NVLink bridges, PCIe lanes, P2P.

The checks read the topology and the platform fields of the ``Build``; an unknown input
gives an INFO note saying what could not be checked, never a guess.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum

from pydantic import Field

from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import LaneSource, NicFabric, ResolvedBuild
from advisor.core.schema import Frozen

#: A PSU below this multiple of the sustained load relies on ATX 3.x excursion tolerance.
#: Intel (Stephen Eastman, platform power, interview with PCWorld 2022, reported at
#: https://www.tweaktown.com/news/85717/): a 750 W sustained load (300 W GPU + 300 W CPU +
#: 150 W rest) is fine on a 750 W ATX 3.0 PSU, which rides 200 % for 100 µs, but needs about
#: 1,100 W on an ATX 2.x unit because of GPU power excursions: 1100 / 750 ≈ 1.47.
PSU_ATX2_TRANSIENT_FACTOR = 1100 / 750


def lanes_per_gpu(build: ResolvedBuild) -> tuple[int | None, ...]:
    """Electrical lanes each GPU gets: the topology's figure, else the card's own width."""
    if build.topology.pcie_lanes_per_gpu:
        return build.topology.pcie_lanes_per_gpu
    return tuple(g.pcie_lanes for g in build.gpus)


def lane_sources(build: ResolvedBuild) -> tuple[LaneSource, ...]:
    """Where each GPU's lanes come from; unspecified = the CPU (how x16 GPU slots are wired)."""
    return build.topology.lane_sources or (LaneSource.CPU,) * build.gpu_count


def gpu_kinds(build: ResolvedBuild) -> Counter[str]:
    return Counter(g.id for g in build.gpus)


def slot_spacings(build: ResolvedBuild) -> tuple[int | None, ...]:
    """Slots from each GPU's slot to the next GPU's (one per adjacent pair): from the board's
    slot positions when the build names a board, else the topology's one spacing."""
    pairs = max(build.gpu_count - 1, 0)
    slots = build.platform.gpu_slots if build.platform is not None and build.platform.board is not None else None
    if slots is not None and len(slots) == build.gpu_count:
        return tuple(abs(b.position - a.position) for a, b in zip(slots, slots[1:]))
    return (build.topology.slot_spacing,) * pairs


def cpu_lanes(build: ResolvedBuild) -> int | None:
    """Lanes the CPU provides: the build's figure, else its CPU part's, else its platform tier's."""
    if build.build is not None and build.build.cpu_pcie_lanes is not None:
        return build.build.cpu_pcie_lanes
    cpu = build.platform.cpu if build.platform is not None else None
    if cpu is not None:
        return cpu.pcie_lanes
    return build.tier.cpu_pcie_lanes if build.tier is not None else None


# --- checks ------------------------------------------------------------------------------


class Severity(StrEnum):
    INFO = "info"  # could not check, or worth knowing
    WARNING = "warning"  # works, but slower, louder or riskier than it looks
    ERROR = "error"  # will not work as described


class WarningKind(StrEnum):
    PSU = "psu"
    SLOT_SPACING = "slot_spacing"
    NVLINK_BRIDGE = "nvlink_bridge"
    PCIE_LANES = "pcie_lanes"
    MIXED_GPUS = "mixed_gpus"
    P2P = "p2p"
    NETWORK = "network"  # the adapters joining several machines (issue 21)


class BuildWarning(Frozen):
    kind: WarningKind
    severity: Severity
    message: str = Field(min_length=1, description="One sentence for the UI and the PDF")


def _w(kind: WarningKind, severity: Severity, message: str) -> BuildWarning:
    return BuildWarning(kind=kind, severity=severity, message=message)


def check_psu(build: ResolvedBuild) -> list[BuildWarning]:
    """PSU rating vs sustained load, then vs the ATX 2.x transient margin (see the constant)."""
    power = build_power(build)
    if power.psu_w is None:
        return []
    if power.total_w is None:
        return [_w(
            WarningKind.PSU, Severity.INFO,
            "PSU headroom not checked: a GPU TDP or the platform power is unknown"
        )]
    load, psu = power.total_w, power.psu_w
    if load > psu:
        return [_w(
            WarningKind.PSU, Severity.ERROR,
            f"{psu:.0f} W PSU is below the {load:.0f} W sustained load (GPUs {power.gpus_w:.0f} W + "
            f"platform {power.platform_w:.0f} W)"
        )]
    if load * PSU_ATX2_TRANSIENT_FACTOR > psu:
        need = load * PSU_ATX2_TRANSIENT_FACTOR
        return [_w(
            WarningKind.PSU, Severity.WARNING,
            f"{psu:.0f} W PSU for a {load:.0f} W load: fine for an ATX 3.x unit, which absorbs GPU "
            f"power spikes; an older ATX 2.x unit may shut down (Intel's guidance implies "
            f"≈ {need:.0f} W)"
        )]
    return []


def check_slot_spacing(build: ResolvedBuild) -> list[BuildWarning]:
    """Each card (but the last) must fit in the spacing to the next slot; equal = no air gap.

    The spacing is per pair, from the board's slot positions where the build names a board.
    SXM and OAM modules sit on their baseboard, in no slot: nothing to check."""
    if build.gpu_count < 2 or all(g.is_module for g in build.gpus):
        return []
    spacings = slot_spacings(build)
    if any(s is None for s in spacings):
        return [_w(
            WarningKind.SLOT_SPACING, Severity.INFO,
            "slot spacing unknown: whether the cards fit side by side was not checked"
        )]
    out = []
    for i, (gpu, spacing) in enumerate(zip(build.gpus[:-1], spacings)):
        width = gpu.slot_width
        if width is None:
            out.append(_w(
                WarningKind.SLOT_SPACING, Severity.INFO,
                f"GPU {i} ({gpu.name}): card width unknown, fit not checked"
            ))
        elif width > spacing:
            out.append(_w(
                WarningKind.SLOT_SPACING, Severity.ERROR,
                f"GPU {i} ({gpu.name}) is {width:g} slots wide but the next GPU slot is {spacing} slots "
                "away: it covers it (riser or blower cards needed)"
            ))
        elif width == spacing:
            out.append(_w(
                WarningKind.SLOT_SPACING, Severity.WARNING,
                f"GPU {i} ({gpu.name}) fills all {spacing} slots to the next card: no air gap, its fans "
                "breathe on the next card's back"
            ))
    return out


def check_nvlink(build: ResolvedBuild) -> list[BuildWarning]:
    """Each NVLink pair: both cards have the link, same model, a bridge exists for the span."""
    out = []
    seen: Counter[int] = Counter()
    for a, b in build.topology.nvlink_pairs:
        seen.update((a, b))
        ga, gb = build.gpus[a], build.gpus[b]
        pair = f"NVLink pair ({a}, {b})"
        if ga.nvlink is None or gb.nvlink is None:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"{pair}: {(ga if ga.nvlink is None else gb).name} has no NVLink connector (or it is unknown)"
            ))
            continue
        if ga.id != gb.id:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"{pair}: bridges join two cards of the same model, not {ga.name} and {gb.name}"
            ))
            continue
        spacings = slot_spacings(build)[min(a, b):max(a, b)]
        span = None if any(s is None for s in spacings) else sum(spacings)
        out += _bridge_span(pair, span, ga.nvlink.bridge_slot_spacings)
    out += _bridge_parts(build)
    for index, n in sorted(seen.items()):
        link = build.gpus[index].nvlink
        if n > 1 and link is not None and link.max_gpus == 2:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"GPU {index} is in {n} NVLink pairs but {build.gpus[index].name} takes one 2-way bridge"
            ))
    return out


def _bridge_span(pair: str, span: int | None, bridges: tuple[int, ...]) -> list[BuildWarning]:
    if span is None:
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.WARNING,
            f"{pair}: slot spacing unknown, so whether a bridge fits was not checked"
        )]
    if not bridges:
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.INFO,
            f"{pair}: the bridge sizes sold for this card are not in the catalog; check the {span}-slot "
            "span"
        )]
    if span not in bridges:
        sizes = ", ".join(f"{s}-slot" for s in bridges)
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.ERROR,
            f"{pair}: the cards are {span} slots apart but bridges come in {sizes} only"
        )]
    return []


def _bridge_parts(build: ResolvedBuild) -> list[BuildWarning]:
    """The bridges the build's parts list: one per NVLink pair, each spanning its pair's slots."""
    platform = build.platform
    pairs = build.topology.nvlink_pairs
    if platform is None or (not platform.nvlink_bridges and platform.board is None):
        return []
    bridges = platform.nvlink_bridges
    if len(bridges) != len(pairs):
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.ERROR,
            f"the parts list {len(bridges)} NVLink bridge(s) for {len(pairs)} NVLink pair(s)"
        )]
    out = []
    spacings = slot_spacings(build)
    for (a, b), bridge in zip(pairs, bridges):
        between = spacings[min(a, b):max(a, b)]
        span = None if any(s is None for s in between) else sum(between)
        if span is not None and bridge.bridge_slot_spacing != span:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"NVLink pair ({a}, {b}) is {span} slots apart but {bridge.name} spans {bridge.bridge_slot_spacing}"
            ))
        gpu_id = build.gpus[a].id
        if bridge.bridge_gpu_ids and gpu_id not in bridge.bridge_gpu_ids:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"{bridge.name} is sold for {', '.join(bridge.bridge_gpu_ids)}, not {build.gpus[a].name}"
            ))
    return out


def check_board(build: ResolvedBuild) -> list[BuildWarning]:
    """The board named by the build: a slot for every GPU, and the lanes the topology claims."""
    platform = build.platform
    if platform is None or platform.board is None:
        return []
    board, slots = platform.board, platform.gpu_slots
    if len(slots) < build.gpu_count:
        return [_w(
            WarningKind.PCIE_LANES, Severity.ERROR,
            f"{board.name} has {len(board.slots)} x16-size slot(s) for {build.gpu_count} GPUs"
        )]
    out = []
    stated = build.topology.pcie_lanes_per_gpu
    for i, (gpu, lanes, slot) in enumerate(zip(build.gpus, platform.lanes_for_gpus(), slots)):
        if stated and stated[i] > lanes:
            out.append(_w(
                WarningKind.PCIE_LANES, Severity.ERROR,
                f"GPU {i} ({gpu.name}) is said to get x{stated[i]} but slot {slot.position} of {board.name} gives "
                f"x{lanes} with these slots in use"
            ))
    return out


def check_pcie_lanes(build: ResolvedBuild) -> list[BuildWarning]:
    """CPU lanes vs what the GPUs on CPU lanes ask for; GPUs behind the chipset share its uplink."""
    out = []
    lanes, sources = lanes_per_gpu(build), lane_sources(build)
    for i, (gpu, n) in enumerate(zip(build.gpus, lanes)):
        if sources[i] is LaneSource.CHIPSET:
            out.append(_w(
                WarningKind.PCIE_LANES, Severity.WARNING,
                f"GPU {i} ({gpu.name}) hangs off the chipset: it shares the chipset's one link to the CPU "
                "with storage, USB and network"
            ))
        if n is not None and gpu.pcie_lanes is not None and n < gpu.pcie_lanes:
            out.append(_w(
                WarningKind.PCIE_LANES, Severity.INFO,
                f"GPU {i} ({gpu.name}) runs at x{n} of its x{gpu.pcie_lanes}: loading weights and any GPU-to-GPU "
                "traffic over PCIe are slower"
            ))
    have = cpu_lanes(build)
    wanted = [n for n, s in zip(lanes, sources) if s is LaneSource.CPU]
    if have is not None and wanted and all(n is not None for n in wanted) and sum(wanted) > have:
        out.append(_w(
            WarningKind.PCIE_LANES, Severity.WARNING,
            f"the GPUs ask for {sum(wanted)} CPU lanes but the CPU has {have} (NVMe and others "
            "take some too): slots will be split (x8/x8) or share a PCIe switch"
        ))
    return out


#: 8-pin PCIe cables an adapter needs per GPU connector: NVIDIA's 12V-2x6/12VHPWR adapters take
#: 3 cables up to 450 W and 4 for 600 W; the RTX 30 Founders 12-pin adapter takes 2.
_ADAPTER_8PIN = {"16-pin": (3, 4), "12-pin": (2, 2)}


def gpu_power_connectors(gpu) -> dict[str, int] | None:
    """{'16-pin': n, '12-pin': n, '8-pin': n} a card needs, from its ``power_connectors`` text
    ('1x 16-pin', '2x 8-pin', '1x 6-pin + 1x 8-pin'); None when unknown or not a PCIe plug (EPS)."""
    text = gpu.power_connectors.strip().lower()
    if not text or "eps" in text:
        return None
    need = {"16-pin": 0, "12-pin": 0, "8-pin": 0}
    for chunk in text.split("+"):
        words = chunk.strip().split()
        if len(words) != 2 or not words[0].endswith("x") or not words[0][:-1].isdigit():
            return None
        count, plug = int(words[0][:-1]), words[1]
        if plug == "6-pin":
            plug = "8-pin"  # a 6+2-pin cable fits a 6-pin socket
        if plug not in need:
            return None
        need[plug] += count
    return need


def check_psu_connectors(build: ResolvedBuild) -> list[BuildWarning]:
    """The PSU part's 12V-2x6 and PCIe 8-pin cables against the cards' sockets; adapters from
    8-pin cables where the native ones run out (a warning), too few cables altogether an error."""
    psu = build.platform.psu if build.platform is not None else None
    if psu is None:
        return []
    if psu.connectors_12v_2x6 is None or psu.connectors_pcie_8pin is None:
        return [_w(WarningKind.PSU, Severity.INFO, f"{psu.name}: its GPU power cables are not stated; not checked")]
    needs = [gpu_power_connectors(g) for g in build.gpus]
    unknown = sorted({g.name for g, n in zip(build.gpus, needs) if n is None})
    out = []
    if unknown:
        out.append(_w(WarningKind.PSU, Severity.INFO,
                      f"power sockets of {', '.join(unknown)} not known: PSU cables not checked for them"))
    native, eight = psu.connectors_12v_2x6, psu.connectors_pcie_8pin
    adapters = 0
    for gpu, need in zip(build.gpus, needs):
        if need is None:
            continue
        eight -= need["8-pin"]
        for plug in ("16-pin", "12-pin"):
            for _ in range(need[plug]):
                if native > 0:
                    native -= 1
                else:
                    low, high = _ADAPTER_8PIN[plug]
                    eight -= high if (gpu.tdp_w or 600) > 450 else low
                    adapters += 1
    if eight < 0:
        out.append(_w(
            WarningKind.PSU, Severity.ERROR,
            f"{psu.name} has {psu.connectors_12v_2x6} 12V-2x6 and {psu.connectors_pcie_8pin} PCIe 8-pin cables: "
            f"{-eight} too few for the GPUs' power sockets"
        ))
    elif adapters:
        out.append(_w(
            WarningKind.PSU, Severity.WARNING,
            f"{psu.name} has {psu.connectors_12v_2x6} native 12V-2x6 cable(s): {adapters} GPU socket(s) need "
            "an adapter from 8-pin PCIe cables"
        ))
    return out


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
    return [_w(
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
        return [_w(
            WarningKind.P2P, Severity.WARNING,
            "PCIe peer-to-peer is off: GPU-to-GPU transfers go through host memory (slower tensor/pipeline "
            "parallel and all-reduce)"
        )]
    unsupported = sorted({g.name for g in build.gpus if g.p2p_supported is False})
    if unsupported:
        return [_w(
            WarningKind.P2P, Severity.WARNING,
            f"the topology says P2P is on, but {', '.join(unsupported)} has no PCIe P2P on stock drivers"
        )]
    return []


CHECKS = (check_psu, check_psu_connectors, check_slot_spacing, check_nvlink, check_board, check_pcie_lanes,
          check_mixed, check_p2p)


def check_network(build: ResolvedBuild) -> list[BuildWarning]:
    """Several machines (issue 21): they need a network adapter the catalog names; plain
    Ethernet has no RDMA (GPU memory is copied through the host on both sides); an adapter in a
    desktop needs a PCIe slot the GPUs leave free."""
    out: list[BuildWarning] = []
    net = build.network
    if build.nodes > 1 and net is None:
        out.append(_w(WarningKind.NETWORK, Severity.ERROR,
                      f"{build.nodes} machines need a network card to join them, and this build names none: "
                      "add an InfiniBand, RoCE or Ethernet card from the catalog, or choose a server or cloud "
                      "instance that has one"))
    if net is None:
        return out
    if build.nodes > 1 and net.nic.nic_fabric is NicFabric.ETHERNET:
        out.append(_w(WarningKind.NETWORK, Severity.WARNING,
                      f"{net.nic.name} is plain Ethernet: no RDMA, so data between the machines goes through "
                      "each machine's memory and CPU; training across them is slower than the estimate assumes"))
    platform = build.platform
    if platform is not None and platform.board is not None and platform.nic is not None:
        free = len(platform.board.slots) - build.gpus_per_node
        if free < platform.nics:
            out.append(_w(WarningKind.NETWORK, Severity.ERROR,
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
