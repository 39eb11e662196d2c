"""Replace pynvml at its boundary: each NVML function the probe calls is monkeypatched.

A device is a dict of what the driver would answer; ``raise`` maps an NVML function name
to the pynvml exception class it should raise for that device.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pynvml

MIB = 1024**2


def rtx3090(bus: str, *, links=(), procs=(), **over) -> dict:
    """Values an RTX 3090 reports through NVML (PCI id 10de:2204, 24576 MiB, 350 W default)."""
    dev = {
        "name": "NVIDIA GeForce RTX 3090", "uuid": f"GPU-fake-{bus}", "bus": bus, "pci_id": 0x220410DE,
        "memory": (24576 * MIB, 300 * MIB, (24576 - 300) * MIB), "cc": (8, 6),
        "gen": (1, 4, 4), "width": (16, 16), "power": (350000, 350000, (100000, 365000)),
        "display": (0, 0), "procs": list(procs), "mig": None, "links": list(links), "raise": {},
    }
    dev.update(over)
    return dev


def install(monkeypatch, devices: list[dict], *, p2p: int = 0, topology: int = 20,
            driver: str = "550.54.15", cuda: int = 12040, init_error=None, init_block: threading.Event | None = None):
    def call(name, value_fn):
        _device_call(monkeypatch, devices, name, value_fn)

    def init():
        if init_block is not None:
            init_block.wait(10)
        if init_error is not None:
            raise init_error()

    monkeypatch.setattr(pynvml, "nvmlInit", init)
    monkeypatch.setattr(pynvml, "nvmlShutdown", lambda: None)
    monkeypatch.setattr(pynvml, "nvmlSystemGetDriverVersion", lambda: driver)
    monkeypatch.setattr(pynvml, "nvmlSystemGetCudaDriverVersion", lambda: cuda)
    monkeypatch.setattr(pynvml, "nvmlDeviceGetCount", lambda: len(devices))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetHandleByIndex", lambda i: i)
    call("nvmlDeviceGetName", lambda d: d["name"])
    call("nvmlDeviceGetUUID", lambda d: d["uuid"])
    call("nvmlDeviceGetPciInfo", lambda d: SimpleNamespace(busId=d["bus"].encode(), pciDeviceId=d["pci_id"]))
    call("nvmlDeviceGetMemoryInfo", lambda d: SimpleNamespace(total=d["memory"][0], used=d["memory"][1], free=d["memory"][2]))
    call("nvmlDeviceGetCudaComputeCapability", lambda d: d["cc"])
    call("nvmlDeviceGetCurrPcieLinkGeneration", lambda d: d["gen"][0])
    call("nvmlDeviceGetMaxPcieLinkGeneration", lambda d: d["gen"][1])
    call("nvmlDeviceGetGpuMaxPcieLinkGeneration", lambda d: d["gen"][2])
    call("nvmlDeviceGetCurrPcieLinkWidth", lambda d: d["width"][0])
    call("nvmlDeviceGetMaxPcieLinkWidth", lambda d: d["width"][1])
    call("nvmlDeviceGetPowerManagementLimit", lambda d: d["power"][0])
    call("nvmlDeviceGetPowerManagementDefaultLimit", lambda d: d["power"][1])
    call("nvmlDeviceGetPowerManagementLimitConstraints", lambda d: d["power"][2])
    call("nvmlDeviceGetDisplayActive", lambda d: d["display"][0])
    call("nvmlDeviceGetDisplayMode", lambda d: d["display"][1])
    call("nvmlDeviceGetGraphicsRunningProcesses",
         lambda d: [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in d["procs"]])
    call("nvmlDeviceGetMigMode", _mig)
    call("nvmlDeviceGetNvLinkState", _link_state)
    call("nvmlDeviceGetNvLinkRemotePciInfo", lambda d, link: SimpleNamespace(busId=d["links"][link][1].encode()))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetP2PStatus", lambda a, b, index: p2p)
    monkeypatch.setattr(pynvml, "nvmlDeviceGetTopologyCommonAncestor", lambda a, b: topology)


def _device_call(monkeypatch, devices: list[dict], name: str, value_fn) -> None:
    """pynvml's ``name`` answers ``value_fn(device, *args)``, or raises what the device's ``raise`` maps it to."""
    def fn(handle, *args):
        exc = devices[handle]["raise"].get(name)
        if exc is not None:
            raise exc()
        return value_fn(devices[handle], *args)
    monkeypatch.setattr(pynvml, name, fn)


def _mig(d: dict):
    if d["mig"] is None:
        raise pynvml.NVMLError_NotSupported()
    return d["mig"]


def _link_state(d: dict, link: int):
    if not d["links"]:
        raise pynvml.NVMLError_NotSupported()
    if link >= len(d["links"]):
        raise pynvml.NVMLError_InvalidArgument()
    return d["links"][link][0]
