"""NVIDIA GPUs through NVML (``pynvml`` from nvidia-ml-py).

Two halves: :func:`query_nvml` asks the driver and returns a plain dict (every field
wrapped, so one failing query is recorded as unread instead of ending the run), and
:func:`parse_nvml` turns that dict into frozen records. The dict is also the shape of the
recorded fixtures in ``tests/data/probe/``. API: https://docs.nvidia.com/deploy/nvml-api/
"""

from __future__ import annotations

from typing import Any

from advisor.probe.models import DetectedGpu, GpuPair, NvLinkState, UnreadField

# nvml.h: NVML_P2P_CAPS_INDEX_READ. pynvml writes it as ``0,`` (a tuple), so use the value.
P2P_CAPS_INDEX_READ = 0
# Upper bound of the link loop when the binding does not say (NVML_NVLINK_MAX_LINKS, nvml.h);
# the loop stops earlier at the first link the driver calls invalid.
NVLINK_MAX_LINKS = 18

# nvmlGpuP2PStatus_t (nvml.h) -> short text.
P2P_STATUS = {
    0: "ok",
    1: "chipset not supported",
    2: "GPU not supported",
    3: "IOH topology not supported",
    4: "disabled by regkey",
    5: "not supported",
    6: "unknown",
}
# nvmlGpuTopologyLevel_t (nvml.h) -> the names nvidia-smi topo -m uses.
TOPOLOGY_LEVEL = {
    0: "internal", 10: "single PCIe switch", 20: "multiple PCIe switches",
    30: "host bridge", 40: "NUMA node", 50: "system (across CPUs)",
}

# NVML error values (nvml.h) this module treats specially.
ERR_NOT_SUPPORTED = 3
ERR_INVALID_ARGUMENT = 2
ERR_GPU_IS_LOST = 15


def _text(value: Any) -> Any:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def _err_text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not end the probe
        text = ""
    return text or type(exc).__name__


class _Reader:
    """Calls NVML functions, recording each failure under its field name."""

    def __init__(self, nvml: Any):
        self.nvml = nvml
        self.errors: dict[str, str] = {}
        self.lost = False

    def __call__(self, field: str, fn_name: str, *args: Any) -> Any:
        if self.lost:
            self.errors[field] = "skipped: GPU is lost"
            return None
        try:
            return getattr(self.nvml, fn_name)(*args)
        except Exception as exc:  # NVMLError or anything odd from the binding
            self.errors[field] = _err_text(exc)
            if getattr(exc, "value", None) == ERR_GPU_IS_LOST:
                self.lost = True
            return None


def _query_links(nvml: Any, handle: Any) -> tuple[list[dict], str | None]:
    links: list[dict] = []
    for link in range(int(getattr(nvml, "NVML_NVLINK_MAX_LINKS", NVLINK_MAX_LINKS))):
        try:
            active = nvml.nvmlDeviceGetNvLinkState(handle, link)
        except Exception as exc:
            # Not Supported on link 0 = no NVLink; Invalid Argument = past the last link.
            if getattr(exc, "value", None) in (ERR_NOT_SUPPORTED, ERR_INVALID_ARGUMENT):
                return links, None if links else "Not Supported"
            return links, _err_text(exc)
        remote = None
        if active:
            try:
                remote = _text(nvml.nvmlDeviceGetNvLinkRemotePciInfo(handle, link).busId)
            except Exception:
                remote = None
        links.append({"link": link, "active": int(bool(active)), "remote_bus_id": remote})
    return links, None


def _query_device(nvml: Any, index: int) -> tuple[dict, Any]:
    read = _Reader(nvml)
    handle = read("handle", "nvmlDeviceGetHandleByIndex", index)
    dev: dict[str, Any] = {"index": index}
    if handle is None:
        dev["errors"] = read.errors
        return dev, None
    dev["name"] = _text(read("name", "nvmlDeviceGetName", handle))
    dev["uuid"] = _text(read("uuid", "nvmlDeviceGetUUID", handle))
    pci = read("pci", "nvmlDeviceGetPciInfo", handle)
    if pci is not None:
        dev["pci_bus_id"] = _text(pci.busId)
        dev["pci_device_id"] = int(pci.pciDeviceId)
    mem = read("memory", "nvmlDeviceGetMemoryInfo", handle)
    if mem is not None:
        dev["memory_total"], dev["memory_used"], dev["memory_free"] = int(mem.total), int(mem.used), int(mem.free)
    cc = read("compute_capability", "nvmlDeviceGetCudaComputeCapability", handle)
    dev["compute_capability"] = list(cc) if cc is not None else None
    for field, fn in (
        ("pcie_gen_current", "nvmlDeviceGetCurrPcieLinkGeneration"),
        ("pcie_gen_max", "nvmlDeviceGetMaxPcieLinkGeneration"),
        ("pcie_gen_gpu_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration"),
        ("pcie_width_current", "nvmlDeviceGetCurrPcieLinkWidth"),
        ("pcie_width_max", "nvmlDeviceGetMaxPcieLinkWidth"),
        ("power_limit_mw", "nvmlDeviceGetPowerManagementLimit"),
        ("power_default_limit_mw", "nvmlDeviceGetPowerManagementDefaultLimit"),
        ("display_active", "nvmlDeviceGetDisplayActive"),
        ("display_mode", "nvmlDeviceGetDisplayMode"),
    ):
        dev[field] = read(field, fn, handle)
    constraints = read("power_constraints_mw", "nvmlDeviceGetPowerManagementLimitConstraints", handle)
    dev["power_constraints_mw"] = list(constraints) if constraints is not None else None
    procs = read("graphics_processes", "nvmlDeviceGetGraphicsRunningProcesses", handle)
    if procs is not None:
        dev["graphics_processes"] = [
            {"pid": getattr(p, "pid", None), "used_memory_bytes": getattr(p, "usedGpuMemory", None)}
            for p in procs
        ]
    mig = read("mig_mode", "nvmlDeviceGetMigMode", handle)
    dev["mig_mode"] = list(mig) if mig is not None else None
    if not read.lost:
        dev["nvlinks"], link_error = _query_links(nvml, handle)
        if link_error:
            dev["nvlink_error"] = link_error
    dev["errors"] = read.errors
    return dev, (None if read.lost else handle)


