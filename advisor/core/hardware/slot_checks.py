"""Checks of where the cards sit: slot spacing, NVLink bridges, the board's slots and lanes, CPU lanes."""

from __future__ import annotations

from collections import Counter

from advisor.core.hardware.findings import BuildWarning, Severity, WarningKind, finding
from advisor.core.hardware.layout import all_known, cpu_lanes, lane_sources, lanes_per_gpu, slot_spacings, span_between
from advisor.core.hardware.resolved import ResolvedBuild
from advisor.core.hardware.topology import LaneSource


def check_slot_spacing(build: ResolvedBuild) -> list[BuildWarning]:
    """Each card (but the last) must fit in the spacing to the next slot; equal = no air gap.

    The spacing is per pair, from the board's slot positions where the build names a board.
    SXM and OAM modules sit on their baseboard, in no slot: nothing to check."""
    if build.gpu_count < 2 or all(g.is_module for g in build.gpus):
        return []
    spacings = all_known(slot_spacings(build))
    if spacings is None:
        return [finding(
            WarningKind.SLOT_SPACING, Severity.INFO,
            "slot spacing unknown: whether the cards fit side by side was not checked"
        )]
    out = []
    for i, (gpu, spacing) in enumerate(zip(build.gpus[:-1], spacings)):
        width = gpu.slot_width
        if width is None:
            out.append(finding(
                WarningKind.SLOT_SPACING, Severity.INFO,
                f"GPU {i} ({gpu.name}): card width unknown, fit not checked"
            ))
        elif width > spacing:
            out.append(finding(
                WarningKind.SLOT_SPACING, Severity.ERROR,
                f"GPU {i} ({gpu.name}) is {width:g} slots wide but the next GPU slot is {spacing} slots "
                "away: it covers it (riser or blower cards needed)"
            ))
        elif width == spacing:
            out.append(finding(
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
            out.append(finding(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"{pair}: {(ga if ga.nvlink is None else gb).name} has no NVLink connector (or it is unknown)"
            ))
            continue
        if ga.id != gb.id:
            out.append(finding(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"{pair}: bridges join two cards of the same model, not {ga.name} and {gb.name}"
            ))
            continue
        span = span_between(slot_spacings(build), a, b)
        out += _bridge_span(pair, span, ga.nvlink.bridge_slot_spacings)
    out += _bridge_parts(build)
    for index, n in sorted(seen.items()):
        link = build.gpus[index].nvlink
        if n > 1 and link is not None and link.max_gpus == 2:
            out.append(finding(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"GPU {index} is in {n} NVLink pairs but {build.gpus[index].name} takes one 2-way bridge"
            ))
    return out


def _bridge_span(pair: str, span: int | None, bridges: tuple[int, ...]) -> list[BuildWarning]:
    if span is None:
        return [finding(
            WarningKind.NVLINK_BRIDGE, Severity.WARNING,
            f"{pair}: slot spacing unknown, so whether a bridge fits was not checked"
        )]
    if not bridges:
        return [finding(
            WarningKind.NVLINK_BRIDGE, Severity.INFO,
            f"{pair}: the bridge sizes sold for this card are not in the catalog; check the {span}-slot "
            "span"
        )]
    if span not in bridges:
        sizes = ", ".join(f"{s}-slot" for s in bridges)
        return [finding(
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
        return [finding(
            WarningKind.NVLINK_BRIDGE, Severity.ERROR,
            f"the parts list {len(bridges)} NVLink bridge(s) for {len(pairs)} NVLink pair(s)"
        )]
    out = []
    spacings = slot_spacings(build)
    for (a, b), bridge in zip(pairs, bridges):
        span = span_between(spacings, a, b)
        if span is not None and bridge.bridge_slot_spacing != span:
            out.append(finding(
                WarningKind.NVLINK_BRIDGE, Severity.ERROR,
                f"NVLink pair ({a}, {b}) is {span} slots apart but {bridge.name} spans {bridge.bridge_slot_spacing}"
            ))
        gpu_id = build.gpus[a].id
        if bridge.bridge_gpu_ids and gpu_id not in bridge.bridge_gpu_ids:
            out.append(finding(
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
        return [finding(
            WarningKind.PCIE_LANES, Severity.ERROR,
            f"{board.name} has {len(board.slots)} x16-size slot(s) for {build.gpu_count} GPUs"
        )]
    out = []
    stated = build.topology.pcie_lanes_per_gpu
    for i, (gpu, lanes, slot) in enumerate(zip(build.gpus, platform.lanes_for_gpus(), slots)):
        if stated and stated[i] > lanes:
            out.append(finding(
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
            out.append(finding(
                WarningKind.PCIE_LANES, Severity.WARNING,
                f"GPU {i} ({gpu.name}) hangs off the chipset: it shares the chipset's one link to the CPU "
                "with storage, USB and network"
            ))
        if n is not None and gpu.pcie_lanes is not None and n < gpu.pcie_lanes:
            out.append(finding(
                WarningKind.PCIE_LANES, Severity.INFO,
                f"GPU {i} ({gpu.name}) runs at x{n} of its x{gpu.pcie_lanes}: loading weights and any GPU-to-GPU "
                "traffic over PCIe are slower"
            ))
    have = cpu_lanes(build)
    wanted = all_known([n for n, s in zip(lanes, sources) if s is LaneSource.CPU])
    if have is not None and wanted and sum(wanted) > have:
        out.append(finding(
            WarningKind.PCIE_LANES, Severity.WARNING,
            f"the GPUs ask for {sum(wanted)} CPU lanes but the CPU has {have} (NVMe and others "
            "take some too): slots will be split (x8/x8) or share a PCIe switch"
        ))
    return out
