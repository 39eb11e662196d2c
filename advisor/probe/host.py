"""The host (CPU, RAM, OS) and, on Linux, display devices on the PCI bus.

``/sys/bus/pci/devices/*/{vendor,device,class}`` lists GPUs even when no driver is bound,
which lets the report say "an NVIDIA GPU is present but its driver is not loaded".
PCI class 0x03xxxx = display controller (PCI Code and ID Assignment Specification).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from advisor.probe.models import DetectedHost, PciDisplayDevice
from advisor.probe.nvml import normalise_bus_id

PCI_FILES = ("vendor", "device", "class", "current_link_width", "max_link_width")


def parse_cpuinfo_model(text: str) -> str | None:
    """'model name : AMD EPYC 7763' (x86) or 'Model : Raspberry Pi' (arm) from /proc/cpuinfo."""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() in ("model name", "hardware", "model") and value.strip():
            if key.strip().lower() == "model" and value.strip().isdigit():
                continue  # x86 'model : 1' is a number, not a name
            return value.strip()
    return None


#: The registry key whose ``ProcessorNameString`` holds the first CPU's brand string on Windows ("AMD Ryzen 9 5950X
#: 16-Core Processor", the CPUID brand string); ``platform.processor()`` there reads the ``PROCESSOR_IDENTIFIER``
#: environment variable, family and stepping only ("AMD64 Family 25 Model 33 Stepping 0, AuthenticAMD", CPython 3.11
#: Lib/platform.py, ``_Processor.get_win32``), which names no model to match to a catalog part.
WINDOWS_CPU_KEY = r"HARDWARE\DESCRIPTION\System\CentralProcessor\0"


def windows_cpu_model() -> str | None:
    """The first CPU's brand string from the Windows registry; None where it cannot be read (or not on Windows)."""
    if sys.platform != "win32":  # (``winreg`` exists, and is typed, on Windows only)
        return None
    try:
        import winreg  # noqa: PLC0415 - Windows only

        with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, WINDOWS_CPU_KEY) as key:
            value, _ = winreg.QueryValueEx(key, "ProcessorNameString")
    except (ImportError, OSError):
        return None
    return value.strip() or None if isinstance(value, str) else None


def _cpu_model() -> str | None:
    system = platform.system()
    try:
        if system == "Linux":
            return parse_cpuinfo_model(Path("/proc/cpuinfo").read_text(errors="replace"))
        if system == "Darwin":
            from advisor.probe.apple import _run

            out = _run(["sysctl", "-n", "machdep.cpu.brand_string"], 5.0)
            return out.strip() if out else None
        if system == "Windows":
            return windows_cpu_model() or platform.processor() or None
    except OSError:
        return None
    return platform.processor() or None


def read_host() -> DetectedHost:
    """CPU, RAM and OS of this machine (psutil and platform); unknown parts stay None."""
    try:
        import psutil

        mem = psutil.virtual_memory()
        cores = psutil.cpu_count(logical=False)
        ram_total, ram_available = int(mem.total), int(mem.available)
    except Exception:  # psutil missing or refused (some sandboxes)
        cores, ram_total, ram_available = None, None, None
    return DetectedHost(
        cpu_model=_cpu_model(),
        cpu_cores=cores,
        cpu_threads=os.cpu_count(),
        ram_total_bytes=ram_total,
        ram_available_bytes=ram_available,
        os=f"{platform.system()} {platform.release()} ({platform.machine()})",
    )


def read_pci_sysfs(root: Path = Path("/sys/bus/pci/devices")) -> dict[str, dict[str, str]]:
    """Raw contents of the PCI files per device, plus the bound driver's name (no parsing)."""
    devices: dict[str, dict[str, str]] = {}
    if not root.is_dir():
        return devices
    for dev in sorted(root.iterdir()):
        files = {}
        for name in PCI_FILES:
            try:
                files[name] = (dev / name).read_text().strip()
            except OSError:
                pass
        driver = dev / "driver"
        if driver.exists():
            files["driver"] = driver.resolve().name
        devices[dev.name] = files
    return devices


def _int(text: str | None) -> int | None:
    try:
        return None if text is None or len(text) > 40 else int(text)  # no width has 40 digits
    except ValueError:
        return None


def parse_pci_devices(devices: dict[str, dict[str, str]]) -> tuple[PciDisplayDevice, ...]:
    """Display-class devices (class 0x03xxxx) from :func:`read_pci_sysfs` output (pure)."""
    found = []
    for bus_id, files in sorted(devices.items()):
        cls = files.get("class", "").lower()
        if not cls.startswith("0x03"):
            continue
        found.append(PciDisplayDevice(
            bus_id=normalise_bus_id(bus_id) or bus_id,
            vendor_id=files.get("vendor", "").lower(),
            device_id=files.get("device", "").lower(),
            class_code=cls,
            driver=files.get("driver"),
            current_link_width=_int(files.get("current_link_width")),
            max_link_width=_int(files.get("max_link_width")),
        ))
    return tuple(found)