def _query_pair(nvml: Any, a: int, ha: Any, b: int, hb: Any) -> dict:
    read = _Reader(nvml)
    pair = {
        "a": a,
        "b": b,
        "p2p_read": read("p2p_read", "nvmlDeviceGetP2PStatus", ha, hb, P2P_CAPS_INDEX_READ),
        "topology": read("topology", "nvmlDeviceGetTopologyCommonAncestor", ha, hb),
    }
    pair["errors"] = read.errors
    return pair


def query_nvml(nvml: Any = None) -> dict:
    """Ask NVML about every GPU. Raises the NVMLError of ``nvmlInit`` (the caller classifies it);
    any later failure is recorded in the dict and the query goes on."""
    if nvml is None:
        import pynvml as nvml
    nvml.nvmlInit()
    try:
        top = _Reader(nvml)
        raw: dict[str, Any] = {
            "driver_version": _text(top("driver_version", "nvmlSystemGetDriverVersion")),
            "cuda_driver_version": top("cuda_driver_version", "nvmlSystemGetCudaDriverVersion"),
        }
        count = top("device_count", "nvmlDeviceGetCount")
        devices, handles = [], []
        for index in range(count or 0):
            dev, handle = _query_device(nvml, index)
            devices.append(dev)
            handles.append(handle)
        pairs = [
            _query_pair(nvml, a, handles[a], b, handles[b])
            for a in range(len(handles))
            for b in range(a + 1, len(handles))
            if handles[a] is not None and handles[b] is not None
        ]
        raw.update(device_count=count, devices=devices, pairs=pairs, errors=top.errors)
        return raw
    finally:
        try:
            nvml.nvmlShutdown()
        except Exception:
            pass


# ---------------------------------------------------------------- pure half


def normalise_bus_id(bus_id: str | None) -> str | None:
    """'00000000:01:00.0' (NVML) and '0000:01:00.0' (sysfs) -> '0000:01:00.0'."""
    if not bus_id:
        return None
    text = str(bus_id).strip().lower()
    parts = text.split(":")
    if len(parts) == 3:
        parts[0] = parts[0][-4:].rjust(4, "0")
    elif len(parts) == 2:
        parts.insert(0, "0000")
    return ":".join(parts)


def split_pci_id(combined: int | str | None) -> tuple[str | None, str | None]:
    """NVML/nvidia-smi pciDeviceId 0x220410DE -> ('0x2204', '0x10de') (device, vendor)."""
    if combined is None or combined == "":
        return None, None
    value = int(combined, 16) if isinstance(combined, str) else int(combined)
    return f"0x{value >> 16:04x}", f"0x{value & 0xFFFF:04x}"


def _mw_to_w(value: Any) -> float | None:
    return None if value is None else float(value) / 1000.0


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _cuda_text(version: Any) -> str | None:
    """nvmlSystemGetCudaDriverVersion 12040 -> '12.4' (NVML_CUDA_DRIVER_VERSION_MAJOR/MINOR)."""
    if version is None:
        return None
    return f"{int(version) // 1000}.{int(version) % 1000 // 10}"


def _display_memory(procs: list[dict] | None) -> int | None:
    if procs is None:
        return None
    used = [p.get("used_memory_bytes") for p in procs]
    known = [u for u in used if isinstance(u, int)]
    return sum(known) if known or not procs else None


