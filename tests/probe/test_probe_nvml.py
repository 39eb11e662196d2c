"""NVML: parsing the query dict (transcribed fixtures) and every failure class, with pynvml
replaced at its boundary (fake_nvml.install monkeypatches each function the probe calls)."""

import threading
import time

import fake_nvml
import pynvml
import pytest
from probe_data import load, text
from test_probe_nvidia_smi import GPU_UTILS_FIELDS

from advisor.core.units import GIB, MIB
from advisor.probe import nvidia_smi, nvml
from advisor.probe.checks import buyer_findings
from advisor.probe.gather import detect, detect_nvidia
from advisor.probe.models import Detection

BUS0, BUS1 = "00000000:01:00.0", "00000000:02:00.0"


@pytest.fixture(autouse=True)
def _no_nvidia_smi(monkeypatch):
    """This machine has no nvidia-smi; make that explicit so a developer's own does not interfere."""
    monkeypatch.setattr(nvidia_smi.shutil, "which", lambda name: None)


# ----------------------------------------------------------------- parse_nvml on fixtures


def test_two_capped_3090s_without_nvlink():
    gpus, pairs = nvml.parse_nvml(load("nvml_fields_2x3090_club-3090-178.json"))
    assert [g.pci_bus_id for g in gpus] == ["0000:09:00.0", "0000:41:00.0"]
    g = gpus[0]
    assert g.memory_total_bytes / GIB == 24.0
    assert (g.power_limit_w, g.power_default_limit_w, g.power_max_limit_w) == (280.0, 350.0, 365.0)
    assert g.power_capped is True
    assert g.cuda_driver_version == "13.2" and g.driver_version == "595.71.05"
    assert g.nvlink_supported is False and g.nvlinks == ()
    assert g.pcie_gen_current is None  # the source did not give it: unknown, not 0
    assert "pcie_gen_current" in {u.field for u in g.unread}
    (pair,) = pairs
    assert pair.topology == "system (across CPUs)" and pair.p2p_read is None and pair.nvlink is False


def test_x8_slot_and_cap_give_buyer_warnings():
    gpus, pairs = nvml.parse_nvml(load("nvml_fields_3090_x8_club-3090-642.json"))
    (g,) = gpus
    assert (g.pci_device_id, g.pci_vendor_id) == ("0x2204", "0x10de")
    kinds = {f.kind: f for f in buyer_findings(Detection(gpus=gpus, pairs=pairs))}
    assert set(kinds) == {"narrow-link", "power-cap"}
    assert "x8 of the card's x16" in kinds["narrow-link"].text and "50%" in kinds["narrow-link"].text
    assert "290 W, below the default 350 W" in kinds["power-cap"].text


def test_recorded_h100_sxm_of_the_device_machine():
    # A real NVML recording (tests/data/probe/nvml_fields_h100_sxm_device.md), not a transcription.
    gpus, pairs = nvml.parse_nvml(load("nvml_fields_h100_sxm_device.json"))
    (g,) = gpus
    assert (g.name, g.pci_device_id, g.pci_vendor_id) == ("NVIDIA H100 80GB HBM3", "0x2330", "0x10de")
    assert g.memory_total_bytes == 81559 * MIB and g.memory_used_bytes == 480 * MIB
    assert (g.driver_version, g.cuda_driver_version, g.compute_capability) == ("580.159.04", "13.0", "9.0")
    assert (g.pcie_gen_current, g.pcie_gen_max, g.pcie_width_current, g.pcie_width_max) == (5, 5, 16, 16)
    assert (g.power_limit_w, g.power_default_limit_w, g.power_max_limit_w) == (700.0, 700.0, 700.0)
    assert g.power_capped is False and g.mig_enabled is False
    assert g.nvlink_supported is False and g.nvlinks == () and pairs == ()
    assert g.unread == ()
    assert buyer_findings(Detection(gpus=gpus, pairs=pairs)) == ()


# ----------------------------------------------------------------- query through a fake pynvml


def test_nvlinked_pair_with_a_display(monkeypatch):
    links0 = [(1, BUS1), (1, BUS1), (0, ""), (0, "")]
    links1 = [(1, BUS0), (1, BUS0), (0, ""), (0, "")]
    fake_nvml.install(monkeypatch, [
        fake_nvml.rtx3090(BUS0, links=links0, display=(1, 1), procs=[(1234, 350 * MIB), (99, None)]),
        fake_nvml.rtx3090(BUS1, links=links1),
    ], p2p=0, topology=20)
    gpus, pairs, lines = detect_nvidia(5.0)
    assert lines == ["NVIDIA: 2 GPU(s) read through NVML (driver 550.54.15, CUDA 12.4)."]
    g0 = gpus[0]
    assert (g0.name, g0.compute_capability, g0.pcie_gen_current, g0.pcie_gen_max) == ("NVIDIA GeForce RTX 3090", "8.6", 1, 4)
    assert g0.active_nvlinks == 2 and len(g0.nvlinks) == 4
    assert g0.display_active and g0.display_memory_bytes == 350 * MIB and g0.graphics_processes == 2
    assert g0.mig_enabled is False and g0.unread == ()  # Not Supported = no MIG on this card
    (pair,) = pairs
    assert pair.nvlink and pair.p2p_ok and pair.topology == "multiple PCIe switches"
    kinds = [f.kind for f in buyer_findings(Detection(gpus=gpus, pairs=pairs))]
    assert kinds.count("display") == 1 and kinds.count("nvlink-partial") == 2 and kinds.count("idle-gen") == 2
    assert "narrow-link" not in kinds and "p2p-disabled" not in kinds


