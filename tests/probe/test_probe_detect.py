"""detect() for real on this GPU-less machine, the PCI bus view and the host reading."""

import json

import pytest
from probe_data import load

from advisor.cli import main
from advisor.probe import detect as top_level_detect
from advisor.probe.gather import add_card_widths, driverless_lines
from advisor.probe.host import parse_cpuinfo_model, parse_pci_devices, read_host
from advisor.probe.models import DetectedGpu


def test_detect_for_real_never_raises_and_says_why_nothing_was_found():
    result = top_level_detect(timeout_s=5.0)
    assert result.elapsed_s is not None and result.elapsed_s < 6.0
    assert result.host.ram_total_bytes and result.host.cpu_threads
    if not result.gpus:  # this development machine: no GPU, no driver
        assert result.status_lines[-1].startswith("No GPU was read on this machine")
        assert any(line.startswith("NVIDIA: ") for line in result.status_lines)


def test_host_is_read():
    host = read_host()
    assert host.ram_available_bytes <= host.ram_total_bytes
    assert host.os and host.cpu_threads >= 1


@pytest.mark.parametrize(("cpuinfo", "model"), [
    ("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n", "AMD EPYC"),  # this sandbox
    ("processor\t: 0\nBogoMIPS\t: 108.00\n\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0\n", "Raspberry Pi 5 Model B Rev 1.0"),
    ("", None),
])
def test_cpu_model_from_cpuinfo(cpuinfo, model):
    assert parse_cpuinfo_model(cpuinfo) == model


def test_this_sandbox_bus_has_no_display_device():
    assert parse_pci_devices(load("pci_sysfs_this_sandbox.json")) == ()


def test_a_driverless_nvidia_card_is_reported():
    pci = parse_pci_devices(load("pci_sysfs_rtx4090_no_driver.json"))
    (dev,) = pci
    assert (dev.vendor, dev.device_id, dev.driver) == ("NVIDIA", "0x2684", None)
    (line,) = driverless_lines(pci, ())
    assert "NVIDIA: a GPU is present at 0000:01:00.0 (device 0x2684)" in line and "no driver loaded" in line


def test_a_card_read_by_a_backend_is_not_reported_as_driverless():
    pci = parse_pci_devices(load("pci_sysfs_rtx4090_no_driver.json"))
    read = DetectedGpu(index=0, vendor="NVIDIA", name="NVIDIA GeForce RTX 4090", source="nvml", pci_bus_id="0000:01:00.0")
    assert driverless_lines(pci, (read,)) == []


def test_card_width_from_sysfs_is_joined_by_bus_id():
    devices = {"0000:01:00.0": {"class": "0x030000", "vendor": "0x10de", "device": "0x2204",
                                "driver": "nvidia", "current_link_width": "8", "max_link_width": "16"}}
    pci = parse_pci_devices(devices)
    g = DetectedGpu(index=0, vendor="NVIDIA", source="nvml", pci_bus_id="0000:01:00.0", pcie_width_current=8)
    (joined,) = add_card_widths((g,), pci)
    assert joined.pcie_width_card == 16


def test_cli_report_on_this_machine(capsys):
    assert main(["detect"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Host\n") and "\nStatus\n" in out
    assert "Traceback" not in out


def test_cli_json_on_this_machine(capsys):
    assert main(["detect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"detection", "matches", "findings", "build", "cpu_part_id", "build_notes", "catalog_problem"}
    assert data["detection"]["status_lines"]
    if not data["detection"]["gpus"]:
        assert data["build"] is None and data["matches"] == []


def test_cli_bad_timeout_is_one_line(capsys):
    assert main(["detect", "--timeout", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "llm-advisor detect: error: --timeout: give seconds between 0 and 600"


def test_the_package_detect_stays_a_function_after_its_backend_module_loads():
    import advisor.probe
    import advisor.probe.gather  # noqa: F401 - loading it must not shadow advisor.probe.detect

    assert callable(advisor.probe.detect) and advisor.probe.detect.__module__ == "advisor.probe"


def test_detect_never_raises_even_if_a_backend_breaks(monkeypatch):
    import advisor.probe
    from advisor.probe import gather

    def boom():
        raise RuntimeError("psutil exploded")

    monkeypatch.setattr(gather.host, "read_host", boom)
    monkeypatch.setattr(gather, "detect_nvidia", lambda *a: (_ for _ in ()).throw(OSError("bad ioctl")))
    result = advisor.probe.detect(1.0)
    assert "Host: not read (psutil exploded)." in result.status_lines
    assert "NVIDIA: detection failed (bad ioctl)." in result.status_lines


def test_amd_tools_fall_through_to_the_next(monkeypatch):
    from probe_data import text

    from advisor.probe import amd, gather

    monkeypatch.setattr(amd, "read_amd_smi", lambda t: (None, "amd-smi failed: amdgpu driver not loaded"))
    monkeypatch.setattr(amd, "read_rocm_smi", lambda t: (text("rocm_smi_rx7900xt_marimo-9237.json"), None))
    gpus, lines = gather.detect_amd(1.0)
    assert [g.name for g in gpus] == ["Radeon RX 7900 XT"]
    assert lines == ["AMD: amd-smi failed: amdgpu driver not loaded.", "AMD: 1 GPU(s) read with rocm-smi."]


def test_a_vendor_read_without_bus_ids_is_not_called_driverless():
    pci = parse_pci_devices({"0000:01:00.0": {"class": "0x030000", "vendor": "0x10de", "device": "0x2684"},
                             "0000:02:00.0": {"class": "0x038000", "vendor": "0x1002", "device": "0x740f",
                                              "driver": "amdgpu"}})
    amd_read = DetectedGpu(index=0, vendor="AMD", name="AMD Instinct MI210", source="amd-smi")
    (line,) = driverless_lines(pci, (amd_read,))
    assert line.startswith("NVIDIA: a GPU is present at 0000:01:00.0")


def test_windows_reads_the_cpus_brand_string_from_the_registry(monkeypatch):
    import sys
    import types

    from advisor.probe import host

    opened = []

    class Key:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def open_key(root, path):
        opened.append((root, path))
        return Key()

    fake = types.SimpleNamespace(HKEY_LOCAL_MACHINE="HKLM", OpenKey=open_key,
                                 QueryValueEx=lambda key, name: ("AMD Ryzen 9 5950X 16-Core Processor  ", 1))
    monkeypatch.setitem(sys.modules, "winreg", fake)
    monkeypatch.setattr(host.platform, "system", lambda: "Windows")
    monkeypatch.setattr(host.sys, "platform", "win32")
    assert host._cpu_model() == "AMD Ryzen 9 5950X 16-Core Processor"
    assert opened == [("HKLM", r"HARDWARE\DESCRIPTION\System\CentralProcessor\0")]

    def refused(*args):
        raise PermissionError("access denied")

    monkeypatch.setitem(sys.modules, "winreg", types.SimpleNamespace(HKEY_LOCAL_MACHINE="HKLM", OpenKey=refused))
    monkeypatch.setattr(host.platform, "processor", lambda: "AMD64 Family 25 Model 33 Stepping 0, AuthenticAMD")
    assert host._cpu_model() == "AMD64 Family 25 Model 33 Stepping 0, AuthenticAMD"  # what Windows says otherwise
