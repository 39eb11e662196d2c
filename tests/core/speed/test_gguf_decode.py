"""llama.cpp's decode by kernel path and GPU (advisor/core/speed/gguf_decode.py): the instruction issue of its
matrix-vector kernels, the emulated ``__dp4a`` below compute capability 6.1, the host's launches without CUDA graphs;
and the dequantizing pass of a quantized prompt on Volta (gguf_paths.dequant_bytes_per_weight)."""

from dataclasses import replace

import pytest

from advisor.core.estimation.estimator import estimate
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.speed import engine_speed as es
from advisor.core.speed import gguf_decode as gd
from advisor.core.speed.engine_speed import engine_speed
from advisor.core.speed.gguf_paths import dequant_bytes_per_weight
from tests.benchmark_scripts import load_benchmark

speed_calibration = load_benchmark("speed_calibration")
speed_fidelity = load_benchmark("speed_fidelity")


def test_the_issue_rate_comes_from_the_fp32_peak_and_the_lanes_per_unit(catalog):
    g = catalog.gpus
    # 128 FP32 lanes per SM (AD102), four schedulers of 32 threads: the FP32 FMA rate in threads
    assert gd.issue_rate(g["rtx-4090"]) == pytest.approx(82.58e12 / 2)
    # 64 FP32 lanes per SM (GA100): twice as many issue slots as FP32 lanes
    assert gd.issue_rate(g["a100-80gb-sxm"]) == pytest.approx(19.5e12 / 2 * 2)
    # RDNA 3 counts dual-issued FP32 (128 lanes per CU) and issues a wave of 64 threads per CU and cycle
    assert gd.issue_rate(g["rx-7900-xtx"]) == pytest.approx(61.39e12 / 2 / 128 * 64)
    # an Apple GPU core: 128 lanes, 128 threads issued
    assert gd.issue_rate(g["apple-m1-max-64gb"]) == pytest.approx(g["apple-m1-max-64gb"].fp32_tflops * 1e12 / 2)
    assert gd.issue_rate(g["arc-a770"]) is None  # Intel: llama.cpp's kernels there are not modelled


def test_weight_classes():
    assert {gd.weight_class(w) for w in ("q2_k", "q3_k_s", "iq1_m", "iq2_xxs", "iq3_s")} == {gd.LOW_BIT}
    assert {gd.weight_class(w) for w in ("q4_0", "q4_k_m", "q5_k_s", "q6_k", "q8_0", "iq4_xs")} == {gd.FOUR_BIT_UP}
    assert gd.weight_class("f16") is gd.weight_class("bf16") is None


def test_a_p100_emulates_dp4a_and_issues_more(catalog):
    p100, p40 = catalog.gpus["tesla-p100-16gb-pcie"], catalog.gpus["tesla-p40"]
    per_rate = gd.issue_seconds(p100, "q4_0", 1e9) * gd.issue_rate(p100)
    assert per_rate == pytest.approx(1e9 * gd.ISSUE_PER_WEIGHT[gd.FOUR_BIT_UP] * gd.DP4A_EMULATED_RATIO)
    assert gd.issue_seconds(p40, "q4_0", 1e9) * gd.issue_rate(p40) == pytest.approx(1e9 * gd.ISSUE_PER_WEIGHT[gd.FOUR_BIT_UP])
    assert gd.DP4A_EMULATED_RATIO == pytest.approx(76 / 32)
    assert gd.issue_seconds(p100, "f16", 1e9) == 0.0


def test_the_host_launches_each_kernel_on_metal_and_before_volta(catalog):
    g = catalog.gpus
    assert gd.host_launched(g["apple-m2-ultra-192gb"]) and gd.host_launched(g["tesla-p40"])
    assert not any(gd.host_launched(g[i]) for i in ("v100-pcie-16gb", "rtx-2080-ti", "a100-80gb-sxm", "rx-7900-xtx"))
    assert gd.host_floor_seconds((g["tesla-p40"],), 1, 0) == gd.HOST_LAUNCHED_S_PER_LAYER > 0
    assert gd.host_floor_seconds((g["rtx-4090"],), 32, 32) == 0.0


