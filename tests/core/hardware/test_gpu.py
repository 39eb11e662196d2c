"""A GPU record: memory as reported against the box, a Mac's memory limit, stack fields by vendor, modules."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.hardware.gpu import Gpu, NvLink
from tests.catalog_fixtures import bridged_gpu_data, gpu_data


def test_reported_memory_must_be_close_to_the_printed_size():
    assert Gpu.model_validate(gpu_data(memory_gib=22.5, memory_gb_marketing=24)).memory_gib == 22.5
    with pytest.raises(ValidationError, match="not close to memory_gb_marketing"):
        Gpu.model_validate(gpu_data(memory_gib=48, memory_gb_marketing=24))  # ratio 2.0


def test_compute_capability_and_gfx_target_belong_to_their_vendor():
    assert Gpu.model_validate(gpu_data(vendor="NVIDIA", compute_capability="8.6")).cc == (8, 6)
    with pytest.raises(ValidationError, match="not NVIDIA"):
        Gpu.model_validate(gpu_data(vendor="AMD", compute_capability="8.6"))
    with pytest.raises(ValidationError, match="not AMD"):
        Gpu.model_validate(gpu_data(vendor="NVIDIA", gfx_target="gfx1100"))


def test_only_an_apple_gpu_takes_a_memory_limit():
    mac = gpu_data("m2", vendor="Apple", segment="unified-memory", gpu_memory_limit_gib=150,
                   memory_gib=192, memory_gb_marketing=192)
    assert Gpu.model_validate(mac).gpu_memory_limit_gib == 150
    with pytest.raises(ValidationError, match="not an Apple GPU"):
        Gpu.model_validate(gpu_data(gpu_memory_limit_gib=20))


@pytest.mark.parametrize(("form", "module"), [("SXM5 module (HGX H100)", True), ("OAM module (8-GPU UBB)", True),
                                               ("sxm4", True), ("PCIe dual slot", False), ("", False)])
def test_modules_are_sxm_or_oam(form, module):
    assert Gpu.model_validate(gpu_data(form_factor=form)).is_module is module


def test_the_link_names_its_board():
    nv = Gpu.model_validate(bridged_gpu_data()).nvlink
    assert nv is not None and not nv.infinity_fabric and nv.board_name == "NVSwitch"
    xgmi = NvLink(version="Infinity Fabric", total_gb_per_s_per_gpu=896, max_gpus=8)
    assert xgmi.infinity_fabric and xgmi.board_name == "Infinity Fabric"
