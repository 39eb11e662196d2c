"""NVIDIA GPUs through ``nvidia-smi --query-gpu`` when NVML itself is unusable.

Field names are those of ``nvidia-smi --help-query-gpu``; the parser is driven by the
field list, so a recorded output with any field order can be parsed.
"""

from __future__ import annotations

import csv
import io
import shutil

from advisor.core import MIB
from advisor.probe.models import DetectedGpu, UnreadField
from advisor.probe.nvml import normalise_bus_id, split_pci_id
from advisor.probe.tool import run_tool

FIELDS = (
    "index", "name", "uuid", "pci.bus_id", "pci.device_id", "memory.total", "memory.used",
    "memory.free", "driver_version", "compute_cap", "pcie.link.gen.current", "pcie.link.gen.max",
    "pcie.link.width.current", "pcie.link.width.max", "power.limit", "power.default_limit",
    "power.max_limit", "display_active", "display_mode", "mig.mode.current",
)
# Older drivers reject unknown fields (e.g. compute_cap before R510) and print nothing else:
# the fallback asks only for fields every driver of the last decade knows.
BASIC_FIELDS = (
    "index", "name", "uuid", "pci.bus_id", "pci.device_id", "memory.total", "memory.used",
    "memory.free", "driver_version", "pcie.link.gen.current", "pcie.link.gen.max",
    "pcie.link.width.current", "pcie.link.width.max", "power.limit",
)
MAX_INDEX = 4096  # an index past this is garbage: the row's position stands in
_MISSING = {"", "n/a", "[n/a]", "[not supported]", "not supported", "[unknown error]", "[insufficient permissions]"}


def run_nvidia_smi(timeout_s: float = 5.0) -> tuple[str, tuple[str, ...]] | str:
    """Run nvidia-smi; returns (stdout, fields) or a one-line reason it gave nothing."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return "nvidia-smi not found"
    last = ""
    for fields in (FIELDS, BASIC_FIELDS):
        done = run_tool([exe, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"], timeout_s)
        if done.problem:
            return done.problem
        if done.returncode == 0:
            return done.stdout, fields
        last = (done.stdout + done.stderr).strip().splitlines()[:1]
        last = last[0] if last else f"exit status {done.returncode}"
    return f"nvidia-smi failed: {last}"


def _value(text: str) -> str | None:
    text = text.strip()
    return None if text.lower() in _MISSING else text


def _mib(text: str | None) -> int | None:
    """A MiB count as bytes; None stays unknown."""
    count = _int(text)
    return None if count is None else count * MIB


def _int(text: str | None) -> int | None:
    try:
        return None if text is None else int(float(text))
    except (ValueError, OverflowError):  # 'inf' parses as a float but is no whole number
        return None


def _float(text: str | None) -> float | None:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


def _enabled(text: str | None) -> bool | None:
    if text is None:
        return None
    return {"enabled": True, "disabled": False}.get(text.lower())


def parse_nvidia_smi_csv(text: str, fields: tuple[str, ...] | list[str] = FIELDS) -> tuple[DetectedGpu, ...]:
    """``--format=csv,noheader,nounits`` output for ``fields`` -> one DetectedGpu per line (pure).

    Memory is in MiB and power in W (nounits); 'N/A' and '[Not Supported]' stay unknown.
    """
    gpus = []
    for position, row in enumerate(csv.reader(io.StringIO(text), skipinitialspace=True)):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(fields):
            raise ValueError(f"line {position + 1} has {len(row)} values for {len(fields)} fields")
        raw = dict(zip(fields, row, strict=True))
        values = {k: _value(v) for k, v in raw.items()}
        unread = tuple(UnreadField(field=k, reason=raw[k].strip()) for k, v in values.items() if v is None)
        get = values.get
        device_id, vendor_id = split_pci_id(get("pci.device_id"))
        index = _int(get("index"))
        gpus.append(DetectedGpu(
            index=index if index is not None and 0 <= index < MAX_INDEX else position,
            vendor="NVIDIA",
            name=get("name"),
            source="nvidia-smi",
            uuid=get("uuid") or get("gpu_uuid"),
            pci_bus_id=normalise_bus_id(get("pci.bus_id")),
            pci_device_id=device_id,
            pci_vendor_id=vendor_id,
            memory_total_bytes=_mib(get("memory.total")),
            memory_used_bytes=_mib(get("memory.used")),
            memory_free_bytes=_mib(get("memory.free")),
            driver_version=get("driver_version"),
            compute_capability=get("compute_cap"),
            pcie_gen_current=_int(get("pcie.link.gen.current")),
            pcie_gen_max=_int(get("pcie.link.gen.max")),
            pcie_width_current=_int(get("pcie.link.width.current")),
            pcie_width_max=_int(get("pcie.link.width.max")),
            power_limit_w=_float(get("power.limit")),
            power_default_limit_w=_float(get("power.default_limit")),
            power_max_limit_w=_float(get("power.max_limit")),
            display_active=_enabled(get("display_active")),
            display_connected=_enabled(get("display_mode")),
            mig_enabled=_enabled(get("mig.mode.current")),
            unread=unread,
        ))
    return tuple(gpus)
