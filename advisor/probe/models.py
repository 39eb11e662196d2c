"""What detection found: frozen records the CLI, GUI and matching read.

``None`` always means *not read* (the backend failed or does not report it), never zero.
Each GPU also lists the fields that could not be read and why (``unread``).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field, model_validator

from advisor.core import Frozen

NVML_DOCS_URL = "https://docs.nvidia.com/deploy/nvml-api/"
ROCM_SMI_DOCS_URL = "https://rocm.docs.amd.com/projects/amdsmi/en/latest/"
APPLE_WORKING_SET_DOCS_URL = (
    "https://developer.apple.com/documentation/metal/mtldevice/recommendedmaxworkingsetsize"
)


#: What a real machine can report, per field: a value outside is a tool's or driver's garbage, kept as
#: *not read* with the value as the reason (a PCIe width of 99,999 or a generation of 1e308 had ended
#: ``detect`` in a traceback). Memory: 1 PiB (2^50 bytes) is beyond any GPU's or host's (the largest
#: single-system hosts hold tens of TB); PCIe: generations 1 to 7 (PCIe 7.0, 2025), widths x1 to x32
#: (the widest link the specification defines); power: Gpu.tdp_w's range; counts: far beyond any machine.
_PIB = 2**50
RANGES: dict[str, tuple[float, float]] = {
    "memory_total_bytes": (0, _PIB), "memory_used_bytes": (0, _PIB), "memory_free_bytes": (0, _PIB),
    "display_memory_bytes": (0, _PIB), "gpu_usable_memory_bytes": (0, _PIB),
    "pcie_gen_current": (1, 7), "pcie_gen_max": (1, 7), "pcie_gen_gpu_max": (1, 7),
    "pcie_width_current": (1, 32), "pcie_width_max": (1, 32), "pcie_width_card": (1, 32),
    "current_link_width": (1, 32), "max_link_width": (1, 32),
    "power_limit_w": (1, 10_000), "power_default_limit_w": (1, 10_000), "power_max_limit_w": (1, 10_000),
    "graphics_processes": (0, 1_000_000), "gpu_cores": (1, 1_000_000),
    "cpu_cores": (1, 1_000_000), "cpu_threads": (1, 1_000_000),
    "ram_total_bytes": (0, _PIB), "ram_available_bytes": (0, _PIB),
}


def _out_of_range(name: str, value: Any) -> bool:
    if name not in RANGES or value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return False
    lo, hi = RANGES[name]
    if isinstance(value, float) and not math.isfinite(value):  # (math.isfinite of a 300-digit int overflows)
        return True
    return not lo <= value <= hi


def _shown(value: float) -> str:
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"{str(value)[:3]}… ({len(str(abs(value)))} digits)" if abs(value) >= 10**300 else f"{value:.3g}"
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def drop_out_of_range(data: Any, unread: bool = False) -> Any:
    """``data`` (a model's input) with every value outside ``RANGES`` set to None; with ``unread``, each
    such field is listed in ``unread`` with its value as the reason."""
    if not isinstance(data, dict):
        return data
    bad = [k for k, v in data.items() if _out_of_range(k, v)]
    if not bad:
        return data
    out = {**data, **dict.fromkeys(bad)}
    if unread:
        reasons = tuple(UnreadField(field=k, reason=f"out of range: {_shown(data[k])}") for k in bad)
        out["unread"] = (*data.get("unread", ()), *reasons)
    return out


class UnreadField(Frozen):
    """A field whose query failed; the rest of the device was still read."""

    field: str
    reason: str = Field(description="The error the backend gave, e.g. 'Not Supported'")


class NvLinkState(Frozen):
    """One NVLink of one GPU as NVML reports it."""

    link: int = Field(ge=0, le=1023)
    active: bool
    remote_pci_bus_id: str | None = Field(None, description="Bus id of the device at the far end")


class DetectedGpu(Frozen):
    """One GPU (or the GPU of an Apple SoC) as read from this machine."""

    index: int = Field(ge=0, description="Order in which the backend enumerated it")
    vendor: str = Field(description="'NVIDIA', 'AMD' or 'Apple'")
    name: str | None = None
    source: str = Field(description="Backend that read it: nvml, nvidia-smi, amd-smi, rocm-smi, sysfs, system_profiler")
    uuid: str | None = None
    pci_bus_id: str | None = Field(None, description="Normalised 'dddd:bb:dd.f' (lower case)")
    pci_device_id: str | None = Field(None, description="PCI device id, e.g. '0x2204'")
    pci_vendor_id: str | None = Field(None, description="PCI vendor id, e.g. '0x10de'")
    memory_total_bytes: int | None = Field(None, ge=0)
    memory_used_bytes: int | None = Field(None, ge=0)
    memory_free_bytes: int | None = Field(None, ge=0)
    driver_version: str | None = None
    cuda_driver_version: str | None = Field(None, description="Highest CUDA the driver supports, e.g. '12.4'")
    compute_capability: str | None = Field(None, description="e.g. '8.6'")
    pcie_gen_current: int | None = Field(None, description="May drop while the card idles")
    pcie_gen_max: int | None = Field(None, description="Highest generation this card and slot can run")
    pcie_gen_gpu_max: int | None = Field(None, description="Highest generation the card itself supports")
    pcie_width_current: int | None = None
    pcie_width_max: int | None = Field(None, description="Widest link this card and slot can run (NVML)")
    pcie_width_card: int | None = Field(None, description="The card's own width (PCIe LnkCap via sysfs)")
    power_limit_w: float | None = Field(None, description="Power limit in force, W")
    power_default_limit_w: float | None = None
    power_max_limit_w: float | None = None
    display_active: bool | None = Field(None, description="A display is being driven (or a desktop runs on it)")
    display_connected: bool | None = Field(None, description="NVML display mode: a monitor is attached")
    display_memory_bytes: int | None = Field(None, ge=0, description="VRAM held by graphics processes")
    graphics_processes: int | None = Field(None, ge=0)
    mig_enabled: bool | None = None
    nvlinks: tuple[NvLinkState, ...] = ()
    nvlink_supported: bool | None = Field(None, description="None = not asked or unknown")
    unified_memory: bool = Field(False, description="GPU shares the host's RAM (Apple silicon)")
    gpu_usable_memory_bytes: int | None = Field(
        None, description="Unified memory: the share GPU work may use by default"
    )
    gpu_cores: int | None = None
    unread: tuple[UnreadField, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _in_range(cls, data: Any) -> Any:
        return drop_out_of_range(data, unread=True)

    @property
    def power_capped(self) -> bool | None:
        """True when the power limit in force is below the default (a user-set cap)."""
        if self.power_limit_w is None or self.power_default_limit_w is None:
            return None
        return self.power_limit_w < self.power_default_limit_w - 0.5

    @property
    def active_nvlinks(self) -> int:
        return sum(1 for link in self.nvlinks if link.active)


class GpuPair(Frozen):
    """What NVML says about two GPUs together."""

    a: int
    b: int
    p2p_read: str | None = Field(None, description="NVML P2P read status: 'ok' or why not")
    topology: str | None = Field(None, description="Common ancestor: internal, single, multiple, hostbridge, node, system")
    nvlink: bool = Field(False, description="An active NVLink joins the two")

    @property
    def p2p_ok(self) -> bool | None:
        return None if self.p2p_read is None else self.p2p_read == "ok"


class PciDisplayDevice(Frozen):
    """A display-class PCI device listed by Linux sysfs, with or without a driver."""

    bus_id: str
    vendor_id: str
    device_id: str
    class_code: str
    driver: str | None = Field(None, description="Kernel driver bound to it; None = none loaded")
    current_link_width: int | None = None
    max_link_width: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _in_range(cls, data: Any) -> Any:
        return drop_out_of_range(data)

    @property
    def vendor(self) -> str:
        return {"0x10de": "NVIDIA", "0x1002": "AMD", "0x8086": "Intel", "0x106b": "Apple"}.get(
            self.vendor_id, self.vendor_id
        )


class DetectedHost(Frozen):
    cpu_model: str | None = None
    cpu_cores: int | None = Field(None, description="Physical cores")
    cpu_threads: int | None = Field(None, description="Logical CPUs")
    ram_total_bytes: int | None = None
    ram_available_bytes: int | None = None
    os: str | None = Field(None, description="e.g. 'Linux 6.8.0 (x86_64)'")

    @model_validator(mode="before")
    @classmethod
    def _in_range(cls, data: Any) -> Any:
        return drop_out_of_range(data)


class Detection(Frozen):
    """Everything one detection run found, and what it could not find (``status_lines``)."""

    host: DetectedHost = DetectedHost()
    gpus: tuple[DetectedGpu, ...] = ()
    pairs: tuple[GpuPair, ...] = ()
    pci_display_devices: tuple[PciDisplayDevice, ...] = ()
    status_lines: tuple[str, ...] = Field((), description="One line per backend: what it did or why not")
    elapsed_s: float | None = None
