"""What a buyer should know about the detected machine: warnings and notes (pure).

Width is compared, generation only noted: NVIDIA documents that the current PCIe link
generation "may be reduced when the GPU is not in use" (``nvidia-smi --help-query-gpu``,
pcie.link.gen.current), so an idle Gen 1 link is not a fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from advisor.core import MIB, Frozen
from advisor.probe.models import DetectedGpu, Detection


class Finding(Frozen):
    level: Literal["warning", "note"]
    kind: str
    text: str
    gpu_index: int | None = None


def _link(g: DetectedGpu, card_lanes: int | None) -> list[Finding]:
    out = []
    card = max([w for w in (g.pcie_width_card, card_lanes, g.pcie_width_max) if w], default=None)
    cur = g.pcie_width_current
    if cur and card and cur < card:
        slot = (f"; the slot allows x{g.pcie_width_max}" if g.pcie_width_max and g.pcie_width_max < card else "")
        out.append(Finding(
            level="warning", kind="narrow-link", gpu_index=g.index,
            text=(f"GPU {g.index} runs PCIe x{cur} of the card's x{card}{slot}: {cur / card:.0%} of the "
                  "host link bandwidth for loading models and GPU-to-GPU traffic over PCIe."),
        ))
    if g.pcie_gen_current and g.pcie_gen_max and g.pcie_gen_current < g.pcie_gen_max:
        out.append(Finding(
            level="note", kind="idle-gen", gpu_index=g.index,
            text=(f"GPU {g.index} link is at Gen {g.pcie_gen_current} now, up to Gen {g.pcie_gen_max}: "
                  "idle cards lower their link generation, so only the width is checked."),
        ))
    if g.pcie_gen_gpu_max and g.pcie_gen_max and g.pcie_gen_max < g.pcie_gen_gpu_max:
        out.append(Finding(
            level="note", kind="platform-gen", gpu_index=g.index,
            text=f"GPU {g.index} supports Gen {g.pcie_gen_gpu_max} but this slot or platform allows Gen {g.pcie_gen_max}.",
        ))
    return out


def _card(g: DetectedGpu) -> list[Finding]:
    out = []
    if g.nvlinks and g.active_nvlinks == 0:
        out.append(Finding(level="warning", kind="nvlink-inactive", gpu_index=g.index,
                           text=f"GPU {g.index} has NVLink but no link is active (bridge missing or not seated)."))
    elif g.nvlinks and g.active_nvlinks < len(g.nvlinks):
        out.append(Finding(level="note", kind="nvlink-partial", gpu_index=g.index,
                           text=f"GPU {g.index}: {g.active_nvlinks} of {len(g.nvlinks)} NVLinks are active."))
    held = g.display_memory_bytes
    if g.display_active or (held or 0) > 0:
        amount = f"{held / MIB:.0f} MiB of VRAM held by graphics processes" if held else "the desktop holds some VRAM"
        out.append(Finding(level="warning", kind="display", gpu_index=g.index,
                           text=f"GPU {g.index} drives a display: {amount}, less for models."))
    if g.power_capped:
        top = f", max {g.power_max_limit_w:.0f} W" if g.power_max_limit_w else ""
        out.append(Finding(
            level="warning", kind="power-cap", gpu_index=g.index,
            text=(f"GPU {g.index} power limit is {g.power_limit_w:.0f} W, below the default "
                  f"{g.power_default_limit_w:.0f} W{top} (a user-set cap): lower clocks under load."),
        ))
    if g.mig_enabled:
        out.append(Finding(level="note", kind="mig", gpu_index=g.index,
                           text=f"GPU {g.index} is in MIG mode: it is split into instances, each with part of the memory."))
    return out


def buyer_findings(detection: Detection, card_lanes: Mapping[int, int | None] | None = None) -> tuple[Finding, ...]:
    """Warnings and notes for the detected GPUs; ``card_lanes`` = catalog PCIe lanes per GPU index."""
    lanes = card_lanes or {}
    out: list[Finding] = []
    for g in detection.gpus:
        out += _link(g, lanes.get(g.index))
        out += _card(g)
    for p in detection.pairs:
        if p.p2p_ok is False:
            out.append(Finding(
                level="warning", kind="p2p-disabled",
                text=(f"PCIe P2P between GPU {p.a} and GPU {p.b} is unavailable ({p.p2p_read}): "
                      "their transfers go through host memory."),
            ))
    return tuple(out)
