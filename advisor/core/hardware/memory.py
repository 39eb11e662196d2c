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
# macOS lets Metal use only its recommendedMaxWorkingSetSize of unified memory, and the default depends on the
# Mac's memory. llama.cpp's ggml_metal_init printed it (in MiB then: / 1024 / 1024): 10,922.67 on a 16 GB Mac
# (abetlen/llama-cpp-python #687) and 21,845.34 on 32 GB (ollama/ollama #434, ggml-org/llama.cpp PR #2011): 2/3;
# 73,728.00 on a 96 GB M2 Max (ggml-org/llama.cpp #3213): 3/4. MLX's max_recommended_working_set_size gives 48, 72,
# 96 and 144 GB on 64, 96, 128 and 192 GB Macs (raullenchai/Rapid-MLX PR #183, 2026-05-03): 3/4. Newer macOS
# gives more on some sizes — 107.52 GiB of 128 on macOS 26 (antirez/ds4 PR #893), 239 GB of a 256 GB M3 Ultra
# (Rapid-MLX #183), 30,150.67 MB (1e6 bytes, 78 %) of a 36 GB M3 Max — so these shares are the floor across
# versions. The 36/48 GB boundary is not pinned by a log: 36 GB takes the smaller share (78 % was seen there).
APPLE_SMALL_MAC_GIB = 36
APPLE_WORKING_SET_SMALL = 2 / 3
APPLE_WORKING_SET_LARGE = 3 / 4
#: The logs above: (unified memory, GiB) -> recommendedMaxWorkingSetSize as printed, MiB (a test checks the rule).
APPLE_WORKING_SET_LOGS_MIB = {16: 10_922.67, 32: 21_845.34, 96: 73_728.00}


def apple_working_set_share(memory_gib: float) -> float:
    """macOS's default Metal working set as a share of a Mac's unified memory (the logs above)."""
    return APPLE_WORKING_SET_SMALL if memory_gib <= APPLE_SMALL_MAC_GIB else APPLE_WORKING_SET_LARGE


# What CUDA can allocate on NVIDIA's unified-memory GB10 (DGX Spark, 128 GB LPDDR5X shared with the Arm CPU
# and the OS): 101.3-102.2 GiB free at boot, headless, page cache dropped, on drivers 580 and 610 alike, two
# machines (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks issue #47, 2026-08-30: vLLM's start-up check). The lowest
# of the range, as a share of the 128 GiB the record carries.
NVIDIA_UNIFIED_FREE_SHARE = 101.3 / 128


def usable_memory_bytes(gpu: Gpu) -> float:
    """Bytes a framework can allocate on ``gpu``: the card's memory minus the driver's
    reserve (discrete GPUs), Metal's working-set cap (Apple unified memory: macOS's default for its size, or the
    machine's raised limit, ``Gpu.gpu_memory_limit_gib``), or what the OS leaves
    free on NVIDIA's unified memory (``NVIDIA_UNIFIED_FREE_SHARE``). AMD's unified-memory chips (Strix
    Halo) keep the driver reserve only: what the OS needs there is not measured here."""
    total = gpu.memory_gib * GIB
    if gpu.segment is Segment.UNIFIED_MEMORY and gpu.vendor.lower() == "apple":
        if gpu.gpu_memory_limit_gib is not None:  # the machine's raised limit (iogpu.wired_limit_mb)
            return min(total, gpu.gpu_memory_limit_gib * GIB)
        return total * apple_working_set_share(gpu.memory_gib)
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


def with_gpu_memory_limit(build: ResolvedBuild, gib: float | None) -> ResolvedBuild:
    """``build`` with its Apple GPUs' memory limit set to ``gib`` (a Mac's ``sudo sysctl iogpu.wired_limit_mb``); the
    build unchanged where it has no Apple unified-memory GPU or ``gib`` is None."""
    if gib is None or not any(_apple(g) for g in build.gpus):
        return build
    gpus = tuple(g.model_copy(update={"gpu_memory_limit_gib": min(gib, g.memory_gib)}) if _apple(g) else g
                 for g in build.gpus)
    return build.model_copy(update={"gpus": gpus})


def _apple(gpu: Gpu) -> bool:
    return gpu.segment is Segment.UNIFIED_MEMORY and gpu.vendor.lower() == "apple"
