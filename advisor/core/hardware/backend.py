"""Which software stack drives a GPU, and the family its kernels are chosen by.

Inference engines and training frameworks pick their kernels per backend (CUDA, ROCm, Metal,
Intel's XPU) and, within CUDA, per compute capability; within ROCm, per LLVM target (gfx…).
So the support table (what runs where) and the speed's basis (which families were measured)
are keyed by these, never by a card's marketing name.

Sources:
- NVIDIA compute capabilities: https://developer.nvidia.com/cuda-gpus and
  https://developer.nvidia.com/cuda-legacy-gpus (Tesla P100 6.0, P40 6.1, V100 7.0 …).
- AMD LLVM targets: ROCm "GPU hardware specifications"
  (https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html) and LLVM's AMDGPUUsage
  processor table (https://llvm.org/docs/AMDGPUUsage.html#processors).
"""

from __future__ import annotations

import re
from enum import StrEnum


class Backend(StrEnum):
    """The compute stack a GPU runs LLM software on."""

    CUDA = "cuda"  # NVIDIA
    ROCM = "rocm"  # AMD (HIP)
    METAL = "metal"  # Apple silicon (Metal / MPS / MLX)
    XPU = "xpu"  # Intel (oneAPI / SYCL; PyTorch's "xpu" device)

    @property
    def words(self) -> str:
        return {"cuda": "CUDA", "rocm": "ROCm", "metal": "Metal", "xpu": "Intel oneAPI (XPU)"}[self.value]


_VENDOR_BACKEND = {"nvidia": Backend.CUDA, "amd": Backend.ROCM, "apple": Backend.METAL, "intel": Backend.XPU}

#: A compute capability as NVIDIA prints it: major.minor ("8.6", "12.0").
COMPUTE_CAPABILITY_PATTERN = r"^[1-9][0-9]?\.[0-9]$"
#: An AMD LLVM processor name ("gfx906", "gfx90a", "gfx1100", "gfx1151").
GFX_TARGET_PATTERN = r"^(gfx[0-9a-f]{3,5})?$"


def backend_of(vendor: str) -> Backend | None:
    """The backend of a GPU by its vendor; None for a vendor the app knows no stack for."""
    return _VENDOR_BACKEND.get(vendor.strip().lower())


def cc_tuple(compute_capability: str | None) -> tuple[int, int] | None:
    """'8.6' -> (8, 6), comparable; None when unknown."""
    if not compute_capability:
        return None
    major, minor = compute_capability.split(".")
    return int(major), int(minor)


def speed_family(vendor: str, architecture: str, compute_capability: str | None, gfx_target: str) -> str:
    """The family a GPU's speed is measured and extrapolated by: 'NVIDIA sm_86', 'AMD gfx1100',
    'Apple M2', 'Intel Xe2'; else the vendor and the architecture's first word."""
    backend = backend_of(vendor)
    if backend is Backend.CUDA and compute_capability:
        major, minor = cc_tuple(compute_capability) or (0, 0)
        return f"NVIDIA sm_{major}{minor}"
    if backend is Backend.ROCM and gfx_target:
        return f"AMD {gfx_target}"
    if backend is Backend.METAL:
        match = re.search(r"\bM(\d+)\b", architecture)
        return f"Apple M{match.group(1)}" if match else "Apple"
    if backend is Backend.XPU:
        match = re.match(r"(Xe\d*)", architecture)
        return f"Intel {match.group(1)}" if match else "Intel"
    first = architecture.split(" ", 1)[0] if architecture else ""
    return f"{vendor} {first}".strip()
