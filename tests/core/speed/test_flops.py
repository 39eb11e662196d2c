"""Cards reach different shares of their tensor peak: ``flops.matmul_share``
scales an engine's compute share by the card's measured maximum achievable matmul FLOP/s (stas00/ml-engineering
compute/accelerator/README.md at 744d01e1) over a typical card's share."""

import statistics

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed import flops
from advisor.core.speed import inference as sp
from advisor.storage.catalog_store import load_catalog
from tests.core.speed.speed_fixtures import llama2_7b


@pytest.fixture(scope="module")
def gpus():
    return load_catalog().catalog.gpus


def test_table_as_published():
    # A100 SXM 271.2 of 312 TFLOP/s BF16 (86.9 %); H100 SXM 794.5 of 989 (80.3 %), FP8 1402.6 of 1979 (70.9 %);
    # H200 SXM FP8 1453.4 (73.4 %); the typical share is the median of the table's NVIDIA BF16 rows.
    t = flops.MATMUL_ACHIEVABLE_TFLOPS
    assert t[("a100-80gb-sxm", "16")] == 271.2 and t[("h100-sxm", "16")] == 794.5
    assert t[("h100-sxm", "8")] == 1402.6 and t[("h200-sxm", "8")] == 1453.4
    assert flops.TYPICAL_MATMUL_SHARE == pytest.approx(sorted([0.869, 0.838, 0.811, 0.803, 0.786, 0.776, 0.729])[3])


def test_a100_reaches_more_of_its_peak_than_hopper_fp8(gpus):
    bf16 = PlannedJob(engine="tensorrt-llm", weights="fp16")
    fp8 = PlannedJob(engine="tensorrt-llm", weights="fp8")
    assert flops.matmul_share(gpus["a100-80gb-sxm"], bf16) == pytest.approx(271.2 / 312 / 0.803)
    assert flops.matmul_share(gpus["h100-sxm"], bf16) == pytest.approx(1.0, abs=0.002)
    assert flops.matmul_share(gpus["h100-sxm"], fp8) == pytest.approx(1402.6 / 1979 / 0.803)
    assert flops.matmul_share(gpus["a100-80gb-sxm"], bf16) > 1 > flops.matmul_share(gpus["h200-sxm"], fp8)


def test_a_card_without_a_measurement_keeps_the_engines_share(gpus):
    w = PlannedJob(engine="vllm", weights="bf16")
    assert flops.matmul_share(gpus["rtx-4080"], w) == 1.0
    assert flops.matmul_share(gpus["l40s"], PlannedJob(engine="vllm", weights="fp8")) == 1.0
    # transformers runs an FP8 checkpoint's GEMMs at the BF16 rate (flops.peak_flops): the BF16 row applies
    assert flops.matmul_share(gpus["h100-sxm"], PlannedJob(engine="transformers", weights="fp8")) == pytest.approx(
        794.5 / 989 / 0.803)


def test_prefill_on_a100_scales_with_its_share(gpus):
    # A compute-bound prefill (Llama-2-7B, 8 x 2,048 prompt tokens) on one A100 SXM runs at the engine's share x
    # the card's matmul share: removing the card's measurement slows it by that factor.
    from advisor.core.hardware.catalog import gpu_build

    catalog = load_catalog().catalog
    arch, build = llama2_7b(), gpu_build(catalog, "a100-80gb-sxm", 1)
    w = PlannedJob(engine="vllm", weights="bf16", batch=8, context_len=2048)
    mem = estimate_memory(arch, w).breakdown
    with_share = sp.estimate_speed(arch, w, build, mem).prefill_tokens_per_s
    saved = dict(flops.MATMUL_ACHIEVABLE_TFLOPS)
    try:
        del flops.MATMUL_ACHIEVABLE_TFLOPS[("a100-80gb-sxm", "16")]
        without = sp.estimate_speed(arch, w, build, mem).prefill_tokens_per_s
    finally:
        flops.MATMUL_ACHIEVABLE_TFLOPS.clear()
        flops.MATMUL_ACHIEVABLE_TFLOPS.update(saved)
    assert with_share / without == pytest.approx(271.2 / 312 / 0.803, rel=0.02)


