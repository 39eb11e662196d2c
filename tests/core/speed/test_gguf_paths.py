"""llama.cpp's kernel path per backend, compute capability and weight type (advisor.core.speed.gguf_paths):
a prompt's matmuls run at that path's peak and share, not one figure for every format."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.speed import engine_speed as es
from advisor.core.speed.gguf_paths import GgufPath, dequant_bytes_per_weight, gguf_path, gguf_peak_flops
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def gpus():
    return load_catalog().catalog.gpus


@pytest.mark.parametrize(("gpu", "weights", "path"), [
    ("rtx-4090", "f16", GgufPath.CUBLAS), ("rtx-4090", "q4_k_m", GgufPath.MMQ_MMA),
    ("rtx-2080-ti", "q4_0", GgufPath.MMQ_MMA),  # Turing, CC 7.5: int8 MMA
    ("v100-pcie-16gb", "q4_0", GgufPath.CUBLAS),  # Volta: dequantized to FP16 for its tensor cores
    ("tesla-p40", "q8_0", GgufPath.MMQ_DP4A),
    ("tesla-p100-16gb-pcie", "q4_0", GgufPath.DEQUANT),  # GP100, CC 6.0: no __dp4a
    ("tesla-p100-16gb-pcie", "f16", GgufPath.CUBLAS),
    ("rx-7900-xtx", "q4_k_m", GgufPath.ROCM), ("apple-m2-ultra-192gb", "q4_0", GgufPath.METAL),
])
def test_the_path_follows_the_stack_and_the_format(gpus, gpu, weights, path):
    assert gguf_path(gpus[gpu], weights) is path


def test_each_path_runs_at_its_own_peak(gpus):
    tera = 1e12
    assert gguf_peak_flops(gpus["rtx-4090"], "f16") == pytest.approx(330.3 * tera)  # FP16 accumulate, GeForce
    assert gguf_peak_flops(gpus["rtx-4090"], "q4_k_m") == pytest.approx(660.6 * tera)  # int8 tensor rate
    assert gguf_peak_flops(gpus["rtx-3090-ti"], "q4_0") == pytest.approx(2 * 160.0 * tera)  # no int8 figure: 2x FP16
    assert gguf_peak_flops(gpus["tesla-p40"], "q4_0") == pytest.approx(4 * 11.76 * tera)  # dp4a: 4 int8 MACs a lane
    assert gguf_peak_flops(gpus["tesla-p100-16gb-pcie"], "q4_0") == pytest.approx(2 * 9.526 * tera)  # GP100: FP16 at 2x
    assert gguf_peak_flops(gpus["apple-m2-ultra-192gb"], "q4_k_m") == pytest.approx(27.2 * tera)  # FP32 pipelines


def test_a_mac_has_a_prefill_speed_and_formats_differ_on_cuda(gpus):
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build

    catalog = load_catalog().catalog
    arch = catalog.models["llama-3.1-8b"]
    mac = gpu_build(catalog, "apple-m2-ultra-192gb", 1)
    pre = estimate(arch, PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=512), mac).speed
    assert pre.prefill_tokens_per_s is not None and 800 < pre.prefill_tokens_per_s < 1600
    rtx = gpu_build(catalog, "rtx-4090", 1)
    f16 = estimate(arch, PlannedJob(engine="llama.cpp", weights="f16", context_len=512), rtx).speed.prefill_tokens_per_s
    q4 = estimate(arch, PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=512), rtx).speed.prefill_tokens_per_s
    # each format on its own kernel path with its own share of its own peak (the fitted shares decide how far apart
    # they land: within 2 % since the refit of 2026-11-28, second round)
    rtx_gpu = catalog.gpus["rtx-4090"]
    assert (gguf_path(rtx_gpu, "f16"), gguf_path(rtx_gpu, "q4_k_m")) == (GgufPath.CUBLAS, GgufPath.MMQ_MMA)
    assert f16 != pytest.approx(q4, rel=1e-3)
    # the shares are the calibration fit's (benchmarks/speed_calibration.fit_gguf_paths)
    assert es.gguf_compute_share(GgufPath.CUBLAS) == es.engine_speed(es.Engine.LLAMA_CPP).compute
    assert set(es.GGUF_PATH_COMPUTE) == {GgufPath.METAL, GgufPath.MMQ_DP4A, GgufPath.MMQ_MMA, GgufPath.ROCM,
                                       GgufPath.DEQUANT}


@pytest.mark.parametrize(("gpu_id", "weights", "path"), [
    ("mi50-16gb", "q4_0", GgufPath.MMQ_DP4A),  # gfx906: no MFMA or WMMA, MMQ with sdot4
    ("mi50-16gb", "f16", GgufPath.ROCM),  # 16-bit weights go to rocBLAS
    ("rx-7900-xtx", "q4_k_m", GgufPath.ROCM),  # gfx1100: WMMA-MMQ
    ("ryzen-ai-max-plus-395", "q4_0", GgufPath.ROCM),  # gfx1151, RDNA 3.5
    ("mi300x", "q4_k_m", GgufPath.ROCM),  # gfx942: MFMA
    ("tesla-p40", "q4_0", GgufPath.MMQ_DP4A),  # CUDA 6.1
])
def test_amd_gpus_without_matrix_units_run_a_quantized_prompt_with_dp4a(gpu_id, weights, path):
    gpu = load_catalog().catalog.gpus[gpu_id]
    assert gguf_path(gpu, weights) is path
    if path is GgufPath.MMQ_DP4A:  # four int8 multiply-adds where an FMA does one: 4x the FP32 rate
        assert gguf_peak_flops(gpu, weights) == pytest.approx(4 * gpu.fp32_tflops * 1e12)


def test_the_path_shares_are_the_calibration_fit():
    from tests.benchmark_scripts import load_benchmark

    fit = load_benchmark("speed_calibration").fit_gguf_paths(load_catalog().catalog)
    assert {path: share for path, (share, _ids) in fit.items()} == es.GGUF_PATH_COMPUTE


def test_a_tensor_split_prompt_does_not_set_a_paths_share():
    # Its time carries the GPUs' reductions of every layer: the fit of the matmuls' share leaves it out, and keeps
    # the layer-split twin of the same llama-bench run.
    from tests.benchmark_scripts import load_benchmark

    calibration = load_benchmark("speed_calibration")
    catalog = load_catalog().catalog
    rows = {r["id"]: r for r in load_benchmark("speed_fidelity").load_rows()}
    layer, tensor = rows["h68c-p100tp-llama31-8b-q8-layer-pp512"], rows["h68c-p100tp-llama31-8b-q8-tensor-pp512"]
    assert layer["url"] == tensor["url"] and tensor["parallel"] == "tp"
    assert calibration._gguf_fit_path(layer, catalog) is GgufPath.DEQUANT
    assert calibration._gguf_fit_path(tensor, catalog) is None


def test_a_p100s_quantized_prompt_runs_at_its_cuda_cores_fp16_rate_after_the_dequantizing_pass():
    # GP100 (compute capability 6.0) has no __dp4a: llama.cpp dequantizes a prompt's weights to FP16 and multiplies
    # them with cuBLAS on the CUDA cores, which run FP16 at twice their FP32 rate (CUDA C++ Programming Guide).
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.speed.gguf_paths import CUDA_CORE_FP16_PER_FP32, cuda_core_fp16_tflops

    catalog = load_catalog().catalog
    p100 = gpu_build(catalog, "tesla-p100-16gb-pcie", 1)
    assert CUDA_CORE_FP16_PER_FP32 == {(6, 0): 2}
    assert cuda_core_fp16_tflops(catalog.gpus["tesla-p100-16gb-pcie"]) == pytest.approx(2 * 9.526)
    assert cuda_core_fp16_tflops(catalog.gpus["tesla-p40"]) is None  # 6.1: FP16 at 1/64, MMQ with dp4a instead
    assert dequant_bytes_per_weight(catalog.gpus["tesla-p100-16gb-pcie"], "q8_0") == pytest.approx(8.5 / 8 + 2, rel=1e-3)
    speed = estimate(catalog.models["llama-3.1-8b"], PlannedJob(engine="llama.cpp", weights="q4_k_m"), p100).speed
    assert speed.prefill_tokens_per_s is not None and speed.decode_tokens_per_s is not None