def test_a_moe_layer_takes_the_host_longer_where_it_launches_each_kernel(catalog):
    # A MoE layer's routing and dispatch nodes (11 + (k - 1) where a dense FFN has 4) are launched one by one on Metal
    # and before Volta: its least step grows by HOST_LAUNCHED_S_PER_MOE_LAYER a MoE layer; CUDA graphs replay them.
    from advisor.core.speed.decode import _gguf_floor

    g, moe, dense = catalog.gpus, catalog.models["qwen3-30b-a3b"], catalog.models["qwen3-32b"]
    job = PlannedJob(engine="llama.cpp", weights="q4_k_m")
    assert 0.1e-3 < gd.HOST_LAUNCHED_S_PER_MOE_LAYER < 0.3e-3
    floor = _gguf_floor(moe, job, (g["tesla-p100-16gb-pcie"],))
    assert floor == pytest.approx(moe.n_layers * (gd.HOST_LAUNCHED_S_PER_LAYER + gd.HOST_LAUNCHED_S_PER_MOE_LAYER))
    assert _gguf_floor(dense, job, (g["apple-m2-max-32gb"],)) == pytest.approx(dense.n_layers * gd.HOST_LAUNCHED_S_PER_LAYER)
    assert _gguf_floor(moe, job, (g["rtx-4090"],)) == 0.0
    # Two P100s decode Qwen3-Coder-30B-A3B Q4_K_M at 57.2 tokens/s (h51a, calibration): the host binds the step
    two = estimate(moe, job.model_copy(update={"context_len": 129, "prompt_tokens": 0}),
                   gpu_build(catalog, "tesla-p100-16gb-pcie", 2)).speed.decode_tokens_per_s
    assert two == pytest.approx(57.2, rel=0.25)


def _decode(catalog, gpu, weights="q4_k_m", model="llama-3.1-8b", engine="llama.cpp"):
    arch = catalog.models[model]
    job = PlannedJob(engine=engine, weights=weights, context_len=129, prompt_tokens=0)
    return estimate(arch, job, gpu_build(catalog, gpu, 1)).speed


def test_an_a100_decodes_llama_cpp_near_an_rtx_4090_not_at_twice_it(catalog):
    # bandwidth alone put the A100 at 2x the RTX 4090 on Llama 3 8B Q4_K_M; its issue rate holds it near
    a100, rtx = _decode(catalog, "a100-80gb-sxm"), _decode(catalog, "rtx-4090")
    assert 0.8 < a100.decode_tokens_per_s / rtx.decode_tokens_per_s < 1.4
    assert any("issuing their instructions" in n for n in a100.notes)
    assert not any("issuing their instructions" in n for n in rtx.notes)
    from advisor.core.speed.results import Bottleneck

    assert a100.bottleneck is Bottleneck.COMPUTE and rtx.bottleneck is Bottleneck.MEMORY_BANDWIDTH


def test_a_p100_decodes_a_third_of_what_its_bandwidth_allows(catalog):
    p100 = _decode(catalog, "tesla-p100-16gb-pcie")
    arch = catalog.models["llama-3.1-8b"]
    mem = estimate(arch, PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=129, prompt_tokens=0),
                   gpu_build(catalog, "tesla-p100-16gb-pcie", 1)).memory.weights
    bandwidth_bound = 732.2e9 * 0.67 / mem
    assert p100.decode_tokens_per_s < bandwidth_bound / 2.5


def test_low_bit_weights_decode_slower_than_their_bytes_allow(catalog):
    # an RTX 3090 reads Q2_K's fewer bytes faster but issues more per weight
    q2, q4 = _decode(catalog, "rtx-3090", "q2_k"), _decode(catalog, "rtx-3090", "q4_k_m")
    assert q2.decode_tokens_per_s < 1.5 * q4.decode_tokens_per_s


def test_a_macs_small_model_is_held_by_the_hosts_time_per_layer(catalog):
    speed = _decode(catalog, "apple-m1-ultra-128gb", model="tinyllama-1.1b")
    floor = gd.HOST_LAUNCHED_S_PER_LAYER * catalog.models["tinyllama-1.1b"].n_layers
    assert speed.decode_tokens_per_s == pytest.approx(1 / floor, rel=0.02)


def test_other_engines_keep_their_roofline(catalog):
    vllm = _decode(catalog, "a100-80gb-sxm", weights="bf16", engine="vllm")
    assert not any("issuing their instructions" in n for n in vllm.notes)
    assert not Engine.VLLM.gguf


