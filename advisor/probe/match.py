"""Match detected GPUs to catalog GPUs and make a "This machine" build (pure).

Order: PCI device id (``Gpu.pci_device_ids``), then the normalised name; the memory the
card reports (23.99 GiB for a "24 GB" card) confirms or picks between same-named SKUs.
A device with no catalog match gets a minimal ad-hoc ``Gpu`` so it can still be estimated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import Field

from advisor.core import GIB, Frozen, Gpu, Segment
from advisor.probe.models import (
    APPLE_WORKING_SET_DOCS_URL,
    NVML_DOCS_URL,
    ROCM_SMI_DOCS_URL,
    DetectedGpu,
)

# A card reports 0.9-1.06x the catalog's memory_gib: ECC or firmware reserve takes a few
# percent (an A10 reports 23028 MiB = 22.5 GiB of 24, https://github.com/leptonai/gpud
# e2e/mock/nvidia-smi/test_data.go); a different SKU differs by far more (40 vs 80 GB).
MEMORY_RATIO_LOW = 0.90
MEMORY_RATIO_HIGH = 1.06

_DROP = {"nvidia", "amd", "ati", "tesla", "geforce", "apple", "corporation"}
_FORMS = {"sxm": "sxm", "sxm2": "sxm", "sxm3": "sxm", "sxm4": "sxm", "sxm5": "sxm", "sxm6": "sxm",
          "pcie": "pcie", "nvl": "nvl"}
_MEMORY_KINDS = {"hbm", "hbm2", "hbm2e", "hbm3", "hbm3e", "gddr6", "gddr6x", "gddr7"}
# NVML names that leave the form factor out: "NVIDIA H100 80GB HBM3" is the SXM5 module
# (the PCIe card reports "NVIDIA H100 PCIe", the NVL card "NVIDIA H100 NVL").
_FORM_HINTS = {frozenset({"h100", "hbm3"}): "sxm"}


class NameKey(Frozen):
    core: frozenset[str]
    form: str | None = None


def name_key(name: str) -> NameKey:
    """'NVIDIA GeForce RTX 4090' and 'GeForce RTX 4090' -> the same key; form factor apart."""
    text = re.sub(r"\([^)]*\)", " ", name.lower())
    tokens = [t for t in re.split(r"[\s\-_/,]+", text) if t]
    form = next((_FORMS[t] for t in tokens if t in _FORMS), None)
    raw = set(tokens)
    core = frozenset(
        t for t in tokens
        if t not in _DROP and t not in _FORMS and t not in _MEMORY_KINDS and not re.fullmatch(r"\d+gb", t)
    )
    if form is None:
        form = next((f for need, f in _FORM_HINTS.items() if need <= raw), None)
    return NameKey(core=core, form=form)


class GpuMatch(Frozen):
    detected_index: int
    gpu_id: str | None = Field(None, description="Catalog id; None = no match")
    method: str | None = Field(None, description="'pci_device_id' or 'name'")
    note: str = ""
    candidates: tuple[str, ...] = Field((), description="Ids that fit equally well (ambiguous)")


def _memory_ratio(det: DetectedGpu, gpu: Gpu) -> float | None:
    if det.memory_total_bytes is None or det.unified_memory:
        return None
    return det.memory_total_bytes / GIB / gpu.memory_gib


def _memory_fits(det: DetectedGpu, gpu: Gpu) -> bool:
    ratio = _memory_ratio(det, gpu)
    return ratio is None or MEMORY_RATIO_LOW <= ratio <= MEMORY_RATIO_HIGH


def _by_name(det: DetectedGpu, gpus: Sequence[Gpu]) -> list[Gpu]:
    if not det.name:
        return []
    key = name_key(det.name)
    found = []
    for gpu in gpus:
        other = name_key(gpu.name)
        if other.core == key.core and (key.form is None or other.form is None or key.form == other.form):
            found.append(gpu)
    return found


def _narrow(det: DetectedGpu, found: list[Gpu]) -> list[Gpu]:
    if len(found) > 1:
        fits = [g for g in found if _memory_fits(det, g)]
        found = fits or found
    if len(found) > 1 and det.name:
        form = name_key(det.name).form
        same = [g for g in found if name_key(g.name).form == form]
        found = same or found
    return found


def _apple_words(name: str) -> frozenset[str]:
    return frozenset(t for t in name_key(name).core if not t.isdigit() and t not in {"core", "gpu", "gb"})


def _apple_candidates(det: DetectedGpu, gpus: Sequence[Gpu]) -> list[Gpu]:
    """Apple catalog names carry cores and RAM ('Apple M4 Max 40-core GPU, 128 GB (…)'):
    the chip's tokens must be among the record's, then RAM and GPU cores pick the variant."""
    if not det.name:
        return []
    key = name_key(det.name).core
    found = [g for g in gpus if g.vendor == "Apple" and _apple_words(g.name) == key]
    if det.memory_total_bytes:
        ram_gib = det.memory_total_bytes / GIB
        found = [g for g in found if MEMORY_RATIO_LOW <= ram_gib / g.memory_gib <= MEMORY_RATIO_HIGH]
    if det.gpu_cores:
        found = [g for g in found if str(det.gpu_cores) in name_key(g.name).core] or found
    return found


def match_gpu(det: DetectedGpu, gpus: Sequence[Gpu]) -> GpuMatch:
    """The catalog GPU this detected device is, by PCI id first, then by name (pure)."""
    found, method = [], None
    if det.unified_memory:
        found, method = _apple_candidates(det, gpus), "name"
    if not found and det.pci_device_id:
        wanted = det.pci_device_id.lower()
        found = [g for g in gpus if wanted in {i.lower() for i in g.pci_device_ids}]
        method = "pci_device_id" if found else None
        if len(found) > 1:
            found = _narrow(det, found)
            named = [g for g in found if g in _by_name(det, found)]
            found = named if len(named) == 1 else found
    if not found:
        found, method = _narrow(det, _by_name(det, gpus)), "name"
    if not found:
        return GpuMatch(detected_index=det.index, note="not in the catalog")
    if len(found) > 1:
        ids = tuple(sorted(g.id for g in found))
        return GpuMatch(detected_index=det.index, note="several catalog GPUs fit: " + ", ".join(ids), candidates=ids)
    gpu = found[0]
    note = ""
    ratio = _memory_ratio(det, gpu)
    if ratio is not None and not _memory_fits(det, gpu):
        note = (f"reports {det.memory_total_bytes / GIB:.2f} GiB; the catalog's {gpu.name} has "
                f"{gpu.memory_gib:g} GiB")
    return GpuMatch(detected_index=det.index, gpu_id=gpu.id, method=method, note=note)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "gpu"


def _guess_segment(det: DetectedGpu) -> Segment:
    name = (det.name or "").lower()
    if det.unified_memory:
        return Segment.UNIFIED_MEMORY
    if any(w in name for w in ("geforce", "radeon rx", "titan")):
        return Segment.CONSUMER
    if any(w in name for w in ("quadro", "rtx a", "ada generation", "rtx pro", "radeon pro")):
        return Segment.WORKSTATION
    return Segment.DATACENTER if det.vendor in ("NVIDIA", "AMD") else Segment.CONSUMER


_SOURCE_URL = {"NVIDIA": NVML_DOCS_URL, "AMD": ROCM_SMI_DOCS_URL, "Apple": APPLE_WORKING_SET_DOCS_URL}


def _within(value: int | None, low: int, high: int) -> int | None:
    """A driver's odd answer (0, 255) is dropped rather than breaking the record."""
    return value if value is not None and low <= value <= high else None


