"""A GPU's backend, compute capability / gfx target and speed family (advisor.core.hardware.backend)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.backend import Backend, backend_of, cc_tuple, speed_family
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def gpus():
    return load_catalog(migrate_user_files=False).catalog.gpus


@pytest.mark.parametrize(("vendor", "backend"), [("NVIDIA", Backend.CUDA), ("AMD", Backend.ROCM),
                                                  ("Apple", Backend.METAL), ("Intel", Backend.XPU), ("Acme", None)])
def test_backend_follows_the_vendor(vendor, backend):
    assert backend_of(vendor) is backend


# NVIDIA's tables (developer.nvidia.com/cuda-gpus, /cuda-legacy-gpus) and ROCm's GPU specifications.
@pytest.mark.parametrize(("gpu_id", "family"), [
    ("tesla-p100-16gb-pcie", "NVIDIA sm_60"), ("tesla-p40", "NVIDIA sm_61"), ("v100-pcie-16gb", "NVIDIA sm_70"),
    ("t4", "NVIDIA sm_75"), ("a100-80gb-sxm", "NVIDIA sm_80"), ("rtx-3090", "NVIDIA sm_86"),
    ("a10", "NVIDIA sm_86"), ("rtx-4090", "NVIDIA sm_89"), ("h100-sxm", "NVIDIA sm_90"), ("b200", "NVIDIA sm_100"),
    ("b300", "NVIDIA sm_103"), ("rtx-5090", "NVIDIA sm_120"), ("gb10-dgx-spark", "NVIDIA sm_121"),
    ("mi50-32gb", "AMD gfx906"), ("mi250x", "AMD gfx90a"), ("mi300x", "AMD gfx942"), ("mi355x", "AMD gfx950"),
    ("rx-7900-xtx", "AMD gfx1100"), ("radeon-ai-pro-r9700", "AMD gfx1201"), ("ryzen-ai-max-plus-395", "AMD gfx1151"),
    ("apple-m2-ultra-192gb", "Apple M2"), ("apple-m4-max-128gb", "Apple M4"), ("arc-b580", "Intel Xe2"),
    ("arc-pro-b60", "Intel Xe2"), ("arc-a770", "Intel Xe"),
])
def test_shipped_cards_speed_family(gpus, gpu_id, family):
    assert gpus[gpu_id].speed_family == family


def test_every_shipped_nvidia_card_has_a_compute_capability_and_every_amd_one_a_target(gpus):
    for gpu in gpus.values():
        if gpu.backend is Backend.CUDA:
            assert gpu.cc is not None, gpu.id
        if gpu.backend is Backend.ROCM:
            assert gpu.gfx_target, gpu.id


def test_compute_capabilities_compare_as_numbers():
    assert cc_tuple("12.0") > cc_tuple("9.0") > cc_tuple("8.9") > cc_tuple("8.6")
    assert cc_tuple(None) is None


def test_a_stack_field_of_another_vendor_is_refused(gpus):
    data = gpus["rx-7900-xtx"].model_dump(mode="json")
    with pytest.raises(ValidationError, match="NVIDIA"):
        type(gpus["rx-7900-xtx"]).model_validate({**data, "compute_capability": "8.6"})
    data = gpus["rtx-3090"].model_dump(mode="json")
    with pytest.raises(ValidationError, match="AMD"):
        type(gpus["rtx-3090"]).model_validate({**data, "gfx_target": "gfx1100"})
    with pytest.raises(ValidationError):
        type(gpus["rtx-3090"]).model_validate({**data, "compute_capability": "eight"})


def test_an_unknown_vendor_falls_back_to_its_architecture():
    assert speed_family("Acme", "Quasar (Q1)", None, "") == "Acme Quasar"
    assert speed_family("NVIDIA", "Ampere", None, "") == "NVIDIA Ampere"
