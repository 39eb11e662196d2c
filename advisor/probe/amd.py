"""AMD GPUs: ``amd-smi static --json``, else ``rocm-smi --json``, else Linux sysfs.

Each source has a pure ``parse_…`` function; the ``read_…`` functions only run the tool
or read files. amd-smi/rocm-smi docs: https://rocm.docs.amd.com/projects/amdsmi/en/latest/
sysfs files: https://docs.kernel.org/gpu/amdgpu/driver-misc.html (mem_info_vram_total).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from advisor.probe.models import DetectedGpu, UnreadField
from advisor.probe.nvml import normalise_bus_id
from advisor.probe.tool import run_tool

AMD_VENDOR_ID = "0x1002"
# amd-smi prints sizes as {"value": n, "unit": "MB"}; its "MB" is MiB (65520 MB on a 64 GB MI210).
_UNIT_BYTES = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}


NOT_FOUND = "not found"


def _run_json(argv: list[str], timeout_s: float) -> tuple[str | None, str | None]:
    """(stdout, None) when the tool ran, else (None, why not); NOT_FOUND when it is absent."""
    exe = shutil.which(argv[0])
    if exe is None:
        return None, NOT_FOUND
    done = run_tool([exe, *argv[1:]], timeout_s)
    if done.problem:
        return None, done.problem
    if done.returncode != 0:
        first = (done.stderr or done.stdout).strip().splitlines()[:1]
        return None, f"{argv[0]} failed: {first[0] if first else done.returncode}"
    return done.stdout, None


def read_amd_smi(timeout_s: float = 5.0) -> tuple[str | None, str | None]:
    return _run_json(["amd-smi", "static", "--asic", "--bus", "--vram", "--driver", "--limit", "--json"], timeout_s)


def read_rocm_smi(timeout_s: float = 5.0) -> tuple[str | None, str | None]:
    return _run_json(["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showbus", "--json"], timeout_s)


def _size_bytes(value: Any) -> int | None:
    if isinstance(value, dict):
        number, unit = value.get("value"), str(value.get("unit", "B")).upper()
        if isinstance(number, int | float) and unit in _UNIT_BYTES:
            try:
                return int(number * _UNIT_BYTES[unit])
            except (OverflowError, ValueError):  # inf or NaN (1e308 MB): not a size; DetectedGpu says out of range
                return None
    return None


def _hex_id(text: Any) -> str | None:
    if text is None:
        return None
    try:
        return f"0x{int(str(text), 16):04x}"
    except ValueError:
        return None


def parse_amd_smi_json(text: str) -> tuple[DetectedGpu, ...]:
    """``amd-smi static --json`` (a list, or {"gpu_data": [...]} in ROCm ≥ 6.4) -> GPUs (pure)."""
    data = json.loads(text)
    items = data.get("gpu_data", []) if isinstance(data, dict) else data
    gpus = []
    for position, item in enumerate(items):
        asic, bus = item.get("asic") or {}, item.get("bus") or {}
        vram, driver, limit = item.get("vram") or {}, item.get("driver") or {}, item.get("limit") or {}
        width = bus.get("max_pcie_width")
        power = _size_w(limit.get("socket_power")) or _size_w(limit.get("max_power"))
        gpus.append(DetectedGpu(
            index=item["gpu"] if isinstance(item.get("gpu"), int) and 0 <= item["gpu"] < 4096 else position,
            vendor="AMD",
            name=asic.get("market_name"),
            source="amd-smi",
            pci_bus_id=normalise_bus_id(bus.get("bdf")),
            pci_device_id=_hex_id(asic.get("device_id")),
            pci_vendor_id=_hex_id(asic.get("vendor_id")),
            memory_total_bytes=_size_bytes(vram.get("size")),
            driver_version=driver.get("version"),
            pcie_width_max=width if isinstance(width, int) else None,
            power_limit_w=power,
            unread=() if _size_bytes(vram.get("size")) else (UnreadField(field="vram", reason="not in output"),),
        ))
    return tuple(gpus)


def _size_w(value: Any) -> float | None:
    if isinstance(value, dict) and isinstance(value.get("value"), int | float) and value.get("unit") == "W":
        return float(value["value"]) or None
    return None


def _int(text: Any) -> int | None:
    try:
        value = str(text).strip()
        return int(value) if len(value) <= 40 else None  # no count or size has 40 digits
    except ValueError:
        return None


def parse_rocm_smi_json(text: str) -> tuple[DetectedGpu, ...]:
    """``rocm-smi --showproductname --showmeminfo vram --json`` -> GPUs (pure).

    Keys differ between ROCm releases ('Card series' / 'Card Series', 'Card model' /
    'Card Model' holding the device id); both spellings are read.
    """
    data = json.loads(text)
    gpus = []
    for key in sorted((k for k in data if k.startswith("card")), key=lambda k: _int(k[4:]) or 0):
        card = {k.lower(): v for k, v in data[key].items()}
        total = _int(card.get("vram total memory (b)"))
        used = _int(card.get("vram total used memory (b)"))
        name = card.get("card series") or card.get("device name")
        # 'Card model' holds the device id in ROCm 6 but the vendor id (0x1002) in older releases.
        model = card.get("card model")
        device = card.get("device id") or card.get("gpu id") or (model if _hex_id(model) != AMD_VENDOR_ID else None)
        gpus.append(DetectedGpu(
            index=min(_int(key[4:]) or 0, 4095),
            vendor="AMD",
            name=name,
            source="rocm-smi",
            pci_bus_id=normalise_bus_id(card.get("pci bus")),
            pci_device_id=_hex_id(device) if device else None,
            pci_vendor_id=AMD_VENDOR_ID,
            memory_total_bytes=total,
            memory_used_bytes=used,
            memory_free_bytes=None if total is None or used is None else total - used,
            unread=() if total is not None else (UnreadField(field="vram", reason="not in output"),),
        ))
    return tuple(gpus)


SYSFS_FILES = ("vendor", "device", "mem_info_vram_total", "mem_info_vram_used", "current_link_width", "max_link_width")


def read_amd_sysfs(root: Path = Path("/sys/class/drm")) -> dict[str, dict[str, str]]:
    """Contents of the files :func:`parse_amd_sysfs` reads, per ``card*`` (no parsing here)."""
    cards: dict[str, dict[str, str]] = {}
    for card in sorted(root.glob("card[0-9]*")):
        if "-" in card.name:  # card0-DP-1 connectors
            continue
        files = {}
        for name in SYSFS_FILES:
            try:
                files[name] = (card / "device" / name).read_text().strip()
            except OSError:
                pass
        try:
            files["bus_id"] = (card / "device").resolve().name
        except OSError:
            pass
        cards[card.name] = files
    return cards


def parse_amd_sysfs(cards: dict[str, dict[str, str]]) -> tuple[DetectedGpu, ...]:
    """``{'card0': {'vendor': '0x1002', 'device': '0x744c', 'mem_info_vram_total': '...'}}`` -> GPUs."""
    gpus: list[DetectedGpu] = []
    for _name, files in sorted(cards.items()):
        if files.get("vendor", "").lower() != AMD_VENDOR_ID:
            continue
        total, used = _int(files.get("mem_info_vram_total")), _int(files.get("mem_info_vram_used"))
        gpus.append(DetectedGpu(
            index=len(gpus),
            vendor="AMD",
            name=None,
            source="sysfs",
            pci_bus_id=normalise_bus_id(files.get("bus_id")),
            pci_device_id=_hex_id(files.get("device")),
            pci_vendor_id=AMD_VENDOR_ID,
            memory_total_bytes=total,
            memory_used_bytes=used,
            memory_free_bytes=None if total is None or used is None else total - used,
            pcie_width_current=_int(files.get("current_link_width")),
            pcie_width_card=_int(files.get("max_link_width")),
            unread=tuple(UnreadField(field=f, reason="file missing") for f in ("mem_info_vram_total",) if total is None),
        ))
    return tuple(gpus)
