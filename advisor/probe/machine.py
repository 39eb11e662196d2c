""""This machine" as a Build + ResolvedBuild, with the topology that was measured (pure).

NVLink pairs come from active links whose far end is another local GPU, P2P from NVML's
P2P read status, lanes from each GPU's current link width, the PCIe generation from the
highest generation card and slot can run (the current one drops while idle), host RAM
from psutil. What was not read is listed in ``notes`` instead of being guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import Field, ValidationError

from advisor.core import GIB, MAX_GPUS_PER_MACHINE, Build, BuildGpu, Frozen, Gpu, PlatformPart, ResolvedBuild, Topology
from advisor.probe.cpu_match import match_cpu
from advisor.probe.match import GpuMatch, adhoc_gpu, match_gpu
from advisor.probe.models import NVML_DOCS_URL, DetectedGpu, Detection

BUILD_ID = "this-machine"
BUILD_NAME = "This machine"


class MachineGpu(Frozen):
    detected: DetectedGpu
    match: GpuMatch
    gpu: Gpu | None = Field(None, description="Catalog record, or an ad-hoc one; None = cannot estimate")
    add_to_catalog: bool = Field(False, description="Not in the catalog: offer to add the ad-hoc record")


class ThisMachine(Frozen):
    gpus: tuple[MachineGpu, ...] = ()
    cpu: PlatformPart | None = Field(None, description="The catalog CPU part the host's CPU is; None = not in the catalog")
    build: Build | None = None
    resolved: ResolvedBuild | None = None
    notes: tuple[str, ...] = ()


def _runs(ids: list[str]) -> tuple[BuildGpu, ...]:
    """Consecutive equal ids -> (id, count), keeping slot order."""
    out: list[BuildGpu] = []
    for gpu_id in ids:
        if out and out[-1].gpu_id == gpu_id:
            out[-1] = BuildGpu(gpu_id=gpu_id, count=out[-1].count + 1)
        else:
            out.append(BuildGpu(gpu_id=gpu_id, count=1))
    return tuple(out)


def _lanes(gpus: list[DetectedGpu]) -> tuple[int, ...]:
    widths = [g.pcie_width_current or g.pcie_width_max for g in gpus]
    return tuple(widths) if all(widths) else ()  # type: ignore[arg-type]


def _topology(detection: Detection, used: list[DetectedGpu], notes: list[str]) -> Topology:
    position = {g.index: i for i, g in enumerate(used)}
    pairs = [p for p in detection.pairs if p.a in position and p.b in position]
    nvlink_pairs = tuple((position[p.a], position[p.b]) for p in pairs if p.nvlink)
    local_buses = {g.pci_bus_id for g in used}
    nvswitch = len(used) > 1 and all(
        g.active_nvlinks and all(lk.remote_pci_bus_id not in local_buses for lk in g.nvlinks if lk.active)
        for g in used
    )
    gens = [g.pcie_gen_max for g in used if g.pcie_gen_max]
    update: dict = {"nvlink_pairs": () if nvswitch else nvlink_pairs, "nvswitch": nvswitch,
                    "pcie_lanes_per_gpu": _lanes(used)}
    if gens:
        update["pcie_gen"] = min(gens)
    elif not all(g.unified_memory for g in used):
        notes.append("PCIe generation not read: the topology keeps the default (Gen 4).")
    if not update["pcie_lanes_per_gpu"] and not all(g.unified_memory for g in used):
        notes.append("PCIe link widths not read: each card is assumed to get its full width.")
    known = [p.p2p_ok for p in pairs if p.p2p_ok is not None]
    if known:
        update["p2p"] = all(known)
    elif len(used) > 1:
        notes.append("PCIe P2P status not read: the topology assumes it is enabled.")
    return Topology(**update)


def build_this_machine(detection: Detection, catalog_gpus: Sequence[Gpu],
                       catalog_parts: Iterable[PlatformPart] = ()) -> ThisMachine:
    """Match every detected GPU, and the host CPU to a catalog CPU part (its single-thread score paces an
    engine's per-token host work), and assemble the "This machine" build (pure)."""
    entries, notes = [], []
    cpu = match_cpu(detection.host.cpu_model, catalog_parts)
    for det in detection.gpus:
        match = match_gpu(det, catalog_gpus)
        gpu = next((g for g in catalog_gpus if g.id == match.gpu_id), None) if match.gpu_id else None
        if gpu is None:
            gpu = adhoc_gpu(det)
            if gpu is None:
                notes.append(f"GPU {det.index} ({det.name or 'unnamed'}): memory not read (or not a size a GPU has), "
                             "so it cannot be estimated.")
        entries.append(MachineGpu(detected=det, match=match, gpu=gpu, add_to_catalog=match.gpu_id is None and gpu is not None))
    usable = [e for e in entries if e.gpu is not None]
    if len(usable) > MAX_GPUS_PER_MACHINE:
        notes.append(f"{len(usable)} GPUs read; the build takes the first {MAX_GPUS_PER_MACHINE}, the most one "
                     f"machine holds (GPUs from {usable[MAX_GPUS_PER_MACHINE].detected.index} on are left out).")
        usable = usable[:MAX_GPUS_PER_MACHINE]
    if not usable:
        return ThisMachine(gpus=tuple(entries), cpu=cpu, notes=tuple(notes))
    try:
        build, resolved = _as_build(detection, usable, cpu, notes)
    except ValidationError as exc:  # what was read does not make a valid build: said; the GPUs are still listed
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"])
        notes.append(f"what was read does not make a build ({where + ': ' if where else ''}{err['msg']}).")
        return ThisMachine(gpus=tuple(entries), cpu=cpu, notes=tuple(notes))
    return ThisMachine(gpus=tuple(entries), cpu=cpu, build=build, resolved=resolved, notes=tuple(notes))


def _as_build(detection: Detection, usable: list[MachineGpu], cpu: PlatformPart | None,
              notes: list[str]) -> tuple[Build, ResolvedBuild]:
    used = [e.detected for e in usable]
    topology = _topology(detection, used, notes)
    ram = detection.host.ram_total_bytes
    unified = any(g.unified_memory for g in used)
    build = Build(
        id=BUILD_ID, name=BUILD_NAME, sources=[NVML_DOCS_URL],
        notes="read from this machine by llm-advisor detect",
        gpus=_runs([e.gpu.id for e in usable]),  # type: ignore[union-attr]
        topology=topology,
        host_ram_gib=round(ram / GIB, 2) if ram else None,
        cpu=detection.host.cpu_model or "",
        unified_memory=unified,
    )
    resolved = ResolvedBuild(
        name=BUILD_NAME, gpus=tuple(e.gpu for e in usable),  # type: ignore[misc]
        topology=topology, host_ram_gib=build.host_ram_gib, unified_memory=unified, build=build,
        host_cpu_single_thread_mark=cpu.single_thread_mark if cpu is not None else None,
    )
    return build, resolved
