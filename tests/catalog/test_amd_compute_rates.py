"""Pins the AMD compute rates the llama.cpp prompt estimate needs to their sources (each record's notes).

MI50 / MI60 (gfx906, Vega 20): AMD's launch figures and CDNA white paper (MI50: 26.5 TFLOPS FP16, 13.3 FP32, 53 TOPS
INT8 at 1,725 MHz; MI60: 29.5 / 14.7 / 58.9) — no BF16 instruction, so the 16-bit field holds the FP16 rate with
``bf16_supported`` false. Ryzen AI Max+ 395's Radeon 8060S: 40 RDNA 3.5 CUs at 2.9 GHz (TechPowerUp), counted as the
RX 7900 XTX's record counts RDNA 3 (dual-issue FP32: 128 lanes x 2; WMMA: 512 16-bit FLOPs a CU and clock).
"""

import pytest

from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def gpus():
    return load_catalog(migrate_user_files=False).catalog.gpus


def test_gfx906_rates_are_amds_with_fp16_standing_in_for_bf16(gpus):
    for gpu_id in ("mi50-16gb", "mi50-32gb"):
        g = gpus[gpu_id]
        assert (g.fp32_tflops, g.bf16_tflops_dense, g.int8_tops_dense, g.mem_bandwidth_gb_per_s) == (13.3, 26.5, 53.0, 1024.0)
        assert g.bf16_supported is False
    mi60 = gpus["mi60"]
    assert (mi60.fp32_tflops, mi60.bf16_tflops_dense, mi60.int8_tops_dense) == (14.7, 29.5, 58.9)
    assert mi60.bf16_supported is False


def test_the_8060s_rates_count_rdna3_as_the_7900_xtx_does(gpus):
    strix, xtx = gpus["ryzen-ai-max-plus-395"], gpus["rx-7900-xtx"]
    assert strix.fp32_tflops == pytest.approx(40 * 128 * 2 * 2.9e-3, abs=0.01)
    assert strix.bf16_tflops_dense == pytest.approx(40 * 512 * 2.9e-3, abs=0.01)
    assert xtx.bf16_tflops_dense == pytest.approx(96 * 512 * 2.498e-3, abs=0.1)  # the same count on RDNA 3
