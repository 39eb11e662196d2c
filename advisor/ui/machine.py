"""'This machine': a detection as a comparison entry, via ``advisor.probe.machine`` (Qt-free).

The build is stored inline (``BuildEntry.inline``) so the comparison file stands alone.
"""

from __future__ import annotations

from advisor.core import BuildEntry


def this_machine_entry(catalog, detection) -> tuple[BuildEntry | None, str]:
    """(entry, status text) or (None, why not)."""
    from advisor.probe.machine import build_this_machine

    if not detection.gpus:
        lines = "; ".join(detection.status_lines[:3])
        return None, f"no GPU found ({lines})" if lines else "no GPU found"
    gpus = list(catalog.gpus.values()) if catalog is not None else []
    machine = build_this_machine(detection, gpus, catalog.parts.values() if catalog is not None else ())
    notes = " ".join(machine.notes)
    if machine.resolved is None:
        return None, notes or "no detected GPU could be estimated"
    cpu, host = machine.cpu, ""
    if cpu is not None:
        paces = " (its single-core score paces the engines' CPU work)" if cpu.single_thread_mark else ""
        host = f", CPU {cpu.vendor} {cpu.name}{paces}"
    text = f"This machine: {machine.resolved.gpu_count} GPU(s) detected{host}" + (f" — {notes}" if notes else "")
    return BuildEntry(name="This machine", inline=machine.resolved), text


#: RAM bandwidth a CPU-only build is estimated with: dual-channel DDR4-3200, 2 channels × 8 bytes
#: × 3,200 MT/s = 51.2 GB/s peak (JEDEC JESD79-4 speed bin). This machine's memory speed and
#: channel count are not read, so the figure is stated, not measured.
CPU_RAM_BANDWIDTH_GB_PER_S = 51.2
CPU_ONLY_NAME = "This machine (CPU only)"
_CPU_SOURCE = "https://www.jedec.org/standards-documents/docs/jesd79-4a"


def cpu_only_entry(detection) -> tuple[BuildEntry | None, str]:
    """The host's CPU and RAM as a one-"GPU" build: a unified-memory record whose memory is the
    host RAM and whose bandwidth is ``CPU_RAM_BANDWIDTH_GB_PER_S`` (llama.cpp runs on it like this).
    (None, why) when the RAM size was not read."""
    from advisor.core import GIB, Gpu, ResolvedBuild, Segment

    host = detection.host
    if not host.ram_total_bytes:
        return None, "the size of this computer's RAM could not be read"
    gib = round(host.ram_total_bytes / GIB, 2)
    cpu = host.cpu_model or "this computer's CPU"
    gpu = Gpu(id="local-cpu-only", sources=[_CPU_SOURCE], vendor="CPU", name=f"{cpu} with system RAM",
              notes=f"CPU only: memory = host RAM read from this machine; bandwidth assumed "
                    f"{CPU_RAM_BANDWIDTH_GB_PER_S} GB/s (dual-channel DDR4-3200), not measured",
              segment=Segment.UNIFIED_MEMORY, memory_gib=gib,
              memory_gb_marketing=max(1.0, float(round(host.ram_total_bytes / 1e9))),
              mem_bandwidth_gb_per_s=CPU_RAM_BANDWIDTH_GB_PER_S)
    resolved = ResolvedBuild(name=CPU_ONLY_NAME, gpus=(gpu,), host_ram_gib=gib, unified_memory=True)
    text = (f"{CPU_ONLY_NAME}: {gib:.0f} GiB of RAM, memory speed assumed {CPU_RAM_BANDWIDTH_GB_PER_S:g} GB/s "
            "(dual-channel DDR4-3200); set the engine to llama.cpp for CPU inference")
    return BuildEntry(name=CPU_ONLY_NAME, inline=resolved), text