def test_bridge_missing_and_p2p_disabled(monkeypatch):
    fake_nvml.install(monkeypatch, [
        fake_nvml.rtx3090(BUS0, links=[(0, ""), (0, "")]),
        fake_nvml.rtx3090(BUS1, links=[(0, ""), (0, "")]),
    ], p2p=1, topology=50)
    gpus, pairs, _ = detect_nvidia(5.0)
    assert pairs[0].p2p_read == "chipset not supported" and pairs[0].p2p_ok is False
    kinds = [f.kind for f in buyer_findings(Detection(gpus=gpus, pairs=pairs))]
    assert kinds.count("nvlink-inactive") == 2 and "p2p-disabled" in kinds


def test_gpu_lost_mid_query_keeps_what_was_read(monkeypatch):
    lost = fake_nvml.rtx3090(BUS1, **{"raise": {"nvmlDeviceGetMemoryInfo": pynvml.NVMLError_GpuIsLost}})
    fake_nvml.install(monkeypatch, [fake_nvml.rtx3090(BUS0), lost])
    gpus, pairs, lines = detect_nvidia(5.0)
    g1 = gpus[1]
    assert g1.name == "NVIDIA GeForce RTX 3090" and g1.pci_bus_id == "0000:02:00.0"  # read before the loss
    assert g1.memory_total_bytes is None and g1.compute_capability is None
    reasons = {u.field: u.reason for u in g1.unread}
    assert reasons["memory"] == "GPU is lost" and reasons["compute_capability"] == "skipped: GPU is lost"
    assert pairs == ()  # no pair with a lost device
    assert any("GPU 1: the device was lost mid-query" in line for line in lines)
    assert gpus[0].memory_total_bytes == 24576 * MIB


def test_old_driver_and_unsupported_fields_are_unknown_not_fatal(monkeypatch):
    dev = fake_nvml.rtx3090(BUS0, **{"raise": {
        "nvmlDeviceGetGpuMaxPcieLinkGeneration": pynvml.NVMLError_FunctionNotFound,
        "nvmlDeviceGetDisplayActive": pynvml.NVMLError_NotSupported,
        "nvmlDeviceGetPowerManagementLimit": pynvml.NVMLError_Unknown,
    }})
    fake_nvml.install(monkeypatch, [dev])
    (g,), _, lines = detect_nvidia(5.0)
    reasons = {u.field: u.reason for u in g.unread}
    assert reasons["pcie_gen_gpu_max"] == "Function Not Found"
    assert reasons["display_active"] == "Not Supported"
    assert reasons["power_limit_mw"] == "Unknown Error"
    assert g.power_limit_w is None and g.power_capped is None and g.memory_total_bytes == 24576 * MIB
    assert any("Unknown Error" in line for line in lines)


@pytest.mark.parametrize(("error", "says"), [
    (pynvml.NVMLError_LibraryNotFound, "No NVIDIA driver found"),
    (pynvml.NVMLError_DriverNotLoaded, "installed but not loaded"),
    (pynvml.NVMLError_NoPermission, "No permission"),
    (pynvml.NVMLError_FunctionNotFound, "older than this app's NVML binding"),
    (pynvml.NVMLError_LibRmVersionMismatch, "reboot"),
    (pynvml.NVMLError_GpuIsLost, "lost"),
    (pynvml.NVMLError_Unknown, "unknown error"),
])
def test_each_init_error_is_one_status_line(monkeypatch, error, says):
    fake_nvml.install(monkeypatch, [], init_error=error)
    gpus, pairs, lines = detect_nvidia(5.0)
    assert (gpus, pairs) == ((), ())
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("NVIDIA: ")


def test_full_detect_runs_on_after_an_nvml_error(monkeypatch):
    fake_nvml.install(monkeypatch, [], init_error=pynvml.NVMLError_DriverNotLoaded)
    result = detect(5.0)
    assert result.gpus == () and result.host.ram_total_bytes
    assert any("not loaded" in line for line in result.status_lines)


def test_nvidia_smi_fallback_when_nvml_cannot_start(monkeypatch):
    fake_nvml.install(monkeypatch, [], init_error=pynvml.NVMLError_FunctionNotFound)
    monkeypatch.setattr(nvidia_smi, "run_nvidia_smi",
                        lambda timeout_s: (text("nvidia_smi_rtx2080_gpu-utils-83.csv"), tuple(GPU_UTILS_FIELDS)))
    (g,), pairs, lines = detect_nvidia(5.0)
    assert g.name == "GeForce RTX 2080" and g.source == "nvidia-smi" and pairs == ()
    assert "older than" in lines[0] and "read with nvidia-smi instead" in lines[1]


def test_a_hung_nvml_call_times_out(monkeypatch):
    release = threading.Event()
    fake_nvml.install(monkeypatch, [fake_nvml.rtx3090(BUS0)], init_block=release)
    start = time.monotonic()
    try:
        gpus, _, lines = detect_nvidia(0.3)
    finally:
        release.set()
    assert time.monotonic() - start < 2.0
    assert gpus == () and "did not answer within 0.3 s" in lines[0]


def test_bus_ids_and_pci_ids_are_normalised():
    assert nvml.normalise_bus_id("00000000:0A:00.0") == "0000:0a:00.0"
    assert nvml.normalise_bus_id("0000:0a:00.0") == "0000:0a:00.0"
    assert nvml.split_pci_id(0x268410DE) == ("0x2684", "0x10de")
    assert nvml.split_pci_id("0x268410DE") == ("0x2684", "0x10de")
