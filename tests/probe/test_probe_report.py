"""The readable report and the JSON object for a machine with GPUs (NVML replaced by fake_nvml)."""

import json

import fake_nvml
import pynvml

from advisor.cli import main
from advisor.core.units import MIB
from advisor.probe import nvidia_smi

BUS0, BUS1 = "00000000:01:00.0", "00000000:02:00.0"


def _two_4090s(monkeypatch):
    monkeypatch.setattr(nvidia_smi.shutil, "which", lambda name: None)
    card = dict(name="NVIDIA GeForce RTX 4090", pci_id=0x268410DE, memory=(24564 * MIB, 500 * MIB, 24064 * MIB),
                cc=(8, 9), power=(300000, 450000, (150000, 600000)))
    fake_nvml.install(monkeypatch, [
        fake_nvml.rtx3090(BUS0, display=(1, 1), procs=[(42, 512 * MIB)], width=(4, 16), **card),
        fake_nvml.rtx3090(BUS1, **card),
    ], p2p=2, topology=30)


def test_text_report_with_two_4090s(monkeypatch, capsys):
    _two_4090s(monkeypatch)
    assert main(["detect"]) == 0
    out = capsys.readouterr().out
    assert "GPU 0: NVIDIA GeForce RTX 4090  [nvml]" in out
    assert "Catalog: rtx-4090 (GeForce RTX 4090), matched by PCI device id" in out  # shipped catalog
    assert "limit 300 W (default 450 W, max 600 W) - user-set cap" in out
    assert "GPU 0 <-> GPU 1: P2P GPU not supported, path host bridge, NVLink no" in out
    assert "! GPU 0 runs PCIe x4 of the card's x16" in out
    assert "! GPU 0 drives a display: 512 MiB of VRAM held by graphics processes" in out
    assert "! PCIe P2P between GPU 0 and GPU 1 is unavailable (GPU not supported)" in out
    assert "This machine as a build: 2x rtx-4090" in out
    assert "PCIe Gen 4, lanes x4/x16, P2P off, NVLink pairs: none" in out


def test_json_object_with_two_4090s(monkeypatch, capsys):
    _two_4090s(monkeypatch)
    assert main(["detect", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["gpu_id"] for m in data["matches"]] == ["rtx-4090", "rtx-4090"]
    assert data["build"]["topology"]["p2p"] is False
    assert data["build"]["gpus"] == [{"gpu_id": "rtx-4090", "count": 2}]
    kinds = [f["kind"] for f in data["findings"]]
    assert {"narrow-link", "display", "power-cap", "p2p-disabled"} <= set(kinds)
    assert data["detection"]["gpus"][0]["display_memory_bytes"] == 512 * MIB


def test_an_unknown_card_is_offered_for_the_catalog(monkeypatch, capsys):
    monkeypatch.setattr(nvidia_smi.shutil, "which", lambda name: None)
    fake_nvml.install(monkeypatch, [fake_nvml.rtx3090(BUS0, name="NVIDIA Fictional Card", pci_id=0xFFFF10DE)])
    assert main(["detect", "--json"]) == 0
    (m,) = json.loads(capsys.readouterr().out)["matches"]
    assert m["gpu_id"] is None and m["add_to_catalog"] is True
    assert m["adhoc_gpu"]["id"] == "local-nvidia-fictional-card"
    assert m["adhoc_gpu"]["notes"].startswith("read from this machine")


def test_report_survives_an_nvml_error(monkeypatch, capsys):
    monkeypatch.setattr(nvidia_smi.shutil, "which", lambda name: None)
    fake_nvml.install(monkeypatch, [], init_error=pynvml.NVMLError_NoPermission)
    assert main(["detect"]) == 0
    assert "No permission to query the NVIDIA driver" in capsys.readouterr().out


def test_apple_and_amd_machines_render(monkeypatch):
    from probe_data import text

    from advisor.core.units import GIB
    from advisor.probe import amd, apple
    from advisor.probe.checks import buyer_findings
    from advisor.probe.machine import build_this_machine
    from advisor.probe.models import DetectedHost, Detection
    from advisor.probe.text import report

    mac = Detection(host=DetectedHost(ram_total_bytes=16 * GIB),
                    gpus=apple.parse_system_profiler_json(text("system_profiler_m1.json"), 16 * GIB))
    machine = build_this_machine(mac, [])
    assert machine.build.unified_memory and machine.gpus[0].add_to_catalog
    assert machine.gpus[0].gpu.id == "local-apple-m1" and machine.gpus[0].gpu.segment == "unified-memory"
    assert machine.notes == ()  # no PCIe facts are expected from an SoC
    out = report({"detection": mac, "machine": machine, "findings": buyer_findings(mac), "catalog_problem": None})
    assert "Memory:  16.00 GiB unified; GPU work may use about 10.67 GiB by default" in out
    assert "Cores:   7 GPU cores" in out

    box = Detection(gpus=amd.parse_rocm_smi_json(text("rocm_smi_4xmi100_determined.json")))
    machine = build_this_machine(box, [])
    assert machine.build is None  # memory was not read: nothing to estimate with
    out = report({"detection": box, "machine": machine, "findings": (), "catalog_problem": "Catalog not available (x)"})
    assert out.count("memory unknown, cannot be estimated") == 4
    assert "This machine as a build: none" in out and "Catalog not available (x)" in out
