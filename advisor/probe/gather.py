"""``detect()``: run every backend that applies here and gather what they found.

Never raises: each backend's failure becomes one status line and the others still run.
NVML runs in a worker thread with a timeout because a wedged driver can hang its calls
forever; a hung thread is left behind (daemon) since Python cannot kill it.
"""

from __future__ import annotations

import platform
import threading
import time
from collections.abc import Callable
from typing import Any

from advisor.probe import amd, apple, host, nvidia_smi, nvml
from advisor.probe.models import DetectedGpu, DetectedHost, Detection, GpuPair, PciDisplayDevice

DEFAULT_TIMEOUT_S = 5.0


def run_with_timeout(fn: Callable[[], Any], timeout_s: float, name: str = "probe") -> tuple[str, Any]:
    """('ok', value), ('error', exception) or ('timeout', None)."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller, never lost
            box["error"] = exc

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        return "timeout", None
    if "error" in box:
        return "error", box["error"]
    return "ok", box.get("value")


def _lost_lines(gpus: tuple[DetectedGpu, ...]) -> list[str]:
    lines = []
    for g in gpus:
        reasons = {u.reason for u in g.unread}
        if any("lost" in r.lower() for r in reasons):
            lines.append(f"NVIDIA GPU {g.index}: the device was lost mid-query (GPU is lost); only what was read before is shown.")
        elif "Unknown Error" in reasons:
            lines.append(f"NVIDIA GPU {g.index}: some queries failed with 'Unknown Error'; those facts are shown as unknown.")
    return lines


def detect_nvidia(timeout_s: float, nvml_module: Any = None) -> tuple[tuple[DetectedGpu, ...], tuple[GpuPair, ...], list[str]]:
    """NVML first; nvidia-smi when NVML cannot start but the tool works."""
    status, value = run_with_timeout(lambda: nvml.query_nvml(nvml_module), timeout_s, "nvml-probe")
    if status == "timeout":
        return (), (), [f"NVIDIA: NVML did not answer within {timeout_s:g} s (a hung driver?); NVIDIA GPUs not read."]
    if status == "ok":
        gpus, pairs = nvml.parse_nvml(value)
        if not gpus:
            return (), (), ["NVIDIA: the driver is loaded but reports no GPU."]
        cuda = f", CUDA {gpus[0].cuda_driver_version}" if gpus[0].cuda_driver_version else ""
        line = f"NVIDIA: {len(gpus)} GPU(s) read through NVML (driver {gpus[0].driver_version or 'unknown'}{cuda})."
        return gpus, pairs, [line, *_lost_lines(gpus)]
    if isinstance(value, ImportError):
        lines = ["NVIDIA: the NVML binding (nvidia-ml-py) is not installed."]
    else:
        lines = [nvml.init_error_line(value)]
    smi = nvidia_smi.run_nvidia_smi(timeout_s)
    if isinstance(smi, tuple):
        try:
            gpus = nvidia_smi.parse_nvidia_smi_csv(*smi)
        except ValueError as exc:
            return (), (), [*lines, f"NVIDIA: nvidia-smi output not understood ({exc})."]
        lines.append(f"NVIDIA: {len(gpus)} GPU(s) read with nvidia-smi instead (no NVLink, P2P or topology facts).")
        return gpus, (), lines
    if smi != "nvidia-smi not found":
        lines.append(f"NVIDIA: {smi}.")
    return (), (), lines


def detect_amd(timeout_s: float) -> tuple[tuple[DetectedGpu, ...], list[str]]:
    """amd-smi, then rocm-smi, then (Linux) sysfs; a tool that fails says so and the next is tried."""
    lines: list[str] = []
    for reader, parser, label in (
        (amd.read_amd_smi, amd.parse_amd_smi_json, "amd-smi"),
        (amd.read_rocm_smi, amd.parse_rocm_smi_json, "rocm-smi"),
    ):
        out, why = reader(timeout_s)
        if out is None:
            if why != amd.NOT_FOUND:
                lines.append(f"AMD: {why}.")
            continue
        try:
            gpus = parser(out)
        except (ValueError, AttributeError, TypeError, KeyError) as exc:
            lines.append(f"AMD: {label} output not understood ({exc}).")
            continue
        if gpus:
            return gpus, [*lines, f"AMD: {len(gpus)} GPU(s) read with {label}."]
    if platform.system() == "Linux":
        gpus = amd.parse_amd_sysfs(amd.read_amd_sysfs())
        if gpus:
            return gpus, [*lines, f"AMD: {len(gpus)} GPU(s) read from sysfs (no product names: install amd-smi for them)."]
    return (), lines


def detect_apple(timeout_s: float) -> tuple[tuple[DetectedGpu, ...], list[str]]:
    if platform.system() != "Darwin":
        return (), []
    text = apple.read_system_profiler(max(timeout_s, 10.0))
    mem = apple.read_memsize(timeout_s)
    ram = apple.parse_memsize(mem) if mem else None
    if text is None:
        return (), ["Apple: system_profiler gave no answer; GPU not read."]
    gpus = apple.parse_system_profiler_json(text, ram)
    return gpus, [f"Apple: {g.name} with unified memory (GPU default share ≈ 2/3 to 3/4 of RAM)." for g in gpus]


def driverless_lines(pci: tuple[PciDisplayDevice, ...], gpus: tuple[DetectedGpu, ...]) -> list[str]:
    """Display devices on the bus that no backend read: say the driver is missing."""
    seen = {g.pci_bus_id for g in gpus if g.pci_bus_id}
    # A backend that gives no bus ids (rocm-smi without --showbus) cannot be joined: trust it.
    read_without_bus = {g.vendor for g in gpus if not g.pci_bus_id}
    lines = []
    for dev in pci:
        if dev.vendor not in ("NVIDIA", "AMD") or dev.bus_id in seen or dev.vendor in read_without_bus:
            continue
        driver = f"bound to '{dev.driver}'" if dev.driver else "no driver loaded"
        lines.append(
            f"{dev.vendor}: a GPU is present at {dev.bus_id} (device {dev.device_id}) but could not be read "
            f"({driver}); install or load the {dev.vendor} driver to use it."
        )
    return lines


def add_card_widths(gpus: tuple[DetectedGpu, ...], pci: tuple[PciDisplayDevice, ...]) -> tuple[DetectedGpu, ...]:
    """The card's own link width (PCIe LnkCap, sysfs max_link_width) joined by bus id."""
    widths = {d.bus_id: d.max_link_width for d in pci if d.max_link_width}
    return tuple(
        g.model_copy(update={"pcie_width_card": widths[g.pci_bus_id]})
        if g.pcie_width_card is None and g.pci_bus_id in widths else g
        for g in gpus
    )


