"""Resolving catalog machines into what the estimator and the checks take: one GPU record per
physical GPU, the parts looked up, and several identical machines joined by a network."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from advisor.core.hardware.builds import Build, CloudInstance, PrebuiltSystem
from advisor.core.hardware.catalog_model import Catalog, IncompleteRecord, RecordKind, UnknownRecord
from advisor.core.hardware.gpu import Gpu, Segment
from advisor.core.hardware.names import display_name
from advisor.core.hardware.parts import BoardSlot, PartKind, PlatformPart
from advisor.core.hardware.resolved import MAX_NODES, NodeNetwork, ResolvedBuild, ResolvedPlatform
from advisor.core.hardware.topology import Topology

_R = TypeVar("_R")


def _gpu(catalog: Catalog, gpu_id: str, used_by: str) -> Gpu:
    try:
        return catalog.gpus[gpu_id]
    except KeyError:
        raise UnknownRecord(RecordKind.GPU, gpu_id, f"named by {used_by}") from None


def _record(catalog: Catalog, records: Mapping[str, _R], kind: RecordKind, record_id: str) -> _R:
    record = records.get(record_id)
    if record is None:
        raise catalog.missing(kind, record_id)
    return record


def _optional_part(catalog: Catalog, part_id: str | None, want: PartKind, used_by: str) -> PlatformPart | None:
    return None if part_id is None else _part(catalog, part_id, want, used_by)


def _part(catalog: Catalog, part_id: str, want: PartKind, used_by: str) -> PlatformPart:
    part = catalog.parts.get(part_id)
    if part is None:
        raise UnknownRecord(RecordKind.PART, part_id, f"named by {used_by}")
    if part.part is not want:
        raise IncompleteRecord(f"{used_by} names part {part_id!r}, a {part.part.value}, as its {want.value}")
    return part


def resolve_platform(catalog: Catalog, build: Build, used_by: str) -> ResolvedPlatform | None:
    """The parts a build names, looked up; each GPU's board slot (named, else the board's first ones)."""
    refs = build.parts
    if refs is None:
        return None
    cpu, board, psu, ram = (_optional_part(catalog, part_id, want, used_by) for _, part_id, want in refs.singles())
    bridges = tuple(_part(catalog, pid, PartKind.NVLINK_BRIDGE, used_by) for pid in refs.nvlink_bridges)
    slots: tuple[BoardSlot, ...] = ()
    if board is not None:
        by_position = {s.position: s for s in board.slots}
        if refs.gpu_slots:
            missing = [p for p in refs.gpu_slots if p not in by_position]
            if missing:
                raise IncompleteRecord(f"{used_by} puts a GPU in slot {missing[0]}, which board {board.id!r} lacks")
            slots = tuple(by_position[p] for p in refs.gpu_slots)
        else:
            slots = tuple(sorted(board.slots, key=lambda s: s.position))[: build.gpu_count]
    nic = _optional_part(catalog, refs.nic, PartKind.NIC, used_by)
    return ResolvedPlatform(cpu=cpu, board=board, psu=psu, ram=ram, ram_kits=refs.ram_kits,
                            nvlink_bridges=bridges, gpu_slots=slots, nic=nic, nics=refs.nics)


def _resolve(catalog: Catalog, build: Build, name: str, used_by: str) -> ResolvedBuild:
    gpus = tuple(_gpu(catalog, g.gpu_id, used_by) for g in build.gpus for _ in range(g.count))
    if build.gpu_memory_limit_gib is not None:  # a Mac's raised GPU memory limit, on its Apple GPU
        gpus = tuple(g.model_copy(update={"gpu_memory_limit_gib": min(build.gpu_memory_limit_gib, g.memory_gib)})
                     if g.segment is Segment.UNIFIED_MEMORY and g.vendor.lower() == "apple" else g for g in gpus)
    platform = resolve_platform(catalog, build, used_by)
    network = NodeNetwork(nic=platform.nic, count=platform.nics) if platform and platform.nic else None
    return ResolvedBuild(
        name=name,
        gpus=gpus,
        topology=build.topology,
        host_ram_gib=build.host_ram_gib,
        unified_memory=build.unified_memory,
        build=build,
        platform=platform,
        network=network,
    )


def with_nodes(build: ResolvedBuild, nodes: int) -> ResolvedBuild:
    """``nodes`` identical copies of one machine of ``build``, joined by its network.

    The GPUs of every machine are listed in machine order; the topology, host RAM and parts
    are those of one machine. The network may be missing: the checks then say so.
    """
    if not 1 <= nodes <= MAX_NODES:
        raise ValueError(f"machines must be 1 to {MAX_NODES}, not {nodes}")
    one = build.node()
    if nodes == 1:
        return one
    return one.model_copy(update={"gpus": one.gpus * nodes, "nodes": nodes})


def with_network(catalog: Catalog, build: ResolvedBuild, nic_id: str, count: int = 1) -> ResolvedBuild:
    """``build`` with ``count`` of the catalog NIC ``nic_id`` in each machine (replacing its own)."""
    nic = _part(catalog, nic_id, PartKind.NIC, "the build's network")
    return build.model_copy(update={"network": NodeNetwork(nic=nic, count=count)})


def resolve_build(catalog: Catalog, build: Build | str) -> ResolvedBuild:
    """A catalog build (or its id) with one Gpu record per physical GPU, in slot order."""
    if isinstance(build, str):
        build = _record(catalog, catalog.builds, RecordKind.BUILD, build)
    return _resolve(catalog, build, build.name, f"build {build.id!r}")


def resolve_system(catalog: Catalog, system: PrebuiltSystem | str) -> ResolvedBuild:
    if isinstance(system, str):
        system = _record(catalog, catalog.systems, RecordKind.SYSTEM, system)
    if system.build is None:
        raise IncompleteRecord(f"system {system.id!r} has no verified GPU configuration")
    resolved = _resolve(catalog, system.build, display_name(system.vendor, system.name), f"system {system.id!r}")
    resolved = resolved.model_copy(update={"machine_prices": system.prices,
                                           "machine_sold_new_until": system.sold_new_until})
    nic = _optional_part(catalog, system.nic, PartKind.NIC, f"system {system.id!r}")
    if nic is not None:  # the adapters the system ships with (not priced apart: the system's price has them)
        resolved = resolved.model_copy(update={"network": NodeNetwork(nic=nic, count=system.nics)})
    return resolved


def resolve_cloud(catalog: Catalog, cloud: CloudInstance | str) -> ResolvedBuild:
    """A cloud instance as a build: ``gpu_count`` of its GPU, its topology, its host RAM."""
    if isinstance(cloud, str):
        cloud = _record(catalog, catalog.cloud, RecordKind.CLOUD, cloud)
    gpu = _gpu(catalog, cloud.gpu_id, f"cloud instance {cloud.id!r}")
    nic = _optional_part(catalog, cloud.nic, PartKind.NIC, f"cloud instance {cloud.id!r}")
    return ResolvedBuild(
        name=f"{cloud.provider} {cloud.instance_type}",
        gpus=(gpu,) * cloud.gpu_count,
        topology=cloud.topology,
        host_ram_gib=cloud.host_ram_gib,
        unified_memory=gpu.segment is Segment.UNIFIED_MEMORY,
        network=NodeNetwork(nic=nic, count=cloud.nics) if nic is not None else None,
        host_cpu_single_thread_mark=cloud.cpu_single_thread_mark,
    )


def on_baseboard(gpu: Gpu, count: int) -> bool:
    """Several SXM modules sit on an HGX baseboard whose GPUs are joined all-to-all by NVLink through
    NVSwitch (the catalog's form factors 'SXM4 module (HGX A100)', 'SXM5 module (HGX H100)', …; the
    record's ``nvlink.max_gpus`` is that domain); AMD's OAM modules sit on a UBB whose GPUs are joined
    all-to-all by Infinity Fabric (the mi300x record: 7 links per GPU, one to each of the other 7). Neither has a PCIe
    card form to run without its board. True for 2 or more of them, up to the domain."""
    return count > 1 and gpu.is_module and gpu.nvlink is not None and count <= gpu.nvlink.max_gpus


def boards_needed(gpu: Gpu, count: int) -> tuple[int, int] | None:
    """(modules a board holds, machines) where ``count`` of a module GPU are more than one baseboard holds — one board
    holds at most its NVLink domain (``nvlink.max_gpus``: 8 on HGX H100/H200/B200 and AMD's UBB, 16 on HGX A100) and a
    module has no PCIe card form to add more beside it, so more are machines joined by a network; None where they fit."""
    if not gpu.is_module or gpu.nvlink is None or count <= gpu.nvlink.max_gpus:
        return None
    most = gpu.nvlink.max_gpus
    return most, -(-count // most)


def board_limit(gpu: Gpu, count: int) -> str:
    """Why ``count`` of a module GPU cannot be one machine (``boards_needed``), in words, or ""."""
    if (needed := boards_needed(gpu, count)) is None:
        return ""
    most, machines = needed
    assert gpu.nvlink is not None  # (boards_needed)
    return (f"one {gpu.nvlink.board_name} board holds at most {most} {gpu.name}: {count} of them are {machines} "
            f"machines" + (f" of {most}" if count % most == 0 else "") + " joined by a network")


def gpu_build(catalog: Catalog, gpu_id: str, count: int = 1) -> ResolvedBuild:
    """``count`` cards of one GPU on plain PCIe: no NVLink bridge, even if the card takes one; or,
    for SXM modules, ``count`` GPUs of one NVSwitch baseboard (``on_baseboard``); more modules than a board holds
    are refused (``board_limit``).

    Each card gets its own PCIe generation and lane width. P2P is on only where the card
    is known to support it on stock drivers (``p2p_supported`` True); unknown counts as off,
    so the estimate errs slow rather than fast. A bridged pair is a catalog build.
    """
    if not 1 <= count <= 72:
        raise ValueError(f"count must be 1 to 72, not {count}")
    gpu = _gpu(catalog, gpu_id, "a GPU-only build")
    if why := board_limit(gpu, count):
        raise ValueError(why)
    board = on_baseboard(gpu, count)
    topology = Topology(
        pcie_gen=gpu.pcie_gen or Topology().pcie_gen,
        pcie_lanes_per_gpu=(gpu.pcie_lanes,) * count if gpu.pcie_lanes else (),
        p2p=bool(gpu.p2p_supported),
        nvswitch=board,
    )
    return ResolvedBuild(
        name=f"{count}x {gpu.name}" + (f" ({gpu.nvlink.board_name} board)" if board and gpu.nvlink
                                        else " (PCIe)" if count > 1 else ""),
        gpus=(gpu,) * count,
        topology=topology,
        unified_memory=gpu.segment is Segment.UNIFIED_MEMORY,
    )


def mixed_build(catalog: Catalog, gpu_ids: list[str] | tuple[str, ...]) -> ResolvedBuild:
    """Different cards in one machine, in slot order, on plain PCIe (e.g. an RTX 3090 beside an
    RTX 4090). PCIe runs at the lowest generation; P2P only where every card supports it."""
    if not 1 <= len(gpu_ids) <= 72:
        raise ValueError(f"a build holds 1 to 72 GPUs, not {len(gpu_ids)}")
    if len(set(gpu_ids)) == 1:  # one card several times: its own board and links (``gpu_build``)
        return gpu_build(catalog, gpu_ids[0], len(gpu_ids))
    gpus = tuple(_gpu(catalog, gid, "a mixed build") for gid in gpu_ids)
    if (module := next((g for g in gpus if g.is_module), None)) is not None:
        raise ValueError(f"the {module.name} is a module on its own baseboard, not a card: it cannot sit beside "
                         "other cards in one machine")
    lanes = tuple(n for g in gpus if (n := g.pcie_lanes))
    topology = Topology(
        pcie_gen=min((g.pcie_gen for g in gpus if g.pcie_gen), default=Topology().pcie_gen),
        pcie_lanes_per_gpu=lanes if len(lanes) == len(gpus) else (),
        p2p=all(g.p2p_supported for g in gpus),
    )
    counts: dict[str, int] = {}
    for g in gpus:
        counts[g.name] = counts.get(g.name, 0) + 1
    return ResolvedBuild(name=" + ".join(f"{n}x {name}" for name, n in counts.items()), gpus=gpus, topology=topology,
                         unified_memory=any(g.segment is Segment.UNIFIED_MEMORY for g in gpus))

