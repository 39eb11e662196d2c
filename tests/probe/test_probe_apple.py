"""Apple silicon: system_profiler JSON recordings and the default Metal working set."""

import pytest
from probe_data import text

from advisor.core.units import GIB, MIB
from advisor.probe import apple


# One row per published ggml_metal_init line (llama.cpp prints MiB as "MB").
@pytest.mark.parametrize(("ram_gib", "expected_mib", "source"), [
    (16, 10922.67, "https://github.com/abetlen/llama-cpp-python/issues/687"),
    (32, 21845.34, "https://github.com/ollama/ollama/issues/434"),
    (64, 49152.00, "https://github.com/ggml-org/llama.cpp/issues/1870"),
    (96, 73728.00, "https://github.com/ggml-org/llama.cpp/issues/3213"),
])
def test_default_working_set_matches_measured_recommended_max(ram_gib, expected_mib, source):
    got = apple.metal_default_working_set_bytes(ram_gib * GIB) / MIB
    assert got == pytest.approx(expected_mib, abs=0.01), source


def test_m1_with_built_in_display():
    (gpu,) = apple.parse_system_profiler_json(text("system_profiler_m1.json"), 16 * GIB)
    assert gpu.name == "Apple M1" and gpu.vendor == "Apple"
    assert gpu.gpu_cores == 7
    assert gpu.unified_memory and gpu.memory_total_bytes == 16 * GIB
    assert gpu.gpu_usable_memory_bytes == pytest.approx(16 * GIB * 2 / 3, abs=1)


def test_m3_pro_entry_with_only_a_name():
    (gpu,) = apple.parse_system_profiler_json(text("system_profiler_m3pro_system-bridge-3408.json"), None)
    assert gpu.name == "Apple M3 Pro"
    assert gpu.gpu_cores is None and gpu.memory_total_bytes is None and gpu.gpu_usable_memory_bytes is None


def test_intel_mac_gpus_are_not_taken_for_apple_silicon():
    # Key names as in the Intel Iris 6100 system_profiler output of
    # https://github.com/duanefields/VirtualKVM/issues/50 (there as XML).
    intel = '{"SPDisplaysDataType": [{"_name": "kHW_IntelIris6100Item", "sppci_model": "Intel Iris Graphics 6100"}]}'
    assert apple.parse_system_profiler_json(intel, 8 * GIB) == ()


@pytest.mark.parametrize(("out", "expected"), [
    ("17179869184\n", 17179869184), ("hw.memsize: 34359738368\n", 34359738368), ("", None)])
def test_memsize(out, expected):
    assert apple.parse_memsize(out) == expected
