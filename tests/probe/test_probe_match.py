"""Matching detected GPUs to catalog records (inline Gpu records) and the "This machine" build."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probe_data import load

from advisor.core.hardware.records import Gpu
from advisor.core.units import GIB
from advisor.probe import nvml
from advisor.probe.machine import build_this_machine
from advisor.probe.match import adhoc_gpu, match_gpu, name_key
from advisor.probe.models import NVML_DOCS_URL, DetectedGpu, DetectedHost, Detection, GpuPair

SRC = ["https://example.org/datasheet"]


def gpu(gid, name, mem, ids=(), **kw):
    return Gpu(id=gid, sources=SRC, vendor=kw.pop("vendor", "NVIDIA"), name=name, segment=kw.pop("segment", "consumer"),
               memory_gib=mem, memory_gb_marketing=kw.pop("marketing", mem), pci_device_ids=ids, **kw)


CATALOG = [
    gpu("rtx-4090", "GeForce RTX 4090", 24, ("0x2684",), pcie_lanes=16),
    gpu("rtx-3090", "GeForce RTX 3090", 24, ("0x2204",), pcie_lanes=16),
    gpu("h100-sxm", "H100 SXM 80GB", 80, ("0x2330",), segment="datacenter"),
    gpu("h100-pcie", "H100 PCIe 80GB", 80, ("0x2331",), segment="datacenter"),
    gpu("h100-nvl", "H100 NVL 94GB", 94, ("0x2321",), segment="datacenter"),
    gpu("a100-40gb-pcie", "A100 40GB PCIe", 40, segment="datacenter"),
    gpu("a100-80gb-pcie", "A100 80GB PCIe", 80, segment="datacenter"),
    gpu("quadro-rtx-6000", "Quadro RTX 6000", 24, ("0x1e30",), segment="workstation"),
    gpu("quadro-rtx-8000", "Quadro RTX 8000", 48, ("0x1e30",), segment="workstation"),
    gpu("apple-m4-max-128gb", "Apple M4 Max 40-core GPU, 128 GB (Mac Studio 2025)", 128, vendor="Apple",
        segment="unified-memory"),
    gpu("apple-m4-max-36gb", "Apple M4 Max 32-core GPU, 36 GB (Mac Studio 2025)", 36, vendor="Apple",
        segment="unified-memory"),
]


def det(name, mem_gib=None, dev=None, index=0, **kw):
    return DetectedGpu(index=index, vendor=kw.pop("vendor", "NVIDIA"), name=name, source="test",
                       memory_total_bytes=None if mem_gib is None else int(mem_gib * GIB), pci_device_id=dev, **kw)


@pytest.mark.parametrize(("name", "mem", "dev", "expected", "method"), [
    ("NVIDIA GeForce RTX 4090", 23.99, None, "rtx-4090", "name"),      # 24564 MiB for a "24 GB" card
    ("GeForce RTX 4090", 23.99, None, "rtx-4090", "name"),
    ("NVIDIA H100 80GB HBM3", 79.65, None, "h100-sxm", "name"),        # NVML's name for the SXM5 module
    ("NVIDIA H100 PCIe", 79.65, None, "h100-pcie", "name"),
    ("NVIDIA H100 NVL", 93.0, None, "h100-nvl", "name"),
    ("NVIDIA A100-PCIE-40GB", 40.0, None, "a100-40gb-pcie", "name"),   # memory picks the SKU
    ("NVIDIA A100 80GB PCIe", 79.15, None, "a100-80gb-pcie", "name"),
    ("Some new name", 23.99, "0x2684", "rtx-4090", "pci_device_id"),   # PCI id wins over the name
    ("Quadro RTX 8000", 47.5, "0x1e30", "quadro-rtx-8000", "pci_device_id"),  # shared id: memory decides
])
def test_matches(name, mem, dev, expected, method):
    m = match_gpu(det(name, mem, dev), CATALOG)
    assert (m.gpu_id, m.method) == (expected, method)
    assert m.note == ""


def test_apple_chip_is_matched_by_ram_and_cores():
    m = match_gpu(det("Apple M4 Max", 128, vendor="Apple", unified_memory=True, gpu_cores=40), CATALOG)
    assert m.gpu_id == "apple-m4-max-128gb"
    assert match_gpu(det("Apple M4 Max", 64, vendor="Apple", unified_memory=True), CATALOG).gpu_id is None


def test_a_laptop_part_is_not_its_desktop_namesake():
    assert match_gpu(det("NVIDIA GeForce RTX 4090 Laptop GPU", 16), CATALOG).gpu_id is None


def test_memory_far_from_the_catalog_is_said():
    m = match_gpu(det("NVIDIA GeForce RTX 3090", 12.0), CATALOG)
    assert m.gpu_id == "rtx-3090" and "reports 12.00 GiB" in m.note


def test_equal_candidates_are_reported_not_guessed():
    catalog = [gpu("x-a", "Card X", 24), gpu("x-b", "Card X", 24)]
    m = match_gpu(det("NVIDIA Card X", 24), catalog)
    assert m.gpu_id is None and m.candidates == ("x-a", "x-b")


def test_name_key_strips_vendor_memory_and_form():
    assert name_key("NVIDIA GeForce RTX 4090") == name_key("GeForce RTX 4090")
    assert name_key("NVIDIA A100-SXM4-80GB").form == "sxm"
    assert name_key("GeForce RTX 4080 (16GB)").core == frozenset({"rtx", "4080"})


def test_unknown_card_gets_an_adhoc_record():
    d = det("NVIDIA GeForce RTX 2080", 7979 / 1024, "0x1e87", pcie_gen_max=3, pcie_width_max=16,
            power_default_limit_w=215.0)
    g = adhoc_gpu(d)
    assert g.id == "local-nvidia-geforce-rtx-2080"
    assert [str(s) for s in g.sources] == [NVML_DOCS_URL]
    assert g.notes.startswith("read from this machine")
    assert (g.memory_gib, g.memory_gb_marketing, g.segment) == (7.79, 8.0, "consumer")
    assert (g.pcie_gen, g.pcie_lanes, g.tdp_w, g.pci_device_ids) == (3, 16, 215.0, ("0x1e87",))
    assert g.mem_bandwidth_gb_per_s is None and g.bf16_tflops_dense is None  # not read: unknown
    assert adhoc_gpu(det("NVIDIA Mystery", None)) is None


def _detection(name: str) -> Detection:
    gpus, pairs = nvml.parse_nvml(load(name))
    return Detection(host=DetectedHost(ram_total_bytes=64 * GIB, cpu_model="Intel Core i7-3770K"), gpus=gpus, pairs=pairs)


def test_this_machine_from_the_recorded_h100():
    # The NVML recording of the device machine: matched by PCI device id to the SXM part, PCIe 5 x16.
    machine = build_this_machine(_detection("nvml_fields_h100_sxm_device.json"), CATALOG)
    assert [(g.gpu_id, g.count) for g in machine.build.gpus] == [("h100-sxm", 1)]
    assert [(m.match.gpu_id, m.match.method) for m in machine.gpus] == [("h100-sxm", "pci_device_id")]
    t = machine.build.topology
    assert (t.pcie_gen, t.pcie_lanes_per_gpu, t.nvlink_pairs, t.nvswitch) == (5, (16,), (), False)


def test_this_machine_from_two_3090s():
    machine = build_this_machine(_detection("nvml_fields_2x3090_club-3090-178.json"), CATALOG)
    b = machine.build
    assert [(g.gpu_id, g.count) for g in b.gpus] == [("rtx-3090", 2)]
    assert (b.id, b.name, b.host_ram_gib, b.cpu) == ("this-machine", "This machine", 64.0, "Intel Core i7-3770K")
    t = b.topology
    assert (t.pcie_gen, t.pcie_lanes_per_gpu, t.nvlink_pairs, t.nvswitch) == (3, (16, 16), (), False)
    assert any("P2P status not read" in n for n in machine.notes)
    assert machine.resolved.gpu_count == 2 and machine.resolved.gpus[0].id == "rtx-3090"
    assert not any(e.add_to_catalog for e in machine.gpus)


def test_this_machine_topology_from_links_and_p2p():
    a = det("NVIDIA GeForce RTX 3090", 24, "0x2204", 0, pci_bus_id="0000:01:00.0", pcie_gen_max=4,
            pcie_width_current=8, nvlinks=({"link": 0, "active": True, "remote_pci_bus_id": "0000:02:00.0"},))
    b = det("NVIDIA GeForce RTX 3090", 24, "0x2204", 1, pci_bus_id="0000:02:00.0", pcie_gen_max=4,
            pcie_width_current=8, nvlinks=({"link": 0, "active": True, "remote_pci_bus_id": "0000:01:00.0"},))
    c = det("NVIDIA GeForce RTX 2080", 7.79, "0x1e87", 2, pcie_gen_max=3, pcie_width_current=4)
    pairs = (GpuPair(a=0, b=1, p2p_read="ok", nvlink=True), GpuPair(a=0, b=2, p2p_read="not supported"),
             GpuPair(a=1, b=2, p2p_read="not supported"))
    machine = build_this_machine(Detection(gpus=(a, b, c), pairs=pairs), CATALOG)
    t = machine.build.topology
    assert [(g.gpu_id, g.count) for g in machine.build.gpus] == [("rtx-3090", 2), ("local-nvidia-geforce-rtx-2080", 1)]
    assert (t.nvlink_pairs, t.p2p, t.pcie_gen, t.pcie_lanes_per_gpu) == (((0, 1),), False, 3, (8, 8, 4))
    assert machine.gpus[2].add_to_catalog and not machine.gpus[0].add_to_catalog


def test_no_gpus_no_build():
    machine = build_this_machine(Detection(), CATALOG)
    assert machine.build is None and machine.resolved is None and machine.gpus == ()


@settings(max_examples=300, deadline=None)
@given(memory_gib=st.floats(0.5, 16_384, allow_nan=False))
def test_an_adhoc_record_holds_any_memory_it_takes(memory_gib):
    """Every size an ad-hoc record takes (``ADHOC_MEMORY_GIB``) gives a valid record: 1.21 GiB (found by the hostile
    probe test) is printed as 1.2 GB, not 1 GB, which the record's own check refuses."""
    g = adhoc_gpu(det("NVIDIA Mystery", memory_gib))
    assert g is not None and 0.5 <= g.memory_gib / g.memory_gb_marketing <= 1.2


def test_small_adhoc_memory_is_printed_to_a_tenth():
    assert adhoc_gpu(det("NVIDIA Mystery", 1293858898 / 2**30)).memory_gb_marketing == 1.2
    assert adhoc_gpu(det("NVIDIA Mystery", 7979 / 1024)).memory_gb_marketing == 8.0
