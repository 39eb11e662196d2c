"""AMD parsers on recorded outputs (amd-smi, two rocm-smi generations) and sysfs contents."""

import json

from probe_data import load, text

from advisor.core.units import GIB, MIB
from advisor.probe import amd


def test_rocm_smi_rx7900xt():
    (gpu,) = amd.parse_rocm_smi_json(text("rocm_smi_rx7900xt_marimo-9237.json"))
    assert gpu.name == "Radeon RX 7900 XT"
    assert gpu.pci_device_id == "0x744c"
    assert gpu.memory_total_bytes == 21458059264
    assert gpu.memory_used_bytes == 27856896
    assert gpu.memory_free_bytes == 21458059264 - 27856896
    assert round(gpu.memory_total_bytes / GIB, 2) == 19.98
    assert gpu.source == "rocm-smi" and gpu.unread == ()


def test_old_rocm_smi_cards_in_order_device_id_not_vendor_and_memory_unknown():
    gpus = amd.parse_rocm_smi_json(text("rocm_smi_4xmi100_determined.json"))
    assert [g.index for g in gpus] == [0, 1, 2, 3]
    assert [g.pci_bus_id for g in gpus] == ["0000:63:00.0", "0000:43:00.0", "0000:26:00.0", "0000:03:00.0"]
    assert {g.pci_device_id for g in gpus} == {"0x738c"}  # 'Card model' 0x1002 is the vendor
    assert all(g.name is None and g.memory_total_bytes is None for g in gpus)
    assert all(g.unread[0].field == "vram" for g in gpus)


def test_amd_smi_gpu_data_layout_mi210():
    (gpu,) = amd.parse_amd_smi_json(text("amd_smi_static_mi210.json"))
    assert gpu.name == "AMD Instinct MI210"
    assert (gpu.pci_device_id, gpu.pci_vendor_id) == ("0x740f", "0x1002")
    assert gpu.memory_total_bytes == 65520 * MIB  # amd-smi's "MB" is MiB
    assert gpu.pcie_width_max == 16
    assert gpu.power_limit_w == 300.0
    assert gpu.pci_bus_id is None  # the recording has no bdf: unknown


def test_amd_smi_older_list_layout_reads_the_same():
    items = load("amd_smi_static_mi210.json")["gpu_data"]
    assert amd.parse_amd_smi_json(json.dumps(items)) == amd.parse_amd_smi_json(text("amd_smi_static_mi210.json"))


def test_sysfs_reads_amd_cards_only():
    # File contents as the amdgpu driver exposes them, for the RX 7900 XT of the rocm-smi recording.
    cards = {
        "card0": {"vendor": "0x1002", "device": "0x744c", "mem_info_vram_total": "21458059264",
                  "mem_info_vram_used": "27856896", "current_link_width": "16", "max_link_width": "16",
                  "bus_id": "0000:03:00.0"},
        "card1": {"vendor": "0x10de", "device": "0x2204"},
    }
    (gpu,) = amd.parse_amd_sysfs(cards)
    assert (gpu.pci_device_id, gpu.memory_total_bytes, gpu.pcie_width_card) == ("0x744c", 21458059264, 16)
    assert gpu.pci_bus_id == "0000:03:00.0" and gpu.source == "sysfs"


def test_sysfs_without_vram_file_marks_it_unread():
    (gpu,) = amd.parse_amd_sysfs({"card0": {"vendor": "0x1002", "device": "0x744c"}})
    assert gpu.memory_total_bytes is None and gpu.unread[0].field == "mem_info_vram_total"


def test_sysfs_on_this_machine_finds_no_amd_card():
    assert amd.parse_amd_sysfs(amd.read_amd_sysfs()) == ()