def test_the_decode_constants_are_the_calibration_fit(catalog):
    # One grid step either way of each constant fits llama.cpp's calibration decode rows no better (within the
    # fit's tie margin), and the rows are calibration rows only.
    rows = speed_calibration.gguf_decode_rows(speed_calibration.calibration_rows(catalog))
    assert len(rows) >= speed_calibration.MIN_ROWS
    assert all(speed_fidelity.split_of(r) == "calibration" for r in rows)
    shipped = speed_calibration.gguf_decode_values()
    base = speed_calibration.loss(rows, catalog)
    try:
        for name, grid in speed_calibration.GGUF_DECODE_GRIDS.items():
            i = grid.index(shipped[name])
            for j in (i - 1, i + 1):
                if 0 <= j < len(grid):
                    speed_calibration._set_gguf_decode({**shipped, name: grid[j]})
                    assert base <= speed_calibration.loss(rows, catalog) * (1 + speed_calibration.TIE) + 1e-9, name
    finally:
        speed_calibration._set_gguf_decode(shipped)
    assert speed_calibration.gguf_decode_values() == shipped


def test_a_quantized_prompt_on_volta_pays_its_dequantizing_pass(catalog, monkeypatch):
    v100, rtx = catalog.gpus["v100-pcie-16gb"], catalog.gpus["rtx-4090"]
    assert dequant_bytes_per_weight(v100, "q4_0") == pytest.approx(18 / 32 + 2)  # block_q4_0: 18 bytes a 32 weights
    assert dequant_bytes_per_weight(v100, "f16") == dequant_bytes_per_weight(rtx, "q4_0") == 0.0
    arch = catalog.models["qwen2.5-3b"]
    build = gpu_build(catalog, "v100-pcie-16gb", 1)
    one, eight = (PlannedJob(engine="llama.cpp", weights="q4_0", context_len=n) for n in (512, 4096))
    with_pass = [estimate(arch, j, build).speed.time_to_first_token_s for j in (one, eight)]
    from advisor.core.speed import prefill

    monkeypatch.setattr(prefill, "dequant_bytes_per_weight", lambda gpu, weights: 0.0)
    without = [estimate(arch, j, build).speed.time_to_first_token_s for j in (one, eight)]
    pass_s = 3.09e9 * (18 / 32 + 2) / (897e9 * 0.67)  # one micro-batch's pass, about: matmul weights x bytes
    assert with_pass[0] - without[0] == pytest.approx(pass_s, rel=0.15)
    assert with_pass[1] - without[1] == pytest.approx(8 * (with_pass[0] - without[0]), rel=1e-6)  # 8 micro-batches


def test_rows_of_builds_before_cuda_graphs_are_a_known_gap(catalog):
    rows = {r["id"]: r for r in speed_fidelity.load_rows()}
    old = speed_fidelity.evaluate(rows["lcpp-4812-3090ti-l7b-q4_0-tg128"], catalog)  # January 2024
    assert old.estimate is None and old.skipped.startswith("known gap: a llama.cpp build before CUDA graphs")
    p40 = speed_fidelity.evaluate(rows["lcpp-4766-p40-l7b-q4_0-tg128"], catalog)  # no graphs then or now
    assert p40.estimate is not None
    recent = speed_fidelity.evaluate(rows["lcpp-15802-3090-l8b-q4_0-ub1-pp512"], catalog)
    assert recent.estimate is not None