def detect(timeout_s: float = DEFAULT_TIMEOUT_S, *, nvml_module: Any = None) -> Detection:
    """Everything about this machine's GPUs and host. Never raises; safe off the GUI thread."""
    start = time.monotonic()
    lines: list[str] = []
    try:
        host_info = host.read_host()
    except Exception as exc:  # noqa: BLE001 - a probe must never end the app
        host_info, lines = DetectedHost(), [f"Host: not read ({exc})."]
    gpus: tuple[DetectedGpu, ...] = ()
    pairs: tuple[GpuPair, ...] = ()
    pci: tuple[PciDisplayDevice, ...] = ()
    try:
        nv_gpus, pairs, nv_lines = detect_nvidia(timeout_s, nvml_module)
        gpus += nv_gpus
        lines += nv_lines
    except Exception as exc:  # noqa: BLE001
        lines.append(f"NVIDIA: detection failed ({exc}).")
    for backend, label in ((detect_amd, "AMD"), (detect_apple, "Apple")):
        try:
            found, found_lines = backend(timeout_s)
            offset = len(gpus)
            gpus += tuple(g.model_copy(update={"index": offset + i}) for i, g in enumerate(found))
            lines += found_lines
        except Exception as exc:  # noqa: BLE001
            lines.append(f"{label}: detection failed ({exc}).")
    try:
        if platform.system() == "Linux":
            pci = host.parse_pci_devices(host.read_pci_sysfs())
            gpus = add_card_widths(gpus, pci)
            lines += driverless_lines(pci, gpus)
    except Exception as exc:  # noqa: BLE001
        lines.append(f"PCI: the bus could not be listed ({exc}).")
    if not gpus:
        lines.append("No GPU was read on this machine; estimates can still use catalog builds.")
    return Detection(
        host=host_info, gpus=gpus, pairs=pairs, pci_display_devices=pci,
        status_lines=tuple(lines), elapsed_s=round(time.monotonic() - start, 3),
    )