def parse_nvml_device(dev: dict, driver: str | None, cuda: str | None) -> DetectedGpu:
    """One device dict from :func:`query_nvml` -> DetectedGpu (pure)."""
    device_id, vendor_id = split_pci_id(dev.get("pci_device_id"))
    cc = dev.get("compute_capability")
    constraints = dev.get("power_constraints_mw")
    mig = dev.get("mig_mode")
    procs = dev.get("graphics_processes")
    errors = dict(dev.get("errors") or {})
    # A card without MIG answers Not Supported: MIG is off, not unknown.
    mig_unsupported = errors.get("mig_mode") == "Not Supported"
    if mig_unsupported:
        del errors["mig_mode"]
    if dev.get("nvlink_error") and dev["nvlink_error"] != "Not Supported":
        errors["nvlinks"] = dev["nvlink_error"]
    links = tuple(
        NvLinkState(link=lk["link"], active=bool(lk["active"]),
                    remote_pci_bus_id=normalise_bus_id(lk.get("remote_bus_id")))
        for lk in dev.get("nvlinks") or ()
    )
    if "nvlinks" not in dev:
        nvlink_supported = None
    else:
        nvlink_supported = bool(links) or (None if dev.get("nvlink_error") not in (None, "Not Supported") else False)
    return DetectedGpu(
        index=dev["index"],
        vendor="NVIDIA",
        name=dev.get("name"),
        source="nvml",
        uuid=dev.get("uuid"),
        pci_bus_id=normalise_bus_id(dev.get("pci_bus_id")),
        pci_device_id=device_id,
        pci_vendor_id=vendor_id,
        memory_total_bytes=dev.get("memory_total"),
        memory_used_bytes=dev.get("memory_used"),
        memory_free_bytes=dev.get("memory_free"),
        driver_version=driver,
        cuda_driver_version=cuda,
        compute_capability=f"{cc[0]}.{cc[1]}" if cc else None,
        pcie_gen_current=dev.get("pcie_gen_current"),
        pcie_gen_max=dev.get("pcie_gen_max"),
        pcie_gen_gpu_max=dev.get("pcie_gen_gpu_max"),
        pcie_width_current=dev.get("pcie_width_current"),
        pcie_width_max=dev.get("pcie_width_max"),
        power_limit_w=_mw_to_w(dev.get("power_limit_mw")),
        power_default_limit_w=_mw_to_w(dev.get("power_default_limit_mw")),
        power_max_limit_w=_mw_to_w(constraints[1]) if constraints else None,
        display_active=_flag(dev.get("display_active")),
        display_connected=_flag(dev.get("display_mode")),
        display_memory_bytes=_display_memory(procs),
        graphics_processes=None if procs is None else len(procs),
        mig_enabled=False if mig_unsupported else (None if not mig else bool(mig[0])),
        nvlinks=links,
        nvlink_supported=nvlink_supported,
        unread=tuple(UnreadField(field=k, reason=v) for k, v in sorted(errors.items())),
    )


def parse_nvml_pairs(raw: dict, gpus: tuple[DetectedGpu, ...]) -> tuple[GpuPair, ...]:
    by_bus = {g.pci_bus_id: g.index for g in gpus if g.pci_bus_id}
    pairs = []
    for p in raw.get("pairs") or ():
        a, b = p["a"], p["b"]
        linked = any(
            link.active and by_bus.get(link.remote_pci_bus_id) == other
            for me, other in ((a, b), (b, a))
            for g in gpus if g.index == me
            for link in g.nvlinks
        )
        status = p.get("p2p_read")
        level = p.get("topology")
        pairs.append(GpuPair(
            a=a, b=b,
            p2p_read=None if status is None else P2P_STATUS.get(status, f"status {status}"),
            topology=None if level is None else TOPOLOGY_LEVEL.get(level, f"level {level}"),
            nvlink=linked,
        ))
    return tuple(pairs)


def parse_nvml(raw: dict) -> tuple[tuple[DetectedGpu, ...], tuple[GpuPair, ...]]:
    """The dict from :func:`query_nvml` (or a recorded fixture) -> GPUs and pairs (pure)."""
    driver = raw.get("driver_version")
    cuda = _cuda_text(raw.get("cuda_driver_version"))
    gpus = tuple(parse_nvml_device(d, driver, cuda) for d in raw.get("devices") or ())
    return gpus, parse_nvml_pairs(raw, gpus)


# Status line per nvmlInit failure (nvml.h return codes); the app runs on in every case.
INIT_ERRORS = {
    12: "No NVIDIA driver found (NVML library not installed)",
    9: "An NVIDIA driver is installed but not loaded (NVML: Driver Not Loaded); load the module or reboot",
    4: "No permission to query the NVIDIA driver (NVML: Insufficient Permissions)",
    13: "The NVIDIA driver is older than this app's NVML binding (Function Not Found); update the driver",
    18: "NVIDIA driver and kernel module versions differ (usually after an update); reboot",
    15: "An NVIDIA GPU was lost while NVML started (GPU is lost); check the card, cabling and power",
    999: "NVML failed with an unknown error",
}


def init_error_line(exc: BaseException) -> str:
    """A one-line status for an NVML start-up failure."""
    value = getattr(exc, "value", None)
    if value in INIT_ERRORS:
        return f"NVIDIA: {INIT_ERRORS[value]}."
    return f"NVIDIA: NVML could not start ({_err_text(exc)})."