def test_consumer_and_inference_cards_as_measured(gpus):
    # zzc0721/torch-performance-test-data database.md at 9d828276: the median of each card's desktop / server rows.
    t, w = flops.MATMUL_ACHIEVABLE_TFLOPS, PlannedJob(engine="vllm", weights="bf16")
    assert t[("rtx-4090", "16")] == pytest.approx(statistics.median([162.39, 163.09, 164.81, 165.71, 170.06, 173.31]))
    assert t[("rtx-5090", "16")] == pytest.approx(statistics.median([221.65, 236.03, 240.05, 242.18]), abs=0.01)
    assert t[("t4", "16")] == statistics.median([41.91, 42.71, 41.93])  # FP16: Turing has no BF16 units
    # a power-capped inference card reaches less of its peak than a typical one ...
    assert flops.matmul_share(gpus["t4"], w) == pytest.approx(41.93 / 65.0 / 0.803)
    assert flops.matmul_share(gpus["l4"], w) == pytest.approx(70.89 / 121.0 / 0.803)
    # ... a GeForce card, boosting above its datasheet clock, its whole peak (the cap), no more
    assert t[("rtx-3090", "16")] > gpus["rtx-3090"].bf16_tflops_dense
    assert flops.matmul_share(gpus["rtx-3090"], w) == pytest.approx(1 / 0.803)
    # boards of one chip share its row
    assert t[("rtx-5060-ti-8gb", "16")] == t[("rtx-5060-ti-16gb", "16")]
    assert all(gid in gpus for gid, _ in t)


def test_a_measured_share_moves_only_the_peak_it_was_measured_at(gpus):
    # PyTorch's BF16 GEMM on a GeForce card accumulates in FP32; llama.cpp's F16 prompt GEMMs accumulate in FP16 at
    # twice that peak, under the same power limit: the measurement does not move them
    rtx3090 = gpus["rtx-3090"]
    assert flops.peak_flops(rtx3090, PlannedJob(engine="llama.cpp", weights="f16")) == pytest.approx(142e12)
    assert flops.matmul_share(rtx3090, PlannedJob(engine="llama.cpp", weights="f16")) == 1.0
    assert flops.matmul_share(rtx3090, PlannedJob(engine="vllm", weights="bf16")) == pytest.approx(1 / 0.803)


#: zzc0721/torch-performance-test-data database.md at 9d828276: each card's desktop / server rows, the BF16 column (FP16
#: on the T4, the V100 and the 2080 Ti, which have no BF16 units); one RTX 3080 row (BF16 24.94 against FP16 53.41) left
#: out by the rule, laptops, 48 GB conversions and an overclocked row not taken.
DATABASE_ROWS = {
    "t4": [41.91, 42.71, 41.93], "v100-sxm2-32gb": [94.84], "h100-pcie": [495.93], "h20": [141.86, 142.25],
    "l4": [70.89], "l40s": [269.15], "rtx-a4000": [62.78], "rtx-a6000": [123.34], "rtx-pro-6000-blackwell": [417.98],
    "rtx-pro-6000-blackwell-server": [409.42], "rtx-3070": [41.44], "rtx-3080": [64.68], "rtx-3080-ti": [76.47, 78.34],
    "rtx-3090": [76.34, 76.68, 76.58], "rtx-4060-ti-16gb": [42.65], "rtx-4060-ti-8gb": [42.65],
    "rtx-4070-super": [76.10, 73.63], "rtx-4070-ti-super": [89.36, 92.74],
    "rtx-4090": [170.06, 173.31, 162.39, 163.09, 165.71, 164.81], "rtx-5060-ti-16gb": [48.24], "rtx-5060-ti-8gb": [48.24],
    "rtx-5070": [67.19], "rtx-5070-ti": [99.06], "rtx-5080": [102.89], "rtx-5090": [236.03, 242.18, 221.65, 240.05],
}


def test_every_card_of_the_second_table_is_the_median_of_its_rows():
    for gid, rows in DATABASE_ROWS.items():
        assert flops.MATMUL_ACHIEVABLE_TFLOPS[(gid, "16")] == pytest.approx(statistics.median(rows), abs=0.0051), gid  # to the hundredth
