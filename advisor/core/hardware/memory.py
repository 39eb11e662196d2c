"""How much of a GPU's memory a framework can use: the card minus the driver's reserve, or
Metal's working-set cap on Apple unified memory."""

from __future__ import annotations

from advisor.core.hardware.records import Gpu, Segment
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


def usable_memory_bytes(gpu: Gpu) -> float:
    """Bytes a framework can allocate on ``gpu``: the card's memory minus the driver's
    reserve (discrete GPUs) or Metal's working-set cap (Apple unified memory). Other
    unified-memory machines (DGX Spark, Strix Halo) keep the driver reserve only; what the
    OS needs there is unknown and not subtracted."""
    total = gpu.memory_gib * GIB
    if gpu.segment is Segment.UNIFIED_MEMORY and gpu.vendor.lower() == "apple":
        return total * APPLE_GPU_WORKING_SET_SHARE
    return max(0.0, total - DRIVER_RESERVED_BYTES)


