"""nvidia-smi CSV parsing on a recorded output (tests/data/probe/nvidia_smi_rtx2080_gpu-utils-83.md)."""

import pytest
from probe_data import text

from advisor.core.units import MIB
from advisor.probe import nvidia_smi

# The field list of the command in the source comment (Ricks-Lab/gpu-utils#83).
GPU_UTILS_FIELDS = (
    "power.limit,power.min_limit,power.max_limit,memory.total,vbios_version,driver_version,name,"
    "gpu_uuid,power.draw,temperature.gpu,temperature.memory,clocks.current.graphics,clocks.sm,"
    "clocks.mem,utilization.gpu,utilization.memory,fan.speed,pcie.link.width.current,pstate"
).split(",")


def test_rtx2080_line_is_read_by_field_name():
    (gpu,) = nvidia_smi.parse_nvidia_smi_csv(text("nvidia_smi_rtx2080_gpu-utils-83.csv"), GPU_UTILS_FIELDS)
    assert gpu.name == "GeForce RTX 2080"
    assert gpu.uuid == "GPU-22b2c6ac-2d49-4863-197c-9c469071178a"
    assert gpu.memory_total_bytes == 7979 * MIB
    assert gpu.driver_version == "440.64"
    assert gpu.power_limit_w == 200.0 and gpu.power_max_limit_w == 292.0
    assert gpu.power_default_limit_w is None  # not asked for: unknown, not zero
    assert gpu.pcie_width_current == 8
    assert gpu.source == "nvidia-smi" and gpu.vendor == "NVIDIA"
    assert [u.field for u in gpu.unread] == ["temperature.memory"]


def test_recorded_h100_line_with_the_app_s_own_fields():
    # Recorded on the device machine (tests/data/probe/nvidia_smi_h100_sxm_device.md), driver 580.
    (gpu,) = nvidia_smi.parse_nvidia_smi_csv(text("nvidia_smi_h100_sxm_device.csv"), nvidia_smi.FIELDS)
    assert (gpu.name, gpu.pci_device_id, gpu.pci_bus_id) == ("NVIDIA H100 80GB HBM3", "0x2330", "0000:00:06.0")
    assert gpu.memory_total_bytes == 81559 * MIB and gpu.compute_capability == "9.0"
    assert (gpu.pcie_gen_max, gpu.pcie_width_max, gpu.power_limit_w) == (5, 16, 700.0)
    assert gpu.display_connected is None  # "[Requested functionality has been deprecated]": unknown
    assert gpu.mig_enabled is False and gpu.display_active is False


def test_a_line_with_the_wrong_number_of_values_is_refused():
    with pytest.raises(ValueError, match="19 fields"):
        nvidia_smi.parse_nvidia_smi_csv("200.00, 105.00\n", GPU_UTILS_FIELDS)


def test_pci_device_id_and_bus_id_are_normalised():
    fields = ("index", "name", "pci.bus_id", "pci.device_id", "memory.total", "power.limit")
    (gpu,) = nvidia_smi.parse_nvidia_smi_csv(
        "0, NVIDIA GeForce RTX 3090, 00000000:01:00.0, 0x220410DE, 24576, [Not Supported]\n", fields)
    assert (gpu.pci_device_id, gpu.pci_vendor_id, gpu.pci_bus_id) == ("0x2204", "0x10de", "0000:01:00.0")
    assert gpu.power_limit_w is None and gpu.unread[0].reason == "[Not Supported]"


def test_without_nvidia_smi_on_path_the_run_says_so(monkeypatch):
    monkeypatch.setattr(nvidia_smi.shutil, "which", lambda name: None)
    assert nvidia_smi.run_nvidia_smi() == "nvidia-smi not found"