#: Memory an ad-hoc record can state: half a GiB (the smallest its printed size, rounded to 1 GB, stays
#: close to) to the largest a GPU record takes (``Gpu.memory_gib``).
ADHOC_MEMORY_GIB = (0.5, 16_384)


def _printed_size_gb(memory_gib: float) -> float:
    """The printed size assumed for an ad-hoc record: the reported GiB rounded to a whole GB (at least 1), or to a
    tenth where a whole GB would be too far from it for ``Gpu``'s own check (1.21 GiB is not "1 GB")."""
    whole = max(1.0, float(round(memory_gib)))
    return whole if memory_gib / whole <= 1.2 else round(memory_gib, 1)


def adhoc_gpu(det: DetectedGpu) -> Gpu | None:
    """A minimal Gpu from what was read, so an unknown card can still be estimated.

    None when its memory was not read (nothing to estimate with). Only measured facts go
    in; the rest stays unknown. The segment is guessed from the name (said in the notes).
    """
    if not det.memory_total_bytes:
        return None
    name = det.name or f"{det.vendor} device {det.pci_device_id or 'unknown'}"
    memory_gib = det.memory_total_bytes / GIB
    if not ADHOC_MEMORY_GIB[0] <= memory_gib <= ADHOC_MEMORY_GIB[1]:  # no card has it: not estimated
        return None
    notes = "read from this machine; segment guessed from the name; printed size assumed = reported GiB rounded"
    if det.unified_memory and det.gpu_usable_memory_bytes:
        notes += f"; GPU work may use about {det.gpu_usable_memory_bytes / GIB:.1f} GiB by default"
    return Gpu(
        id=f"local-{_slug(name)}",
        sources=[_SOURCE_URL.get(det.vendor, NVML_DOCS_URL)],
        notes=notes,
        vendor=det.vendor,
        name=name,
        segment=_guess_segment(det),
        memory_gib=round(memory_gib, 2),
        memory_gb_marketing=_printed_size_gb(memory_gib),
        tdp_w=det.power_default_limit_w or None,
        pcie_gen=_within(det.pcie_gen_gpu_max or det.pcie_gen_max, 1, 7),
        pcie_lanes=_within(det.pcie_width_card or det.pcie_width_max, 1, 32),
        pci_device_ids=(det.pci_device_id,) if det.pci_device_id else (),
    )
