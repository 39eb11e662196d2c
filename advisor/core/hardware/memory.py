"""How much of a GPU's memory a framework can use: the card minus the driver's reserve, or
Metal's working-set cap on Apple unified memory."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.core.hardware.records import Gpu, ResolvedBuild, Segment
from advisor.core.units import GIB

# Memory the NVIDIA driver keeps out of CUDA's reach: an RTX 4090 (24 GiB) reports
# 25,386,352,640 bytes to deviceQuery (thamada/nvidia-smi gls/RTX4090_deviceQuery.py):
# 383,451,136 bytes (366 MiB) less. The CUDA context itself is the memory estimate's
# "runtime" term, so it is not subtracted here.
DRIVER_RESERVED_BYTES = 24 * GIB - 25_386_352_640
# macOS lets Metal use only recommendedMaxWorkingSetSize of unified memory: 11,453.25 MB on
# a 16 GB Mac (llama.cpp ggml_metal_init logs, ggml-org/llama.cpp CI output), 30,150.67 MB
# of 36 GB, 26,800.60 MB of 32 GB. The lowest share seen (16 GB) is used: about 70 %.
APPLE_GPU_WORKING_SET_SHARE = 11_453.25 / 16_384


# What CUDA can allocate on NVIDIA's unified-memory GB10 (DGX Spark, 128 GB LPDDR5X shared with the Arm CPU
# and the OS): 101.3-102.2 GiB free at boot, headless, page cache dropped, on drivers 580 and 610 alike, two
# machines (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks issue #47, 2026-08-30: vLLM's start-up check). The lowest
# of the range, as a share of the 128 GiB the record carries.
NVIDIA_UNIFIED_FREE_SHARE = 101.3 / 128


def usable_memory_bytes(gpu: Gpu) -> float:
    """Bytes a framework can allocate on ``gpu``: the card's memory minus the driver's
    reserve (discrete GPUs), Metal's working-set cap (Apple unified memory), or what the OS leaves
    free on NVIDIA's unified memory (``NVIDIA_UNIFIED_FREE_SHARE``). AMD's unified-memory chips (Strix
    Halo) keep the driver reserve only: what the OS needs there is not measured here."""
    total = gpu.memory_gib * GIB
    if gpu.segment is Segment.UNIFIED_MEMORY and gpu.vendor.lower() == "apple":
        return total * APPLE_GPU_WORKING_SET_SHARE
    if gpu.segment is Segment.UNIFIED_MEMORY and gpu.vendor.lower() == "nvidia":
        return total * NVIDIA_UNIFIED_FREE_SHARE
    return max(0.0, total - DRIVER_RESERVED_BYTES)


def unified_pool_bytes(gpus: Sequence[Gpu], host_ram_gib: float | None) -> float:
    """What a job may fill of a unified-memory machine's one pool, its GPU part and its "host" part together:
    the machine's RAM (or its GPUs' memory where the RAM is not given); on NVIDIA's, only what the OS leaves
    (``usable_memory_bytes``: the GPU can allocate all of that). Apple's cap binds the GPU alone; the CPU may
    use the rest, less what macOS itself needs (not measured here)."""
    pool = (host_ram_gib if host_ram_gib is not None else sum(g.memory_gib for g in gpus)) * GIB
    if all(g.vendor.lower() == "nvidia" for g in gpus):
        return min(pool, sum(usable_memory_bytes(g) for g in gpus))
    return pool




def host_ram_gib(build: ResolvedBuild) -> float | None:
    """The host RAM a build is known to have: its record's (or its platform tier's) figure, else the RAM kits its
    parts list names (capacity × kits); None where nothing says."""
    if build.host_ram_gib is not None:
        return build.host_ram_gib
    p = build.platform
    if p is None or p.ram is None or p.ram.capacity_gib is None:
        return None
    return p.ram.capacity_gib * p.ram_kits