def test_a_moe_layer_adds_its_routing_and_dispatch_kernels_to_a_llama_cpp_step(catalog, monkeypatch):
    from advisor.core.memory.experts import moe_layers
    from advisor.core.speed.decode import fixed_kernels_seconds

    moe, dense = catalog.models["qwen3-30b-a3b"], catalog.models["qwen3-8b"]
    added = gd.MOE_DISPATCH_S_PER_LAYER * moe_layers(moe)
    llama = PlannedJob(engine="llama.cpp", weights="q4_0")
    every_layer = engine_speed(Engine.LLAMA_CPP).kernels_s_per_layer * moe.n_layers
    assert added > 0 and fixed_kernels_seconds(moe, llama) == pytest.approx(added + every_layer)
    # a dense model's FFN: the kernels its bytes already time, and only the layer's small kernels besides
    assert fixed_kernels_seconds(dense, llama) == pytest.approx(
        engine_speed(Engine.LLAMA_CPP).kernels_s_per_layer * dense.n_layers)
    # vLLM's fused MoE kernel adds no dispatch time: only its own layers' small kernels (engine_speed)
    vllm = engine_speed(Engine.VLLM).kernels_s_per_layer
    assert fixed_kernels_seconds(moe, PlannedJob(engine="vllm", weights="bf16")) == pytest.approx(vllm * moe.n_layers)
    # The same time on a fast GPU as on a slow one: it takes a larger share of the fast one's step.
    gpus = ("rtx-4090", "rtx-a6000")  # both replay CUDA graphs (a host-launched GPU: the host may bind instead)
    fast, slow = (_decode(catalog, g, "q4_0", model="qwen3-30b-a3b") for g in gpus)
    monkeypatch.setattr(gd, "MOE_DISPATCH_S_PER_LAYER", 0.0)
    fast0, slow0 = (_decode(catalog, g, "q4_0", model="qwen3-30b-a3b") for g in gpus)
    for with_, without in ((fast, fast0), (slow, slow0)):
        assert 1 / with_.decode_tokens_per_s - 1 / without.decode_tokens_per_s == pytest.approx(added, rel=0.02)
    assert fast.decode_tokens_per_s / fast0.decode_tokens_per_s < slow.decode_tokens_per_s / slow0.decode_tokens_per_s


def test_every_layer_adds_its_small_kernels_to_a_llama_cpp_step(catalog, monkeypatch):
    # A fixed time per layer, the same on a fast card as on a slow one, so that it slows a small model on a fast
    # card most: the share of the step it takes falls with the model's bytes and the card's bandwidth.
    from advisor.core.speed.decode import fixed_kernels_seconds

    per_layer = engine_speed(Engine.LLAMA_CPP).kernels_s_per_layer
    assert 0.01e-3 < per_layer < 0.1e-3  # a dozen kernels of a few microseconds each
    small, large = catalog.models["qwen2.5-3b"], catalog.models["qwen2.5-32b"]
    # vLLM's own layers take the time the fit gives its small kernels, not llama.cpp's
    assert fixed_kernels_seconds(small, PlannedJob(engine="vllm", weights="bf16")) == pytest.approx(
        engine_speed(Engine.VLLM).kernels_s_per_layer * small.n_layers)
    cases = [("rtx-5090", "qwen2.5-3b"), ("rtx-3060-12gb", "qwen2.5-3b"), ("rtx-5090", "qwen2.5-32b")]
    with_ = [_decode(catalog, g, "q4_k_m", model=m).decode_tokens_per_s for g, m in cases]
    monkeypatch.setitem(es.FITTED, Engine.LLAMA_CPP, replace(es.FITTED[Engine.LLAMA_CPP], kernels_s_per_layer=0.0))
    without = [_decode(catalog, g, "q4_k_m", model=m).decode_tokens_per_s for g, m in cases]
    for (_, m), a, b in zip(cases, with_, without):
        layers = (small if m == "qwen2.5-3b" else large).n_layers
        assert 1 / a - 1 / b == pytest.approx(per_layer * layers, rel=0.02)
    slowdown = [b / a for a, b in zip(with_, without)]
    assert slowdown[0] > slowdown[1] > 1 and slowdown[0] > slowdown[2] > 1


def test_metal_reads_the_kv_cache_once_per_query_head(catalog):
    # Llama 3.1 8B: 32 query heads over 8 KV heads; Metal's attention kernels load a KV head once per query head
    arch, g = catalog.models["llama-3.1-8b"], catalog.gpus
    job = PlannedJob(engine="ollama", weights="q4_k_m")
    assert gd.kv_reads_per_step(arch, job, (g["apple-m1-max-32gb"],)) == 4
    assert gd.kv_reads_per_step(arch, PlannedJob(engine="llama.cpp", weights="q4_k_m"), (g["apple-m1-max-32gb"],)) == 4
    assert gd.kv_reads_per_step(arch, job, (g["rtx-4090"],)) == 1  # CUDA shares a KV head's loads
    assert gd.kv_reads_per_step(arch, PlannedJob(engine="transformers", weights="bf16"),
                                (g["apple-m1-max-32gb"],)) == 1  # not a GGUF engine's kernels
    assert gd.kv_reads_per_step(catalog.models["deepseek-v3"], job, (g["apple-m1-max-32gb"],)) == 1  # MLA: no row


