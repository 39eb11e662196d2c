"""What is physically wrong with a build: PSU, slot spacing, NVLink bridges, PCIe lanes, P2P.

The checks read the topology and the platform fields of the ``Build``; an unknown input
gives an INFO note saying what could not be checked, never a guess.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum

from pydantic import Field

from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import LaneSource, ResolvedBuild
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
    """Each card (but the last) must fit in the spacing to the next slot; equal = no air gap."""
    if build.gpu_count < 2:
        return []
    spacing = build.topology.slot_spacing
    if spacing is None:
        return [_w(
            WarningKind.SLOT_SPACING, Severity.INFO,
            "slot spacing unknown: whether the cards fit side by side was not checked"
        )]
    out = []
    for i, gpu in enumerate(build.gpus[:-1]):
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
        out += _bridge_span(pair, abs(b - a), build.topology.slot_spacing, ga.nvlink.bridge_slot_spacings)
    for index, n in sorted(seen.items()):
        link = build.gpus[index].nvlink
        if n > 1 and link is not None and link.max_gpus == 2:
            out.append(_w(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"GPU {index} is in {n} NVLink pairs but {build.gpus[index].name} takes one 2-way bridge"
            ))
    return out


def _bridge_span(pair: str, apart: int, spacing: int | None, bridges: tuple[int, ...]) -> list[BuildWarning]:
    if spacing is None:
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.WARNING,
            f"{pair}: slot spacing unknown, so whether a bridge fits was not checked"
        )]
    if not bridges:
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.INFO,
            f"{pair}: the bridge sizes sold for this card are not in the catalog; check the {apart * spacing}-slot "
            "span"
        )]
    span = apart * spacing
    if span not in bridges:
        sizes = ", ".join(f"{s}-slot" for s in bridges)
        return [_w(
            WarningKind.NVLINK_BRIDGE, Severity.ERROR,
            f"{pair}: the cards are {span} slots apart but bridges come in {sizes} only"
        )]
    return []


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
    cpu_lanes = build.build.cpu_pcie_lanes if build.build else None
    wanted = [n for n, s in zip(lanes, sources) if s is LaneSource.CPU]
    if cpu_lanes is not None and wanted and all(n is not None for n in wanted) and sum(wanted) > cpu_lanes:
        out.append(_w(
            WarningKind.PCIE_LANES, Severity.WARNING,
            f"the GPUs ask for {sum(wanted)} CPU lanes but the CPU has {cpu_lanes} (NVMe and others "
            "take some too): slots will be split (x8/x8) or share a PCIe switch"
        ))
    return out


def check_mixed(build: ResolvedBuild) -> list[BuildWarning]:
    kinds = gpu_kinds(build)
    if len(kinds) < 2:
        return []
    names = ", ".join(sorted({g.name for g in build.gpus}))
    return [_w(
        WarningKind.MIXED_GPUS, Severity.WARNING,
        f"mixed GPUs ({names}): tensor parallelism runs at the slowest card's pace and an even "
        "split wastes the larger card's memory"
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


CHECKS = (check_psu, check_slot_spacing, check_nvlink, check_pcie_lanes, check_mixed, check_p2p)


def check_build(build: ResolvedBuild) -> tuple[BuildWarning, ...]:
    """Every check, errors first; an empty tuple means nothing found (not "verified")."""
    found = [w for check in CHECKS for w in check(build)]
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return tuple(sorted(found, key=lambda w: order[w.severity]))
