"""A GPU record: the card or module (or the GPU of a unified-memory SoC) and its GPU-to-GPU link.

``None`` means *unknown* (the UI says so), never zero. Memory capacity is in GiB as the card
reports it (``memory_gib``) beside the marketing figure (``memory_gb_marketing``); bandwidth is
decimal GB/s as vendors print it (see ``advisor.core.units``).
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from advisor.core.hardware.backend import (
    COMPUTE_CAPABILITY_PATTERN,
    GFX_TARGET_PATTERN,
    Backend,
    backend_of,
    cc_tuple,
    speed_family,
)
from advisor.core.hardware.quantities import GbPerS, Gib, PricePoint, Tflops, physical_range
from advisor.core.schema import Frozen, PositiveFloat, Record


class Segment(StrEnum):
    CONSUMER = "consumer"
    WORKSTATION = "workstation"
    DATACENTER = "datacenter"
    UNIFIED_MEMORY = "unified-memory"


class NvLink(Frozen):
    """GPU-to-GPU link of a card or module (NVLink, or AMD Infinity Fabric for Instinct)."""

    version: str = Field(min_length=1, description="e.g. 'NVLink 3', 'NVLink 4', 'Infinity Fabric'")
    total_gb_per_s_per_gpu: GbPerS = Field(
        description="Total bidirectional GPU-to-GPU bandwidth per GPU, GB/s (a 3090 pair: 112.5)"
    )
    max_gpus: int = Field(ge=2, le=576, description="Largest all-to-all domain (2 = pair bridge)")
    bridge_slot_spacings: tuple[Annotated[int, Field(ge=1, le=8)], ...] = Field(
        (), description="Slot spacings the available bridges span (e.g. 3 and 4 for the RTX 3090)"
    )

    @property
    def infinity_fabric(self) -> bool:
        """AMD's link (Instinct xGMI, Vega 20's bridge), named so on screen rather than NVLink."""
        return "infinity fabric" in self.version.lower()

    @property
    def board_name(self) -> str:
        """What joins several such modules all-to-all on one board: NVSwitch (HGX) or Infinity Fabric (AMD UBB)."""
        return "Infinity Fabric" if self.infinity_fabric else "NVSwitch"


class Gpu(Record):
    """A GPU or accelerator SKU (or the GPU of a unified-memory SoC)."""

    vendor: str = Field(min_length=1)
    name: str = Field(min_length=1)
    architecture: str = ""
    segment: Segment
    memory_gib: Annotated[PositiveFloat, physical_range(0.25, 16_384, "GiB")] = Field(
        description="Memory the card reports, GiB (24 GB card: 24)")
    memory_gb_marketing: Annotated[PositiveFloat, physical_range(0.25, 16_384, "GB")] = Field(
        description="Capacity printed on the box, 'GB'")
    memory_type: str = ""
    mem_bandwidth_gb_per_s: GbPerS | None = Field(None, description="Peak DRAM bandwidth, GB/s")
    fp32_tflops: Tflops | None = Field(None, description="Non-tensor FP32 peak, TFLOP/s")
    bf16_tflops_dense: Tflops | None = Field(
        None, description="Dense FP16/BF16 tensor peak with FP32 accumulate, TFLOP/s"
    )
    fp16_acc16_tflops_dense: Tflops | None = Field(
        None, description="Dense FP16 tensor peak with FP16 accumulate (GeForce: 2x the above)"
    )
    fp8_tflops_dense: Tflops | None = None
    int8_tops_dense: Tflops | None = None
    fp4_tflops_dense: Tflops | None = None
    bf16_supported: bool | None = None
    tdp_w: Annotated[PositiveFloat, physical_range(1, 10_000, "W")] | None = Field(None, description="Max board/module power, W")
    form_factor: str = ""
    slot_width: Annotated[PositiveFloat, physical_range(0.5, 8, "slots")] | None = Field(
        None, description="PCIe slots the card occupies")
    length_mm: Annotated[PositiveFloat, physical_range(10, 1_000, "mm")] | None = None
    power_connectors: str = ""
    pcie_gen: int | None = Field(None, ge=1, le=7)
    pcie_lanes: int | None = Field(None, ge=1, le=32)
    p2p_supported: bool | None = Field(
        None, description="PCIe peer-to-peer on stock drivers (RTX 4090: False)"
    )
    nvlink: NvLink | None = Field(None, description="None = no GPU-to-GPU link (or unknown)")
    pci_device_ids: tuple[str, ...] = Field((), description="PCI device ids, e.g. '0x2204'")
    compute_capability: str | None = Field(
        None, pattern=COMPUTE_CAPABILITY_PATTERN,
        description="NVIDIA CUDA compute capability, e.g. '8.6' (developer.nvidia.com/cuda-gpus)")
    gfx_target: str = Field("", pattern=GFX_TARGET_PATTERN,
                            description="AMD LLVM target, e.g. 'gfx1100' (ROCm GPU hardware specifications)")
    launch_date: dt.date | None = None
    sold_new_until: dt.date | None = Field(
        None, description="Last day its maker sold it new (None: still sold, or not known); a new price seen up to "
                          "then is no price one can buy at after it")
    prices: tuple[PricePoint, ...] = ()
    gpu_memory_limit_gib: Gib | None = Field(
        None, description="Apple: the GPU memory limit of the machine it is in (macOS's iogpu.wired_limit_mb), GiB; "
                          "empty: macOS's default for its memory (set on the machine: Build.gpu_memory_limit_gib)")

    @model_validator(mode="after")
    def _memory_consistent(self) -> Gpu:
        # A card reports at most ~1.1x and at least ~0.85x its printed size (B200: 180 of 192).
        ratio = self.memory_gib / self.memory_gb_marketing
        if not 0.5 <= ratio <= 1.2:
            raise ValueError(
                f"memory_gib {self.memory_gib} is not close to memory_gb_marketing {self.memory_gb_marketing}"
            )
        return self

    @model_validator(mode="after")
    def _memory_limit_is_a_macs(self) -> Gpu:
        if self.gpu_memory_limit_gib is not None and not (
                self.segment is Segment.UNIFIED_MEMORY and self.vendor.lower() == "apple"):
            raise ValueError("gpu_memory_limit_gib is a Mac's GPU memory limit; this is not an Apple GPU")
        return self

    @model_validator(mode="after")
    def _stack_fields_match_vendor(self) -> Gpu:
        backend = self.backend
        if self.compute_capability is not None and backend is not Backend.CUDA:
            raise ValueError("compute_capability is NVIDIA's; this card's vendor is not NVIDIA")
        if self.gfx_target and backend is not Backend.ROCM:
            raise ValueError("gfx_target is AMD's; this card's vendor is not AMD")
        return self

    @property
    def backend(self) -> Backend | None:
        """The stack it runs LLM software on (CUDA, ROCm, Metal, XPU); None for an unknown vendor."""
        return backend_of(self.vendor)

    @property
    def cc(self) -> tuple[int, int] | None:
        """The compute capability as a comparable pair ((8, 6)); None when not NVIDIA or unknown."""
        return cc_tuple(self.compute_capability)

    @property
    def speed_family(self) -> str:
        """The family its speed is measured by ('NVIDIA sm_86', 'AMD gfx1100', 'Apple M2')."""
        return speed_family(self.vendor, self.architecture, self.compute_capability, self.gfx_target)

    @property
    def is_module(self) -> bool:
        """An SXM or OAM module: it sits on a baseboard (HGX, UBB), not in a PCIe slot (the catalog's
        form factors 'SXM5 module (HGX H100)', 'OAM module (8-GPU UBB platform)', …)."""
        return self.form_factor.upper().startswith(("SXM", "OAM"))