def test_a_quantized_kv_cache_on_cuda_is_read_once_per_query_head(catalog):
    # llama.cpp's CUDA flash attention runs its vector kernel for a q8_0 / q4_0 cache at one query column, one block
    # per query head (fattn.cu / fattn-vec.cuh at 00a2d609 / 026f95b1); a 16-bit cache goes to the MMA kernel, which
    # packs a KV head's query heads and reads it once.
    arch, g = catalog.models["qwen3-4b"], catalog.gpus  # 32 query heads over 8 KV heads, head size 128
    q8 = PlannedJob(engine="llama.cpp", weights="q6_k", kv_dtype="q8_0")
    assert gd.kv_reads_per_step(arch, q8, (g["rtx-a5000"],)) == 4
    assert gd.kv_reads_per_step(arch, q8.model_copy(update={"kv_dtype": "q4_0"}), (g["rtx-4090"],)) == 4
    assert gd.kv_reads_per_step(arch, q8.model_copy(update={"kv_dtype": "f16"}), (g["rtx-a5000"],)) == 1
    assert gd.kv_reads_per_step(arch, q8.model_copy(update={"batch": 4}), (g["rtx-a5000"],)) == 1  # may share a call
    assert gd.kv_reads_per_step(arch, q8, (g["rx-7900-xtx"],)) == 1  # HIP: the re-reads stay in the Infinity Cache
    phi3 = catalog.models["phi-3-mini"]
    assert phi3.head_dim == 96 and gd.kv_reads_per_step(phi3, q8, (g["rtx-a5000"],)) == 1  # no vector kernel for 96

    # The A5000 sweep: a q8_0 step grows about four reads of its cache over the context, an f16 one one read.
    def step_ms(kv, ctx):
        job = q8.model_copy(update={"kv_dtype": kv, "context_len": ctx, "prompt_tokens": 0})
        return 1e3 / estimate(arch, job, gpu_build(catalog, "rtx-a5000", 1)).speed.decode_tokens_per_s
    q8_growth, f16_growth = step_ms("q8_0", 32768) - step_ms("q8_0", 1024), step_ms("f16", 32768) - step_ms("f16", 1024)
    assert q8_growth == pytest.approx(f16_growth * 4 * 34 / 64, rel=0.1)


def test_a_macs_decode_slows_with_the_context_by_the_query_heads_re_reads(catalog):
    # The step's growth from 128 to 16,384 tokens generated from an empty context (a step at the middle of the
    # generation, half of each): the KV bytes read 4 times over on the M1 Max (Llama 3.1 8B's GQA), once on a CUDA
    # card; the Mac's note says why.
    arch = catalog.models["llama-3.1-8b"]

    def step_s(gpu, context):
        job = PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=context, prompt_tokens=0)
        speed = estimate(arch, job, gpu_build(catalog, gpu, 1)).speed
        return 1 / speed.decode_tokens_per_s, speed.notes

    (short, _), (long, notes) = step_s("apple-m1-max-32gb", 128), step_s("apple-m1-max-32gb", 16384)
    kv = 2 * 8 * 128 * 2 * 32 * (16384 - 128) / 2  # K and V, 8 KV heads of 128, f16, 32 layers
    bw = catalog.gpus["apple-m1-max-32gb"].mem_bandwidth_gb_per_s * 1e9 * engine_speed(Engine.LLAMA_CPP).kv_share(1)
    assert long - short == pytest.approx(4 * kv / bw, rel=0.05)
    assert any("reads the KV cache once per query head: 4 times" in n for n in notes)
    (short, _), (long, notes) = step_s("rtx-4090", 128), step_s("rtx-4090", 16384)
    bw = catalog.gpus["rtx-4090"].mem_bandwidth_gb_per_s * 1e9 * engine_speed(Engine.LLAMA_CPP).kv_share(1)
    assert long - short == pytest.approx(kv / bw, rel=0.05)
    assert not any("once per query head" in n for n in notes)
